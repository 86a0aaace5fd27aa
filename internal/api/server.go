package api

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/drover-registry/drover/internal/api/openapi"
	"github.com/drover-registry/drover/internal/jobs"
	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/movements"
	"github.com/drover-registry/drover/internal/registration"
	"github.com/drover-registry/drover/internal/standing"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/tracing"
)

// Config holds the settings of the HTTP layer.
type Config struct {
	MaxBody        int64         // largest request body in bytes
	RequestTimeout time.Duration // time a request may spend inside the service
	RateLimit      float64       // requests per second per user; 0 turns the limit off
	RateBurst      int           // requests a user may make at once
	MaxInFlight    int           // requests served at once (admission.go); 0 means no limit
	MaxWaiting     int           // requests that may wait for one of those to finish; 0 refuses at once
	MaxWait        time.Duration // longest such wait before 503
	MaxQueuedJobs  int           // refuse submissions while more jobs than this are queued (queuegate.go); 0 means no limit
	MaxPage        int           // largest results page of a collection
	// MaxPageBytes bounds a page of a request listing in bytes as MaxPage
	// bounds it in items (page.go); 0 means DefaultPageBytes.
	MaxPageBytes int
	PublicURL    string // where clients reach the service, for links; default from each request
	// Issuer is the production OpenID Connect issuer's URL; "" when tokens
	// come from the sandbox's own issuer (Deps.Issuer). The document served
	// then points at it (openapi.Doc.ForIssuer).
	Issuer string
}

// Authenticator turns a request's bearer token into a user.
type Authenticator interface {
	Authenticate(r *http.Request) (livestock.User, error)
}

// Issuer is the sandbox's built-in OpenID Connect issuer. Its handlers are
// routed only in sandbox mode.
type Issuer interface {
	Discovery(w http.ResponseWriter, r *http.Request) error
	JWKS(w http.ResponseWriter, r *http.Request) error
	Token(w http.ResponseWriter, r *http.Request) error
	AuthorizeForm(w http.ResponseWriter, r *http.Request) error
	Authorize(w http.ResponseWriter, r *http.Request) error
}

// Deps are the parts the HTTP layer is built on; cmd/drover wires them.
type Deps struct {
	Store    store.Store
	Auth     Authenticator
	Issuer   Issuer // nil outside sandbox mode
	Doc      *openapi.Doc
	Standing *standing.Lists
	Movement *movements.Service
	Register *registration.Service
	Log      *slog.Logger
	Jobs     JobStats // this replica's job runner, for its metrics; nil for none
}

// JobStats is what the metrics read of the job runner.
type JobStats interface{ Stats() jobs.Stats }

// serverStore is what the handlers ask of the store themselves: health,
// a holding's existence, and a transaction for the trace audit line. The
// services they call, the metrics and the queue gate each take their own
// part of Deps.Store.
type serverStore interface {
	Ready(ctx context.Context) error
	Dialect() string
	Holding(ctx context.Context, cph livestock.CPH) (livestock.Holding, error)
	InTx(ctx context.Context, fn func(ctx context.Context, tx store.Tx) error) error
}

// Server is the HTTP handler of the whole service.
type Server struct {
	cfg          Config
	store        serverStore
	auth         Authenticator
	issuer       Issuer
	doc          *openapi.Doc
	docJSON      []byte       // the document as served: for the sandbox, or for Config.Issuer
	docsPage     http.Handler // the page that renders it
	metadata     []byte       // the OData CSDL document, /v1/$metadata
	standing     *standing.Lists
	movements    *movements.Service
	registration *registration.Service
	tracing      *tracing.Service // outbreak tracing's answers (history, registers, traces)
	log          *slog.Logger
	metrics      *metrics
	limits       *limiter
	admission    *admission // nil unless Config.MaxInFlight
	queue        *queueGate // nil unless Config.MaxQueuedJobs
	router       chi.Router
}

// New builds the server and its routes.
func New(cfg Config, d Deps) (*Server, error) {
	if d.Store == nil || d.Auth == nil || d.Doc == nil || d.Standing == nil || d.Movement == nil || d.Register == nil {
		return nil, errors.New("api.New: Store, Auth, Doc, Standing, Movement and Register are required")
	}
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = 1 << 20
	}
	if cfg.MaxPage <= 0 {
		cfg.MaxPage = 500
	}
	if cfg.MaxPageBytes <= 0 {
		cfg.MaxPageBytes = DefaultPageBytes
	}
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	s := &Server{cfg: cfg, store: d.Store, auth: d.Auth, issuer: d.Issuer, doc: d.Doc,
		standing: d.Standing, movements: d.Movement, registration: d.Register, log: d.Log, metrics: newMetrics(d.Store, d.Jobs),
		tracing: tracing.New(d.Store, time.Now)}
	var err error
	if s.metadata, err = d.Doc.MetadataOf(serviceModel()); err != nil {
		return nil, err
	}
	s.docJSON, s.docsPage = d.Doc.JSON(), openapi.DocsHandler()
	if cfg.Issuer != "" {
		if s.docJSON, err = d.Doc.ForIssuer(cfg.Issuer); err != nil {
			return nil, err
		}
		u, _ := url.Parse(cfg.Issuer) // ForIssuer has checked it
		s.docsPage = openapi.DocsHandler(u.Scheme + "://" + u.Host)
	}
	if cfg.RateLimit > 0 {
		s.limits = newLimiter(cfg.RateLimit, cfg.RateBurst)
	}
	if s.admission = newAdmission(cfg.MaxInFlight, cfg.MaxWaiting, cfg.MaxWait); s.admission != nil {
		s.metrics.watchAdmission(s.admission)
	}
	if cfg.MaxQueuedJobs > 0 {
		s.queue = &queueGate{max: cfg.MaxQueuedJobs, store: d.Store}
	}
	s.router = s.routes()
	return s, nil
}

func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.router.ServeHTTP(w, r) }
