package api

import (
	"compress/gzip"
	"net/http"
	"strconv"
	"strings"
)

// Tracing's answers run to tens of megabytes of repetitive text (a market's
// trace at national scale is about 20 MB of JSON, 1.3 MB gzipped), which a
// real network, unlike loopback, takes seconds to carry. They are
// compressed for a client that accepts gzip; Go's HTTP client asks for it
// and decompresses by itself.

// gzipResponse writes an answer's body through gzip.
type gzipResponse struct {
	http.ResponseWriter
	z *gzip.Writer
}

func (g gzipResponse) Write(p []byte) (int, error) { return g.z.Write(p) }

// compressed returns the writer for a successful answer's body: w itself,
// or, when the request accepts gzip, a gzip stream over it with the
// headers that say so. finish must be called once the body is written.
func compressed(w http.ResponseWriter, r *http.Request) (out http.ResponseWriter, finish func() error) {
	w.Header().Add("Vary", "Accept-Encoding")
	if !acceptsGzip(r.Header.Get("Accept-Encoding")) {
		return w, func() error { return nil }
	}
	w.Header().Set("Content-Encoding", "gzip")
	w.Header().Del("Content-Length")
	z, _ := gzip.NewWriterLevel(w, gzip.BestSpeed) // a valid level: no error
	return gzipResponse{ResponseWriter: w, z: z}, z.Close
}

// acceptsGzip reports whether an Accept-Encoding header names gzip (or *)
// with a weight above zero.
func acceptsGzip(header string) bool {
	for _, part := range strings.Split(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		switch strings.ToLower(strings.TrimSpace(coding)) {
		case "gzip", "x-gzip", "*":
		default:
			continue
		}
		q := 1.0
		for _, p := range strings.Split(params, ";") {
			if k, v, ok := strings.Cut(p, "="); ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				}
			}
		}
		return q > 0
	}
	return false
}
