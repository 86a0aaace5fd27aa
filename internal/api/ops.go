package api

import (
	"context"
	"net/http"
	"time"

	"github.com/drover-registry/drover/internal/api/openapi"
)

// healthz answers while the process is alive: it touches nothing else, so
// an orchestrator does not restart a replica because its database is down.
func (s *Server) healthz(w http.ResponseWriter, r *http.Request) error {
	return writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// readyz answers 200 when the database is reachable and its migrations are
// current, 503 otherwise, so that a load balancer stops sending traffic to
// a replica that cannot serve it.
func (s *Server) readyz(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := s.store.Ready(ctx); err != nil {
		retryAfter(w, 5*time.Second)
		return err
	}
	return writeJSON(w, http.StatusOK, map[string]string{"status": "ready", "database": s.store.Dialect()})
}

func (s *Server) openapiJSON(w http.ResponseWriter, r *http.Request) error {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache")
	_, err := w.Write(s.doc.JSON())
	return err
}

var docsHandler = openapi.DocsHandler()

// docs serves the document rendered for people, from files in the binary.
func (s *Server) docs(w http.ResponseWriter, r *http.Request) { docsHandler.ServeHTTP(w, r) }
