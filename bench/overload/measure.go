package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"

	"github.com/drover-registry/drover/bench/internal/benchserver"
	"github.com/drover-registry/drover/bench/internal/cpu"
	"github.com/drover-registry/drover/bench/internal/database"
	"github.com/drover-registry/drover/bench/internal/report"
)

// run is the whole benchmark: the capacity with every limit off, on a
// database of its own, then the server at its defaults on another, its
// loads, and the report.
func run(ctx context.Context, o options, args []string, out io.Writer) error {
	if o.Control {
		return runControl(ctx, o, args, out)
	}
	rep := results{Header: report.Begin("overload", args), Options: o}
	db, err := database.Open(ctx, "overload", o.Database, false)
	if err != nil {
		return err
	}
	defer closeDatabase(ctx, db, out)
	rep.Dialect = db.Dialect()
	fmt.Fprintf(out, "database: %s\n", db.Describe())
	bin, err := benchserver.BuildBinary(ctx, filepath.Join(db.Dir, "drover"))
	if err != nil {
		return err
	}
	off, err := startOff(ctx, o, bin, out)
	if err != nil {
		return err
	}
	defer off.stop()
	srv, err := benchserver.Start(ctx, bin, filepath.Join(db.Dir, "drover.log"), serveArgs(db.DSN, o)...)
	if err != nil {
		return err
	}
	defer srv.Stop()
	fmt.Fprintf(out, "server at its defaults %s\n", srv)
	if err := measure(ctx, o, srv, off, &rep, out); err != nil {
		return err
	}
	rep.print(out)
	return nil
}

func closeDatabase(ctx context.Context, db *database.Target, out io.Writer) {
	if _, err := db.Close(ctx, false); err != nil {
		fmt.Fprintln(out, "bench:", err)
	}
}

// serveArgs are the server's settings: its defaults, but for the per-user
// rate limit, raised unless --rate-limit says otherwise (benchserver.AtDefaults).
func serveArgs(dsn string, o options) []string {
	return []string{"--database", dsn, "--rate-limit", strconv.FormatFloat(o.RateLimit, 'f', -1, 64)}
}

// offServer is the same binary with every limit off
// (benchserver.LimitsOff), on a new database of its own (a named SQLite
// file gets "-off" added), so that the jobs its load queues are not left
// to the server at its defaults. Its capacity is the one the defaults are
// held to, and the one the overload is a multiple of.
type offServer struct {
	srv  *benchserver.Server
	db   *database.Target
	next vegeta.Targeter
	gen  generator
	out  io.Writer
}

// startOff starts the server with the limits off and warms it up.
func startOff(ctx context.Context, o options, bin string, out io.Writer) (*offServer, error) {
	dsn := o.Database
	if dsn != "" && !database.IsPostgres(dsn) {
		dsn += "-off"
	}
	db, err := database.Open(ctx, "overload-off", dsn, false)
	if err != nil {
		return nil, err
	}
	srv, err := benchserver.Start(ctx, bin, filepath.Join(db.Dir, "drover.log"), append([]string{"--database", db.DSN}, benchserver.LimitsOff...)...)
	if err != nil {
		closeDatabase(ctx, db, out)
		return nil, err
	}
	off := &offServer{srv: srv, db: db, gen: generator{base: srv.URL, raw: o.Client == "raw"}, out: out}
	fmt.Fprintf(out, "server with every limit off %s\n", srv)
	tok, err := signIn(ctx, srv)
	if err != nil {
		off.stop()
		return nil, err
	}
	off.next = mix(srv.URL, tok, strconv.FormatInt(time.Now().UnixNano(), 36))
	fmt.Fprintf(out, "limits off, warm-up: 8 connections for %s…\n", o.Phase)
	if _, err := off.gen.closedLoop(off.next, 8, o.Phase); err != nil {
		off.stop()
		return nil, err
	}
	return off, nil
}

// stop stops the server and removes its database; once is enough.
func (off *offServer) stop() {
	if off.srv == nil {
		return
	}
	off.srv.Stop()
	closeDatabase(context.Background(), off.db, off.out)
	off.srv = nil
}

