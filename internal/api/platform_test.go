package api_test

import (
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

var uuidPattern = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

func TestMe(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		res := b.do(http.MethodGet, "/v1/me", b.token("keeper1"), nil)
		if res.status != http.StatusOK {
			t.Fatalf("GET /v1/me = %d %s", res.status, res.body)
		}
		var me struct {
			UserName string `json:"userName"`
			Holdings []struct{ Holding, Type, MHS string }
		}
		res.decode(&me)
		if me.UserName != "keeper1" || len(me.Holdings) != 7 {
			t.Fatalf("me = %+v", me)
		}
		first, producer := me.Holdings[0], me.Holdings[4]
		if first.Holding != "01/100/0253" || first.Type != "abattoir" || first.MHS != "0035" {
			t.Errorf("first holding = %+v", first)
		}
		if producer.Holding != "01/100/0257" || producer.Type != "producer" || producer.MHS != "" {
			t.Errorf("producer holding = %+v", producer)
		}

		insp := b.do(http.MethodGet, "/v1/me", b.token("inspector"), nil)
		if insp.status != http.StatusOK || !strings.Contains(string(insp.body), `"holdings":[]`) {
			t.Errorf("inspector me = %d %s", insp.status, insp.body)
		}
	})
}

func TestUnauthenticated(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		for _, tc := range []struct{ name, auth string }{
			{"no header", ""},
			{"not bearer", "Basic a2VlcGVyMTprZWVwZXIx"},
			{"garbage", "Bearer not.a.jwt"},
			{"alg none", "Bearer eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiJrZWVwZXIxIn0."},
		} {
			for _, path := range []string{"/v1/me", "/v1/StandingData", "/v1/StandingData/species"} {
				res := b.do(http.MethodGet, path, "", nil, "Authorization", tc.auth)
				if res.status != http.StatusUnauthorized {
					t.Errorf("%s %s: status %d, want 401", tc.name, path, res.status)
					continue
				}
				if !strings.HasPrefix(res.header.Get("WWW-Authenticate"), "Bearer") {
					t.Errorf("%s %s: WWW-Authenticate = %q", tc.name, path, res.header.Get("WWW-Authenticate"))
				}
				if p := res.problem(); p.Errors[0].Code[0] != 'A' {
					t.Errorf("%s %s: codes %v, want an A code", tc.name, path, p.codes())
				}
			}
		}
	})
}

func TestStandingData(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		tok := b.token("keeper2")
		var lists struct{ Value []struct{ Name string } }
		b.do(http.MethodGet, "/v1/StandingData", tok, nil).decode(&lists)
		names := map[string]bool{}
		for _, l := range lists.Value {
			names[l.Name] = true
		}
		for _, want := range []string{"species", "sheepBreeds", "goatBreeds", "processingFlags", "counties", "cattleBreeds"} {
			if !names[want] {
				t.Errorf("list %q missing from %v", want, lists.Value)
			}
		}
		var species struct {
			Value []struct{ Code, Description string }
		}
		res := b.do(http.MethodGet, "/v1/StandingData/species", tok, nil)
		res.decode(&species)
		codes := map[string]bool{}
		for _, e := range species.Value {
			codes[e.Code] = e.Description != ""
		}
		if !codes["Sheep"] || !codes["Goats"] || !codes["Deer"] {
			t.Errorf("species = %s", res.body)
		}
		missing := b.do(http.MethodGet, "/v1/StandingData/noSuchList", tok, nil)
		if missing.status != http.StatusNotFound {
			t.Fatalf("unknown list: %d", missing.status)
		}
		missing.problem()
		// A list is sent whole: an option that would cut it is refused,
		// naming it, rather than ignored.
		for _, path := range []string{"/v1/StandingData/species?$top=1", "/v1/StandingData/species?$filter=code%20eq%20%27Sheep%27",
			"/v1/StandingData?$top=1"} {
			res := b.do(http.MethodGet, path, tok, nil)
			if p := res.problem(); res.status != http.StatusBadRequest || len(p.Errors) != 1 || !strings.HasPrefix(p.Errors[0].Source, "query:$") {
				t.Errorf("GET %s = %d %s, want 400 naming the option", path, res.status, res.body)
			}
		}
		// $format=json, and a parameter that is no option, are taken as
		// on every collection.
		for _, path := range []string{"/v1/StandingData/species?$format=json", "/v1/StandingData/species?_=1732838400"} {
			if res := b.do(http.MethodGet, path, tok, nil); res.status != http.StatusOK {
				t.Errorf("GET %s = %d %s, want 200", path, res.status, res.body)
			}
		}
	})
}

