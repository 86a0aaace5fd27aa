package api

import (
	"net/http/httptest"
	"strings"
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
	for _, n := range []int{0, 1, 3, 4} {
		b := traceBody{Query: traceQueryBody{Holding: "10/001/0001", From: "2026-03-01", To: "2026-03-30", Direction: "both", Hops: 3},
			Origins: []stayBody{{Holding: "10/001/0001", From: "2026-03-01", To: "2026-03-30"}}, Holdings: reached(n),
			Animals: []contactBody{{Identifier: "UK0130181 00001", Holding: "10/001/0002", MovementID: 7}}, MovementsRead: 12,
			AnimalsCut: n == 4}
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

// TestMovementCSVRow: a holding's movements as CSV list what moved, as the
// register counts it: everything named while the review is pending, then
// only the accepted tags and the accepted part of each batch line.
func TestMovementCSVRow(t *testing.T) {
	m := traceMovementBody{MovementID: 9, RequestID: 11, Direction: "in", Species: "Sheep", Source: "10/001/0001",
		Destination: "10/001/0002", TransferDate: "2026-03-01", AnimalCount: 12,
		Animals: []deviceBody{{Identifier: "UK0130181 00001"}, {Identifier: "UK0130181 00002"}},
		Batches: []batchLineBody{{BatchNumber: "UK0130181", AnimalTotal: 6}, {BatchNumber: "UK0130182", AnimalTotal: 4}}}
	pending := m
	pending.State = "PendingReview"
	decided := m
	decided.State, decided.ArrivalDate = "Accepted", "2026-03-02"
	decided.Animals = []deviceBody{{Identifier: "UK0130181 00001", Outcome: "accepted"}, {Identifier: "UK0130181 00002", Outcome: "rejected"}}
	decided.Batches = []batchLineBody{{BatchNumber: "UK0130181", AnimalTotal: 6, Accepted: 5}, {BatchNumber: "UK0130182", AnimalTotal: 4}}
	deer := traceMovementBody{MovementID: 10, RequestID: 12, Direction: "in", State: "Completed", Species: "Deer", Source: "10/001/0001",
		Destination: "10/001/0002", TransferDate: "2026-03-01", AnimalCount: 3, Unnamed: 1,
		Batches: []batchLineBody{{AnimalTotal: 2, Accepted: 2}}}
	for _, tc := range []struct {
		m    traceMovementBody
		want []string
	}{
		{deer, []string{"10", "12", "in", "Completed", "Deer", "10/001/0001", "10/001/0002", "2026-03-01", "", "3",
			"", "x2;freezebrand x1"}},
		{pending, []string{"9", "11", "in", "PendingReview", "Sheep", "10/001/0001", "10/001/0002", "2026-03-01", "", "12",
			"UK0130181 00001;UK0130181 00002", "UK0130181x6;UK0130182x4"}},
		{decided, []string{"9", "11", "in", "Accepted", "Sheep", "10/001/0001", "10/001/0002", "2026-03-01", "2026-03-02", "12",
			"UK0130181 00001", "UK0130181x5"}},
	} {
		if diff := cmp.Diff(tc.want, movementCSVRow(tc.m)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.m.State, diff)
		}
	}
}

// TestTraceDOT: a holding reached both ways is one node labelled with both,
// and a movement only on a date path is drawn, dashed.
func TestTraceDOT(t *testing.T) {
	mv := func(id int64, from, to string) traceMovementBody {
		return traceMovementBody{MovementID: id, Source: from, Destination: to, TransferDate: "2026-03-01"}
	}
	b := traceBody{Origins: []stayBody{{Holding: "10/001/0001"}}, Holdings: []reachedBody{
		{Holding: "10/001/0002", Direction: "forward", Hops: 1, Date: "2026-03-01", Path: []traceMovementBody{mv(1, "10/001/0001", "10/001/0002")}},
		{Holding: "10/001/0002", Direction: "backward", Hops: 2, Date: "2026-02-01", Path: []traceMovementBody{mv(2, "10/001/0002", "10/001/0003"), mv(3, "10/001/0003", "10/001/0001")},
			DatePath: []traceMovementBody{mv(4, "10/001/0002", "10/001/0001")}},
	}}
	dot := string(traceDOT(b))
	if n := strings.Count(dot, "\n  \"10/001/0002\" ["); n != 1 {
		t.Errorf("the holding reached both ways is declared %d times, want once:\n%s", n, dot)
	}
	for _, want := range []string{"color=purple", `forward 1 hop(s), 2026-03-01\nbackward 2 hop(s), 2026-02-01`,
		`"10/001/0002" -> "10/001/0001" [color=blue, style=dashed`} {
		if !strings.Contains(dot, want) {
			t.Errorf("the graph lacks %s:\n%s", want, dot)
		}
	}
}
