package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/drover-registry/drover/bench/internal/baseline"
	"github.com/drover-registry/drover/bench/internal/benchserver"
	"github.com/drover-registry/drover/bench/internal/cpu"
	"github.com/drover-registry/drover/bench/internal/database"
	"github.com/drover-registry/drover/bench/internal/load"
)

// Sizes of the read measurements.
const (
	filterConns    = 8
	filterRequests = 2000
	aloneRequests  = 500         // the month alone: one connection, so no request waits for another
	filterLimit    = time.Minute // a slow server gets fewer requests, not a longer wait
	pageRepeats    = 100
	pageDepth      = 1000
)

// A setup is one of the three servers the POST loads compare.
type setup int

const (
	naive     setup = iota // the baseline: one INSERT a request
	limitsOff              // Drover with every limit off
	defaults               // Drover at its defaults
)

// postRounds is the order of the POST loads: each server twice, in turns,
// so that the registry's growth over the run and whatever else the machine
// does fall on each alike. Drover's two setups swap places in the second
// round: each follows the naive server once and the other setup once, and
// so meets the same share of what a Drover load leaves to clean up after it
// (on PostgreSQL, autovacuum of the rows it wrote).
var postRounds = [][]setup{{naive, limitsOff, defaults}, {naive, defaults, limitsOff}}

// posts is what the POST loads of one setup did over its turns: the
// answers, the processor time spent over each load and the drain of its
// jobs, and for Drover the group commit and the drains.
type posts struct {
	load.Stats
	CPU       cpu.Reading
	Group     benchserver.GroupCommit
	Jobs      int                // the most jobs seen queued after a load
	Longest   time.Duration      // the longest a drain took
	Draining  time.Duration      // the drains, summed
	Generator time.Duration      // of CPU.Generator, what the load generator used during Drover's loads
	Memory    benchserver.Memory // the server's peak memory
}

// measurePosts runs the POST loads of postRounds, starting a server for
// each of Drover's turns and stopping it after, so that no idle server's
// workers take another's jobs.
func measurePosts(ctx context.Context, o options, db *database.Target, bin string, serve []string, rep *results, out io.Writer) error {
	run := strconv.FormatInt(time.Now().Unix(), 36)
	tagOf := func(round int, s setup) string { return fmt.Sprintf("%s%d%d", run, round, s) }
	body, _ := transfer(tagOf(0, naive), o.RandomIDs)(1)
	rep.BodySize = len(body)
	// The naive server reads no token, but is sent one of a real token's
	// length, so that its requests are the same size as Drover's.
	token, err := tokenOnce(ctx, bin, filepath.Join(db.Dir, "drover-token.log"), serve)
	if err != nil {
		return err
	}
	for round, order := range postRounds {
		for _, s := range order {
			tag := tagOf(round, s)
			var p posts
			var err error
			if s == naive {
				fmt.Fprintf(out, "POST baseline, %d connections for %s…\n", o.Connections, o.Duration)
				p, err = postNaive(ctx, o, db, strings.Repeat("x", len(token)), transfer(tag, o.RandomIDs))
			} else {
				args, name := append(slices.Clone(serve), benchserver.AtDefaults...), "at its defaults"
				if s == limitsOff {
					args, name = append(slices.Clone(serve), benchserver.LimitsOff...), "with every limit off"
				}
				log := filepath.Join(db.Dir, fmt.Sprintf("drover-%d-%d.log", round+1, s))
				p, err = postDrover(ctx, o, bin, log, args, name, transfer(tag, o.RandomIDs), out)
			}
			if err != nil {
				return err
			}
			rep.Posts[s] = rep.Posts[s].add(p)
		}
	}
	return nil
}

// tokenOnce starts a server only to sign keeper1 in.
func tokenOnce(ctx context.Context, bin, log string, serve []string) (string, error) {
	srv, err := benchserver.Start(ctx, bin, log, append(slices.Clone(serve), benchserver.AtDefaults...)...)
	if err != nil {
		return "", err
	}
	defer srv.Stop()
	return srv.Token(ctx, "keeper1", "keeper1")
}

// postNaive is one turn of the naive server.
func postNaive(ctx context.Context, o options, db *database.Target, token string, body func(int64) ([]byte, string)) (posts, error) {
	base, err := baseline.Start(ctx, db)
	if err != nil {
		return posts{}, err
	}
	defer base.Close()
	var p posts
	before := cpu.Read(nil)
	p.Stats = load.Closed(targets(http.MethodPost, token, fixed(base.URL), body), o.Connections, o.Duration, http.StatusCreated)
	p.CPU = cpu.Read(nil).Since(before) // before the pool closes and its backends take their time with them
	return p, nil
}

