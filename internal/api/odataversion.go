package api

import (
	"net/http"
	"strings"
)

// odataVersion marks the answers of the OData routes, errors included,
// with the protocol version they follow (OData-Version: 4.0), as an OData
// client expects. The registration routes and /v1/me are not OData.
func (s *Server) odataVersion(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if isOData(r.URL.Path) {
			w.Header().Set("OData-Version", "4.0")
		}
		next.ServeHTTP(w, r)
	})
}

// isOData reports whether path is served under OData's rules: every path
// below /v1 (or /v1.0) but those of registration and /v1/me.
func isOData(path string) bool {
	rest, ok := strings.CutPrefix(path, "/v1/")
	if !ok {
		if rest, ok = strings.CutPrefix(path, "/v1.0/"); !ok {
			return false
		}
	}
	first := rest
	if i := strings.IndexAny(rest, "/("); i >= 0 {
		first = rest[:i]
	}
	switch strings.ToLower(first) {
	case "animals", "requeststatus", "me":
		return false
	}
	return true
}