// signIn gets the three users' tokens.
func signIn(ctx context.Context, srv *benchserver.Server) (tokens, error) {
	var tok tokens
	for user, p := range map[string]*string{"keeper1": &tok.keeper1, "keeper2": &tok.keeper2, "inspector": &tok.inspector} {
		t, err := srv.Token(ctx, user, user)
		if err != nil {
			return tok, err
		}
		*p = t
	}
	return tok, nil
}

// capacityTurns is how many turns each server's capacity load takes.
const capacityTurns = 4

// measure runs the loads in turn and reads the server's state after them.
func measure(ctx context.Context, o options, srv *benchserver.Server, off *offServer, rep *results, out io.Writer) error {
	tok, err := signIn(ctx, srv)
	if err != nil {
		return err
	}
	run := strconv.FormatInt(time.Now().UnixNano(), 36)
	next := mix(srv.URL, tok, run)
	g := generator{base: srv.URL, raw: o.Client == "raw"}

	fmt.Fprintf(out, "warm-up: 8 connections for %s…\n", o.Phase)
	if rep.Warmup, err = g.closedLoop(next, 8, o.Phase); err != nil {
		return err
	}
	fmt.Fprintf(out, "unloaded: %d requests a second for %s…\n", o.LightRate, o.Phase)
	from, before, rtBefore := srv.LogSize(), cpu.Read(srv.CPU), readRuntime(ctx, srv)
	if rep.Unloaded, err = g.openLoop(next, o.LightRate, o.Outstanding, o.Phase); err != nil {
		return err
	}
	until := srv.LogSize()
	rep.UnloadedCPU, rep.UnloadedRuntime = cpu.Read(srv.CPU).Since(before), readRuntime(ctx, srv).since(rtBefore)
	// The two servers' capacity loads in turns, capacityTurns of each, so
	// that whatever else the machine does falls on both alike.
	fmt.Fprintf(out, "capacity: %d connections for %s, with the limits off and at the defaults in turns…\n", o.Connections, o.Phase)
	turn := o.Phase / capacityTurns
	for range capacityTurns {
		s, err := off.gen.closedLoop(off.next, o.Connections, turn)
		if err != nil {
			return err
		}
		rep.OffCapacity = rep.OffCapacity.add(s)
		before := cpu.Read(srv.CPU)
		if s, err = g.closedLoop(next, o.Connections, turn); err != nil {
			return err
		}
		rep.CapacityCPU = rep.CapacityCPU.Add(cpu.Read(srv.CPU).Since(before))
		rep.Capacity = rep.Capacity.add(s)
	}
	off.stop() // its jobs would take the CPU from the overload
	if rep.MemoryBefore, err = srv.PeakMemory(); err != nil {
		return err
	}
	rep.Offered = int(o.Factor*rep.OffCapacity.AdmittedRate() + 0.5)
	fmt.Fprintf(out, "overload: %d requests a second (%.1f× capacity), up to %d outstanding, for %s…\n",
		rep.Offered, o.Factor, o.Outstanding, o.Duration)
	overloadFrom, before, rtBefore := srv.LogSize(), cpu.Read(srv.CPU), readRuntime(ctx, srv)
	if rep.Overload, err = g.openLoop(next, rep.Offered, o.Outstanding, o.Duration); err != nil {
		return err
	}
	rep.OverloadCPU, rep.OverloadRuntime = cpu.Read(srv.CPU).Since(before), readRuntime(ctx, srv).since(rtBefore)
	rep.Memory, rep.MemoryErr = srv.PeakMemory()
	rep.Up = healthy(ctx, srv.URL)
	rep.Refusals = scrapeRefusals(ctx, srv)
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

// scrapeRefusals reads from the server's metrics how many requests each
// limit refused, as "concurrency 12, queue 0, rate 0".
func scrapeRefusals(ctx context.Context, srv *benchserver.Server) string {
	m, err := srv.Metrics(ctx)
	if err != nil {
		return ""
	}
	var parts []string
	for _, c := range []struct{ name, series string }{{"concurrency", "drover_http_shed_total"},
		{"queue", `drover_http_admission_rejected_total{class="queue"}`}, {"rate", "drover_http_rate_limited_total"}} {
		parts = append(parts, c.name+" "+strconv.FormatFloat(m[c.series], 'f', -1, 64))
	}
	return strings.Join(parts, ", ")
}
