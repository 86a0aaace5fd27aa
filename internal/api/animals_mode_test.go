package api

import (
	"net/http"
	"testing"

	"github.com/drover-registry/drover/internal/livestock"
)

// TestRequestMode: x-Request-Mode (or LI-Request-Mode) in any letter
// case; absent is sync; anything else, or the header twice (or under both
// names) with different values, is a 400 naming the header.
func TestRequestMode(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		header http.Header
		async  bool
		bad    bool
	}{
		{"none", http.Header{}, false, false},
		{"async", http.Header{"X-Request-Mode": {"ASYNC"}}, true, false},
		{"sync", http.Header{"X-Request-Mode": {" sync "}}, false, false},
		{"live alias", http.Header{"Li-Request-Mode": {"async"}}, true, false},
		{"twice, the same", http.Header{"X-Request-Mode": {"async", "Async"}}, true, false},
		{"twice, differing", http.Header{"X-Request-Mode": {"async", "sync"}}, false, true},
		{"unknown", http.Header{"X-Request-Mode": {"later"}}, false, true},
		{"both names alike", http.Header{"X-Request-Mode": {"async"}, "Li-Request-Mode": {"ASYNC"}}, true, false},
		{"both names, differing", http.Header{"X-Request-Mode": {"sync"}, "Li-Request-Mode": {"async"}}, false, true},
	} {
		r := &http.Request{Header: tc.header}
		async, err := requestMode(r)
		if async != tc.async || (err != nil) != tc.bad {
			t.Errorf("%s: async %v, error %v; want %v, error %v", tc.name, async, err, tc.async, tc.bad)
		}
		if e, ok := err.(*livestock.Error); tc.bad && (!ok || len(e.Fields) != 1 || e.Fields[0].Source == "") {
			t.Errorf("%s: %v names no header", tc.name, err)
		}
	}
}
