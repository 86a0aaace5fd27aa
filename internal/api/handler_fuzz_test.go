package api_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// fuzzMethods are the methods FuzzHandler sends, picked by a fuzzed byte.
var fuzzMethods = []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch, http.MethodOptions}

// FuzzHandler sends fuzzed paths, query strings, bodies and correlation
// ids through the real router, middleware and handlers over SQLite, signed
// in as keeper1. Whatever arrives, the service answers without a fault
// (no 500; 503 and 504 only under load), every 4xx is a problem whose
// status is the response's, and every answer conforms to the OpenAPI
// document. A request Go's client will not send (a URL it cannot parse, a
// header it cannot write, a request line it would break) is not the
// service's to answer and is skipped.
func FuzzHandler(f *testing.F) {
	const transfer = `{"content":{"transferDate":"2026-11-20","species":"Sheep","userHolding":"01/100/0257","sourceHolding":"01/100/0257",` +
		`"destinationHolding":"01/100/0258","animalCount":1,"movementGroups":[{"devices":[{"tagNumber":"UK0130181 00001"}]}]}}`
	const animal = `{"animal":{"identifier":"UK442501500101","species":"cattle","sex":"female","productionType":"dairy"},"breed":{"code":"HOL"},` +
		`"birth":{"date":"2026-11-20","site":{"identifiers":[{"identifier":"01/100/0257","type":"holdingNumber"}]},` +
		`"assistedBirthFlag":false,"multipleBirthsFlag":false,"embryoTransferFlag":false},` +
		`"registration":{"category":"birthRegistration","date":"2026-11-22","site":{"identifiers":[{"identifier":"01/100/0257","type":"holdingNumber"}]},` +
		`"birthDam":{"identifier":"UK442501300001"}}}`
	seeds := []struct {
		method      byte
		path, query string
		body        string
		correlation string
	}{
		{0, "/v1/me", "", "", ""},
		{0, "/v1/StandingData/species", "", "", "abc"},
		{0, "/v1/TransferRequests", "$filter=movementDate%20ge%202026-11-01T00%3b00%3b00Z&$top=10&$expand=content", "", ""},
		{0, "/v1/TransferRequests", "$skiptoken=djE6MQ&$skip=1&$orderby=x", "", ""},
		{0, "/v1/TransferRequests(1)", "$expand=content", "", ""},
		{0, "/v1/TransferRequests%281%29", "", "", ""},
		{0, "/v1/UndoRequests(9223372036854775808)", "", "", ""},
		{0, "/v1/HoldingMovementForReviews(species='Sheep',holding='01%2f100%2f0257')", "", "", ""},
		{0, "/v1/HoldingMovementForReviews/ReviewBySpecies(species=%27Sheep%27,holding=%2701%2F100%2F0257%27)", "$top=1", "", ""},
		{0, "/v1/HoldingMovementForReviews(species='O''Brien',holding='01/100/0257')", "", "", ""},
		{0, "/v1/animals/UK442501300001", "", "", ""},
		{0, "/v1/requeststatus/3f0c6a52-5f2e-4d7c-9a61-1f0d9c0b7e21", "", "", ""},
		{1, "/v1/TransferRequests", "", transfer, "retry-1"},
		{1, "/v1/CorrectTransferRequests", "", `{"content":{"requestToBeCorrected_ID":1}}`, ""},
		{1, "/v1/ReviewHoldingMovementRequests", "", `{"content":{"holding":"01/100/0258","reviewMovement":{"requestId":1,"isAccepted":true,"arrivalDate":"2026-11-21","animalTotal":1}}}`, ""},
		{1, "/v1/UndoRequests", "", `{"content":{"requestToBeUndone_ID":1}}`, ""},
		{1, "/v1/Holdings/ValidHoldings", "", `{"content":{"holdings":["01/100/0257","nope"]}}`, ""},
		{1, "/v1/animals", "", animal, ""},
		{1, "/v1/TransferRequests", "", `{"content":` + strings.Repeat("[", 100) + `}`, ""},
		{1, "/v1/animals", "", "{\"animal\":{\"identifier\":\"\xff\"}}", "\x00"},
		{2, "/v1/me", "", "", ""},
		{3, "/nowhere", "x=%ff", "", ""},
		{0, "/v1/StandingData/%00", "", "", ""},
		{0, "/docs/..%2f..%2fetc%2fpasswd", "", "", ""},
		{0, "/openapi.json", "", "", ""},
	}
	for _, s := range seeds {
		f.Add(s.method, s.path, s.query, []byte(s.body), s.correlation)
	}
	b := start(f, storetest.OpenSQLite(f), api.Config{})
	res, err := http.PostForm(b.url+"/oauth2/token", url.Values{"grant_type": {"password"}, "username": {"keeper1"}, "password": {"keeper1"}})
	if err != nil {
		f.Fatal(err)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	err = json.NewDecoder(res.Body).Decode(&tok)
	res.Body.Close()
	if err != nil || tok.AccessToken == "" {
		f.Fatalf("token: %v", err)
	}
	f.Fuzz(func(t *testing.T, m byte, path, query string, body []byte, correlation string) {
		method := fuzzMethods[int(m)%len(fuzzMethods)]
		target := b.url + "/" + strings.TrimPrefix(path, "/")
		if query != "" {
			target += "?" + query
		}
		req, err := http.NewRequest(method, target, bytes.NewReader(body))
		if err != nil || req.URL.Host != strings.TrimPrefix(b.url, "http://") {
			return // not a URL Go's client sends to this server
		}
		if strings.ContainsFunc(req.URL.RequestURI(), func(r rune) bool { return r <= ' ' || r == 0x7f }) {
			// The client writes the query as given: a space or a control
			// character breaks the request line, which net/http refuses
			// with a plain-text 400 before any handler of ours runs.
			return
		}
		req.Header.Set("Authorization", "Bearer "+tok.AccessToken)
		req.Header.Set("Content-Type", "application/json")
		if correlation != "" {
			req.Header.Set("X-Correlation-ID", correlation)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return // a header or URL the client refused to write
		}
		data, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			t.Fatalf("%s %s: reading the answer: %v", method, target, err)
		}
		switch {
		case res.StatusCode >= 500 && res.StatusCode != http.StatusServiceUnavailable && res.StatusCode != http.StatusGatewayTimeout:
			t.Fatalf("%s %q: %d %s", method, target, res.StatusCode, data)
		case res.StatusCode >= 400:
			// A problem, or on the movements interface its live error body.
			var p struct {
				Status int                    `json:"status"`
				Errors []json.RawMessage      `json:"errors"`
				Live   *struct{ Code string } `json:"error"`
			}
			ct := res.Header.Get("Content-Type")
			if json.Unmarshal(data, &p) != nil || len(p.Errors) == 0 ||
				!(ct == "application/problem+json" && p.Status == res.StatusCode || ct == "application/json" && p.Live != nil && p.Live.Code != "") {
				t.Fatalf("%s %q: %d is not an error body: %s %.300s", method, target, res.StatusCode, ct, data)
			}
		}
		if err := b.doc.ValidateResponse(method, req.URL.EscapedPath(), res.StatusCode, res.Header, data); err != nil {
			t.Fatalf("%s %q: the response breaks the OpenAPI document: %v\nbody: %.300s", method, target, err, data)
		}
	})
}
