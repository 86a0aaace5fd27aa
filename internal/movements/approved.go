package movements

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/odata"
	"github.com/drover-registry/drover/internal/store"
)

// reportedBy is the end of a transfer its keeper reported from: the
// departure when userHolding is the source holding, else the destination.
func reportedBy(t livestock.Transfer) store.Side {
	if t.UserHolding.MHS.IsZero() && t.UserHolding.CPH == t.Source {
		return store.SideDeparture
	}
	return store.SideDestination
}

// ApprovedMovements lists the approved movements u may see — an inspector
// every one, a keeper the records of the ends they act for — that both
// narrow (nil for none) and q's $filter keep, one page at a time, in key
// order or q's $orderby, each with the facts of the request that made it.
// more reports whether another page follows.
func (s *Service) ApprovedMovements(ctx context.Context, u livestock.User, narrow odata.Expr, q odata.Query, maxPage int) (list []Approved, more bool, err error) {
	size := q.PageSize(maxPage)
	aq := approvedQuery(u, narrow, q)
	aq.AfterKey, aq.Order, aq.After, aq.Offset, aq.Limit = q.AfterID, q.Order(store.ApprovedKey...), q.After, q.Skip, size+1
	found, err := s.store.ApprovedMovements(ctx, aq)
	if err != nil {
		return nil, false, err
	}
	if len(found) > size {
		found, more = found[:size], true
	}
	list, err = s.detailApproved(ctx, found)
	return list, more, err
}

// CountApproved is how many approved movements the listing with the same
// narrow and $filter pages through for u.
func (s *Service) CountApproved(ctx context.Context, u livestock.User, narrow odata.Expr, q odata.Query) (int64, error) {
	return s.store.CountApproved(ctx, approvedQuery(u, narrow, q))
}

// approvedQuery selects the approved movements u may see that narrow and
// q's $filter keep, paging aside.
func approvedQuery(u livestock.User, narrow odata.Expr, q odata.Query) store.ApprovedQuery {
	aq := store.ApprovedQuery{All: u.Role == livestock.RoleInspector, Filter: both(narrow, q.Filter)}
	if !aq.All {
		for _, h := range u.Holdings {
			aq.Holdings = append(aq.Holdings, h.CPH)
		}
	}
	return aq
}

// ApprovedMovement is movement id's record by recordedBy (Departure or
// Destination), if u may see it: 404 when there is none, or it is the
// record of an end u does not act for (the live service answers so).
func (s *Service) ApprovedMovement(ctx context.Context, u livestock.User, id int64, recordedBy string) (Approved, error) {
	side, ok := ParseSide(recordedBy)
	if !ok {
		return Approved{}, livestock.Invalid("recordedBy is not valid", livestock.FieldError{Code: livestock.CodeBadEnum,
			Source: "path:recordedBy", Value: recordedBy, Message: "recordedBy is Departure or Destination"})
	}
	// Not there and not the caller's are one answer, at the key's id.
	notFound := func() error {
		msg := fmt.Sprintf("no approved movement (%d,%s)", id, side)
		return &livestock.Error{Kind: livestock.KindNotFound, Detail: msg, Fields: []livestock.FieldError{
			{Code: livestock.CodeNotFound, Source: "path:id", Value: strconv.FormatInt(id, 10), Message: msg}}}
	}
	a, err := s.store.ApprovedMovement(ctx, id, side)
	if livestock.IsNotFound(err) {
		return Approved{}, notFound()
	}
	if err != nil {
		return Approved{}, err
	}
	end := a.Source
	if side == store.SideDestination {
		end = a.Destination
	}
	if u.Role != livestock.RoleInspector && !u.CanActFor(end) {
		return Approved{}, notFound()
	}
	list, err := s.detailApproved(ctx, []store.ApprovedMovement{a})
	if err != nil {
		return Approved{}, err
	}
	return list[0], nil
}

// ParseSide reads Departure or Destination, in any letter case.
func ParseSide(s string) (store.Side, bool) {
	for _, side := range []store.Side{store.SideDeparture, store.SideDestination} {
		if strings.EqualFold(s, string(side)) {
			return side, true
		}
	}
	return "", false
}

// TransferRange is the parameters of ApprovedMovements/ByTransferDateRange
// as the path gives them, unquoted; "" is a value not given.
type TransferRange struct {
	SpeciesID, Start, End, Departure, Destination string
}

// maxRange is how long a range may be: less than a year from its start.
const maxRange = 1

