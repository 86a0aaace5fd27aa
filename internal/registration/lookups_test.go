package registration

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
)

// TestPollGate: a registration's status may be read once per retry-after
// interval, counted from the 202 and then from the last allowed poll; a
// refused poll does not move that time, and says how long to wait. Only
// the submitter (or the inspector) may read it: to anyone else it is not
// found, as an unknown id is.
func TestPollGate(t *testing.T) {
	t.Parallel()
	each(t, func(t *testing.T, b *bundle) {
		k1, k2, inspector := b.user("keeper1"), b.user("keeper2"), b.user("inspector")
		id := tag(t, "442501", 101)
		a := b.mustSubmit(k1, calf(id, tag(t, "442501", 1), "2026-06-07"), true, "", 202)
		failed := b.mustSubmit(k1, calf(tag(t, "442501", 102), "", "2026-06-07"), true, "", 202)

		pending := Status{RequestID: a.RequestID, Status: "Pending", RequestDate: "2026-06-10T11:00:00Z", UpdatedDate: "2026-06-10T11:00:00Z"}
		tooSoon := []problem{{livestock.CodePollTooSoon, "path:requestId"}}
		for _, step := range []struct {
			name    string
			advance time.Duration
			user    livestock.User
			id      string
			kind    livestock.Kind // KindInternal: allowed
			want    []problem
			wait    time.Duration
			status  Status
		}{
			{"at once", 0, k1, a.RequestID, livestock.KindTooMany, tooSoon, 5 * time.Second, Status{}},
			{"a moment early", 4999 * time.Millisecond, k1, a.RequestID, livestock.KindTooMany, tooSoon, time.Millisecond, Status{}},
			{"another keeper", time.Millisecond, k2, a.RequestID, livestock.KindNotFound, nil, 0, Status{}},
			{"unknown", 0, k1, "00000000-0000-0000-0000-000000000000", livestock.KindNotFound, nil, 0, Status{}},
			{"on time", 0, k1, a.RequestID, livestock.KindInternal, nil, 5 * time.Second, pending},
			{"again at once", 0, k1, a.RequestID, livestock.KindTooMany, tooSoon, 5 * time.Second, Status{}},
			{"the inspector, later", 5 * time.Second, inspector, a.RequestID, livestock.KindInternal, nil, 5 * time.Second, pending},
			{"the inspector again at once", 0, inspector, a.RequestID, livestock.KindInternal, nil, 5 * time.Second, pending},
			{"the submitter, after the inspector", 0, k1, a.RequestID, livestock.KindInternal, nil, 5 * time.Second, pending},
			// The id's pattern allows A-F: the same request, written in capitals.
			{"in capitals, later", 5 * time.Second, k1, strings.ToUpper(a.RequestID), livestock.KindInternal, nil, 5 * time.Second, pending},
		} {
			b.clock.Add(step.advance)
			st, wait, err := b.svc.RequestStatus(b.ctx, step.user, step.id)
			kind, got := refusal(err)
			if err == nil {
				kind = livestock.KindInternal
			}
			if kind != step.kind || !cmp.Equal(step.want, got) || wait != step.wait {
				t.Errorf("%s: %v (wait %v), want %v %v (wait %v)", step.name, err, wait, step.kind, step.want, step.wait)
			}
			if diff := cmp.Diff(step.status, st); diff != "" {
				t.Errorf("%s: status (-want +got):\n%s", step.name, diff)
			}
		}

		// Decided: Completed with the animal, or Failed with every error.
		decided := stamp(b.clock.Now())
		b.runJob()
		b.runJob()
		b.clock.Add(5 * time.Second)
		st, _, err := b.svc.RequestStatus(b.ctx, k1, a.RequestID)
		// Success and Fail are the live values; the outcome is at the top
		// level, as the live RequestStatus has it, and in result.
		links := Links{Self: "/animals/" + id}
		want := Status{RequestID: a.RequestID, Status: "Success", RequestDate: pending.RequestDate, UpdatedDate: decided,
			Identifier: id, Links: &links, Warnings: []Problem{},
			Result: Completed{Identifier: id, Links: links, Warnings: []Problem{}}}
		if diff := cmp.Diff(want, st); err != nil || diff != "" {
			t.Errorf("completed: %v, status (-want +got):\n%s", err, diff)
		}
		st, _, err = b.svc.RequestStatus(b.ctx, k1, failed.RequestID)
		f, ok := st.Result.(Failure)
		if err != nil || st.Status != "Fail" || !ok || len(f.Errors) != 1 || f.Errors[0].Code != livestock.CodeDamRequired ||
			len(st.Errors) != 1 || st.Errors[0].Detail == "" || st.Errors[0].Detail != st.Errors[0].Message || st.Title != "Validation Error" {
			t.Errorf("failed: %+v, %v", st, err)
		}
	})
}

// TestAnimal: a registered animal is read by its keeper and the inspector,
// by any printed form of its tag; to another keeper it is not found, as
// an unknown or unreadable identifier is.
func TestAnimal(t *testing.T) {
	t.Parallel()
	each(t, func(t *testing.T, b *bundle) {
		k1, k2, inspector := b.user("keeper1"), b.user("keeper2"), b.user("inspector")
		id := tag(t, "442501", 101)
		b.mustSubmit(k1, calf(id, tag(t, "442501", 1), "2026-06-07"), false, "", 200)
		spaced := id[:8] + " " + id[8:9] + " " + id[9:]
		for _, tc := range []struct {
			name       string
			user       livestock.User
			identifier string
			kind       livestock.Kind // KindInternal: found
		}{
			{"keeper", k1, id, livestock.KindInternal},
			{"keeper, spaced", k1, spaced, livestock.KindInternal},
			{"inspector", inspector, id, livestock.KindInternal},
			{"a sandbox ewe", k1, "UK0130181 00001", livestock.KindInternal},
			{"another keeper", k2, id, livestock.KindNotFound}, // as one not registered: issue 20
			{"issued, not registered", k1, tag(t, "442501", 102), livestock.KindNotFound},
			{"unreadable", k1, "nope", livestock.KindNotFound},
		} {
			a, err := b.svc.Animal(b.ctx, tc.user, tc.identifier)
			kind := livestock.ErrorKind(err)
			if err == nil {
				kind = livestock.KindInternal
			}
			if kind != tc.kind || (err == nil && a.Identifier.IsZero()) {
				t.Errorf("%s: Animal(%q) = %q, %v; want kind %v", tc.name, tc.identifier, a.Identifier, err, tc.kind)
			}
		}
	})
}
