package tracing

import (
	"context"
	"slices"
	"strings"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// MaxContacts bounds the animals one trace lists: a market's month is tens
// of thousands of animals, more than anyone reads in one answer.
const MaxContacts = 10000

// contacts are the animals that shared a holding with q's animal while it
// was there within the window (its origins), each with the days shared
// (its stay cut to the origin's days in the window), and where they are
// now.
// cut is true when more animals than MaxContacts shared one.
func (s *Service) contacts(ctx context.Context, q Query, origins []Stay) (out []Contact, cut bool, err error) {
	for _, o := range Joined(origins) { // a holding left and come back to the same day is one stay there
		from, to := maxDay(o.From, q.From), q.To
		if !o.To.IsZero() && o.To.Before(to) {
			to = o.To
		}
		rs, err := s.Residents(ctx, o.Holding, from, to)
		if err != nil {
			return nil, false, err
		}
		for _, r := range rs {
			if r.Animal.Identifier.String() == q.Animal || (!q.Species.IsZero() && r.Animal.Species != q.Species) {
				continue
			}
			shared := r.Stay
			shared.From = maxDay(shared.From, from)
			if shared.To.IsZero() || shared.To.After(to) {
				shared.To = to
			}
			if len(out) == MaxContacts {
				return out, true, nil
			}
			out = append(out, Contact{Animal: r.Animal, Stay: shared})
		}
	}
	return out, false, nil
}

// carried are the tagged animals the carriers (every movement that carried
// the risk on, not only those on the holdings' paths; relax has read their
// animals) moved, each once (by the first carrier, in id order, that moved
// it), with where they are now. An animal a review rejected did not
// travel.
// cut is true when they were more than MaxContacts.
func (s *Service) carried(ctx context.Context, carriers []store.Movement) (out []Contact, cut bool, err error) {
	by, tags := map[string]int64{}, map[string]livestock.Tag{}
	for _, m := range carriers {
		for _, d := range m.Devices {
			if d.Outcome == "rejected" {
				continue
			}
			id := d.Identifier.String()
			if first, ok := by[id]; !ok || m.ID < first {
				by[id], tags[id] = m.ID, d.Identifier
			}
		}
	}
	ids := make([]string, 0, len(by))
	for id := range by {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	if cut = len(ids) > MaxContacts; cut {
		ids = ids[:MaxContacts]
	}
	animals, err := s.st.AnimalsByID(ctx, ids)
	if err != nil {
		return nil, false, err
	}
	out = make([]Contact, 0, len(ids))
	for _, id := range ids {
		a, ok := animals[id]
		if !ok {
			a = store.Animal{Identifier: tags[id]}
		}
		out = append(out, Contact{Animal: a, Stay: Stay{Movement: by[id]}})
	}
	slices.SortFunc(out, func(a, b Contact) int {
		return strings.Compare(a.Animal.Identifier.String(), b.Animal.Identifier.String())
	})
	return out, cut, nil
}
