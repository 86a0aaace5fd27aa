package crash

import (
	"strconv"
	"testing"
)

// counts are the figures the test prints.
type counts struct {
	sent, acked, found, duplicated, lost, unknown, partial, refused int
	refusals                                                        map[string]int
	replayed                                                        int // resent unknowns answered with the first answer
}

// tally counts outcomes, and with a snapshot how many records each has.
// A request stored more than once is duplicated whatever its outcome; an
// acknowledged one stored not at all is lost; a refused one stored at all
// left a partial record. An unknown one may be stored once or not at all,
// until it is sent again (resent): then exactly once.
func tally(entries []*entry, s *snapshot) counts {
	c := counts{sent: len(entries), refusals: map[string]int{}}
	for _, e := range entries {
		switch e.outcome {
		case acked:
			c.acked++
		case refused:
			c.refused++
			c.refusals[refusalKey(e)]++
		default:
			c.unknown++
		}
		if s == nil {
			continue
		}
		n, id := stored(s, e)
		switch {
		case n > 1:
			c.duplicated++
		case e.outcome == acked && (n == 0 || id != e.id):
			c.lost++
		case e.outcome == acked:
			c.found++
		case e.outcome == refused && n > 0:
			c.partial++
		case e.resent && n == 0:
			c.lost++
		}
	}
	return c
}

// stored is how many records the database has for e's correlation id,
// and the id that a client would have been given for the last of them.
func stored(s *snapshot, e *entry) (int, string) {
	id := ""
	for _, r := range s.requests[e.corr] {
		id = strconv.FormatInt(r.id, 10)
	}
	for _, g := range s.registrations[e.corr] {
		id = g.id
		if !g.async {
			id = g.identifier
		}
	}
	return len(s.requests[e.corr]) + len(s.registrations[e.corr]), id
}

// missing counts as lost the acknowledged requests the API does not show.
func (c *counts) missing(t *testing.T, problems []string) {
	for i, p := range problems {
		if i < 20 {
			t.Errorf("lost: %s", p)
		}
	}
	c.found -= len(problems)
	c.lost += len(problems)
}
