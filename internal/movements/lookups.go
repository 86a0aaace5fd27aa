package movements

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/odata"
	"github.com/drover-registry/drover/internal/store"
)

// Requests lists the requests of one type that u may see (their own; an
// inspector sees all) one page at a time, in ascending id order or in q's
// $orderby. more reports whether another page follows. Content is read, and put in the live
// shape, only when q shows it ($expand or $select names it); otherwise
// it is nil.
func (s *Service) Requests(ctx context.Context, u livestock.User, typ store.RequestType, q odata.Query, maxPage int) (list []store.Request, more bool, err error) {
	size := q.PageSize(maxPage)
	rq := visibleRequests(u, typ, q)
	rq.AfterID, rq.Order, rq.After, rq.Offset, rq.Limit = q.AfterID, q.Order(store.RequestKey), q.After, q.Skip, size+1
	rq.Content = q.Shows("content")
	list, err = s.store.Requests(ctx, rq)
	if err != nil {
		return nil, false, err
	}
	if rq.Content {
		for i := range list {
			list[i] = s.liveContent(list[i])
		}
	}
	if len(list) > size {
		return list[:size], true, nil
	}
	return list, false, nil
}

// CountRequests is how many requests of type typ that u may see q's
// $filter keeps: what the listing would page through.
func (s *Service) CountRequests(ctx context.Context, u livestock.User, typ store.RequestType, q odata.Query) (int64, error) {
	return s.store.CountRequests(ctx, visibleRequests(u, typ, q))
}

// visibleRequests selects the requests of type typ that u may read and
// q's $filter keeps: an inspector's, every one; a keeper's, their own
// (mayRead).
func visibleRequests(u livestock.User, typ store.RequestType, q odata.Query) store.RequestQuery {
	rq := store.RequestQuery{Type: typ, Filter: q.Filter}
	if u.Role == livestock.RoleInspector {
		rq.All = true
		return rq
	}
	rq.UserName = u.Name
	return rq
}

// Request returns one request of type typ, if u may see it. A request
// that does not exist, is of another type, or is another keeper's
// business is one and the same 404: request ids are sequential, and a 403
// told a keeper which of them were other keepers' requests.
func (s *Service) Request(ctx context.Context, u livestock.User, typ store.RequestType, id int64) (store.Request, error) {
	r, err := s.store.Request(ctx, id)
	if livestock.IsNotFound(err) || err == nil && (r.Type != typ || !mayRead(u, r)) {
		return store.Request{}, &livestock.Error{Kind: livestock.KindNotFound, Detail: fmt.Sprintf("no %s %d", typ, id)}
	}
	if err != nil {
		return r, err
	}
	return s.liveContent(r), nil
}

// mayRead reports whether u may read request r: a keeper reads only the
// requests they sent, as the live definition has it ("for most user roles
// only returns requests created by authenticated user"), even one about
// their own holding, which belongs to its sender; the inspector reads all.
// The other end of a movement sees it in HoldingMovementForReviews and
// ApprovedMovements.
func mayRead(u livestock.User, r store.Request) bool {
	return u.Role == livestock.RoleInspector || r.UserName == u.Name
}

// concerns reports whether request r is u's business as the target of a
// write: u's own, or another's transfer or correction that took effect,
// stands, and is about a holding u acts for (a movement onto u's holding
// is u's to review, by the requestId the look-up shows). One that failed,
// is still pending, or was undone made nothing u can see, and neither
// does another's review or undo. The inspector's, every one.
func concerns(u livestock.User, r store.Request) bool {
	if u.Role == livestock.RoleInspector || r.UserName == u.Name {
		return true
	}
	if r.Type != store.RequestTransfer && r.Type != store.RequestCorrection || r.IsFullUndone || !r.Status.Applied() {
		return false
	}
	for _, h := range r.Holdings {
		if u.CanActFor(h) {
			return true
		}
	}
	return false
}

