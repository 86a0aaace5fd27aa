package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/api/openapi"
	"github.com/drover-registry/drover/internal/auth"
	"github.com/drover-registry/drover/internal/jobs"
	"github.com/drover-registry/drover/internal/movements"
	"github.com/drover-registry/drover/internal/registration"
	"github.com/drover-registry/drover/internal/retention"
	"github.com/drover-registry/drover/internal/sandbox"
	"github.com/drover-registry/drover/internal/standing"
	"github.com/drover-registry/drover/internal/store"
)

// serve runs the service until ctx ends, then drains: the listener stops
// taking connections, requests in flight finish, and each job worker
// finishes the job it holds, all within --shutdown-timeout.
func serve(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	var c config
	if err := parse(serveFlags(&c), args, getenv, stderr); err != nil {
		return err
	}
	log, err := newLogger(stderr, c.LogLevel)
	if err != nil {
		return err
	}
	// What logs through slog's default, or the log package, is JSON at
	// --log-level too: a metrics scrape's and a statistics refresh's
	// warnings, and any library's.
	slog.SetDefault(log)
	tuneGC(getenv, log)
	if c.AdaptiveLimit {
		log.Warn("--adaptive-limit (DROVER_ADAPTIVE_LIMIT) is " + deprecatedAdaptive)
	}
	if err := c.check(); err != nil {
		return err
	}

	// The port first: a second server started on a taken port stops here,
	// before it opens the database or runs a migration. Until the store is
	// open, api.Starting answers: /healthz 200, everything else 503.
	ln, err := net.Listen("tcp", c.Addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	var handler atomic.Pointer[http.Handler]
	starting := api.Starting()
	handler.Store(&starting)
	hs := &http.Server{
		Handler:           http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { (*handler.Load()).ServeHTTP(w, r) }),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       c.ReadTimeout,
		WriteTimeout:      c.WriteTimeout,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	serveErr := make(chan error, 1)
	go func() { serveErr <- hs.Serve(ln) }()
	defer hs.Close() // a start that fails below stops answering
	// What needs no database is read and opened before it, so that a bad
	// file or a taken port stops the server before any migration runs.
	lists, err := standing.Load(c.StandingData)
	if err != nil {
		return fmt.Errorf("standing data: %w", err)
	}
	doc, err := openapi.Load()
	if err != nil {
		return fmt.Errorf("openapi document: %w", err)
	}
	if _, err := startDebug(ctx, c.DebugAddr, log); err != nil {
		return fmt.Errorf("--debug-addr: %w", err)
	}
	log.Info("opening the database; pending migrations are applied first")
	st, err := openStore(ctx, c.Database)
	if err != nil {
		return err
	}
	var closeBy time.Time // the shutdown's deadline, once it has one
	defer func() { closeWithin(st.Close, closeBy, log) }()
	warnSettings(ctx, st, log)
	// A production server looks before it reaches the issuer and claims
	// after, so a failed discovery leaves a new database unclaimed.
	if c.Issuer != "" {
		if err := checkMode(ctx, st); err != nil {
			return err
		}
	} else if err := claimMode(ctx, st, false); err != nil {
		return err
	}

	c.PublicURL = strings.TrimRight(c.PublicURL, "/") // links append /v1/…: a trailing slash doubled it
	publicURL := c.PublicURL
	if publicURL == "" {
		publicURL = "http://" + reachableAddr(ln.Addr())
	}

	deps := api.Deps{Store: st, Doc: doc, Standing: lists, Log: log}
	var verifier *auth.Verifier
	if c.Issuer == "" {
		sb, err := startSandbox(ctx, st, publicURL, c.Audience, c.SandboxClients, log)
		if err != nil {
			return err
		}
		deps.Issuer, verifier = sb, auth.NewVerifier(sb.Issuer(), c.Audience, sb.Keys(), st)
	} else {
		keys, err := auth.NewRemoteKeys(ctx, c.Issuer, log)
		if err != nil {
			return fmt.Errorf("issuer %s: %w", c.Issuer, err)
		}
		if err := claimMode(ctx, st, true); err != nil {
			return err
		}
		verifier = auth.NewVerifier(c.Issuer, c.Audience, keys, st)
		log.Info("production mode", slog.String("issuer", c.Issuer), slog.String("audience", c.Audience))
	}
	verifier.SetMaxLifetime(c.MaxTokenLife)
	deps.Auth = verifier
	runner := jobs.New(st, jobs.Options{Workers: c.Workers, Log: log})
	deps.Jobs = runner
	if deps.Movement, err = movements.New(st, lists, time.Now); err != nil {
		return err
	}
	deps.Movement.Register(runner)
	if deps.Register, err = registration.New(st, lists, time.Now, time.Duration(c.RetryAfter)*time.Second); err != nil {
		return err
	}
	deps.Register.Register(runner)
	sweepers := []*retention.Sweeper{
		retention.New("replies", st.DeleteRepliesBefore, retention.Options{Retention: c.ReplyRetention, Log: log}),
		retention.New("done jobs", st.DeleteDoneJobsBefore, retention.Options{Retention: c.JobRetention, Log: log}),
	}
	srv, err := api.New(api.Config{
		MaxBody: c.MaxBody, RequestTimeout: c.RequestTimeout, RateLimit: c.RateLimit, RateBurst: c.RateBurst,
		MaxInFlight: c.MaxInFlight, MaxWaiting: c.MaxWaiting, MaxWait: c.MaxWait, MaxQueuedJobs: c.MaxQueuedJobs, MaxPage: c.MaxPage, PublicURL: c.PublicURL,
		Issuer: c.Issuer,
	}, deps)
	if err != nil {
		return err
	}

	ready := http.Handler(srv)
	handler.Store(&ready)
	jobsCtx, stopJobs := context.WithCancel(context.WithoutCancel(ctx))
	jobsDone := make(chan error, 1)
	go func() { jobsDone <- runner.Run(jobsCtx) }()
	sweepCtx, stopSweep := context.WithCancel(ctx)
	var sweeping sync.WaitGroup
	for _, sw := range sweepers {
		sweeping.Go(func() { sw.Run(sweepCtx) })
	}
	defer func() { stopSweep(); sweeping.Wait() }() // before the store closes
	log.Info("listening", slog.String("addr", ln.Addr().String()), slog.String("database", st.Dialect()), slog.String("version", version))
	fmt.Fprintf(stdout, "drover %s listening on http://%s (%s; public URL %s)\n", version, ln.Addr(), st.Dialect(), publicURL)

	select {
	case err := <-serveErr:
		stopJobs()
		<-jobsDone
		return fmt.Errorf("http server: %w", err)
	case <-ctx.Done():
	}
	log.Info("shutting down: draining requests and jobs")
	closeBy = time.Now().Add(c.ShutdownTimeout)
	drain, cancel := context.WithDeadline(context.Background(), closeBy)
	defer cancel()
	stopJobs()
	shutdownErr := hs.Shutdown(drain)
	select {
	case <-jobsDone:
	case <-drain.Done():
		log.Warn("shutdown timeout: a job is still running; it will be retried after restart")
	}
	if shutdownErr != nil && !errors.Is(shutdownErr, http.ErrServerClosed) {
		return fmt.Errorf("drain: requests still in flight after --shutdown-timeout (%s): %w", c.ShutdownTimeout, shutdownErr)
	}
	log.Info("stopped")
	return nil
}

// closeWithin closes the store, waiting for it no later than by (when
// set): with the database unreachable, its committers and pool wait on
// sockets, and the process would outlive --shutdown-timeout (and be killed
// by whatever enforces it). What it leaves unfinished is as safe as a
// kill: nothing acknowledged is lost.
func closeWithin(closeStore func() error, by time.Time, log *slog.Logger) {
	done := make(chan error, 1)
	go func() { done <- closeStore() }()
	if by.IsZero() {
		<-done
		return
	}
	left := time.Until(by)
	t := time.NewTimer(left)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
		if left <= 0 { // the drain took it all: a request or job, not the database
			log.Warn("shutdown timeout: no time was left to close the database; exiting without closing it")
			return
		}
		log.Warn("shutdown timeout: the database did not close in time; exiting without waiting for it")
	}
}

