package registration

import (
	"context"
	"encoding/json"
	"slices"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// register applies the rules to r inside tx and, when they hold, records
// the animal. It returns the rules' errors (nothing written) or warnings.
// received is when the service received the registration: in async mode
// the request's time, not the job's, for the rules and the record alike.
func (s *Service) register(ctx context.Context, tx store.Tx, r livestock.Registration, w body, user string, received time.Time) (errs, warns []livestock.FieldError, err error) {
	f, err := s.facts(ctx, tx, r, user, livestock.UKDate(received))
	if err != nil {
		return nil, nil, err
	}
	out, errs, warns := livestock.CheckRegistration(r, f)
	if len(errs) > 0 {
		for i := range errs { // the rules name the interface document's member; the caller may have used the live one
			if errs[i].Source == "/OriginalIdentifier" && w.Animal.OriginalIdentifier != nil && *w.Animal.OriginalIdentifier != "" {
				errs[i].Source = "/animal/originalIdentifier"
			}
		}
		return errs, nil, nil
	}
	record, _ := json.Marshal(w)
	a := store.Animal{
		Identifier: r.Tag, Species: r.Species, Sex: r.Sex, BirthDate: r.BirthDate.Time(),
		CPH: r.RegistrationSite, OnSince: r.RegistrationDate.Time(), State: livestock.StateRegistered,
		Name: r.Name, ProductionType: r.ProductionType, Breed: r.Breed, BirthDam: r.BirthDam, GeneticDam: r.GeneticDam,
		Sire: r.Sire, OriginalIdentifier: r.OriginalIdentifier, IdentificationDate: r.IdentificationDate.Time(),
		RegistrationDate: r.RegistrationDate.Time(), ReceivedDate: received.UTC(), DeathDate: r.DeathDate.Time(),
		Category: r.Category, MovementRestricted: out.Restricted, RestrictionReason: out.Reason, RegisteredBy: user, Record: record,
	}
	if len(r.BirthSite) > 0 {
		a.BirthSite = r.BirthSite[0].Identifier
	}
	if r.Category == livestock.CategoryBirth && !r.BirthDate.IsZero() {
		a.OnSince = r.BirthDate.Time() // born there
	}
	if out.Dead {
		a.State = livestock.StateDead
		// Registered after its death (existing stock reported late): it
		// was there when it died, so its stay does not end before it began.
		if a.DeathDate.Before(a.OnSince) {
			a.OnSince = a.DeathDate
		}
	}
	if err := tx.RegisterAnimal(ctx, a); err != nil {
		if livestock.ErrorKind(err) == livestock.KindConflict {
			return []livestock.FieldError{{Code: livestock.CodeRegistered, Source: "/animal/identifier", Value: a.Identifier.String(),
				Message: a.Identifier.String() + " is registered already"}}, nil, nil
		}
		return nil, nil, err
	}
	return nil, warns, nil
}

// facts reads, inside tx, the records the rules look at: the tag, the
// parents and whether the animal is registered in one statement, then any
// holding named as a birth or death site. A parent the registrant user
// may not read is not there for the rules, as an animal no one registered.
func (s *Service) facts(ctx context.Context, tx store.Tx, r livestock.Registration, user string, received livestock.Date) (livestock.RegistrationFacts, error) {
	f := livestock.RegistrationFacts{Received: received, BreedKnown: s.breedKnown}
	l, err := tx.LookUpRegistration(ctx, r.Tag.String(), store.Parents{BirthDam: r.BirthDam, GeneticDam: r.GeneticDam, Sire: r.Sire})
	if err != nil {
		return f, err
	}
	f.Registered = l.Registered
	if l.Tag != nil {
		cph := l.Flock.CPH
		f.IssuedTo, f.IssuedFor = &cph, l.Tag.Species
	}
	parents := []*store.Animal{l.Dam, l.GeneticDam, l.Sire}
	if err := ownParents(ctx, tx, user, r.RegistrationSite, parents); err != nil {
		return f, err
	}
	f.BirthDam, f.GeneticDam, f.Sire = parentRecord(parents[0]), parentRecord(parents[1]), parentRecord(parents[2])
	known := map[livestock.SiteID]bool{}
	for _, site := range slices.Concat(r.BirthSite, r.DeathSites, r.CarcassSites) {
		if site.Type != livestock.SiteHolding {
			known[site] = true // no register of FSA premises, ports or inspection points: the format is checked
			continue
		}
		_, err := tx.Holding(ctx, livestock.MustCPH(site.Identifier))
		if err != nil && !livestock.IsNotFound(err) {
			return f, err
		}
		known[site] = err == nil
	}
	f.SiteKnown = func(site livestock.SiteID) bool { return known[site] }
	return f, nil
}

// parentRecord is a registered parent's record, or nil when it is not
// registered (or none was named).
func parentRecord(a *store.Animal) *livestock.AnimalRecord {
	if a == nil {
		return nil
	}
	return &livestock.AnimalRecord{Species: a.Species, Holding: a.CPH, State: a.State, Sex: a.Sex,
		Born: livestock.DateOf(a.BirthDate), OnSince: livestock.DateOf(a.OnSince)}
}

// ownParents sets to nil each parent on a holding user may not read: a
// parent on another keeper's holding is answered as one not registered,
// so that naming a tag tells a keeper nothing of what another keeper's
// holdings hold (issue 20). The registration holding is the user's
// (Submit checks it), so only a parent elsewhere costs a read of the
// user's grants.
func ownParents(ctx context.Context, tx store.Tx, user string, site livestock.CPH, parents []*store.Animal) error {
	var u *livestock.User
	for i, a := range parents {
		if a == nil || a.CPH == site {
			continue
		}
		if u == nil {
			found, err := tx.UserByName(ctx, user)
			if err != nil && !livestock.IsNotFound(err) {
				return err
			}
			u = &found
		}
		if !u.CanRead(a.CPH) {
			parents[i] = nil
		}
	}
	return nil
}
