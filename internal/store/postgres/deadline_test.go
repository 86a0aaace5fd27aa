package postgres_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestGroupDeadline checks that a shared transaction ends at its caller's
// deadline when the server stops answering in the middle of a statement
// (groupcommit's deadline.go), and that the store works on afterwards.
// Here the statement waits on a row lock another connection holds, which
// looks to the store as a frozen server or a partition does.
func TestGroupDeadline(t *testing.T) {
	t.Parallel()
	u := storetest.PostgresURL(t)
	s := open(t, u)
	var id int64
	err := s.InTx(t.Context(), func(c context.Context, tx store.Tx) (err error) {
		id, err = tx.InsertRequest(c, store.Request{Type: store.RequestTransfer, UserName: "keeper1",
			CorrelationID: "c-1", Content: []byte(`{}`)})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	lockRequest := func(c context.Context, tx store.Tx) error { _, err := tx.LockRequest(c, id); return err }

	conn, err := pgx.Connect(t.Context(), u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	holder, err := conn.Begin(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := holder.Exec(t.Context(), "SELECT id FROM requests WHERE id = $1 FOR UPDATE", id); err != nil {
		t.Fatal(err)
	}
	// Without the deadline InSharedTx waits as long as the lock is held.
	unlock := sync.OnceFunc(func() { _ = holder.Rollback(context.Background()) })
	time.AfterFunc(5*time.Second, unlock)

	const deadline = 300 * time.Millisecond
	c, cancel := context.WithTimeout(t.Context(), deadline)
	defer cancel()
	start := time.Now()
	err = s.InSharedTx(c, lockRequest)
	took := time.Since(start)
	if livestock.ErrorKind(err) != livestock.KindUnavailable {
		t.Errorf("InSharedTx waiting past its deadline = %v; want KindUnavailable", err)
	}
	if took > 10*deadline {
		t.Errorf("InSharedTx waiting on a lock returned after %s; its deadline was %s", took, deadline)
	}

	// Once the lock is gone the store serves as before: the connection
	// the deadline broke is not handed out again.
	unlock()
	for range 8 {
		if err := s.InSharedTx(t.Context(), lockRequest); err != nil {
			t.Errorf("InSharedTx after the deadline's group: %v", err)
		}
	}
}
