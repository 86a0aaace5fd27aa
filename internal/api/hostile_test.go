package api_test

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// manyParams is a query string of n parameters no operation takes.
func manyParams(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte('&')
		}
		fmt.Fprintf(&b, "p%d=%d", i, i)
	}
	return b.String()
}

// TestHostileRequests: input built to hurt a server is answered with a
// 4xx problem naming what is wrong, through the real chain and handlers.
// (do also holds each answer to the OpenAPI document.)
func TestHostileRequests(t *testing.T) {
	t.Parallel()
	b := setup(t, storetest.OpenSQLite(t), api.Config{})
	tok := b.token("keeper1")
	const transfer = `"transferDate":"2026-11-20","species":"Sheep","userHolding":"01/100/0257","sourceHolding":"01/100/0257",` +
		`"destinationHolding":"01/100/0258","animalCount":1,"movementGroups":[{"devices":[{"tagNumber":"UK0130181 00001"}]}]`
	json := []string{"Content-Type", "application/json"}
	tests := []struct {
		name, method, path, body string
		headers                  []string
		status                   int
		code                     string // of the first error
	}{
		{"JSON objects nested 10,000 deep", "POST", "/v1/TransferRequests",
			strings.Repeat(`{"content":`, 10_000) + "1" + strings.Repeat("}", 10_000), json, 400, "S007"},
		{"JSON arrays nested 10,000 deep", "POST", "/v1/animals", strings.Repeat("[", 10_000) + strings.Repeat("]", 10_000), json, 400, "S007"},
		{"JSON nested 9,000 deep in a value", "POST", "/v1/TransferRequests",
			`{"content":{` + transfer + `,"trackingId":` + strings.Repeat("[", 9_000) + strings.Repeat("]", 9_000) + `}}`, json, 400, "S007"},
		// encoding/json stops at 10,000 levels: beyond, the body is not JSON to it.
		{"JSON nested 10,001 deep", "POST", "/v1/TransferRequests", strings.Repeat("[", 10_001) + strings.Repeat("]", 10_001), json, 400, "S005"},
		{"10,000 query parameters", "GET", "/v1/TransferRequests?" + manyParams(10_000), "", nil, 400, "S009"},
		// net/url drops a query of more than 10,000 parameters whole, so
		// $top=-1 would be ignored and the page served.
		{"10,001 query parameters", "GET", "/v1/TransferRequests?$top=-1&" + manyParams(10_000), "", nil, 400, "S009"},
		{"a query escape that cannot be decoded", "GET", "/v1/TransferRequests?$top=1%zz", "", nil, 400, "S009"},
		{"a ';' between parameters", "GET", "/v1/TransferRequests?$top=1;$skip=2", "", nil, 400, "S009"},
		{"a body declared gzip", "POST", "/v1/TransferRequests", `{"content":{` + transfer + `}}`,
			[]string{"Content-Type", "application/json", "Content-Encoding", "gzip"}, 400, "S012"},
		{"invalid UTF-8 in $filter", "GET", "/v1/TransferRequests?$filter=species%20eq%20%27%ff%27", "", nil, 400, "S009"},
		{"invalid UTF-8 in a parameter no operation takes", "GET", "/v1/TransferRequests?x=%c3%28", "", nil, 400, "S009"},
		{"invalid UTF-8 in a parameter name", "GET", "/v1/me?%ff=1", "", nil, 400, "S009"},
		{"NUL in the query", "GET", "/v1/TransferRequests?$top=1%00", "", nil, 400, "S009"},
		{"invalid UTF-8 in a movements body", "POST", "/v1/TransferRequests", "{\"content\":{" + transfer + ",\"trackingId\":\"a\xffb\"}}", json, 400, "S005"},
		{"invalid UTF-8 in a property name", "POST", "/v1/TransferRequests", "{\"content\":{" + transfer + ",\"\xfe\":1}}", json, 400, "S005"},
		{"invalid UTF-8 in a registration body", "POST", "/v1/animals", "{\"animal\":{\"identifier\":\"UK44250\xed\xa0\x80\"}}", json, 400, "S005"},
		{"a name twice in a movements body", "POST", "/v1/TransferRequests", `{"content":{` + transfer + `,"animalCount":500}}`, json, 400, "S005"},
		{"a name twice in a registration body", "POST", "/v1/animals", `{"animal":{"identifier":"UK442501500101"},"animal":{}}`, json, 400, "S005"},
		{"a lone surrogate escaped in a movements body", "POST", "/v1/TransferRequests", `{"content":{` + transfer + `,"trackingId":"a\ud800b"}}`, json, 400, "S005"},
		{"a lone surrogate escaped in a registration body", "POST", "/v1/animals", `{"animal":{"identifier":"UK44250\udc00"}}`, json, 400, "S005"},
		{"invalid UTF-8 in the path", "GET", "/v1/StandingData/%ff", "", nil, 400, "S010"},
		{"invalid UTF-8 in a key in parentheses", "GET", "/v1/TransferRequests(%c3%28)", "", nil, 400, "S010"},
		{"invalid UTF-8 in a quoted key", "GET", "/v1/HoldingMovementForReviews(species='%ff',holding='01%2f100%2f0257')", "", nil, 400, "S010"},
		{"NUL in a quoted key", "GET", "/v1/HoldingMovementForReviews/ReviewBySpecies(species='Sheep%00',holding='01%2f100%2f0257')", "", nil, 400, "S010"},
		// Key values may be bare or quoted; one quote alone is neither.
		{"a quote left open", "GET", "/v1/HoldingMovementForReviews(species='Sheep,holding='01%2f100%2f0257')", "", nil, 400, "S010"},
		{"a quote left open, bare form", "GET", "/v1/HoldingMovementForReviews/ReviewBySpecies(species=Sheep',holding=01%2f100%2f0257)", "", nil, 400, "S010"},
		{"invalid UTF-8 in X-Correlation-ID", "GET", "/v1/me", "", []string{"X-Correlation-ID", "abc\xff"}, 400, "S008"},
		{"invalid UTF-8 in LI-Correlation-Id", "GET", "/v1/me", "", []string{"LI-Correlation-Id", "\xc3\x28"}, 400, "S008"},
		{"invalid UTF-8 in x-Request-Mode", "POST", "/v1/animals", `{}`, []string{"Content-Type", "application/json", "x-Request-Mode", "sy\xffnc"}, 400, ""},
		{"invalid UTF-8 in Content-Type", "POST", "/v1/TransferRequests", `{"content":{` + transfer + `}}`, []string{"Content-Type", "application/json\xff"}, 400, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := *b
			b.t = t
			res := b.do(tt.method, tt.path, tok, strings.NewReader(tt.body), tt.headers...)
			if res.status != tt.status {
				t.Fatalf("status %d, want %d: %.300s", res.status, tt.status, res.body)
			}
			if p := res.problem(); tt.code != "" && p.Errors[0].Code != tt.code {
				t.Errorf("codes %v, want %s first: %.300s", p.codes(), tt.code, res.body)
			}
		})
	}
	// A token that is not UTF-8 is refused as any other bad token.
	if res := b.do("GET", "/v1/me", "ey\xff.\xfe", nil); res.status != http.StatusUnauthorized {
		t.Errorf("token not UTF-8: status %d", res.status)
	}
}

