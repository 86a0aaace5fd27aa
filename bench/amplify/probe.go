package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/drover-registry/drover/bench/internal/benchserver"
)

// The sandbox's keepers: keeper1 sends from their producer holding to
// keeper2's, whose listing is then read.
const (
	source      = "01/100/0257"
	destination = "01/100/0264"
)

// probe holds the server and the two keepers' tokens.
type probe struct {
	srv        *benchserver.Server
	k1, k2     string
	httpClient *http.Client
}

func newProbe(ctx context.Context, srv *benchserver.Server) (*probe, error) {
	k1, err := srv.Token(ctx, "keeper1", "keeper1")
	if err != nil {
		return nil, err
	}
	k2, err := srv.Token(ctx, "keeper2", "keeper2")
	if err != nil {
		return nil, err
	}
	return &probe{srv: srv, k1: k1, k2: k2, httpClient: &http.Client{Timeout: 5 * time.Minute}}, nil
}

// transfer is a transfer of n sheep tags no one registered, in three
// movement groups whose flocks differ, so that every tag is an error.
func transfer(n int) ([]byte, error) {
	type device struct {
		TagNumber string `json:"tagNumber"`
	}
	groups := make([]map[string]any, 3)
	for g := range groups {
		devs := make([]device, 0, n/3+1)
		for i := g; i < n; i += 3 {
			devs = append(devs, device{fmt.Sprintf("UK0%06d %05d", 150000+g, i/3+1)})
		}
		groups[g] = map[string]any{"devices": devs}
	}
	return json.Marshal(map[string]any{"content": map[string]any{
		"userHolding": source, "sourceHolding": source, "destinationHolding": destination,
		"species": "Sheep", "transferDate": time.Now().UTC().Format("2006-01-02T00:00:00Z"),
		"animalCount": n, "movementGroups": groups,
	}})
}

// post sends count transfers of tags tags, one after another, and returns
// the body sent and the request ids answered.
func (p *probe) post(ctx context.Context, count, tags int) ([]byte, []int64, error) {
	body, err := transfer(tags)
	if err != nil {
		return nil, nil, err
	}
	ids := make([]int64, 0, count)
	for range count {
		var got struct {
			RequestID int64 `json:"requestId"`
		}
		if _, err := p.do(ctx, http.MethodPost, "/v1/TransferRequests", p.k1, body, &got); err != nil {
			return nil, nil, err
		}
		ids = append(ids, got.RequestID)
	}
	return body, ids, nil
}

// do sends one request with token and decodes a 2xx answer into v,
// returning the size of its body.
func (p *probe) do(ctx context.Context, method, path, token string, body []byte, v any) (int, error) {
	req, err := http.NewRequestWithContext(ctx, method, p.srv.URL+path, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := p.httpClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return 0, err
	}
	if res.StatusCode/100 != 2 {
		return 0, fmt.Errorf("%s %s: %s: %.300s", method, path, res.Status, b)
	}
	return len(b), json.Unmarshal(b, v)
}

// pathOf is a next link as a path the server answers, whether the server
// wrote it relative (to /v1/) or absolute.
func pathOf(next string) (string, error) {
	u, err := url.Parse(next)
	if err != nil {
		return "", err
	}
	if !strings.HasPrefix(u.Path, "/") {
		u.Path = "/v1/" + u.Path
	}
	return u.RequestURI(), nil
}
