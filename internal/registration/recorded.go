package registration

import (
	"context"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// recordedRegistration is the registration of an animal that came onto the
// register other than by POST /animals (the sandbox's seed, an operator's
// import), which the live Animal requires. It says only what the register
// knows: the animal was entered as existing stock (category registration,
// not a birth notification), at the holding of the herd or flock whose mark
// its identifier carries, the holding its tag was issued to (the holding it
// is on when that mark names no herd or flock on the register), on the
// date its record begins: its birth date, else the day it came onto its
// holding. Neither depends on later movements, so the answer is stable.
func (s *Service) recordedRegistration(ctx context.Context, a store.Animal, siteOf func([]siteID) recordSite) *recordRegistation {
	cph := s.issuedTo(ctx, a)
	if cph.IsZero() {
		cph = a.CPH
	}
	date := a.BirthDate
	if date.IsZero() {
		date = a.OnSince
	}
	return &recordRegistation{Site: siteOf([]siteID{{Identifier: cph.String(), Type: livestock.SiteHolding}}),
		Date: day(date), Category: livestock.CategoryOther}
}

// issuedTo is the holding of the flock or herd whose mark the animal's
// identifier carries: the holding its tag was issued to; zero when the
// mark names none on the register.
func (s *Service) issuedTo(ctx context.Context, a store.Animal) livestock.CPH {
	if mark := a.Identifier.Mark(); !mark.IsZero() {
		if f, err := s.store.Flock(ctx, mark); err == nil {
			return f.CPH
		}
	}
	return livestock.CPH{}
}
