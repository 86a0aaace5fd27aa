package openapi

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/drover-registry/drover/internal/livestock"
)

// checkSafe fails t unless every error is valid UTF-8, names a known code
// and echoes a bounded value.
func checkSafe(t *testing.T, errs []livestock.FieldError) {
	t.Helper()
	known := map[livestock.Code]bool{}
	for _, c := range livestock.Codes {
		known[c.Code] = true
	}
	for _, e := range errs {
		if !known[e.Code] {
			t.Errorf("unknown code %q", e.Code)
		}
		if !utf8.ValidString(e.Message) || !utf8.ValidString(e.Source) || !utf8.ValidString(e.Value) {
			t.Errorf("not UTF-8: %q", e)
		}
		if utf8.RuneCountInString(e.Value) > maxValueRunes+1 || len(errs) > maxErrors {
			t.Errorf("value of %d characters echoed", utf8.RuneCountInString(e.Value))
		}
	}
}

// TestValidateRequestHostile: inputs meant to break a validator give
// errors (or pass), never a panic or an echo of megabytes.
func TestValidateRequestHostile(t *testing.T) {
	t.Parallel()
	d := loadBodies(t)
	const ok = `"species":"Sheep","animalCount":3,"transferDate":"2024-05-01"`
	var b strings.Builder
	for i := range 10_000 {
		fmt.Fprintf(&b, `,"x%d":%d`, i, i)
	}
	manyProperties := b.String()
	nest := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	tests := []struct {
		name     string
		ctype    string
		body     string
		header   string
		wantCode livestock.Code // of the first error; "" for none
	}{
		// Nesting beyond 64 levels is refused on its shape (shape.go).
		{"10,000 deep", "application/json", nest(10_000), "", livestock.CodeBadLength},
		{"10,001 deep", "application/json", nest(10_001), "", livestock.CodeMalformedJSON},
		{"10,000 deep object", "application/json", strings.Repeat(`{"content":`, 10_000) + "1" + strings.Repeat("}", 10_000), "", livestock.CodeBadLength},
		{"100,000 deep", "application/json", nest(100_000), "", livestock.CodeMalformedJSON},
		{"deep inside an open property", "application/json", `{"content":{` + ok + `,"notes":` + nest(5_000) + `}}`, "", livestock.CodeBadLength},
		{"deep inside an unknown property", "application/json", `{"content":{` + ok + `,"x":` + nest(9_000) + `}}`, "", livestock.CodeBadLength},
		{"deep where a string goes", "application/json", `{"content":{` + ok + `,"trackingId":` + nest(9_000) + `}}`, "", livestock.CodeBadLength},
		{"invalid UTF-8 in a value", "application/json", "{\"content\":{\"species\":\"Sh\xffeep\",\"animalCount\":3,\"transferDate\":\"2024-05-01\"}}", "", livestock.CodeMalformedJSON},
		{"invalid UTF-8 in free text", "application/json", "{\"content\":{" + ok + ",\"notes\":\"\xc3(\"}}", "", livestock.CodeMalformedJSON},
		{"a surrogate half in UTF-8", "application/json", "{\"content\":{" + ok + ",\"notes\":\"\xed\xa0\x80\"}}", "", livestock.CodeMalformedJSON},
		{"an escaped surrogate half", "application/json", `{"content":{` + ok + `,"notes":"\ud800"}}`, "", livestock.CodeMalformedJSON},
		{"invalid UTF-8 in a name", "application/json", "{\"content\":{" + ok + ",\"\xfe\xff\":1}}", "", livestock.CodeMalformedJSON},
		{"invalid UTF-8 in a header", "application/json", `{"content":{` + ok + `}}`, "ab\xffcd", livestock.CodeBadFormat},
		{"control character in a header", "application/json", `{"content":{` + ok + `}}`, "ab\x01cd", livestock.CodeBadFormat},
		// Numbers beyond float64 are not integers to the schema visitor.
		{"huge number", "application/json", `{"content":{"species":"Sheep","animalCount":1e999999,"transferDate":"2024-05-01"}}`, "", livestock.CodeWrongType},
		{"huge negative number", "application/json", `{"content":{"species":"Sheep","animalCount":-1e999999,"transferDate":"2024-05-01"}}`, "", livestock.CodeWrongType},
		{"long integer", "application/json", `{"content":{"species":"Sheep","animalCount":` + strings.Repeat("9", 10_000) + `,"transferDate":"2024-05-01"}}`, "", livestock.CodeWrongType},
		// 1.0000000000000000001 is 1 as a float64, so the schema passes it;
		// the handlers' strict decoding into an int refuses it (a 400 still).
		{"fraction", "application/json", `{"content":{"species":"Sheep","animalCount":1.0000000000000000001,"transferDate":"2024-05-01"}}`, "", ""},
		{"megabyte string", "application/json", `{"content":{"species":"` + strings.Repeat("é", 500_000) + `","animalCount":3,"transferDate":"2024-05-01"}}`, "", livestock.CodeBadEnum},
		{"many unknown properties", "application/json", `{"content":{` + ok + manyProperties + `}}`, "", livestock.CodeBadLength},
		{"duplicate names", "application/json", `{"content":{` + ok + `,"species":"Goat"}}`, "", livestock.CodeMalformedJSON},
		{"NUL", "application/json", "{\"content\":\x00}", "", livestock.CodeMalformedJSON},
		{"bad content type", "application/json; charset=\"", `{}`, "", livestock.CodeMissing},
		{"content type with a NUL", "application/json\x00", `{}`, "", livestock.CodeUnsupportedType},
		{"JSON in latin1", "application/json; charset=latin1", `{"content":{` + ok + `}}`, "", livestock.CodeUnsupportedType},
		{"JSON in UTF-8, said in capitals", "application/json; charset=UTF-8", `{"content":{` + ok + `}}`, "", ""},
		{"JSON under another name", "application/problem+json", `{"content":{` + ok + `}}`, "", livestock.CodeUnsupportedType},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := httptest.NewRequest(http.MethodPost, "/v1/TransferRequests", strings.NewReader(tt.body))
			r.Header["Content-Type"] = []string{tt.ctype}
			if tt.header != "" {
				r.Header["X-Correlation-Id"] = []string{tt.header}
			}
			errs := d.ValidateRequest(r, "/v1/TransferRequests", nil)
			checkSafe(t, errs)
			var got livestock.Code
			if len(errs) > 0 {
				got = errs[0].Code
			}
			if got != tt.wantCode {
				t.Errorf("first code %q, want %q; errors %.500q", got, tt.wantCode, errs)
			}
			if b, _ := io.ReadAll(r.Body); string(b) != tt.body {
				t.Error("the body was not put back")
			}
		})
	}
}

