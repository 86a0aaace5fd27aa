package api

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"

	"github.com/drover-registry/drover/internal/odata"
)

// collection is an OData result set.
type collection struct {
	Context  string `json:"@odata.context"`
	Count    *int64 `json:"@odata.count,omitempty"`
	Value    []any  `json:"value"`
	NextLink string `json:"@odata.nextLink,omitempty"`
}

// DefaultPageBytes is the byte budget of a listing page unless
// Config.MaxPageBytes says otherwise: a page of 500 requests, each with
// its content expanded, could otherwise take hundreds of megabytes to
// build and to send.
const DefaultPageBytes = 1 << 20

// nextLink is the URL of the page after the one that ended with the item
// at position last (its id, in the default order), and, under an $orderby,
// whose values for the order's fields (key last) are keys: the same query with $skip dropped (in any spelling)
// and a keyset $skiptoken, so that following it costs the same at any
// depth and never repeats or skips an item.
func (s *Server) nextLink(r *http.Request, q odata.Query, key []string, last int64, keys []any) string {
	v := url.Values{}
	for k, vs := range r.URL.Query() {
		name := strings.TrimPrefix(strings.ToLower(k), "$")
		if name != "skip" && name != "skiptoken" {
			v[k] = vs
		}
	}
	v.Set("$skiptoken", q.Token(key, last, keys))
	return s.baseURL(r) + r.URL.EscapedPath() + "?" + v.Encode()
}

// baseURL is where clients reach the service, for the links Drover writes
// (Location, @odata.context, @odata.nextLink): --public-url, or else
// nothing, so that links are relative to the host the client asked. The
// request's Host is never copied into them: anyone can send any Host, and
// a link built from it, kept in a replayed answer or a cache, would send
// the next client elsewhere. A relative reference is a valid Location
// (RFC 9110 §10.2.2), and OData resolves relative context and next links
// against the request URL (OData JSON Format 4.01 §4.6).
func (s *Server) baseURL(*http.Request) string { return s.cfg.PublicURL }

// jsonMembers are the members a value of struct type v is written with:
// what $select may name. Annotations (@odata.context) are not members.
func jsonMembers(v any) []string {
	var names []string
	t := reflect.TypeOf(v)
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name != "" && name != "-" && !strings.HasPrefix(name, "@") {
			names = append(names, name)
		}
	}
	return names
}

// selectMembers is v written as JSON with only the members $select named
// (in v's order), its annotations, and the members expanded, which
// $select does not drop. With no $select, v is returned as it is.
func selectMembers(v any, q odata.Query) (any, error) {
	if q.Select == nil {
		return v, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil { // {
		return nil, err
	}
	var out bytes.Buffer
	out.WriteByte('{')
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, err
		}
		name, _ := tok.(string)
		if !strings.HasPrefix(name, "@") && !slices.Contains(q.Select, name) && !slices.Contains(q.Expand, name) {
			continue
		}
		if out.Len() > 1 {
			out.WriteByte(',')
		}
		k, _ := json.Marshal(name)
		out.Write(k)
		out.WriteByte(':')
		out.Write(raw)
	}
	out.WriteByte('}')
	return json.RawMessage(out.Bytes()), nil
}

// contextURL is the @odata.context of set under q: with a $select, the
// members selected, as OData writes it.
func contextURL(base, set string, q odata.Query) string {
	if q.Select == nil {
		return base + "/v1/$metadata#" + set
	}
	return base + "/v1/$metadata#" + set + "(" + strings.Join(q.Select, ",") + ")"
}
