package api

import (
	"net/http"
	"strings"

	"github.com/drover-registry/drover/internal/livestock"
)

// movementsSets are the first path segments of the movements interface
// (after /v1 or /v1.0), by the live error catalogue each answers from.
// Other paths of the interface ($metadata, the service document, standing
// data) answer with the generic catalogue.
var movementsSets = map[string]livestock.Endpoint{
	"transferrequests":              livestock.EndpointTransfer,
	"correcttransferrequests":       livestock.EndpointCorrection,
	"reviewholdingmovementrequests": livestock.EndpointReview,
	"undorequests":                  livestock.EndpointUndo,
	"holdingmovementforreviews":     livestock.EndpointReviewLookup,
	"holdings":                      livestock.EndpointHoldings,
	"approvedmovements":             livestock.EndpointApproved,
	"$metadata":                     livestock.EndpointOtherMovement,
	"standingdata":                  livestock.EndpointOtherMovement,
	"":                              livestock.EndpointOtherMovement,
}

// movementsEndpoint reports whether path is on the movements interface,
// and which endpoint's catalogue its errors come from. The registration
// interface (animals, requeststatus, its reference lists) and Drover's own
// paths are not: their errors keep the problem body alone.
func movementsEndpoint(path string) (livestock.Endpoint, bool) {
	rest, ok := strings.CutPrefix(path, "/v1/")
	if !ok {
		if rest, ok = strings.CutPrefix(path, "/v1.0/"); !ok {
			return "", false
		}
	}
	if droverHoldingPath(rest) {
		return "", false
	}
	if i := strings.IndexAny(rest, "(/"); i >= 0 {
		rest = rest[:i]
	}
	ep, ok := movementsSets[strings.ToLower(rest)]
	return ep, ok
}

// liveSystemException is the live code of a fault met while answering:
// "A system exception has occurred during the request validation".
const liveSystemException = "313"

// liveError is p as the live service's error: the first rule broken (the
// one field a 4xx always names) and, in details, every rule broken, each
// under the live catalogue's code for the endpoint.
func liveError(ep livestock.Endpoint, p problem) claError {
	e := claError{Message: p.Detail, Details: make([]singleError, 0, len(p.Errors))}
	for _, f := range p.Errors {
		fe := livestock.FieldError{Code: f.Code, Source: f.Source, Value: f.Value}
		code := fe.LiveCode(ep)
		if f.Code == livestock.CodeInternal {
			code = liveSystemException // the endpoint's own code is its background job's
		}
		e.Details = append(e.Details, singleError{Code: code, Message: f.Message, Target: livestock.Target(f.Source)})
	}
	if len(e.Details) > 0 {
		e.Code, e.Target = e.Details[0].Code, e.Details[0].Target
		if e.Message == "" {
			e.Message = e.Details[0].Message
		}
	}
	return e
}

// movementsError is the error body of the movements interface's live
// operations: the live CLAErrorResponse ({"error": …}, OData's JSON error
// format) with the interface document's errors list beside it, each entry
// naming its field. A 404 also carries the members of the problem details
// the live definition declares for it (type, title, status, detail).
type movementsError struct {
	Type   string         `json:"type,omitempty"`
	Title  string         `json:"title,omitempty"`
	Status int            `json:"status,omitempty"`
	Detail string         `json:"detail,omitempty"`
	Error  claError       `json:"error"`
	Errors []problemError `json:"errors"`
}

// movementsProblem is p as the body of a live operation of endpoint ep.
func movementsProblem(ep livestock.Endpoint, p problem) movementsError {
	body := movementsError{Error: liveError(ep, p), Errors: p.Errors}
	if p.Status == http.StatusNotFound {
		body.Type, body.Title, body.Status, body.Detail = p.Type, p.Title, p.Status, p.Detail
	}
	return body
}

// droverHoldingPath reports whether rest (a path after /v1/) is one of
// Drover's own holding endpoints (/holdings/{holding}/animals, …/movements),
// which answer problem details, not the movements interface's body that
// /Holdings/ValidHoldings, the one live path under holdings, does.
func droverHoldingPath(rest string) bool {
	first, after, ok := strings.Cut(rest, "/")
	return ok && strings.EqualFold(first, "holdings") && !strings.EqualFold(after, "ValidHoldings")
}
