package crash

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
)

// snapshot is what the database holds, read after the queue drained.
type snapshot struct {
	requests      map[string][]request      // by correlation id
	registrations map[string][]registration // by correlation id
	replies       map[string]reply          // by correlation id (the load is all keeper1's)
	jobs          []job
	movements     map[int64]movement // by id (a transfer's request id)
	animals       map[string]animal  // the calves registered through the API, and the sheep
	devices       map[int64][]device // movement id → the animals it moved
	holdings      map[int64]string   // request id → its request_holdings rows' CPHs, in order, space-separated
}

type request struct {
	id                  int64
	status, user, track string
	holdings            string // as the row keeps them
}
type registration struct {
	id, status, identifier string
	async                  bool
}
type reply struct {
	status int
	body   []byte
}
type job struct {
	id          int64
	kind, state string
	payload     []byte
}
type movement struct {
	source, destination, state string
	count                      int
}

// device is one animal of a movement, and the holding the move found it on.
type device struct {
	tag, prior string
}
type animal struct {
	cph, registeredBy string
}

// load reads a snapshot with plain SELECTs, the same on both dialects.
func load(ctx context.Context, db *sql.DB) (*snapshot, error) {
	s := &snapshot{requests: map[string][]request{}, registrations: map[string][]registration{}, replies: map[string]reply{},
		movements: map[int64]movement{}, animals: map[string]animal{}, devices: map[int64][]device{}, holdings: map[int64]string{}}
	scan := func(q string, row func(*sql.Rows) error) error {
		rows, err := db.QueryContext(ctx, q)
		if err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
		defer rows.Close()
		for rows.Next() {
			if err := row(rows); err != nil {
				return fmt.Errorf("%s: %w", q, err)
			}
		}
		return rows.Err()
	}
	err := scan(`SELECT id, status, user_name, coalesce(tracking_id, ''), correlation_id, holdings FROM requests`, func(r *sql.Rows) error {
		var q request
		var corr string
		err := r.Scan(&q.id, &q.status, &q.user, &q.track, &corr, &q.holdings)
		s.requests[corr] = append(s.requests[corr], q)
		return err
	})
	if err == nil {
		err = scan(`SELECT id, status, coalesce(identifier, ''), CASE WHEN async THEN 1 ELSE 0 END, correlation_id FROM registrations`, func(r *sql.Rows) error {
			var g registration
			var corr string
			var async int
			err := r.Scan(&g.id, &g.status, &g.identifier, &async, &corr)
			g.async = async == 1
			s.registrations[corr] = append(s.registrations[corr], g)
			return err
		})
	}
	if err == nil {
		err = scan(`SELECT correlation_id, status, body FROM replies WHERE user_name = 'keeper1'`, func(r *sql.Rows) error {
			var corr string
			var p reply
			err := r.Scan(&corr, &p.status, &p.body)
			s.replies[corr] = p
			return err
		})
	}
	if err == nil {
		err = scan(`SELECT id, kind, state, payload FROM jobs`, func(r *sql.Rows) error {
			var j job
			err := r.Scan(&j.id, &j.kind, &j.state, &j.payload)
			s.jobs = append(s.jobs, j)
			return err
		})
	}
	if err == nil {
		err = scan(`SELECT id, source, destination, state, animal_count FROM movements`, func(r *sql.Rows) error {
			var id int64
			var m movement
			err := r.Scan(&id, &m.source, &m.destination, &m.state, &m.count)
			s.movements[id] = m
			return err
		})
	}
	if err == nil {
		err = scan(`SELECT movement_id, identifier, prior_cph FROM movement_devices ORDER BY movement_id, position`, func(r *sql.Rows) error {
			var id int64
			var d device
			err := r.Scan(&id, &d.tag, &d.prior)
			s.devices[id] = append(s.devices[id], d)
			return err
		})
	}
	if err == nil {
		err = scan(`SELECT request_id, cph FROM request_holdings ORDER BY request_id, cph`, func(r *sql.Rows) error {
			var id int64
			var cph string
			err := r.Scan(&id, &cph)
			s.holdings[id] = strings.TrimPrefix(s.holdings[id]+" "+cph, " ")
			return err
		})
	}
	if err == nil {
		err = scan(`SELECT identifier, cph, coalesce(registered_by, '') FROM animals
			WHERE registered_by IS NOT NULL OR identifier LIKE 'UK0130181 %' OR identifier LIKE 'UK0130182 %'`, func(r *sql.Rows) error {
			var id string
			var a animal
			err := r.Scan(&id, &a.cph, &a.registeredBy)
			s.animals[id] = a
			return err
		})
	}
	return s, err
}

// jobTarget is what a job's payload names: a request id or a registration id.
func jobTarget(j job) (requestID int64, registrationID string) {
	var p struct {
		RequestID      int64  `json:"requestId"`
		RegistrationID string `json:"registrationId"`
	}
	_ = json.Unmarshal(j.payload, &p)
	return p.RequestID, p.RegistrationID
}
