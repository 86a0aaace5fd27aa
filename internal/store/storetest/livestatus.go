package storetest

import (
	"testing"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// Behind reaches a store's database behind the store, for the migration
// tests and StoredSpecies: To migrates the schema up or down to a version,
// Text reads one text value by a query with one argument ($1), Exec runs
// one statement with its arguments ($1, …).
type Behind struct {
	To   func(t *testing.T, version int64)
	Text func(t *testing.T, query string, arg any) string
	Exec func(t *testing.T, stmt string, args ...any)
}

// LiveStatus checks migration 00009 on s: requests and registrations kept
// in the old status vocabulary (Failed, Completed, and Success with
// warnings) read back in the live one (Fail, Success, CompletedWarning),
// and going back to 00008 restores the old values. Holdings gain a name.
func LiveStatus(t *testing.T, s store.Store, b Behind) {
	warned := store.Request{Type: store.RequestTransfer, Status: store.StatusCompletedWarning, UserName: "keeper1",
		RequestDate: base, UpdatedDate: base, CorrelationID: "a",
		Warnings: []livestock.FieldError{{Code: livestock.CodeStandstill, Message: "standstill"}}}
	plain, failed, gaveUp := warned, warned, warned
	plain.Status, plain.Warnings, plain.CorrelationID = store.StatusSuccess, nil, "b"
	failed.Status, failed.CorrelationID = store.StatusFail, "c"
	failed.Errors = []livestock.FieldError{{Code: livestock.CodeDeviceUnknown, Message: "no animal"}}
	gaveUp.Status, gaveUp.CorrelationID = store.StatusQueueFail, "d"
	ids := addRequests(t, s, warned, plain, failed, gaveUp)
	done, broke := fullRegistration("0b6f3c1e-8d2a-4f57-9c1b-2e4d6a8f0c31"), fullRegistration("1b6f3c1e-8d2a-4f57-9c1b-2e4d6a8f0c31")
	done.Status = store.RegistrationCompleted
	addRegistrations(t, s, done, broke)
	_, err := s.Seed(ctx(t), store.Seed{Holdings: []livestock.Holding{{CPH: farmA, Type: livestock.HoldingProducer, Name: "Hill Farm"}}})
	must(t, "Seed", err)

	request := func(id int64) string { return b.Text(t, "SELECT status FROM requests WHERE id = $1", id) }
	registration := func(id string) string { return b.Text(t, "SELECT status FROM registrations WHERE id = $1", id) }
	check := func(when string, want []string) {
		t.Helper()
		got := []string{request(ids[0]), request(ids[1]), request(ids[2]), request(ids[3]), registration(done.ID), registration(broke.ID)}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s: stored statuses %q, want %q", when, got, want)
				return
			}
		}
	}
	check("at 00009", []string{"CompletedWarning", "Success", "Fail", "QueueFail", "Success", "Fail"})
	if name := b.Text(t, "SELECT name FROM holdings WHERE cph = $1", farmA.String()); name != "Hill Farm" {
		t.Errorf("holding name = %q, want Hill Farm", name)
	}
	b.To(t, 8)
	check("back at 00008", []string{"Success", "Success", "Failed", "Failed", "Completed", "Failed"})
	b.To(t, 9)
	check("at 00009 again", []string{"CompletedWarning", "Success", "Fail", "Fail", "Success", "Fail"})
	r, err := s.Request(ctx(t), ids[2])
	must(t, "Request", err)
	if r.Status != store.StatusFail {
		t.Errorf("Request(%d).Status = %q, want Fail", ids[2], r.Status)
	}
}
