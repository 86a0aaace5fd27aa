package sqldb_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestLockRequests locks three requests ahead in a group's optimistic
// pass (two calls queued behind held committers): another transaction
// waits for each, LockRequest answers as a fresh read would, also after
// the pass changed one, and an id that names no request is still not
// found.
func TestLockRequests(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, st store.Store) {
		s, ctx := unwrap(t, st), t.Context()
		ids := make([]int64, 3)
		fresh := map[int64]store.Request{}
		err := s.InTx(ctx, func(ctx context.Context, tx store.Tx) (err error) {
			for i := range ids {
				r := store.Request{Type: store.RequestTransfer, UserName: "keeper1", CorrelationID: "c",
					Holdings: []livestock.CPH{livestock.MustCPH("01/100/0001")}, Content: []byte(`{}`)}
				if ids[i], err = tx.InsertRequest(ctx, r); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			if fresh[id], err = s.Request(ctx, id); err != nil {
				t.Fatal(err)
			}
		}
		none := ids[2] + 1_000_000
		releases := holdAll(t, s)
		locked, release := make(chan struct{}), make(chan struct{})
		pass := make(chan error, 2)
		go func() {
			pass <- s.InSharedTx(ctx, func(ctx context.Context, tx store.Tx) error {
				if err := tx.LockRequests(ctx, append([]int64{none}, ids...)); err != nil {
					return err
				}
				close(locked)
				<-release
				for _, id := range ids {
					r, err := tx.LockRequest(ctx, id)
					if err != nil {
						return err
					}
					if diff := cmp.Diff(fresh[id], r); diff != "" {
						t.Errorf("request %d locked ahead differs from a fresh read (-fresh +locked):\n%s", id, diff)
					}
					r.Content[0] = 'x' // what a caller does to its copy changes nothing kept
				}
				r, err := tx.LockRequest(ctx, ids[1])
				if err != nil {
					return err
				}
				r.Status, r.UpdatedDate = store.StatusSuccess, r.UpdatedDate.Add(time.Hour)
				if err := tx.UpdateRequest(ctx, r); err != nil {
					return err
				}
				if r, err := tx.LockRequest(ctx, ids[1]); err != nil || r.Status != store.StatusSuccess || string(r.Content) != "{}" {
					t.Errorf("LockRequest after UpdateRequest = %s %q, %v; want Success {}", r.Status, r.Content, err)
				}
				if _, err := tx.LockRequest(ctx, none); !livestock.IsNotFound(err) {
					t.Errorf("LockRequest of no request = %v; want NotFound", err)
				}
				return nil
			})
		}()
		go func() { pass <- s.InSharedTx(ctx, func(context.Context, store.Tx) error { return nil }) }()
		waitQueued(t, s, 2)
		releases[0]() // one committer takes both calls: a pass without savepoints
		<-locked
		seen := make(chan int64, len(ids))
		other := make(chan error, 1)
		go func() {
			other <- s.InTx(ctx, func(ctx context.Context, tx store.Tx) error {
				for _, id := range ids {
					if _, err := tx.LockRequest(ctx, id); err != nil {
						return err
					}
					seen <- id
				}
				return nil
			})
		}()
		select {
		case id := <-seen:
			t.Errorf("another transaction locked request %d while the pass held it", id)
		case <-time.After(300 * time.Millisecond):
		}
		close(release)
		for range 2 {
			if err := <-pass; err != nil {
				t.Error(err)
			}
		}
		if err := <-other; err != nil {
			t.Error(err)
		}
		for _, release := range releases[1:] {
			release()
		}
	})
}
