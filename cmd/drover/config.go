package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/drover-registry/drover/internal/auth"
)

// errExtraArgs is returned by parse when arguments follow the flags;
// commands that take arguments (import) accept it.
var errExtraArgs = errors.New("unexpected argument")

// config is every setting of drover serve.
type config struct {
	Addr            string
	Database        string
	Issuer          string
	Audience        string
	MaxTokenLife    time.Duration
	PublicURL       string
	SandboxClients  string
	RateLimit       float64
	RateBurst       int
	MaxPage         int
	MaxBody         int64
	MaxInFlight     int
	MaxWaiting      int
	MaxWait         time.Duration
	AdaptiveLimit   bool // set, to either value: --adaptive-limit is deprecated and does nothing (deprecatedAdaptive)
	MaxQueuedJobs   int
	ReadTimeout     time.Duration
	WriteTimeout    time.Duration
	RequestTimeout  time.Duration
	ShutdownTimeout time.Duration
	Workers         int
	RetryAfter      int
	ReplyRetention  time.Duration
	JobRetention    time.Duration
	StandingData    string
	LogLevel        string
	DebugAddr       string
}

// deprecatedAdaptive is --adaptive-limit's usage, and the warning serve
// logs when it is set: the concurrency limit that followed latency gave way
// to the one fixed limit, which refuses only what the server cannot carry.
const deprecatedAdaptive = "deprecated, no effect: the one concurrency limit is --max-in-flight, with --max-waiting and --max-wait " +
	"(docs/operations.md); remove the setting"

// databaseFlag adds --database, which every sub-command takes.
func databaseFlag(fs *flag.FlagSet, p *string) {
	fs.StringVar(p, "database", "./drover.db", "an SQLite file path, or a postgres:// URL to use PostgreSQL")
}

func serveFlags(c *config) *flag.FlagSet {
	fs := flag.NewFlagSet("drover serve", flag.ContinueOnError)
	fs.StringVar(&c.Addr, "addr", "127.0.0.1:8080", "address to listen on")
	databaseFlag(fs, &c.Database)
	fs.StringVar(&c.Issuer, "issuer", "", "OpenID Connect issuer URL of production tokens; empty runs the sandbox issuer")
	fs.StringVar(&c.Audience, "audience", "drover", "audience (aud) that access tokens must carry")
	fs.DurationVar(&c.MaxTokenLife, "max-token-lifetime", auth.DefaultMaxTokenLifetime, "longest lifetime (exp - iat) of an access token accepted; longer ones are refused")
	fs.StringVar(&c.PublicURL, "public-url", "", "URL clients reach this service at, for links and the sandbox issuer name; empty: relative links (never the request's Host), issuer http://<addr>")
	fs.StringVar(&c.SandboxClients, "sandbox-clients", "", "OAuth clients of the sandbox issuer beside /docs's drover-docs: id=redirect_uri pairs, comma-separated (loopback http redirect URIs are always allowed a registered client)")
	fs.Float64Var(&c.RateLimit, "rate-limit", 100, "requests per second per user, per replica; 0 turns the limit off")
	fs.IntVar(&c.RateBurst, "rate-burst", 200, "requests a user may make at once before the rate limit applies")
	fs.IntVar(&c.MaxPage, "max-page", 500, "largest results page of a collection")
	fs.Int64Var(&c.MaxBody, "max-body", 1<<20, "largest request body in bytes (above it: 413 on the movements interface, 400 S011 on registration, as the live definitions declare)")
	fs.IntVar(&c.MaxInFlight, "max-in-flight", 64, "requests served at once; more wait (--max-waiting, --max-wait) or get 503; 0 means no limit")
	fs.IntVar(&c.MaxWaiting, "max-waiting", 64, "requests that may wait for a place under --max-in-flight; more get 503 at once; 0 refuses at once")
	fs.DurationVar(&c.MaxWait, "max-wait", time.Second, "longest a request waits for a place under --max-in-flight before 503 (no longer than the Retry-After it would get)")
	fs.BoolFunc("adaptive-limit", deprecatedAdaptive, func(v string) error {
		_, err := strconv.ParseBool(v)
		c.AdaptiveLimit = true
		return err
	})
	fs.IntVar(&c.MaxQueuedJobs, "max-queued-jobs", 100000, "answer 503 to submissions (transfers, corrections, reviews, undos, async registrations) while more jobs than this wait to run; 0 means no limit")
	fs.DurationVar(&c.ReadTimeout, "read-timeout", 15*time.Second, "time to read a request, headers and body")
	fs.DurationVar(&c.WriteTimeout, "write-timeout", 30*time.Second, "time to write a response")
	fs.DurationVar(&c.RequestTimeout, "request-timeout", 10*time.Second, "time a request may spend inside the service (504 after)")
	fs.DurationVar(&c.ShutdownTimeout, "shutdown-timeout", 30*time.Second, "time to drain requests and jobs on SIGINT/SIGTERM")
	fs.IntVar(&c.Workers, "workers", 64, "background jobs taken at once (they share commits: a worker costs a goroutine, not a connection)")
	fs.IntVar(&c.RetryAfter, "retry-after", 1, "seconds an async registration asks the caller to wait before polling, and between polls")
	fs.DurationVar(&c.ReplyRetention, "reply-retention", 7*24*time.Hour, "how long the answer to a request with a correlation id is kept for its retries; 0 keeps answers for ever")
	fs.DurationVar(&c.JobRetention, "job-retention", 7*24*time.Hour, "how long a job that has run is kept (the request's record holds its outcome; jobs that failed are kept for ever); 0 keeps them all")
	fs.StringVar(&c.StandingData, "standing-data", "", "directory of standing-data files replacing the built-in lists")
	fs.StringVar(&c.LogLevel, "log-level", "info", "debug, info, warn or error")
	fs.StringVar(&c.DebugAddr, "debug-addr", "", "address of Go's profiler (/debug/pprof/), kept apart from the API; empty serves none")
	return fs
}

