package live

import (
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFind: each Drover path reaches the live operation a generated client
// calls for it, under either base path, and Drover's own paths reach none.
func TestFind(t *testing.T) {
	t.Parallel()
	c := ForTest(t)
	tests := []struct{ method, path, want string }{
		{"POST", "/v1/TransferRequests", "CLA POST /TransferRequests"},
		{"POST", "/v1.0/TransferRequests", "CLA POST /TransferRequests"},
		{"GET", "/v1/TransferRequests?$top=2&$expand=content", "CLA GET /TransferRequests"},
		{"GET", "/v1/TransferRequests(12)", "CLA GET /TransferRequests({id})"},
		{"GET", "/v1/TransferRequests%2812%29", "CLA GET /TransferRequests({id})"},
		{"GET", "/v1/transferrequests/$count", "CLA GET /TransferRequests/$count"},
		{"GET", "/v1/UndoRequests(3)", "CLA GET /UndoRequests({id})"},
		{"POST", "/v1/Holdings/ValidHoldings", "CLA POST /Holdings/ValidHoldings"},
		{"GET", "/v1/HoldingMovementForReviews/ReviewBySpecies(species='Sheep',holding='01%2F100%2F0264')",
			"CLA GET /HoldingMovementForReviews/ReviewBySpecies(species={species},holding={holding})"},
		{"GET", "/v1/HoldingMovementForReviews/ReviewBySpecies(species=Sheep,holding=01%2F100%2F0264)",
			"CLA GET /HoldingMovementForReviews/ReviewBySpecies(species={species},holding={holding})"},
		{"GET", "/v1/HoldingMovementForReviews(species=%27Sheep%27,holding=%2701%2f100%2f0264%27)",
			"CLA GET /HoldingMovementForReviews/ReviewBySpecies(species={species},holding={holding})"},
		{"GET", "/v1/ApprovedMovements(7,'keeper1')", "CLA GET /ApprovedMovements({id},{recordedBy})"},
		{"GET", "/v1/ApprovedMovements/ByTransferDateRange(speciesId=1,startTransferDate=2024-01-01,endTransferDate=2024-02-01,departureHolding='01%2F100%2F0253',destinationHolding='')",
			"CLA GET /ApprovedMovements/ByTransferDateRange(speciesId={speciesId},startTransferDate={startTransferDate},endTransferDate={endTransferDate},departureHolding={departureHolding},destinationHolding={destinationHolding})"},
		{"POST", "/v1/animals", "LIS POST /animals"},
		{"GET", "/v1/animals/UK0130181%2000001", "LIS GET /animals/{identifier}"},
		{"GET", "/v1/requeststatus/9f4c", "LIS GET /requeststatus/{requestId}"},
		{"GET", "/v1/breeds?species=Cattle", "LIS GET /breeds"},
		{"GET", "/v1/me", ""},
		{"GET", "/v1/StandingData/species", ""},
		{"GET", "/oauth2/jwks", ""},
		{"GET", "/TransferRequests", ""},
		{"DELETE", "/v1/TransferRequests(1)", ""},
	}
	for _, tt := range tests {
		got := ""
		if op := c.Find(tt.method, tt.path); op != nil {
			got = op.String()
		}
		if got != tt.want {
			t.Errorf("Find(%s %s) = %q, want %q", tt.method, tt.path, got, tt.want)
		}
	}
}

// TestCheck: answers in the live shapes pass, and each way an answer can
// break the live definition is caught and named, including a known-bad
// body of the kind Drover sent before issue 19 (requestStatus "Failed").
func TestCheck(t *testing.T) {
	t.Parallel()
	c := ForTest(t)
	hdr := func(ct string) http.Header { return http.Header{"Content-Type": {ct}} }
	const record = `{"requestId":7,"requestDate":"2025-01-02T03:04:05Z","requestStatus":"Pending","userName":"keeper1",` +
		`"content":{"sourceHolding":"01/100/0257","destinationHolding":"01/100/0264","userHolding":"01/100/0257",` +
		`"transferDate":"2025-01-02T00:00:00Z","animalCount":1,"species":"Sheep","movementGroups":[{"devices":[{"tagNumber":"UK0130181 00001"}]}]},` +
		`"errors":[],"warnings":[],"undoSupported":true,"isFullUndone":false,"isContentPurged":false}`
	const problem = `{"type":"https://example.org/p","title":"Validation Error","status":400,"detail":"The request is invalid.",` +
		`"errors":[{"code":"V038","detail":"Birth site not known","source":"#/birth/site","value":"x"}]}`
	const liveError = `{"error":{"code":"R002","message":"m","details":[]},"errors":[{"code":"R002","message":"m"}]}`
	tests := []struct {
		name, method, path string
		status             int
		header             http.Header
		body               string
		want               Kind // "" for no violation
		detail             string
	}{
		{"a record", "POST", "/v1/TransferRequests", 201, hdr("application/json; charset=utf-8"), record, "", ""},
		{"a failed record", "GET", "/v1/TransferRequests(7)", 200, hdr("application/json"),
			strings.Replace(record, `"Pending"`, `"Failed"`, 1), KindBody, "/requestStatus"},
		{"a plain date", "GET", "/v1/TransferRequests(7)", 200, hdr("application/json"),
			strings.Replace(record, `"2025-01-02T00:00:00Z"`, `"2025-01-02"`, 1), KindBody, "/content/transferDate"},
		{"a member the live record lacks", "GET", "/v1/TransferRequests(7)", 200, hdr("application/json"),
			strings.Replace(record, `"requestId":7`, `"requestId":7,"requestType":"TransferRequest"`, 1), KindBody, "requestType"},
		{"the interface document's fields (allowed extras)", "GET", "/v1/TransferRequests(7)", 200, hdr("application/json"),
			strings.Replace(record, `"requestId":7`, `"requestId":7,"movementDate":null,"species":"Sheep","trackingId":"t-1"`, 1), "", ""},
		{"valid holdings in both shapes", "POST", "/v1/Holdings/ValidHoldings", 200, hdr("application/json"),
			`{"validateResults":[{"holding":"01/100/0257","state":1,"propertyName":"Home Farm"}],` +
				`"content":{"validateResults":[{"holding":"01/100/0257","state":"Valid","propertyName":"Home Farm"}]}}`, "", ""},
		{"a page with OData members", "GET", "/v1/TransferRequests?$top=1", 200, hdr("application/json"),
			`{"@odata.context":"x/$metadata#TransferRequests","@odata.nextLink":"x?$skiptoken=1","value":[` + record + `]}`, "", ""},
		{"an unknown OData member", "GET", "/v1/TransferRequests", 200, hdr("application/json"),
			`{"@odata.context":"x","@odata.bogus":1,"value":[]}`, KindBody, "@odata.bogus"},
		{"an OData member of the wrong type", "GET", "/v1/TransferRequests", 200, hdr("application/json"),
			`{"@odata.nextLink":5,"value":[]}`, KindBody, "@odata.nextLink"},
		{"an undeclared status", "POST", "/v1/TransferRequests", 409, hdr("application/problem+json"), `{}`, KindStatus, "declared: 201, 400"},
		{"a 401 (oddity 3)", "GET", "/v1/animals/UK0130181%2000001", 401, hdr("application/problem+json"), `{"x":1}`, "", ""},
		{"a 401 to the movements (oddities 3, 7)", "GET", "/v1/TransferRequests", 401, hdr("application/json"), liveError, "", ""},
		{"a 403 to the movements as a problem", "GET", "/v1/TransferRequests(1)", 403, hdr("application/problem+json"), `{}`, KindMediaType, "application/json"},
		{"a 503 to the movements (oddity 7)", "POST", "/v1/UndoRequests", 503, hdr("application/json"), liveError, "", ""},
		{"a 413 to the movements (oddity 7)", "POST", "/v1/TransferRequests", 413, hdr("application/json"), liveError, "", ""},
		{"a 429 off the live error body", "GET", "/v1/TransferRequests", 429, hdr("application/json"), `{"status":429}`, KindBody, `"status" is unsupported`},
		{"a 400 to a count (oddity 7)", "GET", "/v1/UndoRequests/$count", 400, hdr("application/json"), liveError, "", ""},
		{"a 404 to a count", "GET", "/v1/UndoRequests/$count", 404, hdr("application/json"), liveError, KindStatus, "declared: 200"},
		{"a 403 LIS does not declare", "GET", "/v1/requeststatus/x", 403, hdr("application/problem+json"), problem, KindStatus, ""},
		{"a poll too soon (oddity 7)", "GET", "/v1/requeststatus/x", 429, hdr("application/problem+json"),
			strings.Replace(problem, `"status":400`, `"status":429`, 1), "", ""},
		{"a 429 without the registration problem's detail (oddity 7)", "GET", "/v1/breeds", 429, hdr("application/problem+json"),
			`{"type":"t","title":"Too Many Requests","status":429,"errors":[{"code":"R002","message":"m"}]}`, KindBody, "detail"},
		{"the live 400 with the document's errors", "POST", "/v1/TransferRequests", 400, hdr("application/json"),
			`{"error":{"code":"1","message":"m","target":"content.species","details":[{"code":"1","message":"m","target":"t"}]},"errors":[{"code":"X"}]}`, "", ""},
		{"a problem as the movements' 400", "POST", "/v1/TransferRequests", 400, hdr("application/problem+json"), problem, KindBody, `property "type" is unsupported`},
		{"a 201 as text", "POST", "/v1/TransferRequests", 201, hdr("text/html"), record, KindMediaType, "text/html"},
		{"a count", "GET", "/v1/TransferRequests/$count", 200, hdr("text/plain; charset=utf-8"), "42", "", ""},
		{"a count that is no number", "GET", "/v1/TransferRequests/$count", 200, hdr("text/plain"), `{"count":4}`, KindBody, "int32"},
		{"a registration problem (oddity 2)", "POST", "/v1/animals", 400, hdr("application/problem+json"), problem, "", ""},
		{"a registration problem with a string status", "POST", "/v1/animals", 400, hdr("application/problem+json"),
			strings.Replace(problem, `"status":400`, `"status":"400"`, 1), KindBody, "/status"},
		{"a registration problem without detail", "POST", "/v1/animals", 400, hdr("application/problem+json"),
			strings.Replace(problem, `"detail":"The request is invalid.",`, "", 1), KindBody, "detail"},
		{"the async answer", "POST", "/v1/animals", 202, hdr("application/json"),
			`{"requestStatusUrl":"/requeststatus/df44b048-aa6a-4b2f-8ae7-daad7d3f6dc4","requestid":"df44b048-aa6a-4b2f-8ae7-daad7d3f6dc4"}`, "", ""},
		{"the async answer without its URL", "POST", "/v1/animals", 202, hdr("application/json"), `{"requestid":"x"}`, KindBody, "requestStatusUrl"},
		{"a request id that is no uuid", "POST", "/v1/animals", 400,
			http.Header{"Content-Type": {"application/problem+json"}, "Li-Request-Id": {"r-1"}}, problem, KindHeader, "LI-Request-Id"},
		{"a request status (oddity 6)", "GET", "/v1/requeststatus/x", 200, hdr("application/json"),
			`{"status":"Success","identifier":"UK442501100105","links":{"self":"/animals/UK442501100105"}}`, "", ""},
		{"a request status that is no object", "GET", "/v1/requeststatus/x", 200, hdr("application/json"), `["Success"]`, KindBody, ""},
		{"not a live path", "GET", "/v1/me", 418, hdr("text/plain"), "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := c.Check(tt.method, tt.path, tt.status, tt.header, []byte(tt.body))
			var v *Violation
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("Check: %v", err)
			case tt.want != "" && !errors.As(err, &v):
				t.Errorf("Check = %v, want a %s violation", err, tt.want)
			case tt.want != "" && (v.Kind != tt.want || !strings.Contains(err.Error(), tt.detail)):
				t.Errorf("Check = %v, want a %s violation naming %q", err, tt.want, tt.detail)
			}
		})
	}
}

// TestLocate: $DROVER_LIVE_SPEC names the definitions, and a folder
// without them is refused with a message saying what is missing.
func TestLocate(t *testing.T) {
	empty := t.TempDir()
	t.Setenv(EnvDir, empty)
	if _, err := Locate(); err == nil || !strings.Contains(err.Error(), claFile) {
		t.Errorf("Locate with an empty %s = %v, want an error naming %s", EnvDir, err, claFile)
	}
	for _, f := range []string{claFile, lisFile} {
		if err := os.WriteFile(filepath.Join(empty, f), []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if dir, err := Locate(); err != nil || dir != empty {
		t.Errorf("Locate = %q, %v, want %q", dir, err, empty)
	}
}

func TestEscapeLineFeeds(t *testing.T) {
	t.Parallel()
	in := "{\"a\":\"x\ny\\\"\r\tz\",\n\"b\":1}"
	want := "{\"a\":\"x\\ny\\\"\\r\\tz\",\n\"b\":1}"
	if got := string(escapeLineFeeds([]byte(in))); got != want {
		t.Errorf("escapeLineFeeds(%q) = %q, want %q", in, got, want)
	}
}