func TestCorrelationID(t *testing.T) {
	t.Parallel()
	b := setup(t, storetest.OpenSQLite(t), api.Config{})
	// LI-Correlation-Id is always a lower-case UUID, as the live registration
	// definition declares it: the id itself when it is one, else a UUID
	// derived from it, the same for the same id (liUUID "derived").
	const uuidUpper = "3F0C6A52-5F2E-4D7C-9A61-1F0D9C0B7E21"
	liOf := map[string]string{}
	answeredLI := b.do(http.MethodGet, "/healthz", "", nil, "X-Correlation-ID", "x-1").header.Get("LI-Correlation-Id")
	for _, tc := range []struct {
		name    string
		headers []string
		status  int
		want    string // "" means a new UUID
		liUUID  string // "same" (as X-Correlation-ID), "lower" (its lower case) or "derived"
	}{
		{"allocated", nil, 200, "", "same"},
		{"echoed", []string{"X-Correlation-ID", "abc-123"}, 200, "abc-123", "derived"},
		{"echoed again", []string{"X-Correlation-ID", "abc-123"}, 200, "abc-123", "derived"},
		{"a UUID", []string{"X-Correlation-ID", uuidUpper}, 200, uuidUpper, "lower"},
		{"live alias", []string{"LI-Correlation-Id", "li-456"}, 200, "li-456", "derived"},
		{"both alike", []string{"X-Correlation-ID", "x-1", "LI-Correlation-Id", "x-1"}, 200, "x-1", "derived"},
		{"both, as answered", []string{"X-Correlation-ID", "x-1", "LI-Correlation-Id", answeredLI}, 200, "x-1", "derived"},
		{"both, differing", []string{"X-Correlation-ID", "x-1", "LI-Correlation-Id", "li-1"}, 400, "", "same"},
		// One UUID in two of its forms is one id, not two.
		{"both, one UUID in two cases", []string{"X-Correlation-ID", strings.ToLower(uuidUpper), "LI-Correlation-Id", uuidUpper}, 200,
			strings.ToLower(uuidUpper), "same"},
		{"both, one UUID with and without braces", []string{"X-Correlation-ID", uuidUpper, "LI-Correlation-Id", "{" + uuidUpper + "}"}, 200,
			uuidUpper, "lower"},
		// Refused, a printable id is still echoed (the document: every
		// response echoes the caller's value); any other is replaced.
		{"too long", []string{"X-Correlation-ID", strings.Repeat("a", 129)}, 400, strings.Repeat("a", 129), "derived"},
		{"a tab inside", []string{"X-Correlation-ID", "a\tb"}, 400, "", "same"},
		// Any printable value is an id, as the live service takes any.
		{"spaces inside", []string{"X-Correlation-ID", "batch 42/request 7"}, 200, "batch 42/request 7", "derived"},
	} {
		res := b.do(http.MethodGet, "/healthz", "", nil, tc.headers...)
		if res.status != tc.status {
			t.Errorf("%s: status %d, want %d", tc.name, res.status, tc.status)
		}
		got, li := res.header.Get("X-Correlation-ID"), res.header.Get("LI-Correlation-Id")
		if tc.want == "" && !uuidPattern.MatchString(got) || tc.want != "" && got != tc.want {
			t.Errorf("%s: X-Correlation-ID = %q, want %q", tc.name, got, tc.want)
		}
		if !uuidPattern.MatchString(li) {
			t.Errorf("%s: LI-Correlation-Id = %q, not a lower-case UUID", tc.name, li)
		}
		switch tc.liUUID {
		case "same", "lower":
			if li != strings.ToLower(got) {
				t.Errorf("%s: LI-Correlation-Id = %q, want %q", tc.name, li, strings.ToLower(got))
			}
		case "derived":
			if prev, ok := liOf[got]; ok && prev != li {
				t.Errorf("%s: LI-Correlation-Id for %q changed from %q to %q", tc.name, got, prev, li)
			}
			for id, other := range liOf {
				if id != got && other == li {
					t.Errorf("%s: %q and %q share LI-Correlation-Id %q", tc.name, id, got, li)
				}
			}
			liOf[got] = li
		}
	}
	// Sent empty, either header is none: the service allocates an id, on
	// a route whose document declares the header's pattern too.
	for _, h := range []string{"X-Correlation-ID", "LI-Correlation-Id"} {
		res := b.do(http.MethodGet, "/v1/TransferRequests", b.token("keeper1"), nil, h, "")
		if res.status != http.StatusOK || !uuidPattern.MatchString(res.header.Get("X-Correlation-ID")) {
			t.Errorf("empty %s: %d %s, X-Correlation-ID %q; want 200 with a new id", h, res.status, res.body, res.header.Get("X-Correlation-ID"))
		}
	}
	// A refusal names the header and value that were wrong, not both
	// headers' values run together.
	if p := b.do(http.MethodGet, "/healthz", "", nil, "X-Correlation-ID", "bad\tvalue", "LI-Correlation-Id", "good").problem(); len(p.Errors) != 1 ||
		p.Errors[0].Source != "header:X-Correlation-ID" || p.Errors[0].Value != "bad\tvalue" {
		t.Errorf("bad X-Correlation-ID beside a good LI-Correlation-Id: %+v", p)
	}
	// Given twice, neither is taken: which would mark a retry?
	twice, _ := http.NewRequest(http.MethodGet, b.url+"/healthz", nil)
	twice.Header.Add("X-Correlation-ID", "one")
	twice.Header.Add("X-Correlation-ID", "two")
	res, err := http.DefaultClient.Do(twice)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusBadRequest || !strings.Contains(string(data), `"source":"header:X-Correlation-ID"`) {
		t.Errorf("X-Correlation-ID twice: %d %s, want 400 naming the header", res.StatusCode, data)
	}
	// The same value twice, as a proxy may repeat it, is that value.
	same, _ := http.NewRequest(http.MethodGet, b.url+"/healthz", nil)
	same.Header.Add("X-Correlation-ID", "one")
	same.Header.Add("X-Correlation-ID", "one")
	if res, err := http.DefaultClient.Do(same); err != nil {
		t.Fatal(err)
	} else if res.Body.Close(); res.StatusCode != http.StatusOK || res.Header.Get("X-Correlation-ID") != "one" {
		t.Errorf("X-Correlation-ID twice, the same: %d %q, want 200 echoing one", res.StatusCode, res.Header.Get("X-Correlation-ID"))
	}
	if p := b.do(http.MethodGet, "/healthz", "", nil, "LI-Correlation-Id", "bad\tvalue").problem(); len(p.Errors) != 1 ||
		p.Errors[0].Source != "header:LI-Correlation-Id" || p.Errors[0].Value != "bad\tvalue" {
		t.Errorf("bad LI-Correlation-Id: %+v", p)
	}
	// Letters outside ASCII are refused as such, however many (the bound
	// counts characters), and a refusal on an OData path is an OData answer.
	wide := b.do(http.MethodGet, "/v1/TransferRequests", b.token("keeper1"), nil, "X-Correlation-ID", strings.Repeat("é", 65))
	if p := wide.problem(); wide.status != http.StatusBadRequest || len(p.Errors) != 1 || !strings.Contains(p.Errors[0].Message, "printable ASCII") {
		t.Errorf("65 é: %d %s, want 400 saying printable ASCII", wide.status, wide.body)
	}
	if v := wide.header.Get("OData-Version"); v != "4.0" {
		t.Errorf("a refused correlation id on /v1/TransferRequests: OData-Version %q, want 4.0", v)
	}
	// Even a 404 and a 401 carry one.
	for _, path := range []string{"/nowhere", "/v1/me"} {
		if res := b.do(http.MethodGet, path, "", nil); res.header.Get("X-Correlation-ID") == "" {
			t.Errorf("%s: no X-Correlation-ID", path)
		}
	}
}