// TestHostileNumbersEchoedAsWritten: a number past what its field takes
// is echoed in the error as the body wrote it, not rounded through a
// float64 (12345678901234567890 had come back as 12345678901234567000).
func TestHostileNumbersEchoedAsWritten(t *testing.T) {
	t.Parallel()
	b := setup(t, storetest.OpenSQLite(t), api.Config{})
	tok := b.token("keeper1")
	const transfer = `"transferDate":"2026-11-20","species":"Sheep","userHolding":"01/100/0257","sourceHolding":"01/100/0257",` +
		`"destinationHolding":"01/100/0258","movementGroups":[{"devices":[{"tagNumber":"UK0130181 00001"}]}]`
	for _, tt := range []struct{ path, body, source, value string }{
		{"/v1/UndoRequests", `{"content":{"requestToBeUndone_ID":12345678901234567890}}`, "/content/requestToBeUndone_ID", "12345678901234567890"},
		{"/v1/TransferRequests", `{"content":{` + transfer + `,"animalCount":99999999999999999999}}`, "/content/animalCount", "99999999999999999999"},
	} {
		res := b.do("POST", tt.path, tok, strings.NewReader(tt.body), "Content-Type", "application/json")
		if res.status != http.StatusBadRequest {
			t.Fatalf("%s: status %d: %s", tt.path, res.status, res.body)
		}
		p := res.problem()
		if e := p.Errors[0]; e.Source != tt.source || e.Value != tt.value {
			t.Errorf("%s: error at %s with value %q, want %s and %q: %s", tt.path, e.Source, e.Value, tt.source, tt.value, res.body)
		}
	}
}

// TestHostileRawPath: bytes a client library would escape, sent as they
// are on the request line, are decoded to the same 400 as their escapes.
func TestHostileRawPath(t *testing.T) {
	t.Parallel()
	b := setup(t, storetest.OpenSQLite(t), api.Config{})
	for _, path := range []string{"/v1/StandingData/\xff", "/v1/TransferRequests(\xc3\x28)", "/v1/HoldingMovementForReviews(species='\xfe',holding='01/100/0257')"} {
		res, body := rawRequest(t, b, "GET "+path+" HTTP/1.1\r\nHost: drover\r\nConnection: close\r\n\r\n", nil)
		b.check(t, "GET", url.PathEscape(path), res, body)
		if res.StatusCode != http.StatusBadRequest || !strings.Contains(string(body), `"S010"`) {
			t.Errorf("%q: %d %s", path, res.StatusCode, body)
		}
	}
}

