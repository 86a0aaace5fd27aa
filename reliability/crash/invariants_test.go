package crash

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
)

// invariants checks the whole database for partial records: whatever a
// crash interrupted must have left all of a request or none of it. Each
// broken invariant is one line of the result.
//
//   - a request row has its request_holdings rows, the holdings its row
//     names (migration 00007), and exactly one
//     movements.apply job, done, and the reply kept for its correlation id,
//     which names it;
//   - it is final (Success, CompletedWarning or Fail); one that took
//     effect has its movement, with as many devices as animals; Fail has
//     none;
//   - a registration has its reply; async ones exactly one job, done, sync
//     ones none; Success has its animal, Fail names none;
//   - a job names a request or registration that exists (no orphans);
//   - a reply names a request or registration (no reply without its record);
//   - an animal registered through the API has exactly one Success
//     registration;
//   - each sheep is where its completed moves leave it (checkSheep).
func invariants(s *snapshot) []string {
	var bad []string
	fail := func(format string, args ...any) { bad = append(bad, fmt.Sprintf(format, args...)) }
	requestJobs, registrationJobs := map[int64][]job{}, map[string][]job{}
	for _, j := range s.jobs {
		rid, gid := jobTarget(j)
		switch {
		case j.kind == "movements.apply" && rid != 0:
			requestJobs[rid] = append(requestJobs[rid], j)
		case j.kind == "registration.apply" && gid != "":
			registrationJobs[gid] = append(registrationJobs[gid], j)
		default:
			fail("job %d: kind %q, payload %s names nothing", j.id, j.kind, j.payload)
		}
	}
	requests, registrations := map[int64]bool{}, map[string]bool{}
	for corr, rs := range s.requests {
		for _, r := range rs {
			requests[r.id] = true
			switch {
			case s.holdings[r.id] == "":
				fail("request %d (%s): no request_holdings rows", r.id, corr)
			case s.holdings[r.id] != r.holdings:
				fail("request %d (%s): its row names holdings %q, request_holdings %q", r.id, corr, r.holdings, s.holdings[r.id])
			}
			checkJobs(fail, fmt.Sprintf("request %d (%s)", r.id, corr), requestJobs[r.id], 1)
			checkReply(fail, s, corr, "requestId", strconv.FormatInt(r.id, 10))
			m, moved := s.movements[r.id]
			applied := r.status == "Success" || r.status == "CompletedWarning"
			switch {
			case applied && !moved:
				fail("request %d (%s): %s without its movement", r.id, corr, r.status)
			case applied && len(s.devices[r.id]) != m.count:
				fail("request %d (%s): movement of %d animals has %d devices", r.id, corr, m.count, len(s.devices[r.id]))
			case r.status == "Fail" && moved:
				fail("request %d (%s): Fail, yet has a movement", r.id, corr)
			case !applied && r.status != "Fail":
				fail("request %d (%s): status %q after the queue drained", r.id, corr, r.status)
			}
		}
	}
	registered := map[string]int{}
	for corr, gs := range s.registrations {
		for _, g := range gs {
			registrations[g.id] = true
			want := 0
			if g.async {
				want = 1
			}
			checkJobs(fail, fmt.Sprintf("registration %s (%s)", g.id, corr), registrationJobs[g.id], want)
			if g.async {
				checkReply(fail, s, corr, "id", g.id)
			} else {
				checkReply(fail, s, corr, "identifier", g.identifier)
			}
			switch {
			case g.status == "Success":
				registered[g.identifier]++
				if _, ok := s.animals[g.identifier]; !ok {
					fail("registration %s (%s): Success, yet animal %s does not exist", g.id, corr, g.identifier)
				}
			case g.status == "Fail" && g.identifier != "":
				fail("registration %s (%s): Fail, yet names animal %s", g.id, corr, g.identifier)
			case g.status != "Fail":
				fail("registration %s (%s): status %q after the queue drained", g.id, corr, g.status)
			}
		}
	}
	for rid := range requestJobs {
		if !requests[rid] {
			fail("job for request %d, which does not exist", rid)
		}
	}
	for gid := range registrationJobs {
		if !registrations[gid] {
			fail("job for registration %s, which does not exist", gid)
		}
	}
	for corr := range s.replies {
		if len(s.requests[corr])+len(s.registrations[corr]) == 0 {
			fail("reply for %s, which names no request or registration", corr)
		}
	}
	for id, a := range s.animals {
		if a.registeredBy != "" && registered[id] != 1 {
			fail("animal %s: registered by %s with %d Success registrations", id, a.registeredBy, registered[id])
		}
	}
	checkSheep(fail, s)
	slices.Sort(bad)
	return bad
}

func checkJobs(fail func(string, ...any), what string, jobs []job, want int) {
	if len(jobs) != want {
		fail("%s: %d jobs, want %d", what, len(jobs), want)
	}
	for _, j := range jobs {
		if j.state != "done" {
			fail("%s: job %d is %s", what, j.id, j.state)
		}
	}
}

// checkReply: every request of the load had a caller-chosen correlation
// id, so it must have committed with the reply that names it.
func checkReply(fail func(string, ...any), s *snapshot, corr, field, id string) {
	p, ok := s.replies[corr]
	if !ok {
		fail("%s: no reply kept", corr)
		return
	}
	var named map[string]any
	_ = json.Unmarshal(p.body, &named)
	if got := fmt.Sprint(named[field]); got != id {
		if f, ok := named[field].(float64); !ok || strconv.FormatInt(int64(f), 10) != id {
			fail("%s: the reply names %s %s, the record is %s", corr, field, got, id)
		}
	}
}

// checkSheep: each sheep is where its completed moves leave it.
//
// The moves of one sheep need not complete in the order their requests
// were made: two workers take two jobs at once, or a job cut off by a kill
// runs again after later ones, and a move that finds the sheep elsewhere
// fails. So no order is assumed. Each completed move must have found the
// sheep on its source; and, counted over all of them, the moves must leave
// the sheep on exactly one holding (its flock's, 01/100/0257, plus every
// move in, less every move out), the one it is on. Two moves made from
// the same place, as when two jobs both read the sheep before either moved
// it, leave it on none and are caught here whatever their order.
func checkSheep(fail func(string, ...any), s *snapshot) {
	const flock = "01/100/0257"
	net := map[string]map[string]int{} // tag → holding → times there: start, plus moves in, less moves out
	for id, ds := range s.devices {
		m := s.movements[id]
		if m.state != "Completed" {
			continue
		}
		for _, d := range ds {
			if d.prior != m.source {
				fail("movement %d: sheep %s moved from %s, yet was on %s", id, d.tag, m.source, d.prior)
			}
			if net[d.tag] == nil {
				net[d.tag] = map[string]int{flock: 1}
			}
			net[d.tag][m.source]--
			net[d.tag][m.destination]++
		}
	}
	for tag, a := range s.animals {
		if a.registeredBy != "" {
			continue
		}
		n := net[tag]
		if n == nil {
			n = map[string]int{flock: 1}
		}
		var on, off []string
		for _, h := range slices.Sorted(maps.Keys(n)) {
			switch n[h] {
			case 0:
			case 1:
				on = append(on, h)
			default:
				off = append(off, fmt.Sprintf("%s %+d", h, n[h]))
			}
		}
		switch {
		case len(on) != 1 || len(off) > 0:
			fail("sheep %s is on %s, its completed moves do not chain (on %v, counted %v)", tag, a.cph, on, off)
		case a.cph != on[0]:
			fail("sheep %s is on %s, its completed moves leave it on %s", tag, a.cph, on[0])
		}
	}
}