func TestErrorsForUnknownRoutesAndMethods(t *testing.T) {
	t.Parallel()
	b := setup(t, storetest.OpenSQLite(t), api.Config{})
	if p := b.do(http.MethodGet, "/v1/NoSuchThing", "", nil).problem(); p.Status != 404 || p.Errors[0].Code != "R007" {
		t.Errorf("unknown route: %+v", p)
	}
	// A 405 says what the path allows (RFC 9110 §15.5.6), in its Allow
	// header and its message.
	for path, allow := range map[string]string{"/healthz": "GET, HEAD", "/v1/TransferRequests": "GET, HEAD, POST",
		"/v1/TransferRequests(5)": "GET, HEAD", "/v1/animals": "POST"} {
		res := b.do(http.MethodDelete, path, "", nil)
		if p := res.problem(); p.Status != 405 || p.Errors[0].Code != "R008" || !strings.HasSuffix(p.Errors[0].Message, "allows "+allow) {
			t.Errorf("DELETE %s: %+v", path, p)
		}
		if got := res.header.Get("Allow"); got != allow {
			t.Errorf("DELETE %s: Allow %q, want %q", path, got, allow)
		}
	}
}

// TestHead: HEAD works wherever GET does (RFC 9110 §9.1), with GET's
// status and headers and no body, and needs the same token.
func TestHead(t *testing.T) {
	t.Parallel()
	b := setup(t, storetest.OpenSQLite(t), api.Config{})
	tok := b.token("keeper1")
	head := func(path, token string) *http.Response {
		req, err := http.NewRequest(http.MethodHead, b.url+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}
	for _, tc := range []struct {
		path, token string
		status      int
	}{
		{"/healthz", "", 200}, {"/v1/me", tok, 200}, {"/v1/me", "", 401},
		{"/v1/TransferRequests?$top=1", tok, 200}, {"/v1/animals/UK0130181%2000001", tok, 200},
		{"/v1/TransferRequests(999)", tok, 404}, {"/v1/animals", tok, 405},
	} {
		res := head(tc.path, tc.token)
		if res.StatusCode != tc.status || res.Header.Get("Content-Type") == "" || res.Header.Get("X-Correlation-ID") == "" {
			t.Errorf("HEAD %s = %d %v, want %d with GET's headers", tc.path, res.StatusCode, res.Header, tc.status)
		}
	}
}

// TestNotFoundNamesThePathParameter: a 404 about a resource names the
// path parameter that named it, with the value as sent.
func TestNotFoundNamesThePathParameter(t *testing.T) {
	t.Parallel()
	b := setup(t, storetest.OpenSQLite(t), api.Config{})
	tok := b.token("keeper1")
	for _, tc := range []struct{ path, source, value string }{
		{"/v1/TransferRequests(999)", "path:requestId", "999"},
		{"/v1/UndoRequests(999)", "path:requestId", "999"},
		{"/v1/StandingData/foo", "path:list", "foo"},
		{"/v1/requeststatus/00000000-0000-0000-0000-000000000000", "path:requestId", "00000000-0000-0000-0000-000000000000"},
		{"/v1/animals/UK442501500149", "path:identifier", "UK442501500149"},
	} {
		p := b.do(http.MethodGet, tc.path, tok, nil).problem()
		if p.Status != 404 || p.Errors[0].Code != "R001" || p.Errors[0].Source != tc.source || p.Errors[0].Value != tc.value {
			t.Errorf("GET %s: %+v; want 404 R001 at %s, value %s", tc.path, p, tc.source, tc.value)
		}
	}
}

// TestPathDecodedOnce: a path parameter is percent-decoded once, however
// its escapes are spelled: %2520 is a "%20" in the value, not a space.
func TestPathDecodedOnce(t *testing.T) {
	t.Parallel()
	b := setup(t, storetest.OpenSQLite(t), api.Config{})
	tok := b.token("keeper1")
	for _, tc := range []struct {
		path   string
		status int
		value  string // of the error, if any
	}{
		{"/v1/animals/UK0130181%2000001", 200, ""},
		{"/v1/animals/UK0130181%252000001", 404, "UK0130181%2000001"},
		{"/v1/HoldingMovementForReviews(species='Sheep',holding='01%2f100%2f0257')", 200, ""},
		{"/v1/HoldingMovementForReviews(species='Sheep',holding='01%252f100%252f0257')", 400, "01%252f100%252f0257"},
	} {
		res := b.do(http.MethodGet, tc.path, tok, nil)
		if res.status != tc.status {
			t.Errorf("GET %s = %d %s, want %d", tc.path, res.status, res.body, tc.status)
			continue
		}
		if tc.status >= 400 {
			if p := res.problem(); p.Errors[0].Value != tc.value {
				t.Errorf("GET %s: error about %q, want %q", tc.path, p.Errors[0].Value, tc.value)
			}
		}
	}
}

func TestPercentGarbageInPath(t *testing.T) {
	t.Parallel()
	b := setup(t, storetest.OpenSQLite(t), api.Config{})
	for _, path := range []string{"/v1/StandingData/%00", "/v1/StandingData/%ff%fe", "/v1/me%0a"} {
		res := b.do(http.MethodGet, path, "", nil)
		if res.status != http.StatusBadRequest {
			t.Errorf("%s: status %d, want 400", path, res.status)
			continue
		}
		if p := res.problem(); p.Errors[0].Code != "S010" {
			t.Errorf("%s: codes %v, want S010", path, p.codes())
		}
	}
	// An escape that is not hex never reaches the router: Go's server
	// refuses the request line with a plain 400.
	if res := b.do(http.MethodGet, "/v1/me", "", nil); res.status != 401 {
		t.Fatalf("control: %d", res.status)
	}
}

func TestBodyTooLarge(t *testing.T) {
	t.Parallel()
	b := setup(t, storetest.OpenSQLite(t), api.Config{MaxBody: 1024})
	body := strings.NewReader("grant_type=password&username=keeper1&password=" + strings.Repeat("x", 2048))
	res := b.do(http.MethodPost, "/oauth2/token", "", body, "Content-Type", "application/x-www-form-urlencoded")
	if res.status != http.StatusRequestEntityTooLarge {
		t.Fatalf("status %d, want 413: %s", res.status, res.body)
	}
	if p := res.problem(); p.Errors[0].Code != "S011" {
		t.Errorf("codes %v, want S011", p.codes())
	}
}

func TestRateLimit(t *testing.T) {
	t.Parallel()
	b := setup(t, storetest.OpenSQLite(t), api.Config{RateLimit: 1, RateBurst: 3})
	tok1, tok2 := b.token("keeper1"), b.token("keeper2")
	var statuses []int
	for range 5 {
		statuses = append(statuses, b.do(http.MethodGet, "/v1/me", tok1, nil).status)
	}
	if diff := cmp.Diff([]int{200, 200, 200, 429, 429}, statuses); diff != "" {
		t.Errorf("keeper1 statuses (-want +got):\n%s", diff)
	}
	res := b.do(http.MethodGet, "/v1/me", tok1, nil)
	if res.header.Get("Retry-After") == "" || res.problem().Errors[0].Code != "R002" {
		t.Errorf("429 without Retry-After or R002: %v %s", res.header, res.body)
	}
	// Another user is unaffected.
	if res := b.do(http.MethodGet, "/v1/me", tok2, nil); res.status != 200 {
		t.Errorf("keeper2 got %d while keeper1 was limited", res.status)
	}
}

func TestOperationsEndpoints(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		for _, tc := range []struct {
			path, contentType, contains string
		}{
			{"/healthz", "application/json", `"ok"`},
			{"/readyz", "application/json", `"ready"`},
			{"/openapi.json", "application/json", `"openapi":"3.1`},
			{"/docs", "text/html", "swagger"},
			{"/.well-known/openid-configuration", "application/json", `"token_endpoint"`},
			{"/oauth2/jwks", "application/json", `"keys"`},
		} {
			res := b.do(http.MethodGet, tc.path, "", nil)
			if res.status != 200 || !strings.HasPrefix(res.header.Get("Content-Type"), tc.contentType) ||
				!strings.Contains(strings.ReplaceAll(string(res.body), " ", ""), tc.contains) {
				t.Errorf("GET %s = %d %q, want 200 %s containing %s", tc.path, res.status, res.header.Get("Content-Type"), tc.contentType, tc.contains)
			}
		}
		tok := b.token("keeper1")
		b.do(http.MethodGet, "/v1/me", tok, nil)
		// Invented methods share one label value rather than a series each.
		b.do("M0001X", "/x", "", nil)
		b.do("M0002X", "/x", "", nil)
		before := string(b.do(http.MethodGet, "/metrics", "", nil).body)
		if strings.Contains(before, "M0001X") {
			t.Error("an invented method is a label value of its own")
		}
		for _, want := range []string{
			`method="other"`,
			`drover_http_requests_total{method="GET",route="/v1/me",status="200"} 1`,
			`drover_http_request_duration_seconds_bucket{method="GET",route="/v1/me"`,
			`drover_jobs{state="available"} 0`,
			`drover_store_group_commit_failures_total 0`,
			`drover_http_admission_rejected_total{class="queue"} 0`,
		} {
			if !strings.Contains(before, want) {
				t.Errorf("metrics lack %s", want)
			}
		}
		// A transfer and its job are two writes of the group commit, in
		// one commit or two (with whatever else the server wrote meanwhile).
		b.submit(tok, "TransferRequests", transfer(day(-1), "01/100/0257", "01/100/0258", "01/100/0257", sheep("130181", 3), nil))
		after := string(b.do(http.MethodGet, "/metrics", "", nil).body)
		commits := metricValue(t, after, "drover_store_group_commits_total") - metricValue(t, before, "drover_store_group_commits_total")
		calls := metricValue(t, after, "drover_store_group_calls_total") - metricValue(t, before, "drover_store_group_calls_total")
		seconds := metricValue(t, after, "drover_store_group_commit_seconds_total") - metricValue(t, before, "drover_store_group_commit_seconds_total")
		// The job is counted once its transaction has returned, a moment
		// after the request's status shows it.
		const doneJobs = `drover_job_attempts_total{outcome="done"}`
		for deadline := time.Now().Add(5 * time.Second); ; {
			now := string(b.do(http.MethodGet, "/metrics", "", nil).body)
			if metricValue(t, now, doneJobs) > metricValue(t, before, doneJobs) {
				break
			}
			if time.Now().After(deadline) {
				t.Errorf("the transfer's job was not counted done: %s", now)
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		if commits < 1 || calls < 2 || calls < commits || seconds <= 0 {
			t.Errorf("a transfer and its job added %v commits of %v calls in %vs; want a commit or more, 2 calls or more, some time",
				commits, calls, seconds)
		}
		// The histograms count the same commits (each read at once, so its
		// +Inf bucket is its count).
		for _, h := range []string{"drover_store_group_commit_duration_seconds", "drover_store_group_duration_seconds"} {
			n := metricValue(t, after, h+"_count") - metricValue(t, before, h+"_count")
			inf := metricValue(t, after, h+`_bucket{le="+Inf"}`)
			if n < 1 || inf != metricValue(t, after, h+"_count") || metricValue(t, after, h+"_sum") <= 0 {
				t.Errorf("%s: %v more commits, +Inf bucket %v; want 1 or more, and the bucket to equal the count", h, n, inf)
			}
		}
	})
}

// metricValue is the value of an unlabelled metric in a scrape.
func metricValue(t *testing.T, scrape, name string) float64 {
	t.Helper()
	for line := range strings.Lines(scrape) {
		if rest, ok := strings.CutPrefix(line, name+" "); ok {
			v, err := strconv.ParseFloat(strings.TrimSpace(rest), 64)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			return v
		}
	}
	t.Fatalf("the scrape has no %s", name)
	return 0
}

// TestMetricsWhileTheDatabaseIsDown: a series the store cannot give
// (drover_jobs) is left out, and the rest are served, with no word of the
// database's error (it was a 500 carrying the database's user and address).
func TestMetricsWhileTheDatabaseIsDown(t *testing.T) {
	t.Parallel()
	s := storetest.OpenSQLite(t)
	b := setup(t, s, api.Config{})
	b.do(http.MethodGet, "/healthz", "", nil)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	res := b.do(http.MethodGet, "/metrics", "", nil)
	body := string(res.body)
	if res.status != http.StatusOK || !strings.Contains(body, `drover_http_requests_total{method="GET",route="/healthz",status="200"}`) ||
		strings.Contains(body, "drover_jobs{") || strings.Contains(body, "database") {
		t.Errorf("GET /metrics with the store closed = %d:\n%.2000s", res.status, body)
	}
}

// TestTokenErrorsForOAuthClients: the token endpoint's 400s carry RFC
// 6749 §5.2's error and error_description beside the problem's members,
// which OAuth client libraries read (found missing by an audit).
func TestTokenErrorsForOAuthClients(t *testing.T) {
	t.Parallel()
	b := setup(t, storetest.OpenSQLite(t), api.Config{})
	for form, want := range map[string]string{
		"grant_type=password&username=keeper1&password=wrong": "invalid_grant",
		"grant_type=client_credentials":                       "unsupported_grant_type",
		"grant_type=password&password=keeper1":                "invalid_request",
		"grant_type=refresh_token&refresh_token=nonsense":     "invalid_grant",
	} {
		res := b.do(http.MethodPost, "/oauth2/token", "", strings.NewReader(form), "Content-Type", "application/x-www-form-urlencoded")
		var body struct {
			Status           int
			Error            string `json:"error"`
			ErrorDescription string `json:"error_description"`
		}
		res.decode(&body)
		if res.status != http.StatusBadRequest || body.Error != want || body.ErrorDescription == "" {
			t.Errorf("POST /oauth2/token %s = %d %s, want 400 with error %s", form, res.status, res.body, want)
		}
	}
	// Elsewhere a problem has no such members: on the movements interface
	// error is the live error, an object; on the registration interface
	// there is none.
	var movements struct {
		Error            struct{ Code string }
		ErrorDescription *string `json:"error_description"`
	}
	res := b.do(http.MethodGet, "/v1/TransferRequests?$top=-1", b.token("keeper1"), nil)
	if res.decode(&movements); movements.Error.Code == "" || movements.ErrorDescription != nil {
		t.Errorf("a 400 of the movements interface: %s, want the live error and no error_description", res.body)
	}
	if res := b.do(http.MethodGet, "/v1/animals/nonsense", b.token("keeper1"), nil); res.status < 400 || strings.Contains(string(res.body), `"error"`) {
		t.Errorf("a %d of the registration interface carries error: %s", res.status, res.body)
	}
}

// In production (--issuer) the document served sends vendors' tools to the
// operator's issuer, not to the sandbox's /oauth2, and the documentation
// page may fetch from that issuer.
func TestDocumentForAProductionIssuer(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{Issuer: "https://login.example.gov/realms/livestock"})
		doc := string(b.do(http.MethodGet, "/openapi.json", "", nil).body)
		if strings.Contains(doc, `"/oauth2/token"`) ||
			!strings.Contains(doc, `"openIdConnectUrl":"https://login.example.gov/realms/livestock/.well-known/openid-configuration"`) {
			t.Errorf("the production document does not point at the issuer:\n%.400s", doc)
		}
		csp := b.do(http.MethodGet, "/docs", "", nil).header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "connect-src 'self' https://login.example.gov;") {
			t.Errorf("docs CSP %q does not let the page reach the issuer", csp)
		}
		if sandbox := string(setup(t, s, api.Config{}).do(http.MethodGet, "/openapi.json", "", nil).body); !strings.Contains(sandbox, `"/oauth2/token"`) {
			t.Error("the sandbox's document lost its issuer")
		}
	})
}

