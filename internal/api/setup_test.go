package api_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/api/openapi"
	"github.com/drover-registry/drover/internal/auth"
	"github.com/drover-registry/drover/internal/jobs"
	"github.com/drover-registry/drover/internal/movements"
	"github.com/drover-registry/drover/internal/registration"
	"github.com/drover-registry/drover/internal/sandbox"
	"github.com/drover-registry/drover/internal/standing"
	"github.com/drover-registry/drover/internal/store"
)

// bundle is one running server over a real store, with the sandbox data
// and issuer, as a test sees it from outside.
type bundle struct {
	t     *testing.T
	url   string
	store store.Store
	sb    *auth.Sandbox
	doc   *openapi.Doc
	// pauseJobs stops the job runner, once the job it is running is done;
	// resumeJobs starts it again: a test changes the registry between a
	// submission and its job. Neither may be called concurrently.
	pauseJobs, resumeJobs func()
}

// setup starts a server over s with cfg (zero values take defaults).
func setup(t *testing.T, s store.Store, cfg api.Config) *bundle {
	t.Helper()
	b := start(t, s, cfg)
	b.t = t
	return b
}

// start is setup for any test or fuzz target; the bundle it returns has
// no *testing.T yet: a fuzz target gives each input a copy with its own.
func start(t testing.TB, s store.Store, cfg api.Config) *bundle {
	t.Helper()
	ctx := context.Background()
	if _, err := sandbox.Ensure(ctx, s, bcrypt.MinCost); err != nil {
		t.Fatal(err)
	}
	var h http.Handler = http.NotFoundHandler()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, r) }))
	t.Cleanup(ts.Close)
	sb, err := auth.NewSandbox(ctx, s, ts.URL, time.Now,
		auth.WithClients(auth.Client{ID: "herd-app", RedirectURIs: []string{"https://app.test/cb"}}))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := openapi.Load()
	if err != nil {
		t.Fatal(err)
	}
	lists, mv, reg := services(t, s)
	runner := jobs.New(s, jobs.Options{Workers: 2, Poll: 20 * time.Millisecond})
	mv.Register(runner)
	reg.Register(runner)
	jobsOff := func() {}
	jobsOn := func() {
		runCtx, stop := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { _ = runner.Run(runCtx); close(done) }()
		jobsOff = func() { stop(); <-done; jobsOff = func() {} }
	}
	jobsOn()
	t.Cleanup(func() { jobsOff() })
	srv, err := api.New(cfg, api.Deps{Store: s, Doc: doc, Standing: lists, Issuer: sb, Movement: mv, Register: reg,
		Auth: auth.NewVerifier(sb.Issuer(), sb.Audience(), sb.Keys(), s), Jobs: runner})
	if err != nil {
		t.Fatal(err)
	}
	h = srv
	return &bundle{url: ts.URL, store: s, sb: sb, doc: doc, pauseJobs: func() { jobsOff() }, resumeJobs: jobsOn}
}

// token signs in as user with the password grant.
func (b *bundle) token(user string) string {
	b.t.Helper()
	res := b.do(http.MethodPost, "/oauth2/token", "", strings.NewReader(url.Values{
		"grant_type": {"password"}, "username": {user}, "password": {user}}.Encode()),
		"Content-Type", "application/x-www-form-urlencoded")
	if res.status != http.StatusOK {
		b.t.Fatalf("token for %s: %d %s", user, res.status, res.body)
	}
	var tok struct {
		AccessToken string `json:"access_token"`
	}
	res.decode(&tok)
	return tok.AccessToken
}

type response struct {
	t      *testing.T
	status int
	header http.Header
	body   []byte
}

func (r response) decode(v any) {
	r.t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		r.t.Fatalf("decode %s: %v", r.body, err)
	}
}