// claimMode holds a server to the mode its database was created for,
// recording the server's mode in a database that has none yet: a sandbox
// server never seeds its test users into real data, and a production
// server never serves the sandbox's test users. Each refusal names the
// flag that would match the database.
func claimMode(ctx context.Context, st store.SeedStore, production bool) error {
	want := store.ModeSandbox
	if production {
		want = store.ModeProduction
	}
	got, err := st.ClaimMode(ctx, want)
	if err != nil {
		return fmt.Errorf("database mode: %w", err)
	}
	return modeRefusal(got, want)
}

// checkMode refuses a database recorded as a sandbox to a production
// server without recording anything.
func checkMode(ctx context.Context, st store.SeedStore) error {
	got, err := st.Mode(ctx)
	if err != nil {
		return fmt.Errorf("database mode: %w", err)
	}
	if got == "" {
		return nil
	}
	return modeRefusal(got, store.ModeProduction)
}

// modeRefusal names the flag that would match a database of mode got, or
// is nil when got is what the server wants.
func modeRefusal(got, want store.Mode) error {
	switch {
	case got == want:
		return nil
	case want == store.ModeProduction:
		return errors.New("--database is a sandbox database, whose users are test users with known passwords: " +
			"serve it without --issuer, or give --database a production database (a new one becomes one) to serve with --issuer")
	}
	return errors.New("--database is a production database: serve it with --issuer (the issuer of its users' tokens), " +
		"or give --database a sandbox database (a new one becomes one) to serve without --issuer")
}

