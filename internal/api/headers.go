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

// dropEmpty removes each of the optional headers names that was sent
// empty: such a header is no value, as if absent, and the document's
// pattern for it, checked later, never sees it. (HTTP has already trimmed
// the spaces around a value.)
func dropEmpty(h http.Header, names ...string) {
	for _, name := range names {
		if v, ok := h[http.CanonicalHeaderKey(name)]; ok && strings.Join(v, "") == "" {
			h.Del(name)
		}
	}
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

// noStore marks every answer after authentication Cache-Control: no-store,
// successes and errors alike: they are one user's business (their
// requests, animals, holdings), and a cache between the service and its
// caller (a proxy, the browser's disk) must not keep them for the next
// user of that cache. A handler whose answer is the same for everyone
// (the standing data and reference lists) sets its own caching over it.
func noStore(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		next.ServeHTTP(w, r)
	})
}
