// Command amplify is Drover's amplification probe (issue 20, item 4): what
// an oversized write costs the server, against what it cost the caller.
// It builds the real binary, starts it on a fresh sandbox database at its
// default settings, and has keeper1 post transfers of many unknown tags to
// keeper2's holding (three groups, a body of about 1 MB each); once their
// jobs end it reads keeper2's default listing and the listing with
// $expand=content through every next link, and prints the stored errors
// per request, the size of each page, and the server's peak memory
// (its own, RssAnon, and all it held, VmHWM) against the targets.
//
//	go run ./bench/amplify                       # SQLite in a temporary file
//	go run ./bench/amplify --database 'postgres://postgres@127.0.0.1:5432/test?sslmode=disable'
package main

import (
	_ "time/tzdata" // dates are the UK's

	"context"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/drover-registry/drover/bench/internal/benchserver"
	"github.com/drover-registry/drover/bench/internal/cli"
	"github.com/drover-registry/drover/bench/internal/database"
	"github.com/drover-registry/drover/bench/internal/report"
)

// options are the flags of the probe.
type options struct {
	Database  string // SQLite file path or postgres:// URL; "" is a temporary SQLite file
	Transfers int    // posted, one after another
	Tags      int    // unknown tags in each
	Keep      bool   // keep the database
}

func parseFlags(args []string, out io.Writer) (options, error) {
	var o options
	fs := cli.Flags("amplify", out, &o.Database)
	fs.IntVar(&o.Transfers, "transfers", 10, "transfers posted")
	fs.IntVar(&o.Tags, "tags", 30000, "unknown tags in each transfer (three movement groups)")
	fs.BoolVar(&o.Keep, "keep", false, "keep the database at the end")
	if err := cli.Parse(fs, args); err != nil {
		return o, err
	}
	if o.Transfers < 1 || o.Tags < 3 {
		return o, fmt.Errorf("--transfers must be at least 1 and --tags at least 3")
	}
	return o, nil
}

func main() { cli.Main(parseFlags, run) }

// The targets: stored errors are bounded, a page is at most 1 MiB
// unless it holds one item, and the server stays under 200 MB.
const (
	pageBudget = 1 << 20
	rssBudget  = 200 << 20
)

// run is the whole probe: database, server, transfers, listings, report.
func run(ctx context.Context, o options, args []string, out io.Writer) error {
	h := report.Begin("amplify", args)
	t, err := database.Open(ctx, "amplify", o.Database, false)
	if err != nil {
		return err
	}
	defer func() {
		if kept, err := t.Close(context.WithoutCancel(ctx), o.Keep); err != nil {
			fmt.Fprintln(out, "closing the database:", err)
		} else if kept {
			fmt.Fprintln(out, "kept", t.Describe())
		}
	}()
	fmt.Fprintf(out, "%s\ndatabase: %s\n", h.Machine(), t.Describe())
	bin, err := benchserver.BuildBinary(ctx, filepath.Join(t.Dir, "drover"))
	if err != nil {
		return err
	}
	srv, err := benchserver.Start(ctx, bin, filepath.Join(t.Dir, "drover.log"), "--database", t.DSN)
	if err != nil {
		return err
	}
	defer srv.Stop()
	fmt.Fprintf(out, "server %s\n", srv)
	p, err := newProbe(ctx, srv)
	if err != nil {
		return err
	}
	start := time.Now()
	body, ids, err := p.post(ctx, o.Transfers, o.Tags)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "posted %d transfers of %d tags (%s each) in %s\n", len(ids), o.Tags, size(len(body)), time.Since(start).Round(time.Millisecond))
	errs, err := p.await(ctx, ids)
	if err != nil {
		return err
	}
	plain, err := p.list(ctx, "")
	if err != nil {
		return err
	}
	expanded, err := p.list(ctx, "$expand=content")
	if err != nil {
		return err
	}
	mem, err := srv.PeakMemory()
	if err != nil {
		return err
	}
	fmt.Fprintln(out, "\n| measure | figure | target | verdict |\n|---|---|---|---|")
	report.Row(out, errs.bounded(), "stored errors per request", errs.String(), "bounded (≤ 100 + code 40)")
	report.Row(out, plain.fits(pageBudget), "default listing", plain.String(), "≤ 1 MiB a page")
	report.Row(out, expanded.fits(pageBudget), "expanded listing", expanded.String(), "a page past 1 MiB holds one item")
	report.Row(out, mem.Own <= rssBudget, "server peak memory: own (RssAnon) / resident, mapped database pages included (VmHWM)",
		size(mem.Own)+" / "+size(mem.Resident), "own ≤ 200 MB")
	return nil
}