// generator is a request body of size bytes made as it is read, counting
// the bytes handed out, so a test can send 100 MB without holding them.
type generator struct {
	size int64
	read atomic.Int64
}

func (g *generator) Read(p []byte) (int, error) {
	left := g.size - g.read.Load()
	if left <= 0 {
		return 0, io.EOF
	}
	n := int(min(int64(len(p)), left))
	for i := range p[:n] {
		p[i] = 'a'
	}
	g.read.Add(int64(n))
	return n, nil
}

// TestHostileHugeBody: a 100 MB body, declared or chunked, is refused with
// 413 before the server has read it: the client is still sending when the
// answer comes, and the generator never runs to its end. ("Prompt" is
// measured in bytes, not time.) The registration interface answers 400
// instead, in its own shape with LI-Request-Id: its live definition
// declares no 413. Either names the body as the field.
func TestHostileHugeBody(t *testing.T) {
	t.Parallel()
	b := setup(t, storetest.OpenSQLite(t), api.Config{})
	tok := b.token("keeper1")
	const size = 100 << 20
	for _, tt := range []struct {
		name, method, path, ctype string
		chunked                   bool
	}{
		{"declared, movements", "POST", "/v1/TransferRequests", "application/json", false},
		{"chunked, movements", "POST", "/v1/TransferRequests", "application/json", true},
		{"declared, registration", "POST", "/v1/animals", "application/json", false},
		{"chunked, registration", "POST", "/v1/animals", "application/json", true},
		{"chunked, token form, no token", "POST", "/oauth2/token", "application/x-www-form-urlencoded", true},
		{"declared, on a GET", "GET", "/v1/me", "application/json", false},
		{"declared, no such path", "PUT", "/nowhere", "application/json", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			head := fmt.Sprintf("%s %s HTTP/1.1\r\nHost: drover\r\nAuthorization: Bearer %s\r\nContent-Type: %s\r\n", tt.method, tt.path, tok, tt.ctype)
			if tt.chunked {
				head += "Transfer-Encoding: chunked\r\n\r\n"
			} else {
				head += fmt.Sprintf("Content-Length: %d\r\n\r\n", size)
			}
			gen := &generator{size: size}
			res, body := rawRequest(t, b, head, gen)
			b.check(t, tt.method, tt.path, res, body)
			want := http.StatusRequestEntityTooLarge
			if tt.path == "/v1/animals" {
				want = http.StatusBadRequest
				if !strings.Contains(string(body), `"detail"`) || res.Header.Get("LI-Request-Id") == "" {
					t.Errorf("not in the registration shape, or no LI-Request-Id: %v %s", res.Header, body)
				}
			}
			if res.StatusCode != want || !strings.Contains(string(body), `"S011"`) {
				t.Errorf("status %d, want %d with S011: %s", res.StatusCode, want, body)
			}
			// The field named is the body, whether its length was declared or not.
			if !strings.Contains(string(body), `"source":"body"`) && !strings.Contains(string(body), `"target":"body"`) {
				t.Errorf("S011 names no field: %s", body)
			}
			if sent := gen.read.Load(); sent >= size {
				t.Errorf("the whole body was sent (%d bytes) before the answer", sent)
			} else {
				t.Logf("answered after %d of %d bytes were sent", sent, size)
			}
		})
	}
}

// rawRequest writes head and then body (chunked when head says so) on a
// connection of its own, reads the answer while the body is still being
// written, then closes the connection, which stops the writer.
func rawRequest(t *testing.T, b *bundle, head string, body io.Reader) (*http.Response, []byte) {
	t.Helper()
	u, _ := url.Parse(b.url)
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	written := make(chan struct{})
	go func() {
		defer close(written)
		if _, err := io.WriteString(conn, head); err != nil || body == nil {
			return
		}
		if strings.Contains(head, "Transfer-Encoding: chunked") {
			cw := httputil.NewChunkedWriter(conn)
			if _, err := io.Copy(cw, body); err == nil {
				_ = cw.Close()
				_, _ = io.WriteString(conn, "\r\n")
			}
			return
		}
		_, _ = io.Copy(conn, body) // fails once the server closes: expected
	}()
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		_ = conn.Close()
		<-written
		t.Fatalf("no answer: %v", err)
	}
	data, err := io.ReadAll(res.Body)
	_ = conn.Close()
	<-written
	if err != nil {
		t.Fatalf("reading the answer: %v", err)
	}
	return res, data
}

// check holds a response read outside do to the OpenAPI document.
func (b *bundle) check(t *testing.T, method, path string, res *http.Response, body []byte) {
	t.Helper()
	if err := b.doc.ValidateResponse(method, path, res.StatusCode, res.Header, body); err != nil {
		t.Errorf("the response breaks the OpenAPI document: %v\nbody: %.500s", err, body)
	}
	checkLive(t, method, path, res.StatusCode, res.Header, body)
}