// Each answer's @odata.context names a document that is served and has the
// entity set its fragment names.
func TestODataContextResolves(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		tok := b.token("keeper1")
		for _, path := range []string{"/v1/TransferRequests", "/v1/CorrectTransferRequests", "/v1/ReviewHoldingMovementRequests",
			"/v1/UndoRequests", "/v1/HoldingMovementForReviews(species='Sheep',holding='01%2f100%2f0257')"} {
			res := b.do(http.MethodGet, path, tok, nil)
			var page struct {
				Context string `json:"@odata.context"`
			}
			res.decode(&page)
			// A relative context URL is resolved against the request URL
			// (OData JSON Format 4.01 §4.6).
			base, _ := url.Parse(b.url + path)
			ref, err := url.Parse(page.Context)
			if err != nil {
				t.Fatalf("GET %s: @odata.context %q: %v", path, page.Context, err)
			}
			doc, fragment, ok := strings.Cut(base.ResolveReference(ref).String(), "#")
			if res.status != http.StatusOK || !ok || !strings.HasPrefix(doc, b.url) {
				t.Fatalf("GET %s = %d, @odata.context %q", path, res.status, page.Context)
			}
			meta := b.do(http.MethodGet, strings.TrimPrefix(doc, b.url), tok, nil)
			set, _, _ := strings.Cut(fragment, "/")
			if meta.status != http.StatusOK || meta.header.Get("Content-Type") != "application/xml" ||
				!strings.Contains(string(meta.body), `<EntitySet Name="`+set+`" EntityType="Drover.`) {
				t.Errorf("GET %s (the context of %s) = %d %s, without entity set %s:\n%.300s", doc, path, meta.status,
					meta.header.Get("Content-Type"), set, meta.body)
			}
		}
	})
}