// postDrover is one turn of a Drover server started with args: the load,
// then the drain of the jobs it queued.
func postDrover(ctx context.Context, o options, bin, log string, args []string, name string, body func(int64) ([]byte, string),
	out io.Writer) (p posts, err error) {
	srv, err := benchserver.Start(ctx, bin, log, args...)
	if err != nil {
		return p, err
	}
	defer srv.Stop()
	token, err := srv.Token(ctx, "keeper1", "keeper1")
	if err != nil {
		return p, err
	}
	fmt.Fprintf(out, "POST /v1/TransferRequests %s, %d connections for %s (server %s)…\n", name, o.Connections, o.Duration, srv)
	metrics, err := srv.Metrics(ctx)
	if err != nil {
		return p, err
	}
	before, from := cpu.Read(srv.CPU), time.Now()
	p.Stats = load.Closed(targets(http.MethodPost, token, fixed(srv.URL+"/v1/TransferRequests"), body),
		o.Connections, o.Duration, http.StatusCreated)
	p.Generator = cpu.Read(srv.CPU).Since(before).Generator
	if p.Group, err = srv.GroupCommitSince(ctx, metrics, from); err != nil {
		return p, err
	}
	fmt.Fprintln(out, "waiting for the jobs those POSTs queued…")
	start := time.Now()
	if p.Jobs, err = drain(ctx, srv, 10*time.Minute); err != nil {
		return p, err
	}
	p.Longest = time.Since(start)
	p.Draining = p.Longest
	p.CPU = cpu.Read(srv.CPU).Since(before)
	p.Memory, err = srv.PeakMemory()
	return p, err
}

// add is two turns of one setup together.
func (p posts) add(q posts) posts {
	return posts{Stats: p.Stats.Add(q.Stats), CPU: p.CPU.Add(q.CPU), Group: p.Group.Add(q.Group), Jobs: max(p.Jobs, q.Jobs),
		Longest: max(p.Longest, q.Longest), Draining: p.Draining + q.Draining, Generator: p.Generator + q.Generator,
		Memory: benchserver.Memory{Own: max(p.Memory.Own, q.Memory.Own), Resident: max(p.Memory.Resident, q.Memory.Resident)}}
}

// measureReads runs the reads at the defaults, then reads the memory.
func measureReads(ctx context.Context, o options, srv *benchserver.Server, rep *results, out io.Writer) error {
	var tokens [2]string
	for i, u := range []string{benchUser, "inspector"} {
		var err error
		if tokens[i], err = srv.Token(ctx, u, u); err != nil {
			return err
		}
	}
	fmt.Fprintf(out, "GET a month of %s's requests, %d times (or for %s) from one connection…\n", benchUser, aloneRequests, filterLimit)
	rep.FilterAlone = load.Run{Attacker: load.ClosedAttacker(1), Pacer: load.Count(aloneRequests), Duration: filterLimit,
		Want: http.StatusOK}.Send(targets(http.MethodGet, tokens[0], month(srv.URL), nil))[""]
	fmt.Fprintf(out, "GET a month of %s's requests, %d times (or for %s) from %d connections…\n", benchUser, filterRequests, filterLimit, filterConns)
	rep.Filter = load.Run{Attacker: load.ClosedAttacker(filterConns), Pacer: load.Count(filterRequests), Duration: filterLimit,
		Want: http.StatusOK}.Send(targets(http.MethodGet, tokens[0], month(srv.URL), nil))[""]
	var page struct{ Value []any }
	if err := get(ctx, month(srv.URL)(23), tokens[0], &page); err != nil {
		return err
	}
	rep.FilterItems = len(page.Value)

	fmt.Fprintf(out, "following @odata.nextLink as the inspector to page %d…\n", pageDepth)
	first := srv.URL + "/v1/TransferRequests"
	link := first
	for rep.Depth = 1; rep.Depth < pageDepth; rep.Depth++ {
		var p struct {
			Next string `json:"@odata.nextLink"`
		}
		if err := get(ctx, link, tokens[1], &p); err != nil {
			return err
		}
		if p.Next == "" {
			break
		}
		// The link is relative unless the server has --public-url: resolve
		// it against the page it came from, as an OData client does.
		base, err := url.Parse(link)
		if err != nil {
			return err
		}
		next, err := base.Parse(p.Next)
		if err != nil {
			return err
		}
		link = next.String()
	}
	// Page 1 and the deep page in turn, so that whatever else the machine
	// is doing falls on both alike.
	pages := []string{first, link}
	alternate := targets(http.MethodGet, tokens[1], func(i int64) string { return pages[i%2] }, nil)
	both := load.Run{Attacker: load.ClosedAttacker(1), Pacer: load.Count(2 * pageRepeats), Want: http.StatusOK,
		Key: func(r *vegeta.Result) string { return r.URL }}.Send(alternate)
	rep.Page1, rep.PageN = both[first], both[link]
	m, err := srv.PeakMemory()
	posts := rep.Posts[defaults].Memory
	rep.Memory = benchserver.Memory{Own: max(m.Own, posts.Own), Resident: max(m.Resident, posts.Resident)}
	return err
}

func fixed(u string) func(int64) string { return func(int64) string { return u } }

func get(ctx context.Context, u, token string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	return benchserver.GetJSON(req, v)
}

// drain waits until no job is available (queued), as /metrics says.
func drain(ctx context.Context, srv *benchserver.Server, limit time.Duration) (int, error) {
	most, missing := 0, 0
	for deadline := time.Now().Add(limit); ; {
		m, err := srv.Metrics(ctx)
		if err != nil {
			return most, err
		}
		n := -1
		if v, ok := m[`drover_jobs{state="available"}`]; ok {
			n = int(v)
		}
		most = max(most, n)
		switch {
		case n == 0:
			return most, nil
		case n < 0 && missing < 10:
			// The gauge is left out when counting the jobs takes over 2 s,
			// as it can on a large jobs table while the queue drains.
			missing++
		case n < 0:
			return most, fmt.Errorf("/metrics has had no drover_jobs{state=\"available\"} %d times", missing+1)
		case time.Now().After(deadline):
			return most, fmt.Errorf("%d jobs still queued after %s", n, limit)
		}
		select {
		case <-ctx.Done():
			return most, ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}