// parse reads settings from the environment (DROVER_ plus the flag name
// in upper case, dashes as underscores), then from args, which win.
func parse(fs *flag.FlagSet, args []string, getenv func(string) string, out io.Writer) error {
	fs.SetOutput(out)
	fs.Usage = func() {
		fmt.Fprintf(out, "usage: %s [flags]\n\nEvery flag may also be set in the environment variable shown.\n\n", fs.Name())
		fs.VisitAll(func(f *flag.Flag) {
			fmt.Fprintf(out, "  --%s (%s)\n      %s (default %q)\n", f.Name, envName(f.Name), f.Usage, f.DefValue)
		})
	}
	var err error
	fs.VisitAll(func(f *flag.Flag) {
		if v := getenv(envName(f.Name)); v != "" && err == nil {
			if e := fs.Set(f.Name, v); e != nil {
				err = fmt.Errorf("%s=%q: %w", envName(f.Name), v, e)
			}
		}
	})
	if err != nil {
		return err
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w %q", errExtraArgs, fs.Arg(0))
	}
	return nil
}

func envName(flagName string) string {
	return "DROVER_" + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

// absoluteHTTP reports whether s is an absolute http or https URL.
func absoluteHTTP(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// check refuses a setting that would quietly mean something else: a
// negative bound read as "none", a page or body of 0 replaced by the
// default, a retry-after that overflows, workers by the million. Each
// error names the flag and its range. It runs before anything is opened.
func (c config) check() error {
	type bound struct {
		flag     string
		ok       bool
		expected string
	}
	for _, b := range []bound{
		{"--max-page", c.MaxPage >= 1 && c.MaxPage <= 10_000, "1 to 10000"},
		{"--max-body", c.MaxBody >= 1024 && c.MaxBody <= 1<<30, "1024 to 1073741824 bytes"},
		{"--max-in-flight", c.MaxInFlight >= 0, "0 (no limit) or more"},
		{"--max-waiting", c.MaxWaiting >= 0, "0 (refuse at once) or more"},
		{"--max-wait", c.MaxWait >= 0, "0 (refuse at once) or more; it must not be negative"},
		{"--rate-limit", c.RateLimit >= 0 && !math.IsInf(c.RateLimit, 0), "0 (off) or a positive number of requests a second"},
		{"--rate-burst", c.RateBurst >= 1, "1 or more"},
		{"--workers", c.Workers >= 1 && c.Workers <= 1024, "1 to 1024"},
		{"--retry-after", c.RetryAfter >= 1 && c.RetryAfter <= 3600, "1 to 3600 seconds"},
		{"--read-timeout", c.ReadTimeout > 0, "more than 0"},
		{"--write-timeout", c.WriteTimeout > 0, "more than 0"},
		{"--request-timeout", c.RequestTimeout > 0, "more than 0"},
		{"--shutdown-timeout", c.ShutdownTimeout > 0, "more than 0"},
		{"--reply-retention", c.ReplyRetention >= 0, "0 (keep replies for ever) or more; it must not be negative"},
		{"--job-retention", c.JobRetention >= 0, "0 (keep jobs for ever) or more; it must not be negative"},
		{"--max-queued-jobs", c.MaxQueuedJobs >= 0, "0 (no bound) or more; it must not be negative"},
		{"--audience", strings.TrimSpace(c.Audience) != "", "not empty"},
		{"--max-token-lifetime", c.MaxTokenLife > 0 && (c.Issuer != "" || c.MaxTokenLife >= auth.SandboxTokenLifetime),
			fmt.Sprintf("more than 0, and at least %s without --issuer (the sandbox issuer's tokens last that long)", auth.SandboxTokenLifetime)},
		{"--database", databaseKind(c.Database) != "", databaseRule},
		{"--public-url", c.PublicURL == "" || absoluteHTTP(c.PublicURL), "empty or an absolute http(s) URL (https://drover.example.org)"},
		{"--issuer", c.Issuer == "" || absoluteHTTP(c.Issuer), "empty (the sandbox's own issuer) or the issuer's absolute http(s) URL (https://login.example.gov.uk)"},
	} {
		if !b.ok {
			return fmt.Errorf("%s must be %s", b.flag, b.expected)
		}
	}
	// Read again by startSandbox; checked here so that a bad list stops the
	// server before it opens (and migrates, and claims) a database. A
	// production server has no sandbox issuer to give it to.
	if _, err := auth.ParseClients(c.SandboxClients); err != nil && c.Issuer == "" {
		return fmt.Errorf("--sandbox-clients: %w", err)
	}
	return nil
}
