package storetest

import (
	"context"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/drover-registry/drover/internal/store"
)

// ReplyKeys checks migration 00025 on s: a reply kept under another form
// of a UUID than the one a retry is keyed by now (uuid.Parse's, as
// internal/api keys it) is found under that key after it, for each user; a
// reply already under the key keeps it, and an id that is not a UUID
// stays as it was.
func ReplyKeys(t *testing.T, s store.Store, b Behind) {
	const (
		u1 = "5d0c2a9e-7f41-4b8a-9e3c-1a2b3c4d5e6f"
		u2 = "6e1d3b0f-8052-4c9b-8f4d-2b3c4d5e6f70"
		u3 = "7f2e4c10-9163-4dac-a05e-3c4d5e6f7081"
		u4 = "80304d21-a274-4ebd-b16f-4d5e6f708192"
		u5 = "91415e32-b385-4fce-8270-5e6f708192a3"
		u6 = "a2526f43-c496-4adf-9381-6f708192a3b4"
		// u1 with its first dash one place on: not a UUID in any form.
		moved = "5d0c2a9e7-f41-4b8a-9e3c-1a2b3c4d5e6f"
	)
	type kept struct{ user, sent string }
	all := []kept{
		{"keeper1", "{" + strings.ToUpper(u1) + "}"},
		{"keeper2", "{" + u1 + "}"},                           // the same UUID, another user's
		{"keeper1", "URN:uuid:" + u2},                         // the prefix in any case
		{"keeper1", strings.ReplaceAll(u3, "-", "")},          // no dashes
		{"keeper2", "x" + u3 + "y"},                           // uuid.Parse reads any one character either side
		{"keeper1", strings.ToUpper(u4)},                      // upper case
		{"keeper1", "x" + u5 + "y"},                           // any one character either side
		{"keeper1", "{not-a-uuid-though-thirty-eight-chars}"}, // 38 characters, no UUID
		{"keeper1", "{" + moved + "}"},
		{"keeper1", strings.ToUpper(moved)},
		{"keeper1", "é" + u6 + "é"}, // 38 characters but 40 bytes: not a UUID to Go
		{"keeper1", "urn:uuid:" + strings.Repeat("z", 36)},
		{"keeper1", strings.Repeat("g", 32)},
		{"keeper1", "ord-000123"},
	}
	// keeper2 kept u3 as the key and another form of it, and two forms of
	// u2, which want one key.
	taken := []kept{{"keeper2", u3}, {"keeper2", strings.ToUpper(u2)}, {"keeper2", "6E1D3B0F80524C9B8F4D2B3C4D5E6F70"}}
	for _, k := range append(all, taken...) {
		err := s.InTx(ctx(t), func(c context.Context, tx store.Tx) error {
			return tx.SaveReply(c, store.Reply{UserName: k.user, CorrelationID: k.sent, RequestHash: "h", Status: 201,
				Body: []byte(k.sent), CreatedAt: base, RequestID: "1"})
		})
		must(t, "SaveReply "+k.sent, err)
	}
	count := func() string {
		return b.Text(t, "SELECT CAST(count(*) AS TEXT) FROM replies WHERE user_name <> $1", "")
	}
	before := count()
	b.To(t, 24)
	b.To(t, 25)
	if after := count(); after != before {
		t.Errorf("replies after 00025: %s, before: %s", after, before)
	}
	find := func(user, key string) string {
		t.Helper()
		r, err := s.Reply(ctx(t), user, key)
		if err != nil {
			t.Errorf("Reply(%s, %s) after 00025: %v", user, key, err)
		}
		return string(r.Body)
	}
	for _, k := range all {
		key := k.sent
		if u, err := uuid.Parse(k.sent); err == nil {
			key = u.String()
		}
		want := k.sent
		if k.user == "keeper2" && key == u3 {
			want = u3 // the reply kept under the key already
		}
		if got := find(k.user, key); got != want {
			t.Errorf("the reply %s kept under %q is found under %q as %q, want %q", k.user, k.sent, key, got, want)
		}
	}
	if got := find("keeper2", u2); got != taken[1].sent && got != taken[2].sent {
		t.Errorf("keeper2's key %s holds %q, want one of its two forms", u2, got)
	} else {
		other := taken[1].sent
		if got == other {
			other = taken[2].sent
		}
		if find("keeper2", other) != other {
			t.Errorf("keeper2's other form of %s, %q, moved", u2, other)
		}
	}
	if got := find("keeper2", "x"+u3+"y"); got != "x"+u3+"y" {
		t.Errorf("keeper2's other form of %s moved: %q", u3, got)
	}
}
