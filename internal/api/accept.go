package api

import (
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// acceptRange is one media range of an Accept header: its type, lower
// case, and its weight.
type acceptRange struct {
	mt string
	q  float64
}

// ranges is r's Accept header, in the order given.
func ranges(r *http.Request) []acceptRange {
	var out []acceptRange
	for _, part := range strings.Split(strings.Join(r.Header.Values("Accept"), ","), ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil {
			continue
		}
		q := 1.0
		if v, err := strconv.ParseFloat(params["q"], 64); err == nil && v >= 0 && v <= 1 {
			q = v
		}
		out = append(out, acceptRange{mt, q})
	}
	return out
}

// acceptable is the media types r's Accept header names, lower-cased, in
// the order given, leaving out those weighted q=0 (not acceptable).
func acceptable(r *http.Request) []string {
	var out []string
	for _, a := range ranges(r) {
		if a.q > 0 {
			out = append(out, a.mt)
		}
	}
	return out
}

// accepts picks the media type of an answer among offers and JSON, which
// every endpoint writes: the one the Accept header weights highest (a
// type's weight is that of the most specific range naming it: itself,
// then type/*, then */*), the earlier named on a tie, JSON when the
// header names none of them or weights them all 0. So text/csv;q=0.1
// beside application/json is JSON, as the client prefers.
func accepts(r *http.Request, offers ...string) string {
	best, bestQ, bestAt := "application/json", -1.0, 0
	given := ranges(r)
	for _, offer := range append([]string{"application/json"}, offers...) {
		major, _, _ := strings.Cut(offer, "/")
		q, at, specific := 0.0, 0, 0
		for i, a := range given {
			level := 0
			switch a.mt {
			case offer:
				level = 3
			case major + "/*":
				level = 2
			case "*/*":
				level = 1
			}
			if level > specific {
				q, at, specific = a.q, i, level
			}
		}
		if specific == 0 || q == 0 {
			continue
		}
		if q > bestQ || q == bestQ && at < bestAt {
			best, bestQ, bestAt = offer, q, at
		}
	}
	return best
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
