package api_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// authzCall is one request of the matrix, built fresh for each principal.
type authzCall struct {
	method, path string
	body         any // JSON-encoded unless a string (sent as a form)
}

// authzRow is one documented operation: how to build a valid request
// about keeper1's business, and the status each principal gets. public
// operations take no token and give public to anyone; the token columns
// (none, expired, tampered, foreign key, alg none, HS256) are 401 on every
// other row.
type authzRow struct {
	build                      func(f *authzFixture) authzCall
	public                     int
	owner, stranger, inspector int
	// withdrawn is keeper1's status once every holding of keeper1's is
	// withdrawn (drover import --update); 0 means the owner's.
	withdrawn int
}

const (
	st200, st201, st400, st403, st404 = http.StatusOK, http.StatusCreated, http.StatusBadRequest, http.StatusForbidden, http.StatusNotFound
)

func getCall(path string) func(*authzFixture) authzCall {
	return func(*authzFixture) authzCall { return authzCall{method: http.MethodGet, path: path} }
}

// authzMatrix lists every operation in the OpenAPI document; the test
// fails when the document has one the matrix lacks, so a new endpoint
// cannot be added without its row. What README.md promises: a keeper
// reads their own requests and those about a holding they act for; the
// inspector reads everything and acts for nothing; another keeper's
// review list is a 403 (the holding is the caller's to name), except
// where the live definition declares no 403: another keeper's
// registration status is a 404, a registration at another keeper's
// holding a 400 (V047). Another keeper's animal or movement request, asked
// for by tag or id, is the 404 of one not there, and an undo naming
// another keeper's request is answered as one naming an id not in use
// (400 V024): a 403 told which were in use (issue 20). keeper1
// withdrawn from every holding still reads their own requests and acts
// for nothing. Cases that are not another principal have small tables of
// their own: crossKeeperMatrix (a keeper reporting another's animals moved
// on), staleReviewMatrix (a review of a version since corrected) and
// databaseModeMatrix (sandbox and production servers over one database;
// refusing to start on the other mode's is TestServeModeIsTheDatabases).
func authzMatrix() map[string]authzRow {
	m := map[string]authzRow{
		"GET /healthz":                          {build: getCall("/healthz"), public: st200},
		"GET /readyz":                           {build: getCall("/readyz"), public: st200},
		"GET /metrics":                          {build: getCall("/metrics"), public: st200},
		"GET /openapi.json":                     {build: getCall("/openapi.json"), public: st200},
		"GET /docs":                             {build: getCall("/docs"), public: st200},
		"GET /docs/{file}":                      {build: getCall("/docs/swagger-ui.css"), public: st200},
		"GET /.well-known/openid-configuration": {build: getCall("/.well-known/openid-configuration"), public: st200},
		"GET /oauth2/jwks":                      {build: getCall("/oauth2/jwks"), public: st200},
		"GET /oauth2/authorize":                 {build: getCall("/oauth2/authorize"), public: http.StatusBadRequest},
		"POST /oauth2/authorize":                {build: formCall("/oauth2/authorize", url.Values{}), public: http.StatusBadRequest},
		"POST /oauth2/token":                    {build: formCall("/oauth2/token", url.Values{"grant_type": {"password"}, "username": {"keeper1"}, "password": {"keeper1"}}), public: st200},
		"GET /v1/me":                            {build: getCall("/v1/me"), owner: st200, stranger: st200, inspector: st200},
		"GET /v1/$metadata":                     {build: getCall("/v1/$metadata"), owner: st200, stranger: st200, inspector: st200},
		"GET /v1/StandingData":                  {build: getCall("/v1/StandingData"), owner: st200, stranger: st200, inspector: st200},
		"GET /v1/StandingData/{list}":           {build: getCall("/v1/StandingData/species"), owner: st200, stranger: st200, inspector: st200},
		"GET /v1/animals/{identifier}":          {build: getCall("/v1/animals/UK442501300001"), owner: st200, stranger: st404, inspector: st200, withdrawn: st404},
		// Outbreak tracing: another keeper's animal or holding is not there
		// for them (404, not 403); only the inspector traces.
		"GET /v1/animals/{identifier}/history": {build: getCall("/v1/animals/UK442501300001/history"), owner: st200, stranger: st404, inspector: st200, withdrawn: st404},
		"GET /v1/holdings/{holding}/animals":   {build: getCall("/v1/holdings/01%2F100%2F0257/animals?date=2025-03-01"), owner: st200, stranger: st404, inspector: st200, withdrawn: st404},
		"GET /v1/holdings/{holding}/movements": {build: getCall("/v1/holdings/01%2F100%2F0257/movements?from=2025-03-01&to=2025-03-31"),
			owner: st200, stranger: st404, inspector: st200, withdrawn: st404},
		"POST /v1/traces": {build: func(*authzFixture) authzCall {
			return authzCall{method: http.MethodPost, path: "/v1/traces", body: map[string]any{"holding": farm1, "from": "2025-03-01",
				"to": "2025-03-30", "direction": "both", "hops": 2}}
		}, owner: st403, stranger: st403, inspector: st200},
		// The registration interface's reference lists: any signed-in user.
		"GET /v1/breeds":                  {build: getCall("/v1/breeds?species=cattle"), owner: st200, stranger: st200, inspector: st200},
		"GET /v1/deathreasons":            {build: getCall("/v1/deathreasons?species=sheep"), owner: st200, stranger: st200, inspector: st200},
		"GET /v1/genotypes":               {build: getCall("/v1/genotypes?species=goats"), owner: st200, stranger: st200, inspector: st200},
		"GET /v1/rejectionreasons":        {build: getCall("/v1/rejectionreasons?species=deer"), owner: st200, stranger: st200, inspector: st200},
		"GET /v1/hauliers":                {build: getCall("/v1/hauliers?species=sheep&page=1&pageSize=2"), owner: st200, stranger: st200, inspector: st200},
		"POST /v1/Holdings/ValidHoldings": {build: postCall("Holdings/ValidHoldings", map[string]any{"holdings": []string{farm1, "0035"}}), owner: st200, stranger: st200, inspector: st200},
		"GET /v1/HoldingMovementForReviews(species={species},holding={holding})": {
			build: getCall("/v1/HoldingMovementForReviews(species='Sheep',holding='01%2f100%2f0257')"), owner: st200, stranger: st403, inspector: st200, withdrawn: st403},
		"GET /v1/HoldingMovementForReviews/ReviewBySpecies(species={species},holding={holding})": {
			build: getCall("/v1/HoldingMovementForReviews/ReviewBySpecies(species=Sheep,holding=01%2f100%2f0257)"), owner: st200, stranger: st403, inspector: st200, withdrawn: st403},
		"GET /v1/":                  {build: getCall("/v1/"), owner: st200, stranger: st200, inspector: st200},
		"GET /v1/ApprovedMovements": {build: getCall("/v1/ApprovedMovements"), owner: st200, stranger: st200, inspector: st200},
		"GET /v1/ApprovedMovements({id},{recordedBy})": {build: func(f *authzFixture) authzCall {
			return authzCall{method: http.MethodGet, path: fmt.Sprintf("/v1/ApprovedMovements(%d,Departure)", f.sent)}
		}, owner: st200, stranger: http.StatusNotFound, inspector: st200, withdrawn: st404}, // the live service answers 404, never 403
		"GET /v1/ApprovedMovements/ByTransferDateRange(speciesId={speciesId},startTransferDate={startTransferDate},endTransferDate={endTransferDate},departureHolding={departureHolding},destinationHolding={destinationHolding})": {
			build: getCall(rangePath("1", day(-5)+"T00:00:00Z", day(0)+"T23:59:59Z", farm1Path, "")), owner: st200, stranger: st403, inspector: st200, withdrawn: st403},
		"POST /v1/animals": {build: func(f *authzFixture) authzCall {
			return authzCall{method: http.MethodPost, path: "/v1/animals", body: f.calf()}
		}, owner: st200, stranger: st400, inspector: st400, withdrawn: st400}, // a registration site not one's own is V047: the live definition has no 403 here
		"GET /v1/requeststatus/{requestId}": {build: func(f *authzFixture) authzCall {
			return authzCall{method: http.MethodGet, path: "/v1/requeststatus/" + f.registrationID()}
		}, owner: st200, stranger: http.StatusNotFound, inspector: st200}, // as unknown: the live definition declares 404, never 403
		"POST /v1/TransferRequests": {build: func(f *authzFixture) authzCall {
			return envelopeCall("TransferRequests", transfer(day(0), farm1, "01/100/0259", farm1, sheep("130182", 3), nil))
		}, owner: st201, stranger: st403, inspector: st403, withdrawn: st403},
		"POST /v1/CorrectTransferRequests": {build: func(f *authzFixture) authzCall {
			fix := transfer(day(0), farm1, farm2, farm1, sheep("130181", 3), nil)
			fix["requestToBeCorrected_ID"] = f.correction.RequestID
			return envelopeCall("CorrectTransferRequests", fix)
		}, owner: st201, stranger: st400, inspector: st403, withdrawn: st403}, // as the undo below
		"POST /v1/UndoRequests": {build: func(f *authzFixture) authzCall {
			return envelopeCall("UndoRequests", map[string]any{"requestToBeUndone_ID": f.toUndo.RequestID})
		}, owner: st201, stranger: st400, inspector: st403, withdrawn: st403}, // the stranger is told an id not in use (V024), the inspector, who may see it, that it is not theirs to undo
		"POST /v1/ReviewHoldingMovementRequests": {build: func(f *authzFixture) authzCall {
			return envelopeCall("ReviewHoldingMovementRequests", f.reviewOf(f.toReview.RequestID))
		}, owner: st201, stranger: st403, inspector: st403, withdrawn: st403},
	}
	for name, pick := range map[string]func(*authzFixture) record{
		"TransferRequests":              func(f *authzFixture) record { return f.private },
		"CorrectTransferRequests":       func(f *authzFixture) record { return f.correction },
		"UndoRequests":                  func(f *authzFixture) record { return f.undo },
		"ReviewHoldingMovementRequests": func(f *authzFixture) record { return f.review },
	} {
		m["GET /v1/"+name] = authzRow{build: getCall("/v1/" + name), owner: st200, stranger: st200, inspector: st200}
		m["GET /v1/"+name+"/$count"] = authzRow{build: getCall("/v1/" + name + "/$count"), owner: st200, stranger: st200, inspector: st200}
		m["GET /v1/"+name+"({requestId})"] = authzRow{build: func(f *authzFixture) authzCall {
			return authzCall{method: http.MethodGet, path: fmt.Sprintf("/v1/%s(%d)?$expand=content", name, pick(f).RequestID)}
		}, owner: st200, stranger: http.StatusNotFound, inspector: st200} // as an id not in use
	}
	return m
}

