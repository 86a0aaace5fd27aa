package api

import (
	"net/http"
	"strings"
)

// conflicting reports whether header name was given more than once with
// values that are not the same by same, and then all of them, joined. A
// header repeated with one value (as some proxies do) is not a conflict;
// two values leave it unclear which the caller meant.
func conflicting(h http.Header, name string, same func(a, b string) bool) (string, bool) {
	vs := h.Values(name)
	for _, v := range vs[min(1, len(vs)):] {
		if !same(v, vs[0]) {
			return strings.Join(vs, ", "), true
		}
	}
	return "", false
}

// markReplayed tells a client that the answer is the one kept for its
// correlation id, from a first submission of the same request: nothing new
// was created (Idempotent-Replayed, as the IETF idempotency-key draft and
// several payment APIs name it). A first answer carries no such header.
func markReplayed(h http.Header, replayed bool) {
	if replayed {
		h.Set("Idempotent-Replayed", "true")
	}
}
