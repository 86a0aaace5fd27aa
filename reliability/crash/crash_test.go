package crash

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/drover-registry/drover/internal/store/storetest"
	"github.com/drover-registry/drover/reliability/internal/harness"
)

// Each store gets cycles kills under the load of clients concurrent
// clients: fixed here rather than flags, so that CI always runs the same
// test. On a 2-core machine a store takes about a minute.
const (
	cycles  = 20
	clients = 8
)

// TestCrash is issue 5's crash test, on SQLite and on PostgreSQL: cycles
// of (start drover serve, post transfers and sync and async registrations
// from concurrent clients, SIGKILL it at a random moment); then one more
// start, the queue drained, and the checks: every acknowledged request
// stored exactly once and readable through the API, every queued one
// final, no partial record anywhere (invariants), and every request whose
// outcome the client never learnt, sent again, stored exactly once.
func TestCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("the crash test kills and restarts the server 20 times per store")
	}
	t.Run("sqlite", func(t *testing.T) { crash(t, "sqlite", storetest.SQLitePath(t)) })
	t.Run("postgres", func(t *testing.T) { crash(t, "postgres", storetest.PostgresURL(t)) })
}

// crash runs the cycles on one database, then checks it.
func crash(t *testing.T, name, dsn string) {
	ctx := t.Context()
	logPath := filepath.Join(t.TempDir(), "serve.log")
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the end of the server's log:\n%s", harness.Tail(logPath, 30))
		}
	})
	db := openDB(t, dsn)
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	g := newGenerator("crash-" + hex.EncodeToString(b))
	var all []*entry
	var token string
	busy, kills, left := 0, 0, 0 // cycles with at least one acknowledgement; SIGKILLs that ended a server; jobs they left queued
	for i := range cycles {
		srv := start(t, dsn, logPath)
		if i == 0 {
			if err := issueTags(ctx, db); err != nil {
				t.Fatal(err)
			}
			// One token for the whole run: the signing keys are in the
			// database, so it must survive every kill.
			token = harness.Token(t, srv.URL, "keeper1")
		}
		sent, killed := cycle(srv, token, g, clients, i)
		if killed {
			kills++
		}
		n, err := queued(ctx, db)
		if err != nil {
			t.Fatal(err)
		}
		left += n
		if tally(sent, nil).acked > 0 {
			busy++
		}
		all = append(all, sent...)
	}

	srv := start(t, dsn, logPath) // stopped (SIGTERM) when the test ends
	if err := drain(ctx, db); err != nil {
		t.Fatal(err)
	}
	snap, err := load(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	dups := tally(all, snap).duplicated
	bad := invariants(snap)

	// Unknown outcomes, sent again with the same correlation id and body:
	// the first answer if the first attempt committed, else a new record;
	// exactly one either way.
	again := resubmit(t, srv.URL, token, all, snap)
	if err := drain(ctx, db); err != nil {
		t.Fatal(err)
	}
	if snap, err = load(ctx, db); err != nil {
		t.Fatal(err)
	}
	c := tally(all, snap)
	c.duplicated = max(c.duplicated, dups) + again.duplicated
	c.lost += again.lost
	c.missing(t, verify(ctx, srv.URL, token, all))
	bad = slices.Compact(slices.Sorted(slices.Values(append(bad, invariants(snap)...)))) // a break seen twice is one
	for _, b := range bad[:min(len(bad), 20)] {
		t.Errorf("partial: %s", b)
	}
	c.partial += len(bad)

	line := fmt.Sprintf("crash %s: cycles=%d kills=%d sent=%d acknowledged=%d found=%d duplicated=%d lost=%d unknown=%d partial=%d "+
		"(refused=%d %v; unknown resent=%d, of which replayed=%d; cycles with acknowledgements=%d; jobs left queued by the kills=%d; stored: %s)",
		name, cycles, kills, c.sent, c.acked, c.found, c.duplicated, c.lost, c.unknown, c.partial,
		c.refused, c.refusals, again.sent, again.replayed, busy, left, finals(snap))
	t.Log(line)
	if testing.Verbose() {
		fmt.Println(line)
	}
	if c.duplicated != 0 || c.lost != 0 || c.partial != 0 {
		t.Errorf("duplicated=%d lost=%d partial=%d, want 0 each", c.duplicated, c.lost, c.partial)
	}
	if kills < cycles {
		t.Errorf("%d of %d cycles ended in a SIGKILL, want all", kills, cycles)
	}
	if c.acked == 0 || busy <= cycles/2 {
		t.Errorf("acknowledged=%d, in %d of %d cycles: the load did too little to test anything", c.acked, busy, cycles)
	}
}

// refusalKey summarises a refusal for the report: status and first code.
func refusalKey(e *entry) string {
	s := string(e.answer)
	if i := strings.Index(s, `"code":"`); i >= 0 && len(s) >= i+12 {
		return fmt.Sprintf("%d %s", e.status, s[i+8:i+12])
	}
	return fmt.Sprint(e.status)
}

func sortedKeys(m map[string]int) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// finals says how the stored requests ended, to show that the load
// exercised both outcomes of each kind.
func finals(s *snapshot) string {
	n := map[string]int{}
	for _, rs := range s.requests {
		for _, r := range rs {
			n["transfer "+r.status]++
		}
	}
	for _, gs := range s.registrations {
		for _, g := range gs {
			mode := "sync"
			if g.async {
				mode = "async"
			}
			n[mode+" "+g.status]++
		}
	}
	var parts []string
	for _, k := range sortedKeys(n) {
		parts = append(parts, fmt.Sprintf("%s=%d", strings.ReplaceAll(k, " ", ":"), n[k]))
	}
	return strings.Join(parts, " ")
}
