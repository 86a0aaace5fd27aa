package api

import (
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// acceptable is the media types r's Accept header names, lower-cased, in
// the order given, leaving out those weighted q=0 (not acceptable).
func acceptable(r *http.Request) []string {
	var out []string
	for _, part := range strings.Split(strings.Join(r.Header.Values("Accept"), ","), ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		if q, err := strconv.ParseFloat(params["q"], 64); err == nil && q == 0 {
			continue
		}
		out = append(out, mt)
	}
	return out
}

// accepts picks the media type of an answer from the Accept header: the
// first it names of offers, else JSON.
func accepts(r *http.Request, offers ...string) string {
	for _, mt := range acceptable(r) {
		if slices.Contains(offers, mt) {
			return mt
		}
	}
	return "application/json"
}

// problemMediaType is the media type of a registration error answered to
// r, whose body is the same either way: application/problem+json (RFC
// 9457), unless Accept names application/json and not it, as a client
// generated from the live definition (which declares its errors
// application/json) does.
func problemMediaType(r *http.Request) string {
	names := acceptable(r)
	if slices.Contains(names, "application/json") && !slices.Contains(names, "application/problem+json") {
		return "application/json"
	}
	return "application/problem+json"
}
