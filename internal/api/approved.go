package api

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/drover-registry/drover/internal/auth"
	"github.com/drover-registry/drover/internal/movements"
	"github.com/drover-registry/drover/internal/odata"
	"github.com/drover-registry/drover/internal/store"
)

// approvedSet is the entity set of approved movements: each end's record
// of a movement applied to the registry (store.ApprovedMovement).
const approvedSet = "ApprovedMovements"

// listApproved answers GET /v1/ApprovedMovements.
func (s *Server) listApproved(w http.ResponseWriter, r *http.Request) error {
	return s.approvedPage(w, r, nil)
}

// approvedByRange answers GET /v1/ApprovedMovements/ByTransferDateRange(…):
// the collection, narrowed by the function's parameters, which the live
// service's rules check first.
func (s *Server) approvedByRange(w http.ResponseWriter, r *http.Request) error {
	u, _ := auth.UserFrom(r.Context())
	var tr movements.TransferRange
	for _, p := range []struct {
		name string
		to   *string
		raw  bool // a holding: its %2F is for the CPH parser (awaitingReview says why)
	}{
		{"speciesId", &tr.SpeciesID, false}, {"startTransferDate", &tr.Start, false}, {"endTransferDate", &tr.End, false},
		{"departureHolding", &tr.Departure, true}, {"destinationHolding", &tr.Destination, true},
	} {
		v := chi.URLParam(r, p.name)
		if !p.raw {
			var err error
			if v, err = decodeParam(v); err != nil {
				return err
			}
		}
		*p.to = functionValue(v)
	}
	narrow, err := s.movements.RangeFilter(r.Context(), u, tr)
	if err != nil {
		return err
	}
	return s.approvedPage(w, r, narrow)
}

// approvedCollection is what the query options of the approved movements
// may name: $filter and $orderby over ApprovedFilterFields, $select over
// the record's members, $expand of its related members, and $count.
func (s *Server) approvedCollection() odata.Collection {
	return odata.Collection{Fields: store.ApprovedFilterFields, OrderBy: true, Key: store.ApprovedKey,
		Members: jsonMembers(approvedMovement{}), Expand: approvedExpand, Count: true, Format: true, MaxPage: s.cfg.MaxPage}
}

// approvedEntity is what the query options of one record may name:
// $select and $expand, as the live definition has them.
func (s *Server) approvedEntity() odata.Collection {
	return odata.Collection{Members: jsonMembers(approvedMovement{}), Expand: approvedExpand, Format: true, MaxPage: s.cfg.MaxPage, Single: true}
}

// approvedPage writes one page of the approved movements narrow and the
// query's $filter keep, in key order or the query's $orderby.
func (s *Server) approvedPage(w http.ResponseWriter, r *http.Request, narrow odata.Expr) error {
	u, _ := auth.UserFrom(r.Context())
	q, err := odata.Parse(r.URL.Query(), s.approvedCollection())
	if err != nil {
		return err
	}
	q = withKey(q, approvedKey...)
	list, more, err := s.movements.ApprovedMovements(r.Context(), u, narrow, q, s.cfg.MaxPage)
	if err != nil {
		return err
	}
	page := collection{Context: contextURL(s.baseURL(r), approvedSet, q), Value: make([]any, 0, len(list))}
	if q.Count {
		n, err := s.movements.CountApproved(r.Context(), u, narrow, q)
		if err != nil {
			return err
		}
		page.Count = &n
	}
	for _, a := range list {
		item, err := selectMembers(s.approvedRecord(a, ""), q)
		if err != nil {
			return err
		}
		page.Value = append(page.Value, item)
	}
	if more && !q.HasTop {
		last := list[len(list)-1]
		page.NextLink = s.nextLink(r, q, store.ApprovedKey, last.Key(), last.Values(q.Order(store.ApprovedKey...)))
	}
	return writeJSON(w, http.StatusOK, page)
}

// getApproved answers GET /v1/ApprovedMovements({id},{recordedBy}). The
// key is accepted as OData writes it too: recordedBy quoted, and either
// part named (id=7,recordedBy='Departure').
func (s *Server) getApproved(w http.ResponseWriter, r *http.Request) error {
	u, _ := auth.UserFrom(r.Context())
	rawID, err := decodeParam(chi.URLParam(r, "id"))
	if err != nil {
		return err
	}
	rawSide, err := decodeParam(chi.URLParam(r, "recordedBy"))
	if err != nil {
		return err
	}
	rawID, rawSide = strings.TrimPrefix(rawID, "id="), functionValue(strings.TrimPrefix(rawSide, "recordedBy="))
	id, err := strconv.ParseInt(rawID, 10, 64)
	if err != nil || id < 1 {
		return badPathID("id", rawID)
	}
	q, err := odata.Parse(r.URL.Query(), s.approvedEntity())
	if err != nil {
		return err
	}
	q = withKey(q, approvedKey...)
	a, err := s.movements.ApprovedMovement(r.Context(), u, id, rawSide)
	if err != nil {
		return err
	}
	rec, err := selectMembers(s.approvedRecord(a, contextURL(s.baseURL(r), approvedSet, q)+"/$entity"), q)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, rec)
}

// nullEmptyParams writes a function parameter given empty, as in
// departureHolding=,destinationHolding=…, as null, its OData spelling:
// every path parameter is required, and an empty one would be refused as
// missing before the handler reads it as "no value".
func nullEmptyParams(next http.Handler) http.Handler { return nullEmpty()(next) }

// nullEmpty is nullEmptyParams for the parameters named only (all when
// none is): the review look-up's holding may be empty, its species not.
func nullEmpty(names ...string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if rc := chi.RouteContext(r.Context()); rc != nil {
				for i, v := range rc.URLParams.Values {
					if v == "" && (len(names) == 0 || slices.Contains(names, rc.URLParams.Keys[i])) {
						rc.URLParams.Values[i] = "null"
					}
				}
			}
			next.ServeHTTP(w, r)
		})
	}
}

// functionValue is a function or key parameter's value as written in the
// path: quoted ('x') or not, with null (or nothing) for no value.
func functionValue(v string) string {
	if len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'' {
		return strings.ReplaceAll(v[1:len(v)-1], "''", "'")
	}
	if v == "null" {
		return ""
	}
	return v
}

// withKey adds an entity's key members to a $select that leaves any out:
// a record is always answered with the identity a client names it by
// again, which its schema requires.
func withKey(q odata.Query, key ...string) odata.Query {
	if q.Select == nil {
		return q
	}
	sel := slices.Clone(q.Select)
	for _, k := range key {
		if !slices.Contains(sel, k) {
			sel = append(sel, k)
		}
	}
	q.Select = sel
	return q
}

// approvedKey is an approved movement's key: its id and the end that
// recorded it.
var approvedKey = []string{"id", "recordedBy"}
