package crash

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// consistent is a snapshot of three whole requests: a transfer that moved
// a sheep, an async and a sync registration.
func consistent() *snapshot {
	const sheep, calf1, calf2 = "UK0130181 00001", "UK442501500151", "UK442501600152"
	return &snapshot{
		requests: map[string][]request{"c1": {{id: 1, status: "Success", user: "keeper1", track: "c1", holdings: "01/100/0257 01/100/0258"}}},
		registrations: map[string][]registration{
			"c2": {{id: "r2", status: "Success", identifier: calf1, async: true}},
			"c3": {{id: "r3", status: "Success", identifier: calf2}},
		},
		replies: map[string]reply{"c1": {201, []byte(`{"requestId":1}`)}, "c2": {202, []byte(`{"requestid":"r2","id":"r2"}`)},
			"c3": {200, []byte(`{"identifier":"` + calf2 + `"}`)}},
		jobs: []job{{1, "movements.apply", "done", []byte(`{"requestId":1}`)},
			{2, "registration.apply", "done", []byte(`{"registrationId":"r2"}`)}},
		movements: map[int64]movement{1: {"01/100/0257", "01/100/0258", "Completed", 1}},
		devices:   map[int64][]device{1: {{sheep, "01/100/0257"}}},
		holdings:  map[int64]string{1: "01/100/0257 01/100/0258"},
		animals: map[string]animal{sheep: {cph: "01/100/0258"}, calf1: {"01/100/0257", "keeper1"},
			calf2: {"01/100/0257", "keeper1"}},
	}
}

// moveAgain adds a completed move of the consistent snapshot's sheep,
// request id, from one holding to another, made when the sheep was on
// prior: the request, its job, reply, holdings and movement.
func moveAgain(s *snapshot, id int64, from, to, prior string) {
	corr := fmt.Sprintf("m%d", id)
	holdings := strings.Join(slices.Sorted(slices.Values([]string{from, to})), " ")
	s.requests[corr] = []request{{id: id, status: "Success", user: "keeper1", track: corr, holdings: holdings}}
	s.replies[corr] = reply{201, fmt.Appendf(nil, `{"requestId":%d}`, id)}
	s.jobs = append(s.jobs, job{10 + id, "movements.apply", "done", fmt.Appendf(nil, `{"requestId":%d}`, id)})
	s.holdings[id] = holdings
	s.movements[id] = movement{from, to, "Completed", 1}
	s.devices[id] = []device{{"UK0130181 00001", prior}}
}

