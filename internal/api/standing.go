package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/drover-registry/drover/internal/odata"
)

// wholeList is what the standing-data lists take of OData's options:
// $format=json alone. A list is sent whole, so $top or $filter, ignored,
// would let a client take the list for what it asked; they are refused as
// on every collection, and other parameters are left alone as there.
var wholeList = odata.Collection{Format: true, Single: true}

// standingLists names the standing-data lists.
func (s *Server) standingLists(w http.ResponseWriter, r *http.Request) error {
	if _, err := odata.Parse(r.URL.Query(), wholeList); err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, map[string]any{"value": s.standing.Names()})
}

// standingList returns one standing-data list.
func (s *Server) standingList(w http.ResponseWriter, r *http.Request) error {
	if _, err := odata.Parse(r.URL.Query(), wholeList); err != nil {
		return err
	}
	entries, err := s.standing.List(chi.URLParam(r, "list"))
	if err != nil {
		return err
	}
	w.Header().Set("Cache-Control", "max-age=3600")
	return writeJSON(w, http.StatusOK, map[string]any{"value": entries})
}