// FuzzValidateRequest: no body, header or parameter makes the validator
// panic, echo unsafe text, or lose the body. `go test` runs the seeds;
// `go test -fuzz=FuzzValidateRequest` explores.
func FuzzValidateRequest(f *testing.F) {
	f.Add(`{"content":{"species":"Sheep","animalCount":3,"transferDate":"2024-05-01"}}`, "application/json", "abc", "10")
	f.Add(`{"content":{"species":"Goat","x":[1,{"y":null}]}}`, "application/json", "", "x")
	f.Add(`{"content":`, "application/json", "\xff", "-1")
	f.Add("grant_type=password&username=%ff", form, "a b", "1e9")
	f.Add(`[[[[[[[[[[`, "application/json; charset=utf-8", "", "")
	d := loadBodies(f)
	f.Fuzz(func(t *testing.T, body, ctype, correlation, top string) {
		for _, method := range []string{http.MethodPost, http.MethodGet} {
			r := httptest.NewRequest(method, "/v1/TransferRequests", strings.NewReader(body))
			r.Header["Content-Type"] = []string{ctype}
			r.Header["X-Correlation-Id"] = []string{correlation}
			r.URL.RawQuery = "$top=" + top
			checkSafe(t, d.ValidateRequest(r, "/v1/TransferRequests", map[string]string{"requestId": top}))
			if b, _ := io.ReadAll(r.Body); string(b) != body {
				t.Errorf("%s: the body was not put back", method)
			}
		}
	})
}
