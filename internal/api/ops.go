package api

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/odata"
)

// readyTimeout bounds the readiness probe's wait for the database.
const readyTimeout = 2 * time.Second

// healthz answers while the process is alive: it touches nothing else, so
// an orchestrator does not restart a replica because its database is down.
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) error {
	return writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// Starting answers while the server opens its database, which applies
// any pending migration first and may take minutes: GET /healthz is 200,
// so that a liveness probe does not kill the process mid-migration (its
// transaction would roll back and the next start begin again); every
// other request, /readyz included, is a 503 with Retry-After. Each answer
// carries the correlation headers, as the API's do.
func Starting() http.Handler {
	return correlate(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/healthz" && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
			_ = writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
			return
		}
		retryAfter(w, 5*time.Second)
		writeProblemFor(w, r, &livestock.Error{Kind: livestock.KindUnavailable,
			Detail: "the server is opening its database, applying any pending migration"})
	}))
}

// readyz answers 200 when the database is reachable and its migrations are
// current, 503 otherwise, so that a load balancer stops sending traffic to
// a replica that cannot serve it. The probe waits at most readyTimeout (or
// the request's own timeout, if shorter): a database that does not answer
// is as unready as one that refuses, so a probe that ran out of time is a
// 503 too, never the 504 of a request that took too long.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
	defer cancel()
	if err := s.store.Ready(ctx); err != nil {
		retryAfter(w, 5*time.Second)
		return &livestock.Error{Kind: livestock.KindUnavailable, Detail: "the database is not ready",
			Err: errors.New(err.Error())} // the cause's text, not its deadline
	}
	return writeJSON(w, http.StatusOK, map[string]string{"status": "ready", "database": s.store.Dialect()})
}

func (s *Server) openapiJSON(w http.ResponseWriter, r *http.Request) error {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache")
	_, err := w.Write(s.docJSON)
	return err
}

// docs serves the document rendered for people, from files in the binary.
func (s *Server) docs(w http.ResponseWriter, r *http.Request) { s.docsPage.ServeHTTP(w, r) }

// odataMetadata serves the CSDL document that @odata.context URLs name.
// It is XML only: a system query option other than $format=xml is a 400
// rather than ignored.
func (s *Server) odataMetadata(w http.ResponseWriter, r *http.Request) error {
	if err := odata.CheckMetadataQuery(r.URL.Query()); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/xml")
	w.Header().Set("OData-Version", "4.01") // Edm.Untyped is 4.01's
	w.Header().Set("Cache-Control", "no-cache")
	_, err := w.Write(s.metadata)
	return err
}
