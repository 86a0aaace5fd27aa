package registration

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// TestReplay: a retry with the caller's correlation id and the same body
// gets the first answer and registers nothing; the id with another body,
// or another mode, is V004; the ids are per user; a refused request keeps
// no answer, so its corrected retry under the same id goes through.
func TestReplay(t *testing.T) {
	t.Parallel()
	each(t, func(t *testing.T, b *bundle) {
		k1, k2 := b.user("keeper1"), b.user("keeper2")
		cow := tag(t, "442501", 1)
		syncBody, asyncBody := calf(tag(t, "442501", 101), cow, "2026-06-07").bytes(t), calf(tag(t, "442501", 102), cow, "2026-06-07").bytes(t)

		first, err := b.submit(k1, syncBody, false, "same")
		if err != nil {
			t.Fatal(err)
		}
		queued, err := b.submit(k1, asyncBody, true, "queued")
		if err != nil {
			t.Fatal(err)
		}
		before := b.rows()
		for _, tc := range []struct {
			name  string
			body  []byte
			async bool
			corr  string
			want  Answer
		}{
			// A reply keeps the status and body; a 200 body names no
			// request, whose id is found by the correlation id.
			{"sync retry", syncBody, false, "same", Answer{Status: 200, Body: first.Body, RequestID: first.RequestID, Replayed: true}},
			{"async retry", asyncBody, true, "queued", Answer{Status: 202, Body: queued.Body, RequestID: queued.RequestID, Replayed: true}},
		} {
			a, err := b.submit(k1, tc.body, tc.async, tc.corr)
			if diff := cmp.Diff(tc.want, a); err != nil || diff != "" {
				t.Errorf("%s: %v, answer (-want +got):\n%s", tc.name, err, diff)
			}
		}
		if after := b.rows(); after != before {
			t.Errorf("retries changed the rows: %+v → %+v", before, after)
		}
		// A reply kept before migration 00008 has no request id beside it:
		// a 202's is read from its body, a 200 names none.
		type keptReply struct {
			corr  string
			async bool
			body  []byte
			reply Answer
			want  string
		}
		keptReplies := []keptReply{{"kept-async", true, asyncBody, queued, queued.RequestID}, {"kept-sync", false, syncBody, first, ""}}
		for _, kept := range keptReplies {
			mode := map[bool]string{false: "sync", true: "async"}[kept.async]
			sum := sha256.Sum256([]byte("POST /v1/animals " + mode + "\n" + string(kept.body)))
			err := b.store.InTx(b.ctx, func(c context.Context, tx store.Tx) error {
				return tx.SaveReply(c, store.Reply{UserName: "keeper1", CorrelationID: kept.corr, RequestHash: hex.EncodeToString(sum[:]),
					Status: kept.reply.Status, Body: kept.reply.Body, CreatedAt: time.Now()})
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		before = b.rows()
		for _, kept := range keptReplies {
			want := Answer{Status: kept.reply.Status, Body: kept.reply.Body, RequestID: kept.want, Replayed: true}
			a, err := b.submit(k1, kept.body, kept.async, kept.corr)
			if diff := cmp.Diff(want, a); err != nil || diff != "" {
				t.Errorf("%s, kept before 00008: %v, answer (-want +got):\n%s", kept.corr, err, diff)
			}
		}
		if after := b.rows(); after != before {
			t.Errorf("replays of replies kept before 00008 changed the rows: %+v → %+v", before, after)
		}
		// Still the 202 once the job has decided it.
		b.runJob()
		before = b.rows()
		if a, err := b.submit(k1, asyncBody, true, "queued"); err != nil || string(a.Body) != string(queued.Body) {
			t.Errorf("async retry after the job = %s, %v", a.Body, err)
		}

		mismatch := []problem{{livestock.CodeReplayMismatch, "header:X-Correlation-ID"}}
		for _, tc := range []struct {
			name  string
			body  []byte
			async bool
		}{
			{"another body", calf(tag(t, "442501", 103), cow, "2026-06-07").bytes(t), false},
			{"the same body in async mode", syncBody, true},
		} {
			_, err := b.submit(k1, tc.body, tc.async, "same")
			if kind, got := refusal(err); kind != livestock.KindInvalid || !cmp.Equal(mismatch, got) {
				t.Errorf("%s: %v, want V004", tc.name, err)
			}
		}
		if after := b.rows(); after != before {
			t.Errorf("refused replays changed the rows: %+v → %+v", before, after)
		}

		// Another user's "same" is their own.
		b.mustSubmit(k2, calf(tag(t, "442502", 101), tag(t, "442502", 1), "2026-06-07").
			set("birth.site", holdingSite(farm2)).set("registration.site", holdingSite(farm2)), false, "same", 200)

		// A refusal is not kept: the corrected request may reuse its id.
		broken := calf(tag(t, "442501", 104), cow, "2026-06-07").set("breed.code", "ZZZ")
		if _, err := b.submit(k1, broken.bytes(t), false, "fixed"); livestock.ErrorKind(err) != livestock.KindInvalid {
			t.Fatalf("broken = %v", err)
		}
		b.mustSubmit(k1, broken.set("breed.code", "HOL"), false, "fixed", 200)
	})
}

// TestReplayConcurrent: the same request sent several times at once with
// one correlation id registers the animal once, and every sender gets the
// answer the first one got.
func TestReplayConcurrent(t *testing.T) {
	t.Parallel()
	each(t, func(t *testing.T, b *bundle) {
		k1 := b.user("keeper1")
		for i, async := range []bool{false, true} {
			body := calf(tag(t, "442501", 101+i), tag(t, "442501", 1), "2026-06-07").bytes(t)
			corr := fmt.Sprintf("burst-%v", async)
			before := b.rows()
			const n = 8
			answers, errs := make([]Answer, n), make([]error, n)
			var wg sync.WaitGroup
			for i := range n {
				wg.Go(func() { answers[i], errs[i] = b.submit(k1, body, async, corr) })
			}
			wg.Wait()
			kept, err := b.store.Reply(b.ctx, "keeper1", corr)
			if err != nil {
				t.Fatal(err)
			}
			for i := range n {
				if errs[i] != nil || answers[i].Status != okStatus(async) || string(answers[i].Body) != string(kept.Body) {
					t.Errorf("async=%v: sender %d got %d %s, %v; want the kept %s", async, i, answers[i].Status, answers[i].Body, errs[i], kept.Body)
				}
			}
			want := rows{before.Registrations + 1, before.Animals + 1, before.Jobs, before.Replies + 1}
			if async {
				want.Animals, want.Jobs = before.Animals, before.Jobs+1
			}
			if after := b.rows(); after != want {
				t.Errorf("async=%v: rows %+v, want %+v", async, after, want)
			}
		}
	})
}
