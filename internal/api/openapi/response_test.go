package openapi

import (
	"net/http"
	"strings"
	"testing"
)

// TestValidateResponse: the contract check accepts what the document
// declares and names each way a response can break it.
func TestValidateResponse(t *testing.T) {
	t.Parallel()
	d := load(t)
	const problem = `{"type":"urn:drover:problem:not-found","title":"Not Found","status":404,"errors":[{"code":"R001","message":"no such endpoint"}]}`
	forbidden := strings.Replace(problem, "404", "403", 1)
	// The movements interface's live operations answer their own body.
	const liveErr = `"error":{"code":"R001","message":"no request 12","target":"requestId","details":[{"code":"R001","message":"no request 12","target":"requestId"}]},` +
		`"errors":[{"code":"R001","message":"no request 12","source":"path:requestId","value":"12"}]`
	const movementsNotFound = `{"type":"urn:drover:problem:not-found","title":"Not Found","status":404,"detail":"no request 12",` + liveErr + `}`
	const movementsForbidden = `{` + liveErr + `}`
	const me = `{"userName":"keeper1","role":"keeper","holdings":[]}`
	hdr := func(ct string, kv ...string) http.Header {
		h := http.Header{"Content-Type": {ct}, "X-Correlation-Id": {"abc"}}
		for i := 0; i+1 < len(kv); i += 2 {
			h.Set(kv[i], kv[i+1])
		}
		return h
	}
	tests := []struct {
		name, method, path string
		status             int
		header             http.Header
		body               string
		wantErr            string // a piece of the error; "" for none
	}{
		{"declared", "GET", "/v1/me", 200, hdr("application/json"), me, ""},
		{"query ignored", "GET", "/v1/me?x=1", 200, hdr("application/json"), me, ""},
		{"undeclared status", "GET", "/v1/me", 404, hdr("application/problem+json"), problem, "not declared"},
		{"undeclared media type", "GET", "/v1/me", 200, hdr("text/plain"), "hi", `Content-Type "text/plain" is not declared`},
		{"body off its schema", "GET", "/v1/me", 200, hdr("application/json"), `{"userName":"k","role":"farmer","holdings":[],"x":1}`, "/role"},
		{"required header missing", "GET", "/v1/me", 200, http.Header{"Content-Type": {"application/json"}}, me, `"X-Correlation-ID" missing`},
		{"a problem", "GET", "/v1/me", 401, hdr("application/problem+json", "WWW-Authenticate", "Bearer"), strings.Replace(problem, "404", "401", 1), ""},
		{"a problem off its schema", "GET", "/v1/me", 400, hdr("application/problem+json"), `{"title":"Bad Request","status":400}`, "/type"},
		{"parameter in parentheses", "GET", "/v1/TransferRequests(12)", 404, hdr("application/json"), movementsNotFound, ""},
		{"parentheses escaped", "GET", "/v1/TransferRequests%2812%29", 404, hdr("application/json"), movementsNotFound, ""},
		{"quoted parameters with %2f", "GET", "/v1/HoldingMovementForReviews(species=%27Sheep%27,holding=%2701%2f100%2f0264%27)", 403,
			hdr("application/json"), movementsForbidden, ""},
		{"the longer form", "GET", "/v1/HoldingMovementForReviews/ReviewBySpecies(species='Sheep',holding='01%2F100%2F0264')", 403,
			hdr("application/json"), movementsForbidden, ""},
		{"a problem where the movements body is declared", "GET", "/v1/TransferRequests(12)", 404, hdr("application/problem+json"), problem, "is not declared"},
		{"a movements 403 with a problem's members", "GET", "/v1/TransferRequests(12)", 403, hdr("application/json"), `{"status":403,` + liveErr + `}`, `property "status" is unsupported`},
		{"a movements 404 without the live error", "GET", "/v1/TransferRequests(12)", 404, hdr("application/json"), problem, "/error"},
		{"no route under the movements interface", "GET", "/v1/TransferRequests/x", 404, hdr("application/json"), movementsNotFound, ""},
		{"problem of another status", "GET", "/v1/me", 401, hdr("application/problem+json", "WWW-Authenticate", "Bearer"), forbidden, "the problem's status is 403"},
		{"text body", "GET", "/metrics", 200, hdr("text/plain; version=0.0.4; charset=utf-8"), "# HELP x\n", ""},
		{"body where none is declared", "GET", "/docs/x.js", 304, hdr(""), "x", "declares no body"},
		{"413 on any path", "GET", "/v1/me", 413, hdr("application/problem+json"), strings.Replace(problem, "404", "413", 1), ""},
		{"no route: 404 problem", "GET", "/nowhere", 404, hdr("application/problem+json"), problem, ""},
		{"no route: method", "DELETE", "/v1/me", 405, hdr("application/problem+json"), strings.Replace(problem, "404", "405", 1), ""},
		{"no route: 200", "GET", "/nowhere", 200, hdr("application/json"), `{}`, "not one of the generic answers"},
		{"no route: not a problem", "GET", "/nowhere", 404, hdr("text/plain"), "404 page not found", "want application/problem+json"},
		{"no route: bad problem", "GET", "/nowhere", 404, hdr("application/problem+json"), `{"status":"404"}`, "not a Problem"},
		{"HEAD is not checked", "HEAD", "/v1/me", 599, hdr(""), "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			err := d.ValidateResponse(tt.method, tt.path, tt.status, tt.header, []byte(tt.body))
			switch {
			case tt.wantErr == "" && err != nil:
				t.Errorf("ValidateResponse: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("ValidateResponse = %v, want an error with %q", err, tt.wantErr)
			}
		})
	}
}
