package sqldb

import (
	"context"
	"database/sql"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// AnimalsByID returns the registered animals among identifiers.
func (s *Store) AnimalsByID(ctx context.Context, identifiers []string) (found map[string]store.Animal, err error) {
	defer s.wrap(&err, "AnimalsByID")
	found = make(map[string]store.Animal, len(identifiers))
	err = s.eachOf(ctx, s.r, animalsByIDSQL, distinct(identifiers), func(rows *sql.Rows) error {
		a, err := scanTraceAnimal(rows)
		found[a.Identifier.String()] = a
		return err
	})
	return found, err
}

// AnimalsOn lists the animals on cph now, by identifier.
func (s *Store) AnimalsOn(ctx context.Context, cph livestock.CPH) (list []store.Animal, err error) {
	defer s.wrap(&err, "AnimalsOn")
	rows, err := s.r.QueryContext(ctx, animalsOnSQL, cph.String())
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		a, err := scanTraceAnimal(rows)
		if err != nil {
			return nil, err
		}
		list = append(list, a)
	}
	return list, rows.Err()
}

// BatchBalance sums the batch animals moved onto cph and off it by day.
func (s *Store) BatchBalance(ctx context.Context, cph livestock.CPH, on time.Time) (flows map[livestock.Species]store.BatchFlow, err error) {
	defer s.wrap(&err, "BatchBalance")
	flows = map[livestock.Species]store.BatchFlow{}
	for i, query := range []string{batchesInSQL, batchesOutSQL} {
		rows, err := s.r.QueryContext(ctx, query, cph.String(), date(on))
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var species livestock.Species
			var n int64
			if err := rows.Scan(speciesCol{&species}, &n); err != nil {
				rows.Close()
				return nil, err
			}
			f := flows[species]
			if i == 0 {
				f.In += int(n)
			} else {
				f.Out += int(n)
			}
			flows[species] = f
		}
		if err := rows.Close(); err != nil {
			return nil, err
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return flows, nil
}

func scanTraceAnimal(row interface{ Scan(...any) error }) (store.Animal, error) {
	var a store.Animal
	var id, cph string
	err := row.Scan(&id, speciesCol{&a.Species}, sexCol{&a.Sex}, day{&a.BirthDate}, &cph, day{&a.OnSince}, animalStateCol{&a.State}, day{&a.DeathDate})
	if err != nil {
		return store.Animal{}, err
	}
	if a.Identifier, err = storedTag(a.Species, id); err != nil {
		return store.Animal{}, err
	}
	a.CPH, err = storedCPH(cph)
	return a, err
}

const (
	deviceSpanSQL = `SELECT coalesce(min(movement_id), 0), coalesce(max(movement_id), 0) FROM movement_devices`
	pickAnimalSQL = `SELECT identifier FROM movement_devices WHERE movement_id >= $1 ORDER BY movement_id LIMIT 1`
)

// PickAnimal returns an animal of the first movement with devices at or
// after fraction r of their ids' span: two index look-ups.
func (s *Store) PickAnimal(ctx context.Context, r float64) (id string, err error) {
	defer s.wrap(&err, "PickAnimal")
	var lo, hi int64
	if err := s.r.QueryRowContext(ctx, deviceSpanSQL).Scan(&lo, &hi); err != nil {
		return "", err
	}
	if hi == 0 {
		return "", notFound("no movement carried a tagged animal")
	}
	err = s.r.QueryRowContext(ctx, pickAnimalSQL, lo+int64(r*float64(hi-lo))).Scan(&id)
	return id, err
}
