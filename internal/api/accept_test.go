package api

import (
	"net/http/httptest"
	"testing"
)

// TestAccepts: the answer's type is the one the client weights highest
// among those the endpoint writes, JSON always among them; the earlier
// named wins a tie, and a type is weighted by its most specific range.
func TestAccepts(t *testing.T) {
	for _, tc := range []struct{ accept, want string }{
		{"", "application/json"},
		{"text/csv", mediaCSV},
		{"text/csv, application/json", mediaCSV},
		{"application/json, text/csv", "application/json"},
		{"application/json;q=0.9, text/csv;q=0.1", "application/json"},
		{"text/vnd.graphviz;q=0.1, application/json", "application/json"},
		{"text/csv;q=0.5, text/vnd.graphviz", mediaDOT},
		{"*/*", "application/json"},
		{"text/*", mediaCSV},
		{"text/*;q=0.2, text/vnd.graphviz;q=0.8", mediaDOT},
		{"text/csv;q=0, */*;q=0.1", "application/json"},
		{"application/xml", "application/json"},
		{"application/json;q=0, text/csv;q=0", "application/json"},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		if tc.accept != "" {
			r.Header.Set("Accept", tc.accept)
		}
		if got := accepts(r, mediaCSV, mediaDOT); got != tc.want {
			t.Errorf("Accept %q: %s, want %s", tc.accept, got, tc.want)
		}
	}
}