// sandboxStore is what startSandbox uses of the store: the seed
// (sandbox.Store) and the issuer's keys and grants (auth.SandboxStore).
type sandboxStore interface {
	sandbox.Store
	auth.SandboxStore
}

// startSandbox seeds the sandbox data on first start and starts the
// built-in issuer, announcing loudly that tokens here prove nothing.
func startSandbox(ctx context.Context, st sandboxStore, publicURL, audience, clients string, log *slog.Logger) (*auth.Sandbox, error) {
	registered, err := auth.ParseClients(clients)
	if err != nil {
		return nil, fmt.Errorf("--sandbox-clients: %w", err)
	}
	log.Warn("SANDBOX MODE: no --issuer given, so Drover issues its own tokens for test users " +
		"(keeper1, keeper2, inspector; password = user name). Never use sandbox mode for real data.")
	created, err := sandbox.Ensure(ctx, st, bcrypt.DefaultCost)
	if err != nil {
		return nil, err
	}
	if created {
		log.Info("sandbox data created", slog.String("users", "keeper1, keeper2, inspector"))
	}
	sb, err := auth.NewSandbox(ctx, st, publicURL, time.Now, auth.WithAudience(audience), auth.WithClients(registered...))
	if err != nil {
		return nil, fmt.Errorf("sandbox issuer: %w", err)
	}
	return sb, nil
}

func newLogger(w io.Writer, level string) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("--log-level: %w", err)
	}
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: l, ReplaceAttr: durationSeconds})), nil
}

// durationSeconds writes a duration as seconds, a number, as the metrics
// give latency; slog's JSON handler would write nanoseconds.
func durationSeconds(_ []string, a slog.Attr) slog.Attr {
	if a.Value.Kind() == slog.KindDuration {
		a.Value = slog.Float64Value(a.Value.Duration().Seconds())
	}
	return a
}

// warnSettings logs, at WARN, each setting of the database under which a
// promise of Drover's does not hold. It advises and does not refuse: the
// settings are the operator's, and a failure to read them is logged too.
func warnSettings(ctx context.Context, st store.HealthStore, log *slog.Logger) {
	warnings, err := st.Warnings(ctx)
	if err != nil {
		log.Warn("could not read the database's settings", slog.Any("error", err))
	}
	for _, w := range warnings {
		log.Warn("database setting breaks a promise", slog.String("setting", w))
	}
}

// migrate applies the migrations of the database and exits.
func migrate(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("drover migrate", flag.ContinueOnError)
	var dsn string
	databaseFlag(fs, &dsn)
	if err := parse(fs, args, getenv, stderr); err != nil {
		return err
	}
	st, err := openStore(ctx, dsn)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.Ready(ctx); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "drover: %s database is migrated\n", st.Dialect())
	return nil
}

// reachableAddr is addr as a client on this machine can dial it: a listener
// on every interface (":8080", "0.0.0.0:8080") reports [::] or 0.0.0.0,
// which is no address to hand a client, so localhost stands for it.
func reachableAddr(addr net.Addr) string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok || tcp.IP != nil && !tcp.IP.IsUnspecified() {
		return addr.String()
	}
	return net.JoinHostPort("localhost", strconv.Itoa(tcp.Port))
}
