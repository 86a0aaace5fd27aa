package main

import (
	"context"
	"database/sql"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/drover-registry/drover/bench/internal/baseline"
	"github.com/drover-registry/drover/bench/internal/benchserver"
	"github.com/drover-registry/drover/bench/internal/load"
	"github.com/drover-registry/drover/internal/livestock"
)

// measure runs the loads in turn: async registrations at the offered rate
// until their queue drains, sync registrations at the same rate, then the
// baseline's POSTs and Drover's sync POSTs from as many connections, then
// reads the server's peak memory.
func measure(ctx context.Context, o options, db *target, srv *benchserver.Server, rep *results, out io.Writer) error {
	token, err := srv.Token(ctx, "keeper1", "keeper1")
	if err != nil {
		return err
	}
	run := strconv.FormatInt(time.Now().Unix(), 36)
	var numbers atomic.Int64 // the herd's animal numbers, handed out once each
	numbers.Store(firstNumber)
	last := firstNumber + supply - 1
	rep.BodySize = len(keeper1.CalfRegistration(tagID(firstNumber), livestock.UKDate(time.Now())))

	fmt.Fprintf(out, "async POST /v1/animals, %d a second for %s…\n", o.Rate, o.Duration)
	var most atomic.Int64
	stop := make(chan struct{})
	go watch(ctx, db.db, 250*time.Millisecond, &most, stop)
	async := registrations(srv.URL+"/v1/animals", token, true, run+"a", &numbers, last)
	before, err := srv.Metrics(ctx)
	if err != nil {
		return err
	}
	from := time.Now()
	var answered map[string]time.Time
	rep.Async, answered = openLoop(async, o.Rate, o.Duration, http.StatusAccepted)
	if rep.AsyncGroup, err = srv.GroupCommitSince(ctx, before, from); err != nil {
		return err
	}
	ended := time.Now()
	fmt.Fprintln(out, "waiting for the queue to drain…")
	err = drain(ctx, db.db, 10*time.Minute)
	drained := time.Since(ended)
	close(stop)
	if err != nil {
		return err
	}
	if rep.Outcome, err = read(ctx, db.db, answered); err != nil {
		return err
	}
	rep.Outcome.Drain, rep.Outcome.MostPending = drained, int(most.Load())

	// The sync mode at the same offered load as the async one: what a
	// client waits for an answer at that load, where the closed loop
	// below measures how fast the server goes (and, at 64 connections
	// kept busy, a latency set by the queue that Little's law makes).
	fmt.Fprintf(out, "sync POST /v1/animals, %d a second for %s…\n", o.Rate, o.Duration)
	if before, err = srv.Metrics(ctx); err != nil {
		return err
	}
	from, logFrom := time.Now(), srv.LogSize()
	rep.SyncOffered, _ = openLoop(registrations(srv.URL+"/v1/animals", token, false, run+"o", &numbers, last), o.Rate, o.Duration, http.StatusOK)
	if rep.SyncOfferedGroup, err = srv.GroupCommitSince(ctx, before, from); err != nil {
		return err
	}
	if rep.SyncOfferedInside, _, _, err = srv.AccessLog(logFrom, srv.LogSize()); err != nil {
		return err
	}

	base, err := baseline.Start(ctx, db.Target)
	if err != nil {
		return err
	}
	defer base.Close()
	var unlimited atomic.Int64
	unlimited.Store(firstNumber)
	fmt.Fprintf(out, "POST baseline, %d connections for %s…\n", o.Connections, o.Duration)
	rep.Baseline = load.Closed(registrations(base.URL, token, false, run+"b", &unlimited, math.MaxInt), o.Connections, o.Duration, http.StatusCreated)
	base.Close()
	fmt.Fprintf(out, "sync POST /v1/animals, %d connections for %s…\n", o.Connections, o.Duration)
	rep.Sync = load.Closed(registrations(srv.URL+"/v1/animals", token, false, run+"s", &numbers, last), o.Connections, o.Duration, http.StatusOK)
	fmt.Fprintf(out, "sync POST /v1/animals alone, one connection for %s…\n", aloneFor)
	rep.SyncAlone = load.Closed(registrations(srv.URL+"/v1/animals", token, false, run+"a", &numbers, last), 1, aloneFor, http.StatusOK)
	rep.Memory, err = srv.PeakMemory()
	return err
}

// aloneFor is how long one connection registers alone: the latency of a
// request that waits for no other.
const aloneFor = 5 * time.Second

// watch counts the Pending async registrations every interval until stop
// is closed, and keeps the most.
func watch(ctx context.Context, db *sql.DB, interval time.Duration, most *atomic.Int64, stop <-chan struct{}) {
	for t := time.NewTicker(interval); ; {
		select {
		case <-stop:
			t.Stop()
			return
		case <-t.C:
		}
		var n int64
		if err := db.QueryRowContext(ctx, pendingSQL).Scan(&n); err == nil && n > most.Load() {
			most.Store(n)
		}
	}
}