// concernsNow is concerns, and for another's request, that the movement
// it made stands and is still about a holding u acts for: undoing a
// correction withdraws the movement, though the transfer it corrected is
// not itself marked undone, and a correction may send the move to another
// holding. movement reads a movement: the store's read, or in a job its
// Tx's LockMovement (the request is locked already: lockorder.go). The
// movement read, if one was (another's request), is returned for the
// caller to go on with.
func concernsNow(ctx context.Context, rd store.MovementReader, movement func(context.Context, int64) (store.Movement, error),
	u livestock.User, r store.Request) (m store.Movement, ok bool, err error) {
	if !concerns(u, r) {
		return store.Movement{}, false, nil
	}
	if u.Role == livestock.RoleInspector || r.UserName == u.Name {
		return store.Movement{}, true, nil
	}
	id, err := movementOf(ctx, rd, r)
	if err == nil {
		if m, err = movement(ctx, id); err == nil {
			return m, m.State != store.MovementUndone && (u.CanActFor(m.Source) || u.CanActFor(m.Destination)), nil
		}
	}
	if livestock.IsNotFound(err) {
		return store.Movement{}, false, nil
	}
	return store.Movement{}, false, err
}

// namedRequest reads request id, named by u in a submission: found is
// false when it is not in use for u (notyours.go). m is its movement when
// it was read to tell (another's request), else zero.
func (s *Service) namedRequest(ctx context.Context, u livestock.User, id int64) (r store.Request, m store.Movement, found bool, err error) {
	if r, err = s.store.Request(ctx, id); err == nil {
		if m, found, err = concernsNow(ctx, s.store, s.store.Movement, u, r); err == nil {
			return r, m, found, nil
		}
	}
	if livestock.IsNotFound(err) {
		err = nil
	}
	return store.Request{}, store.Movement{}, false, err
}

// AwaitingReview lists the movements of a species that await the review
// of a holding u may read, with what the review look-up shows of each.
func (s *Service) AwaitingReview(ctx context.Context, u livestock.User, species, holding string, q odata.Query, maxPage int) (items []ForReview, more bool, err error) {
	var errs fieldErrs
	sp, err := livestock.ParseMovementSpecies(species)
	if err != nil {
		errs.add("path:species", err)
	}
	if holding == "" || holding == "null" {
		// The live parameter is "required for administration users,
		// optional otherwise": a keeper who names no holding is shown
		// every holding they act for.
		if u.Role == livestock.RoleInspector {
			errs = append(errs, livestock.FieldError{Code: livestock.CodeMissing, Source: "path:holding",
				Message: "the inspector names the holding whose reviews to list"})
		}
		if err := errs.err(); err != nil {
			return nil, false, err
		}
		return s.awaitingAnyHolding(ctx, u, sp, q, maxPage)
	}
	ref, err := livestock.ParseHoldingRef(holding, true)
	if err != nil {
		errs.add("path:holding", err)
	}
	if err := errs.err(); err != nil {
		return nil, false, err
	}
	cph, err := s.cphOf(ctx, ref) // an abattoir may be named by its MHS (livestock-movements.md: "CPH or MHS")
	if err != nil {
		return nil, false, err
	}
	if u.Role == livestock.RoleInspector {
		// An inspector reads every holding, and may be told which do not
		// exist: an empty list would hide a mistyped CPH. A keeper is
		// refused as for any holding not theirs, which tells them nothing.
		if !cph.IsZero() {
			switch _, err := s.store.Holding(ctx, cph); {
			case livestock.IsNotFound(err):
				cph = livestock.CPH{}
			case err != nil:
				return nil, false, err
			}
		}
		if cph.IsZero() {
			msg := "no holding " + ref.String()
			return nil, false, &livestock.Error{Kind: livestock.KindNotFound, Detail: msg,
				Fields: []livestock.FieldError{{Code: livestock.CodeNotFound, Source: "path:holding", Value: ref.String(), Message: msg}}}
		}
	}
	if cph.IsZero() { // an MHS no abattoir has
		return nil, false, forbidden("path:holding", ref.String(), "you may not read holding "+ref.String())
	}
	if !u.CanRead(cph) {
		// Named as the caller named it: an MHS's holding is not theirs to learn.
		return nil, false, forbidden("path:holding", ref.String(), "you may not read holding "+ref.String())
	}
	size := q.PageSize(maxPage)
	rq := store.ReviewQuery{Holding: cph, Species: sp, Filter: q.Filter, AfterID: q.AfterID, Offset: q.Skip, Limit: size + 1}
	list, err := s.store.PendingReviews(ctx, rq)
	if err != nil {
		return nil, false, err
	}
	if len(list) > size {
		list, more = list[:size], true
	}
	items, err = s.detailReviews(ctx, rq, list)
	return items, more, err
}

