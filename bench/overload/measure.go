package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/drover-registry/drover/bench/internal/benchserver"
	"github.com/drover-registry/drover/bench/internal/database"
	"github.com/drover-registry/drover/bench/internal/report"
)

// run is the whole benchmark: database, server, loads, report.
func run(ctx context.Context, o options, args []string, out io.Writer) error {
	if o.Control {
		return runControl(ctx, o, args, out)
	}
	rep := results{Header: report.Begin("overload", args), Options: o}
	db, err := database.Open(ctx, "overload", o.Database, false)
	if err != nil {
		return err
	}
	defer func() {
		if _, err := db.Close(ctx, false); err != nil {
			fmt.Fprintln(out, "bench:", err)
		}
	}()
	rep.Dialect = db.Dialect()
	fmt.Fprintf(out, "database: %s\n", db.Describe())
	bin, err := benchserver.BuildBinary(ctx, filepath.Join(db.Dir, "drover"))
	if err != nil {
		return err
	}
	srv, err := benchserver.Start(ctx, bin, filepath.Join(db.Dir, "drover.log"), serveArgs(db.DSN, o)...)
	if err != nil {
		return err
	}
	defer srv.Stop()
	fmt.Fprintf(out, "server %s\n", srv)
	if err := measure(ctx, o, srv, &rep, out); err != nil {
		return err
	}
	rep.print(out)
	return nil
}

// serveArgs turn back on the shedding that benchserver turns off: the
// default ceiling, the adaptive limit unless --adaptive=false, and the
// per-user rate limit if asked for.
func serveArgs(dsn string, o options) []string {
	return []string{"--database", dsn, "--max-in-flight", "512", "--adaptive-limit=" + strconv.FormatBool(o.Adaptive),
		"--rate-limit", strconv.FormatFloat(o.RateLimit, 'f', -1, 64), "--rate-burst", "200"}
}

// measure runs the loads in turn and reads the server's state after them.
func measure(ctx context.Context, o options, srv *benchserver.Server, rep *results, out io.Writer) error {
	var tok tokens
	for user, p := range map[string]*string{"keeper1": &tok.keeper1, "keeper2": &tok.keeper2, "inspector": &tok.inspector} {
		t, err := srv.Token(ctx, user, user)
		if err != nil {
			return err
		}
		*p = t
	}
	run := strconv.FormatInt(time.Now().UnixNano(), 36)
	next := mix(srv.URL, tok, run)
	g := generator{base: srv.URL, raw: o.Client == "raw"}

	fmt.Fprintf(out, "warm-up: 8 connections for %s…\n", o.Phase)
	var err error
	if rep.Warmup, err = g.closedLoop(next, 8, o.Phase); err != nil {
		return err
	}
	fmt.Fprintf(out, "unloaded: %d requests a second for %s…\n", o.LightRate, o.Phase)
	from, before, rtBefore := srv.LogSize(), readCPU(srv), readRuntime(ctx, srv)
	if rep.Unloaded, err = g.openLoop(next, o.LightRate, o.Outstanding, o.Phase); err != nil {
		return err
	}
	until := srv.LogSize()
	rep.UnloadedCPU, rep.UnloadedRuntime = readCPU(srv).Since(before), readRuntime(ctx, srv).since(rtBefore)
	fmt.Fprintf(out, "capacity: %d connections for %s…\n", o.Connections, o.Phase)
	before = readCPU(srv)
	if rep.Capacity, err = g.closedLoop(next, o.Connections, o.Phase); err != nil {
		return err
	}
	rep.CapacityCPU = readCPU(srv).Since(before)
	if rep.RSSBefore, err = srv.PeakRSS(); err != nil {
		return err
	}
	rep.Offered = int(o.Factor*rep.Capacity.AdmittedRate() + 0.5)
	fmt.Fprintf(out, "overload: %d requests a second (%.1f× capacity), up to %d outstanding, for %s…\n",
		rep.Offered, o.Factor, o.Outstanding, o.Duration)
	overloadFrom, before, rtBefore := srv.LogSize(), readCPU(srv), readRuntime(ctx, srv)
	if rep.Overload, err = g.openLoop(next, rep.Offered, o.Outstanding, o.Duration); err != nil {
		return err
	}
	rep.OverloadCPU, rep.OverloadRuntime = readCPU(srv).Since(before), readRuntime(ctx, srv).since(rtBefore)
	rep.RSS, rep.RSSErr = srv.PeakRSS()
	rep.Up = healthy(ctx, srv.URL)
	rep.Limits = scrapeLimits(ctx, srv)
	if rep.InsideUnloaded, _, _, err = srv.AccessLog(from, until); err != nil {
		return err
	}
	rep.InsideOverload, rep.InsidePost, rep.InsideGet, err = srv.AccessLog(overloadFrom, -1)
	return err
}

// healthy reports whether the server answers its health check.
func healthy(ctx context.Context, base string) bool {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/healthz", nil)
	if err != nil {
		return false
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	res.Body.Close()
	return res.StatusCode == http.StatusOK
}

// scrapeLimits reads the adaptive limits from the server's metrics, as
// "read 12, write 20"; "" when there are none.
func scrapeLimits(ctx context.Context, srv *benchserver.Server) string {
	m, err := srv.Metrics(ctx)
	if err != nil {
		return ""
	}
	var limits []string
	for series, v := range m {
		if rest, ok := strings.CutPrefix(series, `drover_http_concurrency_limit{class="`); ok {
			limits = append(limits, strings.TrimSuffix(rest, `"}`)+" "+strconv.FormatFloat(v, 'f', -1, 64))
		}
	}
	slices.Sort(limits)
	return strings.Join(limits, ", ")
}
