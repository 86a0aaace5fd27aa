package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"
)

// standingLists names the standing-data lists.
func (s *Server) standingLists(w http.ResponseWriter, r *http.Request) error {
	if err := onlyParams(r); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, map[string]any{"value": s.standing.Names()})
}

// standingList returns one standing-data list.
func (s *Server) standingList(w http.ResponseWriter, r *http.Request) error {
	// A list is sent whole: $top or $filter would otherwise be ignored
	// without a word, and a client take the list for what it asked.
	if err := onlyParams(r); err != nil {
		return err
	}
	entries, err := s.standing.List(chi.URLParam(r, "list"))
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "max-age=3600")
	return writeJSON(w, http.StatusOK, map[string]any{"value": entries})
}
