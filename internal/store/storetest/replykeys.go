package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/replay"
	"github.com/drover-registry/drover/internal/store"
)

// ReplyKeysMigration checks migration 00023: answers kept under a
// correlation id as sent are found under replay.Key of it afterwards, and
// where a retry had been kept under the derived key too, one answer stays.
func ReplyKeysMigration(t *testing.T, s store.Store, b Behind) {
	b.To(t, 22)
	const upper = "7D11BDEB-A6FD-40BA-A765-347B5FFEED49"
	kept := []store.Reply{
		{UserName: "keeper1", CorrelationID: "order-77", Body: []byte(`"order"`)},
		{UserName: "keeper1", CorrelationID: upper, Body: []byte(`"upper"`)},
		{UserName: "keeper1", CorrelationID: replay.Key("lower"), Body: []byte(`"lower"`)},
		{UserName: "keeper2", CorrelationID: "twice", Body: []byte(`"as sent"`)},
		{UserName: "keeper2", CorrelationID: replay.Key("twice"), Body: []byte(`"derived"`)},
	}
	must(t, "SaveReply", s.InTx(ctx(t), func(c context.Context, tx store.Tx) error {
		for i, r := range kept {
			r.RequestHash, r.Status, r.CreatedAt, r.RequestID = "h", 201, time.Now(), fmt.Sprint(i+1)
			if err := tx.SaveReply(c, r); err != nil {
				return err
			}
		}
		return nil
	}))
	b.To(t, 23)
	for user, want := range map[[2]string]string{
		{"keeper1", "order-77"}: `"order"`, {"keeper1", upper}: `"upper"`, {"keeper1", "lower"}: `"lower"`, {"keeper2", "twice"}: `"derived"`,
	} {
		r, err := s.Reply(ctx(t), user[0], replay.Key(user[1]))
		if err != nil || string(r.Body) != want {
			t.Errorf("%s's reply to %s after 00023: %s, %v; want %s", user[0], user[1], r.Body, err, want)
		}
	}
	if n := b.Text(t, "SELECT CAST(count(*) AS TEXT) FROM replies WHERE user_name = $1", "keeper2"); n != "1" {
		t.Errorf("keeper2 has %s replies after 00023, want 1", n)
	}
}
