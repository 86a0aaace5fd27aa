package api

import (
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWriteTraceJSON: a trace written a holding at a time is, byte for
// byte, what writeJSON writes of the same body, with none, one or several
// holdings reached.
func TestWriteTraceJSON(t *testing.T) {
	hop := traceMovementBody{MovementID: 7, RequestID: 7, State: "Completed", Species: "Sheep", Source: "10/001/0001",
		Destination: "10/001/0002", TransferDate: "2026-03-01", AnimalCount: 2,
		Animals: []deviceBody{{Identifier: "UK0130181 00001", Outcome: "accepted"}}, Batches: []batchLineBody{}}
	reached := func(n int) []reachedBody {
		out := []reachedBody{}
		for i := range n {
			out = append(out, reachedBody{Holding: "10/001/0002", Direction: "forward", Hops: i + 1, Date: "2026-03-01",
				Path: []traceMovementBody{hop, hop}[:i%2+1]})
		}
		return out
	}
	for _, n := range []int{0, 1, 3} {
		b := traceBody{Query: traceQueryBody{Holding: "10/001/0001", From: "2026-03-01", To: "2026-03-30", Direction: "both", Hops: 3},
			Origins: []stayBody{{Holding: "10/001/0001", From: "2026-03-01", To: "2026-03-30"}}, Holdings: reached(n),
			Animals: []contactBody{{Identifier: "UK0130181 00001", Holding: "10/001/0002", MovementID: 7}}, MovementsRead: 12}
		want, got := httptest.NewRecorder(), httptest.NewRecorder()
		if err := writeJSON(want, 200, b); err != nil {
			t.Fatal(err)
		}
		if err := writeTraceJSON(got, b); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want.Body.String(), got.Body.String()); diff != "" {
			t.Errorf("%d holdings: body differs (-writeJSON +writeTraceJSON):\n%s", n, diff)
		}
		if got.Header().Get("Content-Type") != "application/json" || got.Code != 200 {
			t.Errorf("%d holdings: %d %q", n, got.Code, got.Header().Get("Content-Type"))
		}
	}
}

// TestAcceptsGzip: gzip is sent to a client that names it, or *, with a
// weight above zero, whatever the spelling.
func TestAcceptsGzip(t *testing.T) {
	for header, want := range map[string]bool{
		"": false, "gzip": true, "GZIP": true, "deflate, gzip;q=0.8": true, "br, *": true, "x-gzip": true,
		"gzip;q=0": false, "gzip; q=0.000": false, "identity": false, "deflate, br": false, "gzip;q=0.001": true,
		"*;q=0": false, "gzipped": false,
	} {
		if got := acceptsGzip(header); got != want {
			t.Errorf("acceptsGzip(%q) = %v, want %v", header, got, want)
		}
	}
}