// RangeFilter checks r by the live service's rules for u and returns the
// condition it puts on approved movements. Every broken rule is reported
// at once, each naming its parameter.
func (s *Service) RangeFilter(ctx context.Context, u livestock.User, r TransferRange) (odata.Expr, error) {
	var errs []livestock.FieldError
	bad := func(code livestock.Code, param, value, msg string) {
		errs = append(errs, livestock.FieldError{Code: code, Source: "path:" + param, Value: value, Message: msg})
	}
	var conds []odata.Expr
	add := func(field string, op odata.Op, v any) {
		conds = append(conds, &odata.Comparison{Field: field, Op: op, Value: v})
	}

	if sp, ok := speciesByID(r.SpeciesID); ok {
		add("speciesId", odata.Eq, int64(sp.ID()))
	} else {
		bad(livestock.CodeRangeSpeciesID, "speciesId", r.SpeciesID, fmt.Sprintf("SpeciesId %s is not valid: use %s", r.SpeciesID, speciesIDs()))
	}

	start, startOK := rangeDate(r.Start, "startTransferDate", bad, false)
	end, endOK := rangeDate(r.End, "endTransferDate", bad, true)
	switch {
	case r.Start == "" || r.End == "":
		param := "startTransferDate"
		if r.Start != "" {
			param = "endTransferDate"
		}
		bad(livestock.CodeRangeDates, param, "", "Both startTransferDate and endTransferDate must be specified")
	case startOK && endOK:
		if start.After(s.now()) {
			bad(livestock.CodeRangeFuture, "startTransferDate", r.Start, "startTransferDate cannot be in the future")
		}
		if !start.Before(end) {
			bad(livestock.CodeRangeOrder, "startTransferDate", r.Start, "startTransferDate must be before endTransferDate")
		} else if !end.Before(start.AddDate(maxRange, 0, 0)) {
			bad(livestock.CodeRangeTooLong, "endTransferDate", r.End, "the date range must be less than 1 year between startTransferDate and endTransferDate")
		}
		add("transferDate", odata.Ge, start)
		add("transferDate", odata.Le, end)
	}

	given, mine := 0, false
	var named []string // the registered holdings named, as CPHs
	for _, h := range []struct{ param, value, field string }{
		{"departureHolding", r.Departure, "sourceHolding"},
		{"destinationHolding", r.Destination, "destinationHolding"},
	} {
		if h.value == "" {
			continue
		}
		given++
		cph, err := s.registered(ctx, h.value)
		if err != nil {
			return nil, err
		}
		if cph.IsZero() {
			bad(livestock.CodeRangeHolding, h.param, h.value, fmt.Sprintf("Holding %s is not a valid CPH or MHS number of a registered holding", slashes.Replace(h.value)))
			continue
		}
		mine = mine || u.CanActFor(cph)
		named = append(named, cph.String())
		add(h.field, odata.Eq, cph.String())
	}
	// The live rule holds for everyone: a keeper's own records of every
	// holding are GET /v1/ApprovedMovements with a $filter on transferDate.
	if given == 0 {
		bad(livestock.CodeRangeNoHolding, "departureHolding", "", "Either departureHolding or destinationHolding must be specified")
	}
	if len(errs) > 0 {
		return nil, livestock.Invalid("the transfer date range cannot be used", errs...)
	}
	if len(named) > 0 && !mine && u.Role != livestock.RoleInspector {
		return nil, forbidden("path:departureHolding", strings.Join(named, ","), "you act for neither departureHolding nor destinationHolding")
	}
	var e odata.Expr
	for _, c := range conds {
		e = both(e, c)
	}
	return e, nil
}

// speciesByID is the movements species whose number s is.
func speciesByID(s string) (livestock.Species, bool) {
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, false
	}
	return livestock.MovementSpeciesByID(id)
}

func speciesIDs() string {
	var out []string
	for _, name := range livestock.MovementSpeciesNames() {
		sp, _ := livestock.ParseMovementSpecies(name)
		out = append(out, fmt.Sprintf("%d (%s)", sp.ID(), name))
	}
	return strings.Join(out, ", ")
}

// rangeDate reads a date-time of the range; a plain date is taken as its
// 00:00Z. A value not given is not read (the caller reports it).
func rangeDate(s, param string, bad func(livestock.Code, string, string, string), end bool) (time.Time, bool) {
	if s == "" {
		return time.Time{}, false
	}
	// The movements document tells callers to write ":" as %3b in a
	// date-time, which decodes to ";", as $filter reads it too.
	if t, err := livestock.ParseDateTime(strings.ReplaceAll(s, ";", ":")); err == nil {
		return t.Time(), true
	}
	if d, err := livestock.ParseDate(s); err == nil {
		if end { // a day names all of it: transfer dates are date-times
			return d.Time().Add(24*time.Hour - time.Microsecond), true
		}
		return d.Time(), true
	}
	bad(livestock.CodeBadFormat, param, s, param+" must be a date-time, yyyy-MM-ddTHH:mm:ssK, e.g. 2026-03-01T00:00:00Z")
	return time.Time{}, false
}

// registered is the CPH of a registered holding named by CPH or MHS, or
// the zero CPH when s names none.
func (s *Service) registered(ctx context.Context, h string) (livestock.CPH, error) {
	ref, err := livestock.ParseHoldingRef(h, true)
	if err != nil {
		return livestock.CPH{}, nil
	}
	cph, err := s.cphOf(ctx, ref)
	if err != nil || cph.IsZero() {
		return livestock.CPH{}, err
	}
	if _, err := s.store.Holding(ctx, cph); livestock.IsNotFound(err) {
		return livestock.CPH{}, nil
	} else if err != nil {
		return livestock.CPH{}, err
	}
	return cph, nil
}

// both is the conjunction of a and b, either of which may be nil.
func both(a, b odata.Expr) odata.Expr {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	return &odata.And{Left: a, Right: b}
}

// slashes writes a holding's %2f, as a URL carries it, as the slash it
// stands for, for a message.
var slashes = strings.NewReplacer("%2f", "/", "%2F", "/")
