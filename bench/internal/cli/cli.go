// Package cli is what the benchmark programs under bench/ share as
// commands: the flag set with its --database flag, the refusal of
// arguments that are not flags, and a main that stops the run cleanly
// (the database dropped, the server stopped) on SIGINT or SIGTERM.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// Flags is the flag set of program, writing its usage to out, with
// --database into database.
func Flags(program string, out io.Writer, database *string) *flag.FlagSet {
	fs := flag.NewFlagSet(program, flag.ContinueOnError)
	fs.SetOutput(out)
	fs.StringVar(database, "database", "", "SQLite file to create, or a postgres:// URL (a fresh schema "+
		"drover_bench_<random> is made there, and dropped at the end unless kept); default a temporary SQLite file")
	return fs
}

// Parse parses args and refuses any argument that is not a flag.
func Parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fs.Arg(0))
	}
	return nil
}

// Main parses the command's arguments with parse and runs the benchmark
// with run, under a context that ends on SIGINT or SIGTERM, so that run's
// deferred clean-up still happens; an error is printed and exits 1.
func Main[O any](parse func(args []string, out io.Writer) (O, error), run func(ctx context.Context, o O, args []string, out io.Writer) error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	o, err := parse(os.Args[1:], os.Stderr)
	if err == nil {
		err = run(ctx, o, os.Args[1:], os.Stdout)
	}
	stop()
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}
