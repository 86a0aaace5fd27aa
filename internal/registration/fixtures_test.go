package registration

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/drover-registry/drover/internal/livestock"
)

// reg is a registration body as nested maps, so that a case can set or
// delete any member by its dotted path.
type reg map[string]any

// holdingSite is a site with one holding number.
func holdingSite(cph string) map[string]any {
	return map[string]any{"identifiers": []any{map[string]any{"identifier": cph, "type": "holdingNumber"}}}
}

// calf is a birth registration, today, of a female dairy calf born on
// farm1 on born to dam.
func calf(id, dam, born string) reg {
	return reg{
		"animal": map[string]any{"identifier": id, "species": "cattle", "sex": "female", "productionType": "dairy"},
		"breed":  map[string]any{"code": "HOL"},
		"birth": map[string]any{"date": born, "year": yearOf(born), "site": holdingSite(farm1),
			"assistedBirthFlag": false, "multipleBirthsFlag": false, "embryoTransferFlag": false},
		"registration": map[string]any{"category": "birthRegistration", "date": today, "site": holdingSite(farm1),
			"identificationDate": born, "birthDam": map[string]any{"identifier": dam}},
	}
}

// other is a registration of category registration (an import, say) on
// farm1: no dam, born long ago elsewhere.
func other(id, species, sex string) reg {
	r := calf(id, "", "2025-01-15")
	r.set("animal.species", species).set("animal.sex", sex).set("breed", nil).
		set("birth.site", nil).set("registration.category", "registration").set("registration.birthDam", nil)
	return r
}

func yearOf(date string) int {
	var y int
	_, _ = fmt.Sscanf(date, "%d", &y)
	return y
}

// set sets the member at a dotted path (nil deletes it) and returns r.
func (r reg) set(path string, v any) reg {
	parts := strings.Split(path, ".")
	m := map[string]any(r)
	for _, p := range parts[:len(parts)-1] {
		next, ok := m[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[p] = next
		}
		m = next
	}
	if v == nil {
		delete(m, parts[len(parts)-1])
	} else {
		m[parts[len(parts)-1]] = v
	}
	return r
}

func (r reg) bytes(t *testing.T) []byte {
	t.Helper()
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// submit posts body as u, in sync or async mode, with a correlation id of
// the caller's when corr is set (so the answer is kept for replay), as the
// HTTP layer does: the hash covers the mode and the body.
func (b *bundle) submit(u livestock.User, body []byte, async bool, corr string) (Answer, error) {
	mode := "sync"
	if async {
		mode = "async"
	}
	sum := sha256.Sum256([]byte("POST /v1/animals " + mode + "\n" + string(body)))
	p := Posted{User: u, Body: body, Async: async, CorrelationID: corr, Replayable: corr != "",
		Hash: hex.EncodeToString(sum[:])}
	if corr == "" {
		p.CorrelationID = fmt.Sprintf("generated-%d", b.generated.Add(1))
	}
	return b.svc.Submit(b.ctx, p)
}

// mustSubmit submits and fails the test unless the answer has status want.
func (b *bundle) mustSubmit(u livestock.User, r reg, async bool, corr string, want int) Answer {
	b.t.Helper()
	a, err := b.submit(u, r.bytes(b.t), async, corr)
	if err != nil || a.Status != want {
		b.t.Fatalf("Submit = %d %s, %v; want %d", a.Status, a.Body, err, want)
	}
	return a
}

// problem is a FieldError without its message, for comparing.
type problem struct {
	Code   livestock.Code
	Source string
}

// refusal is what err says is wrong, and its kind.
func refusal(err error) (livestock.Kind, []problem) {
	var e *livestock.Error
	if !errors.As(err, &e) {
		return livestock.ErrorKind(err), nil
	}
	var out []problem
	for _, f := range e.Fields {
		out = append(out, problem{f.Code, f.Source})
	}
	return e.Kind, out
}

// rows counts what the registration service writes.
type rows struct{ Registrations, Animals, Jobs, Replies int }

func (b *bundle) rows() rows {
	b.t.Helper()
	var r rows
	for _, c := range []struct {
		table string
		n     *int
	}{{"registrations", &r.Registrations}, {"animals", &r.Animals}, {"jobs", &r.Jobs}, {"replies", &r.Replies}} {
		if err := b.db.QueryRowContext(b.ctx, "SELECT count(*) FROM "+c.table).Scan(c.n); err != nil {
			b.t.Fatalf("count %s: %v", c.table, err)
		}
	}
	return r
}

// runJob runs the one due registration job, as a worker would.
func (b *bundle) runJob() {
	b.t.Helper()
	ran, err := b.runner.RunOne(b.ctx, []string{JobKind})
	if err != nil || !ran {
		b.t.Fatalf("RunOne = %v, %v; want a job run", ran, err)
	}
}

// okStatus is the status of an accepted submission: 202 queued, 200 done.
func okStatus(async bool) int {
	if async {
		return 202
	}
	return 200
}