// problem decodes an error body, checking its media type and shape: a
// Problem (application/problem+json), or, on the movements interface's
// live operations, its error body (application/json): the live error with
// the errors list beside it, and the problem's members on a 404 only.
// Either way Status is the answer's and Detail says what is wrong.
func (r response) problem() problemBody {
	r.t.Helper()
	var p problemBody
	switch ct := r.header.Get("Content-Type"); ct {
	case "application/problem+json":
		r.decode(&p)
		if p.Status != r.status || p.Type == "" || p.Title == "" || len(p.Errors) == 0 {
			r.t.Fatalf("problem body incomplete for status %d: %s", r.status, r.body)
		}
	case "application/json":
		r.decode(&p)
		if json.Unmarshal(p.RawError, &p.Live) != nil || p.Live == nil || p.Live.Code == "" || p.Live.Message == "" || len(p.Live.Details) == 0 || len(p.Errors) == 0 {
			r.t.Fatalf("movements error body incomplete for status %d: %s", r.status, r.body)
		}
		if notFound := r.status == http.StatusNotFound; notFound != (p.Status != 0) || notFound != (p.Type != "" && p.Title != "") ||
			notFound && p.Status != r.status {
			r.t.Fatalf("a movements %d with problem members %v (want them on a 404 only): %s", r.status, p.Status != 0, r.body)
		}
		p.Status = r.status
		if p.Detail == "" {
			p.Detail = p.Live.Message
		}
	default:
		r.t.Fatalf("Content-Type = %q, want application/problem+json or the movements interface's application/json; body %s", ct, r.body)
	}
	return p
}

type problemBody struct {
	Type   string `json:"type"`
	Title  string `json:"title"`
	Status int    `json:"status"`
	Detail string `json:"detail"`
	Errors []struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Source  string `json:"source"`
		Value   string `json:"value"`
	} `json:"errors"`
	RawError json.RawMessage `json:"error"` // the live error, or OAuth's code on the token endpoint
	Live     *liveErrorBody  `json:"-"`     // the movements interface's live error, read from RawError
}

// liveErrorBody is the live service's error object (CLAError).
type liveErrorBody struct {
	Code, Message, Target string
	Details               []struct{ Code, Message, Target string }
}

func (p problemBody) codes() []string {
	var c []string
	for _, e := range p.Errors {
		c = append(c, e.Code)
	}
	return c
}

// walk reads a listing from path as token, following @odata.nextLink to
// its end, and returns the whole-number member key of every item in order.
func (b *bundle) walk(token, path, key string) []int64 {
	b.t.Helper()
	var ids []int64
	for range 20 {
		res := b.do(http.MethodGet, path, token, nil)
		if res.status != http.StatusOK {
			b.t.Fatalf("GET %s = %d %s", path, res.status, res.body)
		}
		var page struct {
			Value    []map[string]json.RawMessage
			NextLink string `json:"@odata.nextLink"`
		}
		res.decode(&page)
		for _, item := range page.Value {
			var id int64
			if err := json.Unmarshal(item[key], &id); err != nil {
				b.t.Fatalf("GET %s: an item's %s: %v", path, key, err)
			}
			ids = append(ids, id)
		}
		if page.NextLink == "" {
			return ids
		}
		path = strings.TrimPrefix(page.NextLink, b.url)
	}
	b.t.Fatalf("%s: the next links do not end", path)
	return nil
}

// do sends a request; headers come in name, value pairs. Every response
// is held to the OpenAPI document (the contract check): its status is
// declared for the operation and its headers and body match; an answer to
// a live path is held to the live definition too (livecontract_test.go).
func (b *bundle) do(method, path, token string, body io.Reader, headers ...string) response {
	b.t.Helper()
	req, err := http.NewRequest(method, b.url+path, body)
	if err != nil {
		b.t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		if http.CanonicalHeaderKey(headers[i]) == "Host" {
			req.Host = headers[i+1] // the client sends req.Host, not a Host header
			continue
		}
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		b.t.Fatal(err)
	}
	check := data // the body as the document describes it, under its Content-Encoding
	if res.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err == nil {
			check, err = io.ReadAll(zr)
		}
		if err != nil {
			b.t.Fatalf("a gzip body that does not decompress: %v", err)
		}
	}
	if err := b.doc.ValidateResponse(method, req.URL.EscapedPath(), res.StatusCode, res.Header, check); err != nil {
		b.t.Errorf("the response breaks the OpenAPI document: %v\nbody: %.500s", err, check)
	}
	checkLive(b.t, method, req.URL.EscapedPath(), res.StatusCode, res.Header, check)
	return response{t: b.t, status: res.StatusCode, header: res.Header, body: data}
}

// services are the standing lists and the movements and registration
// services over s, as drover serve builds them.
func services(t testing.TB, s store.Store) (*standing.Lists, *movements.Service, *registration.Service) {
	t.Helper()
	lists, err := standing.Load("")
	if err != nil {
		t.Fatal(err)
	}
	mv, err := movements.New(s, lists, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := registration.New(s, lists, time.Now, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return lists, mv, reg
}
