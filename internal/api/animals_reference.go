package api

import (
	"cmp"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/standing"
)

// The registration interface's reference lists, in the live service's
// shapes ({count, values}), from the standing data (standing/lis.go). The
// OpenAPI document has checked the query (species required and known,
// page numbers whole and positive) before a handler runs.

type referenceList[T any] struct {
	Count  int `json:"count"`
	Values []T `json:"values"`
}

func writeReferences[T any](w http.ResponseWriter, values []T) error {
	if values == nil {
		values = []T{}
	}
	w.Header().Set("Cache-Control", "max-age=3600")
	return writeJSON(w, http.StatusOK, referenceList[T]{Count: len(values), Values: values})
}

// mapRefs turns references into wire items.
func mapRefs[T any](rs []standing.Reference, f func(standing.Reference) T) []T {
	out := make([]T, 0, len(rs))
	for _, r := range rs {
		out = append(out, f(r))
	}
	return out
}

type breedItem struct {
	Code       string `json:"code"`
	Name       string `json:"name"`
	CrossBreed bool   `json:"crossBreed"`
}

// breeds answers GET /v1/breeds?species=….
func (s *Server) breeds(w http.ResponseWriter, r *http.Request) error {
	return writeReferences(w, mapRefs(s.standing.Breeds(r.URL.Query().Get("species")), func(b standing.Reference) breedItem {
		return breedItem{Code: b.Code, Name: b.Name, CrossBreed: standing.CrossBreed(b)}
	}))
}

type deathReasonItem struct {
	ID     string `json:"deathReasonId"`
	Reason string `json:"deathReason"`
}

// deathReasons answers GET /v1/deathreasons?species=…; a registration
// names a reason by its deathReasonId (death.reason.id).
func (s *Server) deathReasons(w http.ResponseWriter, r *http.Request) error {
	return writeReferences(w, mapRefs(s.standing.DeathReasons(r.URL.Query().Get("species")), func(d standing.Reference) deathReasonItem {
		return deathReasonItem{ID: d.ID, Reason: d.Name}
	}))
}

type genotypeItem struct {
	Genotype string `json:"genotype"`
}

// genotypes answers GET /v1/genotypes?species=….
func (s *Server) genotypes(w http.ResponseWriter, r *http.Request) error {
	return writeReferences(w, mapRefs(s.standing.Genotypes(r.URL.Query().Get("species")), func(g standing.Reference) genotypeItem {
		return genotypeItem{Genotype: g.Code}
	}))
}

type rejectionReasonItem struct {
	ID     string `json:"rejectionReasonId"`
	Reason string `json:"rejectionReason"`
}

// rejectionReasons answers GET /v1/rejectionreasons?species=…[&text=…]:
// text keeps the reasons whose wording contains it, in any letter case.
func (s *Server) rejectionReasons(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	text := strings.ToLower(q.Get("text"))
	var items []rejectionReasonItem
	for _, x := range s.standing.RejectionReasons(q.Get("species")) {
		if strings.Contains(strings.ToLower(x.Name), text) {
			items = append(items, rejectionReasonItem{ID: x.ID, Reason: x.Name})
		}
	}
	return writeReferences(w, items)
}

type haulierItem struct {
	AuthorisationNumber string   `json:"authorisationNumber"`
	Name                string   `json:"name"`
	Species             []string `json:"species"`
	State               string   `json:"state,omitempty"`
	Mobile              string   `json:"mobile,omitempty"`
	Landline            string   `json:"landline,omitempty"`
	Email               string   `json:"email,omitempty"`
	Address             *struct {
		SingleLineAddress string `json:"singleLineAddress,omitempty"`
		Postcode          string `json:"postcode,omitempty"`
	} `json:"correspondenceAddress,omitempty"`
}

// hauliers answers GET /v1/hauliers: those that carry any of the species
// asked for (all when none is), whose name contains name in any letter
// case, ordered by partyNumber (the authorisation number; the default) or
// name, asc or desc, a page at a time (page from 1; pageSize up to the
// service's largest page, which is also the default). count is the number
// of hauliers that match, on every page.
func (s *Server) hauliers(w http.ResponseWriter, r *http.Request) error {
	q := r.URL.Query()
	species, name := q["species"], strings.ToLower(q.Get("name"))
	var items []haulierItem
	for _, h := range s.standing.Hauliers() {
		carries := standing.Species(h)
		if !strings.Contains(strings.ToLower(h.Name), name) ||
			len(species) > 0 && !slices.ContainsFunc(species, func(sp string) bool { return slices.Contains(carries, sp) }) {
			continue
		}
		it := haulierItem{AuthorisationNumber: h.Code, Name: h.Name, Species: carries, State: h.Extra["state"],
			Mobile: h.Extra["mobile"], Landline: h.Extra["landline"], Email: h.Extra["email"]}
		if it.Species == nil {
			it.Species = []string{}
		}
		if h.Extra["address"] != "" || h.Extra["postcode"] != "" {
			it.Address = &struct {
				SingleLineAddress string `json:"singleLineAddress,omitempty"`
				Postcode          string `json:"postcode,omitempty"`
			}{h.Extra["address"], h.Extra["postcode"]}
		}
		items = append(items, it)
	}
	key := func(h haulierItem) string { return h.AuthorisationNumber }
	if q.Get("order") == "name" {
		key = func(h haulierItem) string { return strings.ToLower(h.Name) }
	}
	slices.SortStableFunc(items, func(a, b haulierItem) int { return cmp.Compare(key(a), key(b)) })
	if q.Get("sort") == "desc" {
		slices.Reverse(items)
	}
	page, err := positive(q, "page", 1)
	if err != nil {
		return err
	}
	size, err := positive(q, "pageSize", s.cfg.MaxPage)
	if err != nil {
		return err
	}
	size = min(size, s.cfg.MaxPage)
	count := len(items)
	from := min(count, (page-1)*size)
	items = items[from:min(count, from+size)]
	if items == nil {
		items = []haulierItem{}
	}
	w.Header().Set("Cache-Control", "max-age=3600")
	return writeJSON(w, http.StatusOK, referenceList[haulierItem]{Count: count, Values: items})
}

// positive reads a whole, positive query parameter, or def when absent.
func positive(q map[string][]string, name string, def int) (int, error) {
	v := ""
	if vs := q[name]; len(vs) > 0 {
		v = vs[0]
	}
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 1_000_000 {
		return 0, livestock.Invalid("a paging parameter is out of range", livestock.FieldError{Code: livestock.CodeBadFormat,
			Source: "query:" + name, Value: v, Message: "must be a whole number from 1 to 1000000"})
	}
	return n, nil
}
