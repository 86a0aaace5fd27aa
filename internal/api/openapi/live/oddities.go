package live

import (
	"net/http"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// This file is the one place where the check departs from the live
// definitions as published. Two kinds of departure live here, each named:
// the definitions' own faults (see ../shared/spec/live/README.md), which a
// generated client survives because the live service behaves otherwise;
// and what Drover sends on purpose beyond the definitions because an
// interface document binds it. Anything else an answer does that the
// definitions do not declare is a finding.

// Oddity 1. The list schemas (…ListResult) and every entity schema of the
// CLA definition say additionalProperties: false, so they forbid the OData
// control members the live service sends at the top of each answer
// (@odata.context, and @odata.nextLink and @odata.count on a page). These
// members, with their OData types, are removed from the top of a CLA
// answer before the schema check; any other @odata member stays and fails.
var odataControl = map[string]func(any) bool{
	"@odata.context":  isString,
	"@odata.nextLink": isString,
	"@odata.count":    isNumber,
}

// Oddity 2. The LIS definition declares Errors (every 4xx and 5xx body of
// the registration interface) as an array of ProblemDetails, and
// ProblemDetails.errors as one more ProblemDetails; its examples, and the
// live service, send one problem object whose errors member is an array of
// {code, detail, source, value}. The check holds answers to the examples.
func problemErrors() *openapi3.Schema {
	item := openapi3.NewObjectSchema().
		WithProperty("code", openapi3.NewStringSchema()).
		WithProperty("detail", openapi3.NewStringSchema()).
		WithProperty("source", openapi3.NewStringSchema()).
		WithProperty("value", openapi3.NewStringSchema())
	s := openapi3.NewObjectSchema().
		WithProperty("type", openapi3.NewStringSchema()).
		WithPropertyRef("status", &openapi3.SchemaRef{Value: openapi3.NewIntegerSchema().WithMin(100).WithMax(599)}).
		WithProperty("title", openapi3.NewStringSchema()).
		WithProperty("detail", openapi3.NewStringSchema()).
		WithProperty("errors", openapi3.NewArraySchema().WithItems(item))
	s.Required = []string{"type", "status", "title", "detail"}
	return s
}

// Oddity 3. The CLA definition declares only the subscription key
// (apiKeyHeader, apiKeyQuery), though its endpoints need a user's bearer
// token, so it declares none of the answers to a missing, bad or
// insufficient token. A 401 or a 403 to a CLA operation, and a 401 to a LIS
// operation (whose definition declares the token but no 401), are answers
// of the security layer: their status is accepted. A LIS one's body is
// left to Drover's own document, which declares it; a CLA one's is the
// live error body (oddity 7).
func securityAnswer(def string, status int) bool {
	return status == http.StatusUnauthorized || def == "CLA" && status == http.StatusForbidden
}

// Oddity 7. livestock-movements.md binds answers the CLA definition does
// not declare: 403 (refused, usually for lack of permission), 429 (too
// many requests), 503 (overload or maintenance) and 504 (a time-out inside
// the service) on every operation (its Errors section), and a body over
// the size limit is refused before it is read (413, its Limits). The
// definition's /$count operations declare only 200, though a $filter they
// cannot read must be refused (400, "do not conform to the Open API
// description"). These statuses are accepted, and their body must be the
// live error body (CLAErrorResponse with the allowed extras), as every
// other error of the interface.
func claInfrastructureAnswer(op *Operation, status int) bool {
	if op.Def != "CLA" {
		return false
	}
	switch status {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusRequestEntityTooLarge,
		http.StatusTooManyRequests, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	case http.StatusBadRequest:
		return strings.HasSuffix(op.Path, "/$count")
	}
	return false
}

// claErrorSchema is the live error body of the CLA definition.
const claErrorSchema = "CLAOData.Infrastructure.ErrorHandling.CLAErrorResponse"

// Oddity 4. Holdings/ValidHoldings lists its response example among its
// request examples (named "… - Response"); it is never sent as a request.
func isMisplacedResponseExample(name string) bool {
	return strings.HasSuffix(strings.ToLower(name), "- response")
}

// Oddity 6. The LIS RequestStatus schema is a oneOf of a movement answer,
// another movement answer and an animal answer, none of which requires a
// member, so every object matches all three and no answer can satisfy
// "exactly one". The live example's answer is the animal one; the check
// holds a status to at least one of them (anyOf).
func oneOfAsAnyOf(schemas openapi3.Schemas, name string) {
	if ref := schemas[name]; ref != nil && ref.Value != nil && len(ref.Value.OneOf) > 0 {
		ref.Value.AnyOf, ref.Value.OneOf = ref.Value.OneOf, nil
	}
}

// Oddity 5, of the checker rather than the definitions: kin-openapi cannot
// read a header whose schema is an allOf without a type (it decodes every
// value to null), and the LIS definition writes its uuid headers
// (LI-Request-Id, LI-Correlation-Id) as allOf of the uuid schema and an
// example. Such a header is checked against the first schema of its allOf.
func unwrapHeaderSchemas(spec *openapi3.T) {
	unwrap := func(h *openapi3.HeaderRef) {
		if h == nil || h.Value == nil || h.Value.Schema == nil || h.Value.Schema.Value == nil {
			return
		}
		s := h.Value.Schema.Value
		if len(s.AllOf) > 0 && s.Type == nil && s.AllOf[0].Value != nil {
			h.Value.Schema = s.AllOf[0]
		}
	}
	for _, h := range spec.Components.Headers {
		unwrap(h)
	}
	for _, item := range spec.Paths.Map() {
		for _, op := range item.Operations() {
			for _, r := range op.Responses.Map() {
				if r.Value != nil {
					for _, h := range r.Value.Headers {
						unwrap(h)
					}
				}
			}
		}
	}
}

// Oddity 7, what Drover sends on purpose: a 429 on the registration
// interface, which the LIS definition declares nowhere.
// animal-registration.md binds the rule it enforces: a caller polls
// GET /requeststatus/{requestId} no more often than the retry-after value
// allows, so a sooner poll is refused, with the time left in Retry-After.
// Drover's per-user rate limit is one limit over both interfaces, whose
// 429 livestock-movements.md binds ("Limits"), and it answers a
// registration call the same way. Every LIS operation therefore declares
// a 429 held to what the definition says of its 503: the same error body
// and headers, Retry-After among them.
func addTooManyRequests(spec *openapi3.T) {
	for _, item := range spec.Paths.Map() {
		for _, op := range item.Operations() {
			if op.Responses.Status(http.StatusTooManyRequests) == nil {
				if r := op.Responses.Status(http.StatusServiceUnavailable); r != nil {
					op.Responses.Set("429", r)
				}
			}
		}
	}
}

// AllowedExtras are the members Drover adds, on purpose, to a schema of a
// live definition that forbids members it does not list, keyed by the
// schema's name in components. Each is bound by an interface document, and
// the precedence rule of the live README says to send both names where the
// two differ. A member that is not here and not in the definition fails.
var AllowedExtras = map[string][]string{
	// livestock-movements.md: a 400 lists every refused field in errors,
	// beside the live error object.
	"CLAOData.Infrastructure.ErrorHandling.CLAErrorResponse": {"errors"},
	// livestock-movements.md lists movementDate (which $filter compares),
	// species and trackingId as fields of the request resources; the live
	// records keep them only inside content. Each record sends them at its
	// top as well, and $filter names them there.
	"CLAOData.Models.Transfer.Transfer":                           recordFields,
	"CLAOData.Models.CorrectTransfer.CorrectTransfer":             recordFields,
	"CLAOData.Models.ReviewHoldingMovement.ReviewHoldingMovement": recordFields,
	"CLAOData.Models.UndoRequest.UndoRequest":                     recordFields,
	// The live ValidHoldingsResponse has validateResults at its top, while
	// the definition's own example of the answer (listed among the request
	// examples, oddity 4) wraps them in content, with the state by name: a
	// client written from either finds its results, so both are sent.
	"CLAOData.Models.ValidHoldings.ValidHoldingsResponse": {"content"},
}

// recordFields are the interface document's fields of a movements request
// resource that the live records lack (AllowedExtras).
var recordFields = []string{"movementDate", "species", "trackingId"}

// mediaTypeAliases are the media types Drover answers with where the live
// definition declares another that a client reads the same way: a problem
// (RFC 9457) is JSON, and every generated client reads it as the
// application/json it was written for.
var mediaTypeAliases = map[string]string{
	"application/problem+json": "application/json",
}

// correct applies the oddities' workarounds and the allowed extras to a
// freshly loaded definition.
func correct(def string, spec *openapi3.T) {
	schemas := spec.Components.Schemas
	unwrapHeaderSchemas(spec)
	if def == "LIS" {
		// In place: every reference to Errors shares its *Schema.
		if ref := schemas["Errors"]; ref != nil && ref.Value != nil {
			*ref.Value = *problemErrors()
		}
		oneOfAsAnyOf(schemas, "RequestStatus")
		addTooManyRequests(spec)
	}
	for name, members := range AllowedExtras {
		ref := schemas[name]
		if ref == nil || ref.Value == nil {
			continue
		}
		for _, m := range members {
			if _, ok := ref.Value.Properties[m]; !ok {
				ref.Value.WithPropertyRef(m, &openapi3.SchemaRef{Value: &openapi3.Schema{Nullable: true}}) // any value
			}
		}
	}
}

// stripODataControl removes the OData control members from the top of a
// CLA answer, and returns the names of any whose value has the wrong type.
func stripODataControl(body map[string]any) (bad []string) {
	for name, v := range body {
		if ok, known := odataControl[name]; known {
			if !ok(v) {
				bad = append(bad, name)
			}
			delete(body, name)
		}
	}
	slices.Sort(bad)
	return bad
}

func isString(v any) bool { _, ok := v.(string); return ok }
func isNumber(v any) bool { _, ok := v.(float64); return ok }
