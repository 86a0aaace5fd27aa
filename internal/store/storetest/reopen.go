package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// Reopen checks that what one store wrote and acknowledged is there for
// the next store opened on the same database, as after a restart. Every
// call of open must open that same database.
func Reopen(t *testing.T, open func(t *testing.T) store.Store) {
	t.Helper()
	c := ctx(t)
	s := open(t)
	if created, err := s.Seed(c, fixture()); err != nil || !created {
		t.Fatalf("Seed = %v, %v", created, err)
	}
	key := store.SigningKey{ID: "k", Algorithm: "ES256", PrivateJWK: []byte(`{"d":"x"}`), CreatedAt: stored(base)}
	must(t, "AddSigningKey", s.AddSigningKey(c, key))
	must(t, "AddAuthCode", s.AddAuthCode(c, store.AuthCode{CodeHash: "h", ExpiresAt: base}))
	_, err := s.TakeAuthCode(c, "h", base.Add(-time.Second), next("granted"))
	must(t, "TakeAuthCode", err)
	id := enqueue(t, s, store.NewJob{Kind: "k", Payload: []byte(`{"n":1}`), RunAt: now})
	if _, err := s.RunJob(c, []string{"k"}, now, auditJob); err != nil {
		t.Fatalf("RunJob: %v", err)
	}
	must(t, "Close", s.Close())

	s = open(t)
	must(t, "Ready after reopening", s.Ready(c))
	if created, err := s.Seed(c, fixture()); err != nil || created {
		t.Errorf("Seed after reopening = %v, %v; want false, nil", created, err)
	}
	if u, err := s.UserByName(c, "keeper1"); err != nil || len(u.Holdings) != 3 {
		t.Errorf("keeper1 after reopening = %+v, %v", u, err)
	}
	keys, err := s.SigningKeys(c)
	must(t, "SigningKeys", err)
	if diff := cmp.Diff([]store.SigningKey{key}, keys, cmpOpts); diff != "" {
		t.Errorf("SigningKeys after reopening (-want +got):\n%s", diff)
	}
	_, err = s.TakeAuthCode(c, "h", base.Add(-time.Second), next("granted-again"))
	wantKind(t, "TakeAuthCode of a used code after reopening", err, livestock.KindNotFound)
	if j, err := Inspect(s).Job(c, id); err != nil || j.State != store.JobDone || string(j.Payload) != `{"n":1}` {
		t.Errorf("job after reopening = %+v, %v; want done", j, err)
	}
	var lines []store.AuditEntry
	must(t, "InTx", s.InTx(c, func(c context.Context, tx store.Tx) (err error) {
		lines, err = AuditEntries(c, tx, fmt.Sprintf("job:%d", id))
		return err
	}))
	if len(lines) != 1 {
		t.Errorf("audit after reopening = %+v; want the job's line", lines)
	}
}
