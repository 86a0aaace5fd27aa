package openapi

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
)

// request describes one request to validate.
type request struct {
	method   string
	target   string // the URL path and query
	template string // the route pattern; target's path when empty
	params   map[string]string
	ctype    string
	body     string
	header   map[string]string
}

func (q request) build() *http.Request {
	method := q.method
	if method == "" {
		method = http.MethodGet
	}
	var body io.Reader
	if q.body != "" {
		body = strings.NewReader(q.body)
	}
	r := httptest.NewRequest(method, q.target, body)
	if q.ctype != "" {
		r.Header.Set("Content-Type", q.ctype)
	}
	for k, v := range q.header {
		r.Header.Set(k, v)
	}
	return r
}

func (q request) validate(d *Doc) []fe {
	template := q.template
	if template == "" {
		template, _, _ = strings.Cut(q.target, "?")
	}
	return fes(d.ValidateRequest(q.build(), template, q.params))
}

func loadBodies(t testing.TB) *Doc {
	t.Helper()
	data, err := os.ReadFile("testdata/bodies.yaml")
	if err != nil {
		t.Fatal(err)
	}
	d, err := LoadFrom(data)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// fe is a livestock.FieldError that tables may write without field names.
type fe struct {
	Code                   livestock.Code
	Message, Source, Value string
}

func fes(errs []livestock.FieldError) []fe {
	var out []fe
	for _, e := range errs {
		out = append(out, fe(e))
	}
	return out
}

const form = "application/x-www-form-urlencoded"

// challenge is a well-formed PKCE value.
var challenge = strings.Repeat("A", 43)

// TestValidateRequestDocument checks the validator against drover.yaml.
func TestValidateRequestDocument(t *testing.T) {
	t.Parallel()
	d := load(t)
	authorize := "/oauth2/authorize?response_type=code&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&code_challenge=" + challenge
	tests := []struct {
		name string
		req  request
		want []fe
	}{
		{"valid", request{target: "/v1/me", header: map[string]string{"X-Correlation-ID": "3f0c6a52-5f2e"}}, nil},
		{"correlation id too long", request{target: "/v1/me", header: map[string]string{"X-Correlation-ID": strings.Repeat("a", 129)}},
			[]fe{{"S007", "must be at most 128 characters long", "header:X-Correlation-ID", strings.Repeat("a", 100) + "…"}}},
		{"LI correlation id with a space", request{target: "/healthz", header: map[string]string{"LI-Correlation-Id": "a b"}}, nil},
		{"LI correlation id with a tab", request{target: "/healthz", header: map[string]string{"LI-Correlation-Id": "a\tb"}},
			[]fe{{"S008", "must match the pattern ^[!-~]([ -~]*[!-~])?$", "header:LI-Correlation-Id", "a\tb"}}},
		{"list name not a name", request{target: "/v1/StandingData/no-such!", template: "/v1/StandingData/{list}", params: map[string]string{"list": "no-such!"}},
			[]fe{{"S008", "must match the pattern ^[A-Za-z][A-Za-z0-9]*$", "path:list", "no-such!"}}},
		{"list name", request{target: "/v1/StandingData/species", template: "/v1/StandingData/{list}", params: map[string]string{"list": "species"}}, nil},
		{"authorize", request{target: authorize + "&code_challenge_method=S256&state=xyz"}, nil},
		{"authorize without response_type", request{target: "/oauth2/authorize?redirect_uri=x&code_challenge=" + challenge},
			[]fe{{"S002", "is required", "query:response_type", ""}}},
		{"authorize with a bad response_type", request{target: strings.Replace(authorize, "=code", "=token", 1)},
			[]fe{{"S006", "must be code", "query:response_type", "token"}}},
		{"authorize with a short challenge", request{target: "/oauth2/authorize?response_type=code&redirect_uri=x&code_challenge=abc"},
			[]fe{{"S007", "must be at least 43 characters long", "query:code_challenge", "abc"}}},
		{"authorize with a bad challenge method", request{target: authorize + "&code_challenge_method=S512"},
			[]fe{{"S006", "must be S256", "query:code_challenge_method", "S512"}}},
		{"token", request{method: "POST", target: "/oauth2/token", ctype: form, body: "grant_type=password&username=keeper1&password=pw"}, nil},
		{"token ignores unknown parameters", request{method: "POST", target: "/oauth2/token", ctype: form, body: "grant_type=refresh_token&refresh_token=r&foo=1"}, nil},
		{"token without grant_type", request{method: "POST", target: "/oauth2/token", ctype: form, body: "username=keeper1"},
			[]fe{{"S002", "is required", "/grant_type", ""}}},
		{"token with an unknown grant", request{method: "POST", target: "/oauth2/token", ctype: form, body: "grant_type=client_credentials"},
			[]fe{{"S006", "must be one of: password, authorization_code, refresh_token", "/grant_type", "client_credentials"}}},
		{"token with a bad verifier", request{method: "POST", target: "/oauth2/token", ctype: form, body: "grant_type=authorization_code&code=c&code_verifier=" + strings.Repeat("%21", 43)},
			[]fe{{"S008", "must match the pattern ^[A-Za-z0-9._~-]+$", "/code_verifier", strings.Repeat("!", 43)}}},
		{"token as JSON", request{method: "POST", target: "/oauth2/token", ctype: "application/json", body: `{"grant_type":"password"}`},
			[]fe{{"S012", "must be application/x-www-form-urlencoded", "header:Content-Type", "application/json"}}},
		{"token without a body", request{method: "POST", target: "/oauth2/token", ctype: form},
			[]fe{{"S002", "a request body is required", "body", ""}}},
		// Cancel posts no credentials, and the page itself asks for missing ones.
		{"sign-in without credentials", request{method: "POST", target: "/oauth2/authorize", ctype: form,
			body: "response_type=code&redirect_uri=x&code_challenge=" + challenge + "&code_challenge_method=S256"}, nil},
		{"sign-in without a challenge", request{method: "POST", target: "/oauth2/authorize", ctype: form,
			body: "response_type=code&redirect_uri=x&username=a&password=b"},
			[]fe{{"S002", "is required", "/code_challenge", ""}}},
		{"NUL in a query parameter", request{target: "/oauth2/authorize?response_type=code&redirect_uri=x%00y&code_challenge=" + challenge},
			[]fe{{"S008", "holds the character U+0000 (%00), which no text may hold", "query:redirect_uri", `x\u0000y`}}},
		{"NUL in a path parameter", request{target: "/v1/StandingData/a%00b", template: "/v1/StandingData/{list}", params: map[string]string{"list": "a%00b"}},
			[]fe{{"S008", "holds the character U+0000 (%00), which no text may hold", "path:list", `a\u0000b`}}},
		{"NUL in a form field", request{method: "POST", target: "/oauth2/token", ctype: form, body: "grant_type=password&username=keeper1%00&password=pw"},
			[]fe{{"S008", "holds the character U+0000 (%00), which no text may hold", "form:username", `keeper1\u0000`}}},
		{"a parameter of one value given twice", request{target: "/v1/hauliers?species=cattle&page=2&page=1"},
			[]fe{{"S009", "is given 2 times; give it at most once", "query:page", "2, 1"}}},
		{"an array parameter given twice", request{target: "/v1/hauliers?species=cattle&species=sheep&page=2"}, nil},
		{"undocumented route", request{target: "/v1/nothing"}, nil},
		{"undocumented method", request{method: "DELETE", target: "/v1/me"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tt.want, tt.req.validate(d)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestValidateRequestBodies checks body and parameter rules against the
// test document. Every body rule is checked twice: TransferRequests is
// written inline, UndoRequests through component references, and
// kin-openapi validates the two with different validators.
func TestValidateRequestBodies(t *testing.T) {
	t.Parallel()
	d := loadBodies(t)
	transfer := func(content string) request {
		return request{method: "POST", target: "/v1/TransferRequests", ctype: "application/json", body: `{"content":{` + content + `}}`}
	}
	const ok = `"species":"Sheep","animalCount":3,"transferDate":"2024-05-01"`
	undo := func(body string) request {
		return request{method: "POST", target: "/v1/UndoRequests", ctype: "application/json; charset=utf-8", body: body}
	}
	raw := func(ctype, body string) request {
		return request{method: "POST", target: "/v1/TransferRequests", ctype: ctype, body: body}
	}
	tests := []struct {
		name string
		req  request
		want []fe
	}{
		{"valid", transfer(ok + `,"trackingId":"t-1","processingFlags":["SLAU"]`), nil},
		{"wrong type", transfer(`"species":"Sheep","animalCount":"3","transferDate":"2024-05-01"`),
			[]fe{{"S003", "must be an integer", "/content/animalCount", "3"}}},
		{"null", transfer(`"species":"Sheep","animalCount":null,"transferDate":"2024-05-01"`),
			[]fe{{"S003", "must be an integer", "/content/animalCount", "null"}}},
		{"unknown field", transfer(ok + `,"colour":"red"`),
			[]fe{{"S004", `property "colour" is not allowed`, "/content/colour", "red"}}},
		{"missing field", transfer(`"species":"Sheep","animalCount":3`),
			[]fe{{"S002", "is required", "/content/transferDate", ""}}},
		{"bad enum", transfer(`"species":"Goat","animalCount":3,"transferDate":"2024-05-01"`),
			[]fe{{"S006", "must be one of: Sheep, Goats, Deer", "/content/species", "Goat"}}},
		{"too long", transfer(ok + `,"trackingId":"` + strings.Repeat("t", 37) + `"`),
			[]fe{{"S007", "must be at most 36 characters long", "/content/trackingId", strings.Repeat("t", 37)}}},
		{"too many items", transfer(ok + `,"processingFlags":["a","b","c","d"]`),
			[]fe{{"S007", "must have at most 3 items", "/content/processingFlags", `["a","b","c","d"]`}}},
		{"pattern", transfer(ok + `,"userHolding":"1/2/3"`),
			[]fe{{"S008", "must match the pattern ^[0-9]{2}/[0-9]{3}/[0-9]{4}$", "/content/userHolding", "1/2/3"}}},
		{"control character", transfer(ok + `,"trackingId":"t-1\n"`),
			[]fe{{"S008", "holds the control character U+000A, which no text may hold", "/content/trackingId", ""}}},
		{"format", transfer(`"species":"Sheep","animalCount":3,"transferDate":"2024-13-01"`),
			[]fe{{"S008", "must be a date, YYYY-MM-DD", "/content/transferDate", "2024-13-01"}}},
		{"minimum", transfer(`"species":"Sheep","animalCount":0,"transferDate":"2024-05-01"`),
			[]fe{{"S008", "must be at least 1", "/content/animalCount", "0"}}},
		{"deep pointer", transfer(ok + `,"movementGroups":[{"batches":[{"batchNumber":"UK123456"},{"animalTotal":2,"x":1}]}]`),
			[]fe{
				{"S002", "is required", "/content/movementGroups/0/batches/1/batchNumber", ""},
				{"S004", `property "x" is not allowed`, "/content/movementGroups/0/batches/1/x", "1"},
			}},
		{"bare payload", raw("application/json", `{"species":"Sheep"}`),
			[]fe{{"S002", "is required", "/content", ""}, {"S004", `property "species" is not allowed`, "/species", "Sheep"}}},
		{"pointer escaping", raw("application/json", `{"content":{},"a/b~c":1}`),
			[]fe{
				{"S004", `property "a/b~c" is not allowed`, "/a~1b~0c", "1"},
				{"S002", "is required", "/content/animalCount", ""},
				{"S002", "is required", "/content/species", ""},
				{"S002", "is required", "/content/transferDate", ""},
			}},
		{"not an object", raw("application/json", `[1,2]`), []fe{{"S003", "must be an object", "body", "[1,2]"}}},
		{"a name twice", transfer(ok + `,"species":"Goat"`),
			[]fe{{"S005", "is a name this object already has: each name may appear once (RFC 8259 §4, RFC 7493 §2.3)", "/content/species", ""}}},
		{"an escaped surrogate half", transfer(ok + `,"movementGroups":[{"batches":[{"batchNumber":"UK\udbff"}]}]`),
			[]fe{{"S005", `holds a string with the escape \udbff, half of a UTF-16 surrogate pair without its other half: it is no character (RFC 7493 §2.1)`,
				"/content/movementGroups/0/batches/0/batchNumber", ""}}},
		{"malformed JSON", raw("application/json", `{"content":{"species":}}`),
			[]fe{{"S005", "is not well-formed JSON: invalid character '}' looking for beginning of value at byte 23", "body", ""}}},
		{"truncated JSON", raw("application/json", `{"content":{`),
			[]fe{{"S005", "is not well-formed JSON: unexpected end of JSON input at byte 12", "body", ""}}},
		{"trailing data", raw("application/json", `{"content":{`+ok+`}}}`),
			[]fe{{"S005", "is not well-formed JSON: invalid character '}' after top-level value at byte 76", "body", ""}}},
		{"no body", raw("application/json", ""), []fe{{"S002", "a request body is required", "body", ""}}},
		{"text", raw("text/plain", "hello"), []fe{{"S012", "must be application/json", "header:Content-Type", "text/plain"}}},
		{"no content type", raw("", `{"content":{}}`), []fe{{"S012", "must be application/json", "header:Content-Type", ""}}},
		{"gzip", request{method: "POST", target: "/v1/TransferRequests", ctype: "application/json", body: `{"content":{}}`,
			header: map[string]string{"Content-Encoding": "gzip"}},
			[]fe{{"S012", "bodies are taken as sent: leave Content-Encoding out (or identity)", "header:Content-Encoding", "gzip"}}},
		{"identity", request{method: "POST", target: "/v1/TransferRequests", ctype: "application/json", body: `{"content":{` + ok + `}}`,
			header: map[string]string{"Content-Encoding": "identity"}}, nil},
		{"undo", undo(`{"content":{"requestToBeUndone_ID":7}}`), nil},
		{"undo: wrong type", undo(`{"content":{"requestToBeUndone_ID":"7"}}`),
			[]fe{{"S003", "must be an integer", "/content/requestToBeUndone_ID", "7"}}},
		{"undo: unknown field", undo(`{"content":{"requestToBeUndone_ID":7,"colour":"red"}}`),
			[]fe{{"S004", `property "colour" is not allowed`, "/content/colour", "red"}}},
		{"undo: missing field", undo(`{"content":{}}`),
			[]fe{{"S002", "is required", "/content/requestToBeUndone_ID", ""}}},
		{"undo: bad enum", undo(`{"content":{"requestToBeUndone_ID":7,"species":"Goat"}}`),
			[]fe{{"S006", "must be one of: Sheep, Goats, Deer", "/content/species", "Goat"}}},
		{"undo: too long", undo(`{"content":{"requestToBeUndone_ID":7,"reason":"because, because"}}`),
			[]fe{{"S007", "must be at most 10 characters long", "/content/reason", "because, because"}}},
		{"undo: minimum", undo(`{"content":{"requestToBeUndone_ID":0}}`),
			[]fe{{"S008", "must be at least 1", "/content/requestToBeUndone_ID", "0"}}},
		{"query", request{target: "/v1/TransferRequests?$top=10&$skip=5"}, nil},
		{"query: wrong type", request{target: "/v1/TransferRequests?$top=ten"},
			[]fe{{"S003", "must be an integer", "query:$top", "ten"}}},
		{"query: below minimum", request{target: "/v1/TransferRequests?$top=0&$skip=-1"},
			[]fe{{"S008", "must be at least 0", "query:$skip", "-1"}, {"S008", "must be at least 1", "query:$top", "0"}}},
		{"query: out of range", request{target: "/v1/TransferRequests?$top=99999999999999999999999"},
			[]fe{{"S008", "is out of range", "query:$top", "99999999999999999999999"}}},
		{"query: empty", request{target: "/v1/TransferRequests?$skip="},
			[]fe{{"S002", "must not be empty", "query:$skip", ""}}},
		{"path: wrong type", request{target: "/v1/TransferRequests(x)", template: "/v1/TransferRequests({requestId})", params: map[string]string{"requestId": "x"}},
			[]fe{{"S003", "must be an integer", "path:requestId", "x"}}},
		{"parameters and body together", request{method: "POST", target: "/v1/TransferRequests", ctype: "application/json", body: `{"content":`,
			header: map[string]string{"X-Correlation-ID": strings.Repeat("x", 129)}},
			[]fe{
				{"S005", "is not well-formed JSON: unexpected end of JSON input at byte 11", "body", ""},
				{"S007", "must be at most 128 characters long", "header:X-Correlation-ID", strings.Repeat("x", 100) + "…"},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tt.want, tt.req.validate(d)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestValidateRequestKeepsBody: the handler reads the body the client sent,
// whether the request passed or not.
func TestValidateRequestKeepsBody(t *testing.T) {
	t.Parallel()
	bodies := loadBodies(t)
	drover := load(t)
	tests := []struct {
		doc      *Doc
		template string
		ctype    string
		body     string
	}{
		{bodies, "/v1/TransferRequests", "application/json", `{"content":{"species":"Sheep","animalCount":3,"transferDate":"2024-05-01"}}`},
		{bodies, "/v1/TransferRequests", "application/json", `{"content":{"species":"Goat"}}`},
		{bodies, "/v1/TransferRequests", "application/json", `{"content":`},
		{bodies, "/v1/UndoRequests", "application/json", `{"content":{"requestToBeUndone_ID":7}}`},
		{bodies, "/v1/TransferRequests", "text/plain", `hello`},
		{drover, "/oauth2/token", form, "grant_type=password&username=keeper1&password=pw"},
		{drover, "/oauth2/token", form, "grant_type=nonsense"},
	}
	for _, tt := range tests {
		r := httptest.NewRequest(http.MethodPost, tt.template, strings.NewReader(tt.body))
		r.Header.Set("Content-Type", tt.ctype)
		tt.doc.ValidateRequest(r, tt.template, nil)
		got, err := io.ReadAll(r.Body)
		if err != nil || string(got) != tt.body {
			t.Errorf("%s %s: the handler reads %q, %v; want %q", tt.template, tt.body, got, err, tt.body)
		}
	}
}

func TestValidateRequestTooLarge(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		doc      *Doc
		template string
		ctype    string
	}{
		{loadBodies(t), "/v1/TransferRequests", "application/json"},
		{load(t), "/oauth2/token", form},
	} {
		w := httptest.NewRecorder()
		r := httptest.NewRequest(http.MethodPost, tt.template, nil)
		r.Body = http.MaxBytesReader(w, io.NopCloser(strings.NewReader(strings.Repeat("a", 100))), 10)
		r.Header.Set("Content-Type", tt.ctype)
		want := []fe{{"S011", "the body is over the size limit", "body", ""}}
		if diff := cmp.Diff(want, fes(tt.doc.ValidateRequest(r, tt.template, nil))); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.template, diff)
		}
	}
}

// BenchmarkValidateRequest measures one valid body through each of
// kin-openapi's two validators, and a request with no body.
func BenchmarkValidateRequest(b *testing.B) {
	d := loadBodies(b)
	for _, bc := range []struct{ name, template, body string }{
		{"inline schema", "/v1/TransferRequests", `{"content":{"species":"Sheep","animalCount":3,"transferDate":"2024-05-01","trackingId":"t-1"}}`},
		{"referenced schema", "/v1/UndoRequests", `{"content":{"requestToBeUndone_ID":7}}`},
		{"no body", "/v1/TransferRequests", ""},
	} {
		b.Run(bc.name, func(b *testing.B) {
			method := http.MethodPost
			if bc.body == "" {
				method = http.MethodGet
			}
			for b.Loop() {
				r := httptest.NewRequest(method, bc.template+"?$top=10", strings.NewReader(bc.body))
				r.Header.Set("Content-Type", "application/json")
				if errs := d.ValidateRequest(r, bc.template, nil); errs != nil {
					b.Fatal(errs)
				}
			}
		})
	}
}