// TestInvariants shows that the checks are not vacuous: each way of
// breaking a whole record is caught, and nothing else.
func TestInvariants(t *testing.T) {
	for _, tc := range []struct {
		name  string
		spoil func(*snapshot)
		want  []string
	}{
		{"whole", func(*snapshot) {}, nil},
		{"request without its job", func(s *snapshot) { s.jobs = s.jobs[1:] },
			[]string{"request 1 (c1): 0 jobs, want 1"}},
		{"job left available", func(s *snapshot) { s.jobs[1].state = "available" },
			[]string{"registration r2 (c2): job 2 is available"}},
		{"request without its holdings", func(s *snapshot) { delete(s.holdings, 1) },
			[]string{"request 1 (c1): no request_holdings rows"}},
		{"request naming other holdings", func(s *snapshot) { s.holdings[1] = "01/100/0257" },
			[]string{`request 1 (c1): its row names holdings "01/100/0257 01/100/0258", request_holdings "01/100/0257"`}},
		{"record without its reply", func(s *snapshot) { delete(s.replies, "c3") },
			[]string{"c3: no reply kept"}},
		{"reply without its record", func(s *snapshot) {
			delete(s.requests, "c1")
			delete(s.movements, 1)
			delete(s.devices, 1)
			s.jobs = s.jobs[1:]
			s.animals["UK0130181 00001"] = animal{cph: "01/100/0257"}
		},
			[]string{"reply for c1, which names no request or registration"}},
		{"orphan job", func(s *snapshot) {
			s.jobs = append(s.jobs, job{3, "registration.apply", "done", []byte(`{"registrationId":"r9"}`)})
		},
			[]string{"job for registration r9, which does not exist"}},
		{"still Pending", func(s *snapshot) { s.registrations["c2"][0].status = "Pending" },
			[]string{"animal UK442501500151: registered by keeper1 with 0 Success registrations",
				`registration r2 (c2): status "Pending" after the queue drained`}},
		{"Success without its animal", func(s *snapshot) { delete(s.animals, "UK442501500151") },
			[]string{"registration r2 (c2): Success, yet animal UK442501500151 does not exist"}},
		{"Success without its movement", func(s *snapshot) { delete(s.movements, 1) },
			[]string{"request 1 (c1): Success without its movement", "sheep UK0130181 00001 is on 01/100/0258, its completed moves leave it on 01/100/0257"}},
		{"Fail with a movement", func(s *snapshot) { s.requests["c1"][0].status = "Fail" },
			[]string{"request 1 (c1): Fail, yet has a movement"}},
		{"sheep not moved", func(s *snapshot) { s.animals["UK0130181 00001"] = animal{cph: "01/100/0257"} },
			[]string{"sheep UK0130181 00001 is on 01/100/0257, its completed moves leave it on 01/100/0258"}},
		{"sheep moved twice from one place", func(s *snapshot) { moveAgain(s, 4, "01/100/0257", "01/100/0258", "01/100/0257") },
			[]string{"sheep UK0130181 00001 is on 01/100/0258, its completed moves do not chain (on [], counted [01/100/0257 -1 01/100/0258 +2])"}},
		{"sheep moved from where it was not", func(s *snapshot) {
			moveAgain(s, 4, "01/100/0258", "01/100/0257", "01/100/0257")
			s.animals["UK0130181 00001"] = animal{cph: "01/100/0257"}
		},
			[]string{"movement 4: sheep UK0130181 00001 moved from 01/100/0258, yet was on 01/100/0257"}},
		// Moves that completed in another order than their requests were
		// made are whole: 1 (0257 to 0258), then 4 (back), then 3 (out
		// again, its job run last) leave the sheep on 0258.
		{"sheep's moves completed out of order", func(s *snapshot) {
			moveAgain(s, 4, "01/100/0258", "01/100/0257", "01/100/0258")
			moveAgain(s, 3, "01/100/0257", "01/100/0258", "01/100/0257")
		}, nil},
		{"reply naming another record", func(s *snapshot) { s.replies["c2"] = reply{202, []byte(`{"id":"r7"}`)} },
			[]string{"c2: the reply names id r7, the record is r2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := consistent()
			tc.spoil(s)
			if diff := cmp.Diff(tc.want, invariants(s)); diff != "" {
				t.Errorf("invariants (-want +got):\n%s", diff)
			}
		})
	}
}

// TestTally shows how each outcome is counted against what was stored.
func TestTally(t *testing.T) {
	s := &snapshot{requests: map[string][]request{"one": {{id: 1}}, "two": {{id: 2}, {id: 3}}},
		registrations: map[string][]registration{"sync": {{id: "r1", identifier: "UK1"}}, "async": {{id: "r2", async: true}}}}
	for _, tc := range []struct {
		name string
		e    entry
		want counts
	}{
		{"acked, stored once", entry{corr: "one", id: "1", outcome: acked}, counts{acked: 1, found: 1}},
		{"acked sync, stored once", entry{corr: "sync", id: "UK1", outcome: acked}, counts{acked: 1, found: 1}},
		{"acked async, stored once", entry{corr: "async", id: "r2", outcome: acked}, counts{acked: 1, found: 1}},
		{"acked, not stored", entry{corr: "none", id: "1", outcome: acked}, counts{acked: 1, lost: 1}},
		{"acked, another stored", entry{corr: "one", id: "9", outcome: acked}, counts{acked: 1, lost: 1}},
		{"acked, stored twice", entry{corr: "two", id: "2", outcome: acked}, counts{acked: 1, duplicated: 1}},
		{"refused, stored", entry{corr: "one", status: 400, outcome: refused}, counts{refused: 1, partial: 1}},
		{"refused, not stored", entry{corr: "none", status: 400, outcome: refused}, counts{refused: 1}},
		{"unknown, not stored", entry{corr: "none"}, counts{unknown: 1}},
		{"unknown, stored twice", entry{corr: "two"}, counts{unknown: 1, duplicated: 1}},
		{"unknown resent, not stored", entry{corr: "none", resent: true}, counts{unknown: 1, lost: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tally([]*entry{&tc.e}, s)
			got.refusals, tc.want.sent = nil, 1
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(counts{})); diff != "" {
				t.Errorf("tally (-want +got):\n%s", diff)
			}
		})
	}
}