func formCall(path string, v url.Values) func(*authzFixture) authzCall {
	return func(*authzFixture) authzCall { return authzCall{method: http.MethodPost, path: path, body: v.Encode()} }
}

func postCall(path string, content any) func(*authzFixture) authzCall {
	return func(*authzFixture) authzCall { return envelopeCall(path, content) }
}

func envelopeCall(collection string, content any) authzCall {
	return authzCall{method: http.MethodPost, path: "/v1/" + collection, body: map[string]any{"content": content}}
}

// send makes c with token.
func (f *authzFixture) send(c authzCall, token string) response {
	f.b.t.Helper()
	var body io.Reader
	var headers []string
	switch v := c.body.(type) {
	case nil:
	case string:
		body, headers = strings.NewReader(v), []string{"Content-Type", "application/x-www-form-urlencoded"}
	default:
		data, err := json.Marshal(v)
		if err != nil {
			f.b.t.Fatal(err)
		}
		body, headers = strings.NewReader(string(data)), []string{"Content-Type", "application/json"}
	}
	return f.b.do(c.method, c.path, token, body, headers...)
}

// crossKeeperMatrix: a keeper reporting one of keeper1's sheep moved on
// from farm1 to a holding they act for (issue 20). The report is taken
// (submit) and moves nothing until keeper1 reviews it: keeper1 still reads
// the sheep (ownerReads), the reporter does not (reporterReads), and only
// keeper1 may review it (reporterReviews as farm1, ownerReviews).
var crossKeeperMatrix = []struct {
	reporter, at                                                     string
	tag                                                              int
	submit, ownerReads, reporterReads, reporterReviews, ownerReviews int
}{
	{"keeper2", farm2, 11, st201, st200, st404, st403, st201},
	{"keeper3", strangerCPH, 12, st201, st200, st404, st403, st201},
}