// $metadata is XML only: a system query option it cannot honour is a 400.
func TestMetadataQueryOptions(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		tok := b.token("keeper1")
		for _, q := range []string{"", "?$format=xml", "?$format=application/xml", "?plain=ignored"} {
			if res := b.do(http.MethodGet, "/v1/$metadata"+q, tok, nil); res.status != http.StatusOK {
				t.Errorf("GET /v1/$metadata%s = %d, want 200", q, res.status)
			}
		}
		for _, q := range []string{"?$format=json", "?$top=1", "?$filter=requestId%20eq%201", "?$format=xml&$format=xml"} {
			res := b.do(http.MethodGet, "/v1/$metadata"+q, tok, nil)
			if res.status != http.StatusBadRequest || !slices.Contains(res.problem().codes(), "S009") {
				t.Errorf("GET /v1/$metadata%s = %d %s, want 400 S009", q, res.status, res.body)
			}
		}
	})
}

// The sandbox's sign-in page has a Cancel button, and the document lets
// its post (no user name or password) through to the issuer, which sends
// the browser back with error=access_denied.
func TestSignInCancel(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		q := url.Values{"response_type": {"code"}, "client_id": {"herd-app"}, "redirect_uri": {"https://app.test/cb"},
			"code_challenge": {"E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"}, "code_challenge_method": {"S256"}, "state": {"s1"}}
		if page := b.do(http.MethodGet, "/oauth2/authorize?"+q.Encode(), "", nil); !strings.Contains(string(page.body), `name="cancel"`) {
			t.Errorf("the sign-in page (%d) has no Cancel button", page.status)
		}
		q.Set("cancel", "1")
		client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		res, err := client.PostForm(b.url+"/oauth2/authorize", q)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		loc, _ := url.Parse(res.Header.Get("Location"))
		if res.StatusCode != http.StatusFound || loc == nil || loc.Host != "app.test" ||
			loc.Query().Get("error") != "access_denied" || loc.Query().Get("state") != "s1" {
			t.Errorf("cancel = %d, Location %q; want 302 to https://app.test/cb?error=access_denied&state=s1", res.StatusCode, res.Header.Get("Location"))
		}
	})
}
