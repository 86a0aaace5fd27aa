package api

import (
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/drover-registry/drover/internal/api/openapi"
	"github.com/drover-registry/drover/internal/odata"
	"github.com/drover-registry/drover/internal/store"
)

// serviceModel is what /v1/$metadata declares: the entity sets answers
// name, what each honours of the query options, and the functions bound
// to them. It must say what the handlers do, no more: a set's
// Capabilities are read from the odata.Collection its handler parses
// with, and TestMetadataCapabilities holds the service to them.
func serviceModel() openapi.Model {
	s := &Server{} // only the collections' shapes are read, not the page size
	m := openapi.Model{
		Sets: []openapi.EntitySet{
			{Name: reviewSet, Type: "MovementForReview"}, // read only through its functions: no capabilities of its own
			{Name: approvedSet, Type: "ApprovedMovement", Key: store.ApprovedKey, Capabilities: capabilitiesOf(s.approvedCollection())},
		},
		Functions: []openapi.Function{
			{Name: "ReviewBySpecies", Binding: "MovementForReview", Params: []openapi.Param{
				{Name: "species", Type: "Edm.String"}, {Name: "holding", Type: "Edm.String"}}},
			{Name: "ByTransferDateRange", Binding: "ApprovedMovement", Params: []openapi.Param{
				{Name: "speciesId", Type: "Edm.Int32"},
				{Name: "startTransferDate", Type: "Edm.DateTimeOffset"}, {Name: "endTransferDate", Type: "Edm.DateTimeOffset"},
				{Name: "departureHolding", Type: "Edm.String", Nullable: true}, {Name: "destinationHolding", Type: "Edm.String", Nullable: true}}},
		},
	}
	for typ, name := range collectionNames {
		m.Sets = append(m.Sets, openapi.EntitySet{Name: name, Type: "MovementRequest", Capabilities: capabilitiesOf(s.requestCollection(typ))})
	}
	return m
}

// capabilitiesOf is what a collection read with c honours: $top, $skip
// and $filter always, and the options c offers.
func capabilitiesOf(c odata.Collection) openapi.Capabilities {
	caps := openapi.Capabilities{Annotate: true, Top: true, Skip: true, Count: c.Count, Select: c.Members != nil,
		Filterable: fieldNames(c.Fields)}
	if c.OrderBy {
		for name, f := range c.Fields {
			if !f.Unordered {
				caps.Sortable = append(caps.Sortable, name)
			}
		}
	}
	if c.Expand != nil {
		caps.ExpandLevels = odata.MaxExpandDepth
	}
	return caps
}

func fieldNames[M ~map[string]V, V any](fields M) []string { return slices.Sorted(maps.Keys(fields)) }

// serviceEntry is one resource of the service document.
type serviceEntry struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
	URL  string `json:"url"`
}

// serviceDocument answers GET /v1/: OData's service document, the entity
// sets a client may read as collections (the review look-up is reached
// through its function, which $metadata declares).
func (s *Server) serviceDocument(w http.ResponseWriter, r *http.Request) error {
	// It takes $format=json alone, as a standing-data list does: an option
	// ignored would let a client take the answer for what it asked.
	if _, err := odata.Parse(r.URL.Query(), wholeList); err != nil {
		return err
	}
	doc := struct {
		Context string         `json:"@odata.context"`
		Value   []serviceEntry `json:"value"`
	}{Context: s.baseURL(r) + "/v1/$metadata"}
	for _, set := range serviceModel().Sets {
		if set.Capabilities.Annotate {
			doc.Value = append(doc.Value, serviceEntry{Name: set.Name, Kind: "EntitySet", URL: set.Name})
		}
	}
	slices.SortFunc(doc.Value, func(a, b serviceEntry) int { return strings.Compare(a.Name, b.Name) })
	return writeJSON(w, http.StatusOK, doc)
}

// versionPrefix is the live definitions' base path: the same interface
// as /v1, which is where Drover's routes, links and document live.
const versionPrefix = "/v1.0"

// versionAlias serves /v1.0/… as /v1/…, so a client configured with the
// live definitions' server URL works unchanged, and the service root
// without its slash (/v1, /v1.0) as /v1/: a client joins the server URL
// and a relative path either way. Links in answers name /v1, the
// canonical path, which such a client follows as given.
func (s *Server) versionAlias(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path := r.URL.Path
		rest, ok := strings.CutPrefix(path, versionPrefix)
		if ok && (rest == "" || rest[0] == '/') {
			path = "/v1" + rest
		}
		if path == "/v1" {
			path = "/v1/"
		}
		if path != r.URL.Path {
			u := *r.URL
			u.Path, u.RawPath = path, ""
			if raw, ok := strings.CutPrefix(r.URL.RawPath, versionPrefix); ok && raw != "" {
				u.RawPath = "/v1" + raw
			}
			r2 := *r
			r2.URL = &u
			r = &r2
		}
		next.ServeHTTP(w, r)
	})
}
