package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"time"

	"github.com/drover-registry/drover/bench/internal/cpu"
	"github.com/drover-registry/drover/bench/internal/load"
	"github.com/drover-registry/drover/bench/internal/report"
)

// The control (--control) asks how much of the overload's tail is the
// machine's rather than Drover's. It sends the same loads, from the same
// generator, to a null server: a net/http server in a process of its own
// that does no work at all. It drains each body and answers at once, a 200
// for one request in three and a 503 with Retry-After for the others, the
// share Drover admits at three times its capacity. If even that server's
// admitted p99 at --control-offered requests a second is more than twice
// its unloaded one, the bound cannot be met on this machine by any
// server, whatever it admits: what is left is the generator and Go's
// HTTP serving sharing the cores.

// nullServerEnv, when set, makes this program the null server: it listens
// on a free loopback port, prints its URL on a line of its own and serves
// until killed.
const nullServerEnv = "DROVER_BENCH_NULL_SERVER"

// serveNull is the null server's whole life.
func serveNull(out io.Writer) error {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "http://%s\n", l.Addr())
	return http.Serve(l, nullHandler())
}

// nullHandler drains each request's body and answers it at once: 200 for
// every third request, 503 for the rest.
func nullHandler() http.Handler {
	var n atomic.Int64
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		if n.Add(1)%3 == 0 {
			_, _ = io.WriteString(w, `{"value":[]}`)
			return
		}
		w.Header().Set("Retry-After", "1")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = io.WriteString(w, `{"code":"R003","message":"over capacity"}`)
	})
}

// nullServer is the null server's process.
type nullServer struct {
	cmd *exec.Cmd
	URL string
}

// startNull starts this program again as the null server.
func startNull(ctx context.Context) (*nullServer, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, exe)
	cmd.Env = append(os.Environ(), nullServerEnv+"=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "http://") {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, fmt.Errorf("null server: did not say where it listens (%q, %v)", line, err)
	}
	return &nullServer{cmd: cmd, URL: strings.TrimSpace(line)}, nil
}

// CPU is the processor time the null server has used.
func (s *nullServer) CPU() (time.Duration, error) { return cpu.Process(s.cmd.Process.Pid) }

// Stop kills it.
func (s *nullServer) Stop() {
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
}

// controlResults are the control's figures.
type controlResults struct {
	report.Header
	Options                  options
	Unloaded, Overload       stats
	UnloadedCPU, OverloadCPU cpu.Reading
}

// runControl is the control: the unloaded load, then --control-offered
// requests a second for --duration, both to the null server.
func runControl(ctx context.Context, o options, args []string, out io.Writer) error {
	rep := controlResults{Header: report.Begin("overload", args), Options: o}
	srv, err := startNull(ctx)
	if err != nil {
		return err
	}
	defer srv.Stop()
	fmt.Fprintf(out, "null server %s (pid %d)\n", srv.URL, srv.cmd.Process.Pid)
	next := mix(srv.URL, tokens{"keeper1", "keeper2", "inspector"}, "control")
	g := generator{base: srv.URL, raw: o.Client == "raw"}
	fmt.Fprintf(out, "warm-up: 8 connections for %s…\n", o.Phase)
	if _, err := g.closedLoop(next, 8, o.Phase); err != nil {
		return err
	}
	fmt.Fprintf(out, "unloaded: %d requests a second for %s…\n", o.LightRate, o.Phase)
	before := cpu.Read(srv.CPU)
	if rep.Unloaded, err = g.openLoop(next, o.LightRate, o.Outstanding, o.Phase); err != nil {
		return err
	}
	rep.UnloadedCPU = cpu.Read(srv.CPU).Since(before)
	fmt.Fprintf(out, "overload: %d requests a second, up to %d outstanding, for %s…\n", o.ControlOffered, o.Outstanding, o.Duration)
	before = cpu.Read(srv.CPU)
	if rep.Overload, err = g.openLoop(next, o.ControlOffered, o.Outstanding, o.Duration); err != nil {
		return err
	}
	rep.OverloadCPU = cpu.Read(srv.CPU).Since(before)
	if srv.cmd.ProcessState != nil {
		return errors.New("null server: exited during the loads")
	}
	rep.print(out)
	return nil
}

// print writes the control's table.
func (r *controlResults) print(w io.Writer) {
	ms, th, q, ratio := report.Ms, report.Thousands, load.Quantile, report.Quotient
	o, u, v := r.Options, r.Unloaded, r.Overload
	fmt.Fprintf(w, "\n### control: a null server, no work (%s)\n\n    %s\n\n", r.Machine(), r.Command)
	fmt.Fprintf(w, "Load average as the run began: %s. The overload's mix and generator; the server answers each "+
		"request at once, 200 for one in three and 503 for the rest. The load generator shares the machine.\n\n", r.LoadAverage)
	fmt.Fprintln(w, "| figure | value | target | |")
	fmt.Fprintln(w, "|---|---|---|---|")
	u99, a99 := q(u.AdmittedLat, 0.99), q(v.AdmittedLat, 0.99)
	report.Row(w, true, fmt.Sprintf("unloaded, %d req/s offered for %s: p50 / p99", o.LightRate, o.Phase),
		fmt.Sprintf("%s / %s (%s answered)", ms(q(u.AdmittedLat, 0.5)), ms(u99), th(u.Sent)), "")
	report.Row(w, true, fmt.Sprintf("overload for %s: offered (asked / achieved)", o.Duration),
		fmt.Sprintf("%s / %.0f req/s", th(o.ControlOffered), v.SentRate()), "")
	report.Row(w, true, "… 200 / 503", fmt.Sprintf("%s / %s", th(v.Admitted), th(v.Busy)), "")
	report.Row(w, true, "… 200s p50 / p99; 503s p99", fmt.Sprintf("%s / %s; %s", ms(q(v.AdmittedLat, 0.5)), ms(a99),
		ms(q(v.RefusedLat, 0.99))), "")
	report.Row(w, a99 <= 2*u99, "… 200s p99 / unloaded p99", fmt.Sprintf("%.2f×", ratio(float64(a99), float64(u99))), "≤ 2×")
	for _, l := range []struct {
		name string
		s    stats
		c    cpu.Reading
	}{{"unloaded", u, r.UnloadedCPU}, {"overload", v, r.OverloadCPU}} {
		report.Row(w, true, "CPU during the "+l.name+": null server / load generator / machine busy",
			fmt.Sprintf("%.2f / %.2f cores / %.0f %%", ratio(float64(l.c.Server), float64(l.s.Elapsed)),
				ratio(float64(l.c.Generator), float64(l.s.Elapsed)), 100*l.c.BusyShare()), "")
	}
	if n := report.Count(v.Other5xx) + report.Count(v.Other); n > 0 {
		fmt.Fprintf(w, "\noverload: %d neither 200 nor 503: %s\n", n, report.Commonest(v.Other5xx, v.Other))
	}
	fmt.Fprintln(w)
}
