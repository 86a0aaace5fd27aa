// Command drover is the national livestock registry service: one binary
// that serves the registration and movements interfaces, runs their
// background jobs, and keeps its records in SQLite (the default, embedded)
// or PostgreSQL.
//
//	drover serve     run the service (sandbox mode unless --issuer is set)
//	drover migrate   apply database migrations and exit
//	drover import    add holdings and users from a JSON file
//	drover trace     run the 24-hour traceability exercise on one animal
//	drover version   print the version
//
// Every setting is a flag and an environment variable: --max-page is also
// DROVER_MAX_PAGE. Flags win over the environment.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"
)

// version is set at build time with -ldflags "-X main.version=…"; without
// it, the commit the binary was built from, so that an operator can tell
// which build each replica runs.
var version = "dev"

func init() {
	if version == "dev" {
		version = buildRevision(debug.ReadBuildInfo())
	}
}

// buildRevision is "dev" followed by the commit (and "+dirty" for changes
// not committed) that the Go toolchain stamped into the binary, if any.
func buildRevision(info *debug.BuildInfo, ok bool) string {
	if !ok {
		return "dev"
	}
	var rev, dirty string
	for _, s := range info.Settings {
		switch {
		case s.Key == "vcs.revision":
			rev = s.Value[:min(len(s.Value), 12)]
		case s.Key == "vcs.modified" && s.Value == "true":
			dirty = "+dirty"
		}
	}
	if rev == "" {
		return "dev"
	}
	return "dev-" + rev + dirty
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "drover:", err)
		os.Exit(1)
	}
}

// run is main without the process: tests call it with their own arguments,
// environment and output, and cancel ctx to stop the server.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		usage(stderr)
		return errors.New("a sub-command is required")
	}
	switch args[0] {
	case "serve":
		return serve(ctx, args[1:], getenv, stdout, stderr)
	case "migrate":
		return migrate(ctx, args[1:], getenv, stdout, stderr)
	case "import":
		return importData(ctx, args[1:], getenv, stdout, stderr)
	case "trace":
		return traceExercise(ctx, args[1:], getenv, stdout, stderr)
	case "version", "--version", "-version":
		fmt.Fprintln(stdout, "drover", version)
		return nil
	case "help", "-h", "--help", "-help":
		usage(stdout)
		return nil
	}
	usage(stderr)
	return fmt.Errorf("unknown sub-command %q", args[0])
}

func usage(w io.Writer) {
	fmt.Fprint(w, `usage: drover <command> [flags]

commands:
  serve     run the service (sandbox mode unless --issuer is set)
  migrate   apply database migrations and exit
  import    add holdings and users (production mode) from a JSON file
  trace     the 24-hour traceability exercise: an animal's locations over
            the last 30 days and where every animal it lived beside is now
  version   print the version

Run "drover <command> --help" for the settings of a command.
`)
}
