package openapi

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
)

// loaded is the embedded document, loaded once: loading validates every
// example against its schema, which takes a noticeable fraction of a second.
var loaded = sync.OnceValues(Load)

func load(t *testing.T) *Doc {
	t.Helper()
	d, err := loaded()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestLoadIsValidOpenAPI31(t *testing.T) {
	t.Parallel()
	d := load(t)
	if !d.spec.IsOpenAPI31OrLater() || d.spec.OpenAPI != "3.1.0" {
		t.Errorf("openapi %q, want 3.1.0", d.spec.OpenAPI)
	}
	// What /openapi.json serves is itself a valid document.
	if !json.Valid(d.JSON()) {
		t.Fatal("JSON() is not JSON")
	}
	again, err := LoadFrom(d.JSON())
	if err != nil {
		t.Fatalf("JSON() does not load: %v", err)
	}
	if diff := cmp.Diff(d.Operations(), again.Operations()); diff != "" {
		t.Errorf("operations differ after a round trip (-yaml +json):\n%s", diff)
	}
	if _, err := LoadFrom([]byte("openapi: 3.0.3\ninfo: {title: t, version: '1'}\npaths: {}\n")); err == nil {
		t.Error("LoadFrom accepted an OpenAPI 3.0 document")
	}
	if _, err := LoadFrom([]byte("openapi: 3.1.0\npaths: {}\n")); err == nil {
		t.Error("LoadFrom accepted a document without info")
	}
}

func TestOperations(t *testing.T) {
	t.Parallel()
	want := []Operation{
		{"GET", "/.well-known/openid-configuration"},
		{"GET", "/docs"},
		{"GET", "/docs/{file}"},
		{"GET", "/healthz"},
		{"GET", "/metrics"},
		{"GET", "/oauth2/authorize"},
		{"POST", "/oauth2/authorize"},
		{"GET", "/oauth2/jwks"},
		{"POST", "/oauth2/token"},
		{"GET", "/openapi.json"},
		{"GET", "/readyz"},
		{"GET", "/v1/"},
		{"GET", "/v1/$metadata"},
		{"GET", "/v1/ApprovedMovements"},
		{"GET", "/v1/ApprovedMovements({id},{recordedBy})"},
		{"GET", "/v1/ApprovedMovements/ByTransferDateRange(speciesId={speciesId},startTransferDate={startTransferDate}," +
			"endTransferDate={endTransferDate},departureHolding={departureHolding},destinationHolding={destinationHolding})"},
		{"GET", "/v1/CorrectTransferRequests"},
		{"POST", "/v1/CorrectTransferRequests"},
		{"GET", "/v1/CorrectTransferRequests({requestId})"},
		{"GET", "/v1/CorrectTransferRequests/$count"},
		{"GET", "/v1/HoldingMovementForReviews(species={species},holding={holding})"},
		{"GET", "/v1/HoldingMovementForReviews/ReviewBySpecies(species={species},holding={holding})"},
		{"POST", "/v1/Holdings/ValidHoldings"},
		{"GET", "/v1/ReviewHoldingMovementRequests"},
		{"POST", "/v1/ReviewHoldingMovementRequests"},
		{"GET", "/v1/ReviewHoldingMovementRequests({requestId})"},
		{"GET", "/v1/ReviewHoldingMovementRequests/$count"},
		{"GET", "/v1/StandingData"},
		{"GET", "/v1/StandingData/{list}"},
		{"GET", "/v1/TransferRequests"},
		{"POST", "/v1/TransferRequests"},
		{"GET", "/v1/TransferRequests({requestId})"},
		{"GET", "/v1/TransferRequests/$count"},
		{"GET", "/v1/UndoRequests"},
		{"POST", "/v1/UndoRequests"},
		{"GET", "/v1/UndoRequests({requestId})"},
		{"GET", "/v1/UndoRequests/$count"},
		{"POST", "/v1/animals"},
		{"GET", "/v1/animals/{identifier}"},
		{"GET", "/v1/animals/{identifier}/history"},
		{"GET", "/v1/breeds"},
		{"GET", "/v1/deathreasons"},
		{"GET", "/v1/genotypes"},
		{"GET", "/v1/hauliers"},
		{"GET", "/v1/holdings/{holding}/animals"},
		{"GET", "/v1/holdings/{holding}/movements"},
		{"GET", "/v1/me"},
		{"GET", "/v1/rejectionreasons"},
		{"GET", "/v1/requeststatus/{requestId}"},
		{"POST", "/v1/traces"},
	}
	if diff := cmp.Diff(want, load(t).Operations()); diff != "" {
		t.Errorf("Operations() (-want +got):\n%s", diff)
	}
}

// TestErrorCodes holds the document's ErrorCode schema to livestock.Codes:
// the same codes in the same order, each described by its title.
func TestErrorCodes(t *testing.T) {
	t.Parallel()
	s := load(t).spec.Components.Schemas["ErrorCode"].Value
	var wantEnum []any
	wantTitles := map[string]any{}
	for _, c := range livestock.Codes {
		wantEnum = append(wantEnum, string(c.Code))
		wantTitles[string(c.Code)] = c.Title
		if row := fmt.Sprintf("| %s | %s |", c.Code, c.Title); !strings.Contains(s.Description, row) {
			t.Errorf("the ErrorCode description has no row %q", row)
		}
	}
	if diff := cmp.Diff(wantEnum, s.Enum); diff != "" {
		t.Errorf("ErrorCode enum (-livestock.Codes +document):\n%s", diff)
	}
	if diff := cmp.Diff(wantTitles, s.Extensions["x-enumDescriptions"]); diff != "" {
		t.Errorf("x-enumDescriptions (-livestock.Codes +document):\n%s", diff)
	}
	problem := load(t).spec.Components.Schemas["ProblemError"].Value
	if ref := problem.Properties["code"].Ref; ref != "#/components/schemas/ErrorCode" {
		t.Errorf("ProblemError.code refers to %q", ref)
	}
}

// errorResponses names the reusable response for each error status.
var errorResponses = map[string]string{
	"400": "BadRequest", "401": "Unauthorized", "403": "Forbidden", "404": "NotFound",
	"413": "PayloadTooLarge", "429": "TooManyRequests", "500": "InternalError",
	"503": "ServiceUnavailable", "504": "GatewayTimeout",
}

// registrationError reports whether ref is the registration interface's
// error response for status, on an operation of that interface: its
// errors, 401 among them, are in the live registration service's shape.
func registrationError(tags []string, status, ref string) bool {
	if !slices.Contains(tags, "Registration") {
		return false
	}
	want := "#/components/responses/RegistrationError"
	switch status {
	case "401":
		want = "#/components/responses/RegistrationUnauthorized"
	case "429", "503":
		want += "Retry"
	}
	return ref == want
}

// liveMovementsPath reports whether path is one of the movements
// interface's live operations, whose errors are in the live service's
// shape (MovementsError); the interface's other paths (the service
// document, $metadata, standing data) are Drover's own and answer a Problem.
func liveMovementsPath(path string) bool {
	rest, ok := strings.CutPrefix(path, "/v1/")
	if i := strings.IndexAny(rest, "(/"); i >= 0 {
		rest = rest[:i]
	}
	return ok && slices.Contains([]string{"TransferRequests", "CorrectTransferRequests", "ReviewHoldingMovementRequests",
		"UndoRequests", "HoldingMovementForReviews", "Holdings", "ApprovedMovements"}, rest)
}

// TestEveryOperation checks what every operation must document.
func TestEveryOperation(t *testing.T) {
	t.Parallel()
	d := load(t)
	for name := range errorResponses {
		r := d.spec.Components.Responses[errorResponses[name]]
		if r == nil {
			t.Fatalf("no components.responses.%s", errorResponses[name])
		}
		if mt := r.Value.Content.Get("application/problem+json"); mt == nil || mt.Schema.Ref != "#/components/schemas/Problem" {
			t.Errorf("%s is not an application/problem+json Problem", errorResponses[name])
		}
	}
	for _, h := range []string{"Deprecation", "Sunset"} {
		if d.spec.Components.Headers[h] == nil || !strings.Contains(d.spec.Info.Description, "`"+h+"`") {
			t.Errorf("header %s is not defined and described", h)
		}
	}
	tags := map[string]bool{}
	for _, tag := range d.spec.Tags {
		tags[tag.Name] = true
	}
	ids := map[string]bool{}
	for _, o := range d.Operations() {
		t.Run(o.Method+" "+o.Path, func(t *testing.T) {
			item := d.spec.Paths.Find(o.Path)
			op := item.GetOperation(o.Method)
			if op.OperationID == "" || ids[op.OperationID] {
				t.Errorf("operationId %q is empty or used twice", op.OperationID)
			}
			ids[op.OperationID] = true
			if op.Summary == "" || len(op.Tags) == 0 {
				t.Error("no summary or no tags")
			}
			for _, tag := range op.Tags {
				if !tags[tag] {
					t.Errorf("tag %q is not declared", tag)
				}
			}
			secured := op.Security != nil && len(*op.Security) > 0
			if strings.HasPrefix(o.Path, "/v1/") != secured || op.Security == nil {
				t.Errorf("security %v: want bearer for /v1 and an explicit [] elsewhere", op.Security)
			}
			want := []string{"400", "500"}
			// The registry and the issuer are behind the rate limit, load
			// shedding and the request deadline; the registry also behind
			// authentication. The registration interface answers the
			// deadline with 503 and a body over the limit with 400, the
			// statuses its live definition declares.
			registration := slices.Contains(op.Tags, "Registration")
			if secured || strings.HasPrefix(o.Path, "/oauth2/") || strings.HasPrefix(o.Path, "/.well-known/") {
				want = append(want, "429", "503")
				if !registration {
					want = append(want, "504")
				}
			}
			if secured {
				want = append(want, "401")
			}
			if op.RequestBody != nil && !registration {
				want = append(want, "413")
			}
			// A path that names a resource ({requestId}, {list}) has a 404.
			// An OData function's parameters (species={species}) select
			// rather than name: no match is an empty result, not a 404.
			if strings.Contains(o.Path, "{") && !strings.Contains(o.Path, "={") {
				want = append(want, "404")
			}
			var success bool
			for status, r := range op.Responses.Map() {
				success = success || strings.HasPrefix(status, "2")
				if name, ok := errorResponses[status]; ok && liveMovementsPath(o.Path) {
					if r.Ref != "#/components/responses/Movements"+name {
						t.Errorf("response %s is %q, want the component Movements%s", status, r.Ref, name)
					}
				} else if ok && r.Ref != "#/components/responses/"+name && !registrationError(op.Tags, status, r.Ref) {
					t.Errorf("response %s is %q, want the component %s", status, r.Ref, name)
				}
				if r.Value.Headers["X-Correlation-ID"] == nil {
					t.Errorf("response %s has no X-Correlation-ID header", status)
				}
			}
			if !success {
				t.Error("no 2xx response")
			}
			for _, status := range want {
				if op.Responses.Value(status) == nil {
					t.Errorf("no %s response", status)
				}
			}
			for _, h := range []string{"X-Correlation-ID", "LI-Correlation-Id"} {
				p := item.Parameters.GetByInAndName(openapi3.ParameterInHeader, h)
				if p == nil {
					p = op.Parameters.GetByInAndName(openapi3.ParameterInHeader, h)
				}
				if p == nil || p.Required || p.Schema.Value.MaxLength == nil || *p.Schema.Value.MaxLength != 128 {
					t.Errorf("no optional header parameter %s of at most 128 characters", h)
				}
			}
		})
	}
}

func TestSecuritySchemes(t *testing.T) {
	t.Parallel()
	s := load(t).spec.Components.SecuritySchemes
	if b := s["bearer"].Value; b.Type != "http" || b.Scheme != "bearer" || b.BearerFormat != "JWT" {
		t.Errorf("bearer scheme: %+v", b)
	}
	f := s["oauth2"].Value.Flows
	if f.AuthorizationCode == nil || f.AuthorizationCode.AuthorizationURL != "/oauth2/authorize" || f.AuthorizationCode.TokenURL != "/oauth2/token" {
		t.Errorf("authorizationCode flow: %+v", f.AuthorizationCode)
	}
	if f.Password == nil || f.Password.TokenURL != "/oauth2/token" {
		t.Errorf("password flow: %+v", f.Password)
	}
}
