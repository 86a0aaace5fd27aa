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

// testReplyRetention deletes the replies older than a cut, oldest first
// and at most a batch at a time, and keeps the rest answering as before.
func testReplyRetention(t *testing.T, s store.Store) {
	c := ctx(t)
	reply := func(user, id string, at time.Time) store.Reply {
		return store.Reply{UserName: user, CorrelationID: id, RequestHash: "h-" + id, Status: 201,
			Body: []byte(`{"id":"` + id + `"}`), CreatedAt: at}
	}
	// Oldest first; the cut is base, which a store keeps to the microsecond.
	old := []store.Reply{
		reply("keeper2", "old-1", base.Add(-72*time.Hour)),
		reply("keeper1", "old-2", base.Add(-3*time.Hour)),
		reply("keeper1", "old-3", base.Add(-time.Microsecond)),
	}
	kept := []store.Reply{
		reply("keeper1", "at-cut", base), // not before the cut
		reply("keeper2", "new-1", base.Add(time.Hour)),
	}
	inTx(t, s, func(c context.Context, tx store.Tx) error {
		for _, r := range append(append([]store.Reply{}, kept...), old...) {
			if err := tx.SaveReply(c, r); err != nil {
				return err
			}
		}
		return nil
	})

	_, err := s.DeleteRepliesBefore(c, base, 0)
	wantKind(t, "DeleteRepliesBefore with limit 0", err, livestock.KindInvalid)
	for i, want := range []int{2, 1, 0} { // batches of 2 until none remain
		n, err := s.DeleteRepliesBefore(c, base, 2)
		must(t, fmt.Sprintf("DeleteRepliesBefore, batch %d", i), err)
		if n != want {
			t.Errorf("DeleteRepliesBefore, batch %d: deleted %d, want %d", i, n, want)
		}
		if i == 0 { // the limit holds, and the oldest went first
			for _, r := range old[:2] {
				_, err := s.Reply(c, r.UserName, r.CorrelationID)
				wantKind(t, "after the first batch, Reply("+r.CorrelationID+")", err, livestock.KindNotFound)
			}
			if _, err := s.Reply(c, old[2].UserName, old[2].CorrelationID); err != nil {
				t.Errorf("after the first batch, Reply(%s): %v, want it kept", old[2].CorrelationID, err)
			}
		}
	}
	for _, r := range old {
		_, err := s.Reply(c, r.UserName, r.CorrelationID)
		wantKind(t, "Reply("+r.CorrelationID+") after its retention", err, livestock.KindNotFound)
	}
	for _, want := range kept { // a kept reply still answers a retry
		want.CreatedAt = stored(want.CreatedAt)
		got, err := s.Reply(c, want.UserName, want.CorrelationID)
		if diff := cmp.Diff(want, got, cmpOpts); err != nil || diff != "" {
			t.Errorf("Reply(%s) after retention: %v (-want +got):\n%s", want.CorrelationID, err, diff)
		}
	}
	// An expired correlation id is free again: a retry is a new request.
	again := old[1]
	again.Status, again.CreatedAt = 400, base.Add(2*time.Hour)
	inTx(t, s, func(c context.Context, tx store.Tx) error { return tx.SaveReply(c, again) })
	if got, err := s.Reply(c, again.UserName, again.CorrelationID); err != nil || got.Status != 400 {
		t.Errorf("Reply of a correlation id saved again = %+v, %v; want status 400", got, err)
	}
}
