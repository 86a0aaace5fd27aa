package api

import (
	"net/http"
	"net/url"

	"github.com/drover-registry/drover/internal/odata"
)

// collection is an OData result set.
type collection struct {
	Context  string `json:"@odata.context"`
	Value    []any  `json:"value"`
	NextLink string `json:"@odata.nextLink,omitempty"`
}

// nextLink is the URL of the page after the item with id last: the same
// query with $skip dropped and a keyset $skiptoken, so that following it
// costs the same at any depth and never repeats or skips an item.
func (s *Server) nextLink(r *http.Request, q odata.Query, last int64) string {
	v := url.Values{}
	for k, vs := range r.URL.Query() {
		if k != "$skip" && k != "$skiptoken" {
			v[k] = vs
		}
	}
	v.Set("$skiptoken", odata.SkipToken(last))
	return s.baseURL(r) + r.URL.EscapedPath() + "?" + v.Encode()
}

// baseURL is where clients reach the service: --public-url, or the
// scheme and host of the request.
func (s *Server) baseURL(r *http.Request) string {
	if s.cfg.PublicURL != "" {
		return s.cfg.PublicURL
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}
