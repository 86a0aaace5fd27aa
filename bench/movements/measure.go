package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/drover-registry/drover/bench/internal/baseline"
	"github.com/drover-registry/drover/bench/internal/benchserver"
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

// measureOff runs the baseline's POSTs, then Drover's to off, the server
// with every limit off (benchserver.LimitsOff), and waits for the jobs
// those queued: the rate the defaults are held to, beside the naive one.
func measureOff(ctx context.Context, o options, db *database.Target, off *benchserver.Server, rep *results, out io.Writer) error {
	token, err := off.Token(ctx, "keeper1", "keeper1")
	if err != nil {
		return err
	}
	base, err := baseline.Start(ctx, db)
	if err != nil {
		return err
	}
	defer base.Close()
	run := strconv.FormatInt(time.Now().Unix(), 36)
	body, _ := transfer(run)(1)
	rep.BodySize = len(body)
	fmt.Fprintf(out, "POST baseline, %d connections for %s…\n", o.Connections, o.Duration)
	rep.Baseline = load.Closed(targets(http.MethodPost, token, fixed(base.URL), transfer(run+"b")),
		o.Connections, o.Duration, http.StatusCreated)
	base.Close()
	fmt.Fprintf(out, "POST /v1/TransferRequests with every limit off, %d connections for %s…\n", o.Connections, o.Duration)
	rep.PostOff = load.Closed(targets(http.MethodPost, token, fixed(off.URL+"/v1/TransferRequests"), transfer(run+"o")),
		o.Connections, o.Duration, http.StatusCreated)
	fmt.Fprintln(out, "waiting for the jobs those POSTs queued…")
	_, err = drain(ctx, off, 10*time.Minute)
	return err
}

// measure runs the loads in turn at the defaults: Drover's POSTs, then
// (once the jobs those queued have run) the reads, then the memory.
func measure(ctx context.Context, o options, srv *benchserver.Server, rep *results, out io.Writer) error {
	var tokens [3]string
	for i, u := range []string{"keeper1", benchUser, "inspector"} {
		var err error
		if tokens[i], err = srv.Token(ctx, u, u); err != nil {
			return err
		}
	}
	run := strconv.FormatInt(time.Now().Unix(), 36)
	fmt.Fprintf(out, "POST /v1/TransferRequests at the defaults, %d connections for %s…\n", o.Connections, o.Duration)
	before, err := srv.Metrics(ctx)
	if err != nil {
		return err
	}
	from := time.Now()
	rep.Post = load.Closed(targets(http.MethodPost, tokens[0], fixed(srv.URL+"/v1/TransferRequests"), transfer(run+"d")),
		o.Connections, o.Duration, http.StatusCreated)
	if rep.Group, err = srv.GroupCommitSince(ctx, before, from); err != nil {
		return err
	}

	fmt.Fprintln(out, "waiting for the jobs the POSTs queued…")
	start := time.Now()
	if rep.Jobs, err = drain(ctx, srv, 10*time.Minute); err != nil {
		return err
	}
	rep.JobsTook = time.Since(start)

	fmt.Fprintf(out, "GET a month of %s's requests, %d times (or for %s) from one connection…\n", benchUser, aloneRequests, filterLimit)
	rep.FilterAlone = load.Run{Attacker: load.ClosedAttacker(1), Pacer: load.Count(aloneRequests), Duration: filterLimit,
		Want: http.StatusOK}.Send(targets(http.MethodGet, tokens[1], month(srv.URL), nil))[""]
	fmt.Fprintf(out, "GET a month of %s's requests, %d times (or for %s) from %d connections…\n", benchUser, filterRequests, filterLimit, filterConns)
	rep.Filter = load.Run{Attacker: load.ClosedAttacker(filterConns), Pacer: load.Count(filterRequests), Duration: filterLimit,
		Want: http.StatusOK}.Send(targets(http.MethodGet, tokens[1], month(srv.URL), nil))[""]
	var page struct{ Value []any }
	if err := get(ctx, month(srv.URL)(23), tokens[1], &page); err != nil {
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
		if err := get(ctx, link, tokens[2], &p); err != nil {
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
	alternate := targets(http.MethodGet, tokens[2], func(i int64) string { return pages[i%2] }, nil)
	both := load.Run{Attacker: load.ClosedAttacker(1), Pacer: load.Count(2 * pageRepeats), Want: http.StatusOK,
		Key: func(r *vegeta.Result) string { return r.URL }}.Send(alternate)
	rep.Page1, rep.PageN = both[first], both[link]
	rep.RSS, err = srv.PeakRSS()
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