// awaitingAnyHolding is AwaitingReview over every holding u acts for: each
// holding's list read up to the page's end, merged in id order.
func (s *Service) awaitingAnyHolding(ctx context.Context, u livestock.User, sp livestock.Species, q odata.Query, maxPage int) ([]ForReview, bool, error) {
	size := q.PageSize(maxPage)
	var all []store.Movement
	queries := map[livestock.CPH]store.ReviewQuery{}
	for _, h := range u.Holdings {
		if !u.CanActFor(h.CPH) {
			continue
		}
		rq := store.ReviewQuery{Holding: h.CPH, Species: sp, Filter: q.Filter, AfterID: q.AfterID, Limit: q.Skip + size + 1}
		list, err := s.store.PendingReviews(ctx, rq)
		if err != nil {
			return nil, false, err
		}
		queries[h.CPH] = rq
		all = append(all, list...)
	}
	slices.SortFunc(all, func(a, b store.Movement) int { return cmp.Compare(a.ID, b.ID) })
	all = all[min(q.Skip, len(all)):]
	more := len(all) > size
	all = all[:min(size, len(all))]
	// Each holding's items are detailed as its own look-up details them.
	byHolding := map[livestock.CPH][]store.Movement{}
	for _, m := range all {
		byHolding[m.ReviewHolding] = append(byHolding[m.ReviewHolding], m)
	}
	var items []ForReview
	for h, list := range byHolding {
		detailed, err := s.detailReviews(ctx, queries[h], list)
		if err != nil {
			return nil, false, err
		}
		items = append(items, detailed...)
	}
	slices.SortFunc(items, func(a, b ForReview) int { return cmp.Compare(a.ID, b.ID) })
	return items, more, nil
}

// HoldingState is the live service's verdict on one holding number.
type HoldingState int

const (
	HoldingValid   HoldingState = 1 // a registered holding
	HoldingInvalid HoldingState = 2 // not a holding number, or none registered under it
)

// HoldingResult is the validation of one holding, as the live service
// answers it (ValidHoldingResult).
type HoldingResult struct {
	Holding      string       // the entry as sent: a string's value, anything else as its JSON text
	State        HoldingState //
	PropertyName string       // the holding's name when Valid; "" when it is Invalid or has none
}

// ValidHoldings says of each holding whether it is registered, one result
// per entry, in order. An entry that is not a holding number (not even a
// string) is Invalid; only a body with no list of holdings is refused.
func (s *Service) ValidHoldings(ctx context.Context, body []byte) ([]HoldingResult, error) {
	content, err := openEnvelope(body)
	if err != nil {
		return nil, err
	}
	var w struct {
		Holdings []json.RawMessage `json:"holdings"`
	}
	if err := decodeStrict(content, &w); err != nil {
		return nil, err
	}
	if len(w.Holdings) == 0 {
		return nil, livestock.Invalid("there are no holdings to validate", livestock.FieldError{Code: livestock.CodeMissing,
			Source: "/content/holdings", Message: "a list of at least one holding number is required"})
	}
	out := make([]HoldingResult, 0, len(w.Holdings))
	for _, raw := range w.Holdings {
		res := HoldingResult{Holding: string(raw), State: HoldingInvalid}
		var h string
		if json.Unmarshal(raw, &h) == nil {
			res.Holding = h
			if res.PropertyName, err = s.holdingName(ctx, h); err == nil {
				res.State = HoldingValid
			} else if !livestock.IsNotFound(err) {
				return nil, err
			}
		}
		out = append(out, res)
	}
	return out, nil
}

// holdingName returns the name of the registered holding h, or a
// KindNotFound error when h is no registered holding. Valid only as a
// request body must write it: a CPH's nine digits or its %2f form are
// read in a path, but a transfer naming the holding so would be refused
// (S008).
func (s *Service) holdingName(ctx context.Context, h string) (string, error) {
	ref, err := livestock.ParseHoldingRef(h, true)
	if err != nil || ref.String() != h {
		return "", livestock.Errorf(livestock.KindNotFound, "%q is not written as a holding number", h)
	}
	var hold livestock.Holding
	if ref.MHS.IsZero() {
		hold, err = s.store.Holding(ctx, ref.CPH)
	} else {
		hold, err = s.store.HoldingByMHS(ctx, ref.MHS)
	}
	return hold.Name, err
}
