package sqldb

import (
	"context"
	"database/sql"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// An animal's registration details (migration 00003) are nullable columns:
// the seed writes none of them, and a registration stores an empty string
// or a zero time as NULL, so that both read back as empty details.

const (
	animalColumns = `identifier, species, sex, birth_date, cph, on_since, state,
		name, production_type, breed, birth_site, birth_dam, genetic_dam, sire, original_identifier,
		identification_date, registration_date, received_date, death_date, category,
		movement_restricted, restriction_reason, registered_by, record`
	// registerAnimalSQL does nothing, and changes no row, when an animal
	// wears the identifier already: the transaction stays usable (a unique
	// violation would abort it on PostgreSQL).
	registerAnimalSQL = `INSERT INTO animals (` + animalColumns + `) VALUES (` + registerAnimalMarks + `)
		ON CONFLICT (identifier) DO NOTHING`
	registerAnimalMarks = `$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19,
		$20, $21, $22, $23, $24`
	// lookUpRegistrationSQL reads a registration's facts in one
	// statement: each look-up is a round trip on PostgreSQL, and a lock
	// held meanwhile on SQLite's one writer. Every join is on a key, so
	// it is one row, and a generic plan serves it.
	lookUpRegistrationSQL = `SELECT EXISTS (SELECT 1 FROM animals WHERE identifier = $1),
		t.identifier, t.mark, t.species, t.issued_on, f.species, f.cph,
		d.identifier, d.species, d.sex, d.birth_date, d.cph, d.on_since, d.state,
		s.identifier, s.species, s.sex, s.birth_date, s.cph, s.on_since, s.state,
		g.identifier, g.species, g.sex, g.birth_date, g.cph, g.on_since, g.state
		FROM (SELECT 1 AS one) AS q
		LEFT JOIN issued_tags t ON t.identifier = $1
		LEFT JOIN flocks f ON f.mark = t.mark
		LEFT JOIN animals d ON d.identifier = $2
		LEFT JOIN animals s ON s.identifier = $3
		LEFT JOIN animals g ON g.identifier = $4`
)

// RegisterAnimal adds an animal with its registration details. An
// identifier an animal wears already is KindConflict, and the animal is
// left as it was.
func (t *tx) RegisterAnimal(ctx context.Context, a store.Animal) (err error) {
	defer t.s.wrap(&err, "RegisterAnimal")
	t.animalsWritten(a.Identifier.String())
	res, err := t.tx.ExecContext(ctx, registerAnimalSQL, a.Identifier.String(), store.SpeciesName(a.Species), a.Sex.String(), date(a.BirthDate),
		a.CPH.String(), date(a.OnSince), a.State.String(),
		nullString(a.Name), nullString(a.ProductionType), nullString(a.Breed), nullString(a.BirthSite),
		nullString(a.BirthDam), nullString(a.GeneticDam), nullString(a.Sire), nullString(a.OriginalIdentifier),
		dateOrNull(a.IdentificationDate), dateOrNull(a.RegistrationDate), t.s.atOrNull(a.ReceivedDate),
		dateOrNull(a.DeathDate), nullString(a.Category), a.MovementRestricted, nullString(a.RestrictionReason),
		nullString(a.RegisteredBy), nullBytes(a.Record))
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 1 {
		return err
	}
	return livestock.Errorf(livestock.KindConflict, "the identifier %q is registered already", a.Identifier)
}

// LookUpRegistration reads a registration's facts as this transaction
// sees them.
func (t *tx) LookUpRegistration(ctx context.Context, identifier string, parents store.Parents) (l store.RegistrationLookup, err error) {
	defer t.s.wrap(&err, "LookUpRegistration")
	var tag store.IssuedTag
	var tagID, flockCPH string
	var read [3]place // birth dam, sire, genetic dam
	dest := []any{&l.Registered, text{&tagID}, flockMarkCol{&tag.Mark}, speciesCol{&tag.Species}, day{&tag.IssuedOn},
		speciesCol{&l.Flock.Species}, text{&flockCPH}}
	for i := range read {
		dest = append(dest, read[i].dest()...)
	}
	if err := t.tx.QueryRowContext(ctx, lookUpRegistrationSQL, identifier, parents.BirthDam, parents.Sire, parents.GeneticDam).Scan(dest...); err != nil {
		return store.RegistrationLookup{}, err
	}
	if tagID != "" {
		if tag.Identifier, err = storedTag(tag.Species, tagID); err != nil {
			return store.RegistrationLookup{}, err
		}
		l.Tag, l.Flock.Mark = &tag, tag.Mark
		if l.Flock.CPH, err = storedCPH(flockCPH); err != nil {
			return store.RegistrationLookup{}, err
		}
	}
	if l.Dam, err = read[0].animal(); err != nil {
		return store.RegistrationLookup{}, err
	}
	if l.Sire, err = read[1].animal(); err != nil {
		return store.RegistrationLookup{}, err
	}
	l.GeneticDam, err = read[2].animal()
	return l, err
}

// place is the first columns of an animal (identifier to state), as a
// LEFT JOIN gives them: all NULL when there is no such animal.
type place struct {
	a       store.Animal
	id, cph string
}

func (p *place) dest() []any {
	return []any{text{&p.id}, speciesCol{&p.a.Species}, sexCol{&p.a.Sex}, day{&p.a.BirthDate},
		text{&p.cph}, day{&p.a.OnSince}, animalStateCol{&p.a.State}}
}

// animal is the animal read, nil when there was none.
func (p *place) animal() (*store.Animal, error) {
	if p.id == "" {
		return nil, nil
	}
	var err error
	if p.a.Identifier, err = storedTag(p.a.Species, p.id); err != nil {
		return nil, err
	}
	p.a.CPH, err = storedCPH(p.cph)
	return &p.a, err
}

// scanAnimal reads one row of animalColumns.
func scanAnimal(row interface{ Scan(...any) error }) (store.Animal, error) {
	var a store.Animal
	var id, cph string
	err := row.Scan(&id, speciesCol{&a.Species}, sexCol{&a.Sex}, day{&a.BirthDate}, &cph, day{&a.OnSince}, animalStateCol{&a.State},
		text{&a.Name}, text{&a.ProductionType}, text{&a.Breed}, text{&a.BirthSite}, text{&a.BirthDam},
		text{&a.GeneticDam}, text{&a.Sire}, text{&a.OriginalIdentifier},
		day{&a.IdentificationDate}, day{&a.RegistrationDate}, instant{&a.ReceivedDate}, day{&a.DeathDate},
		text{&a.Category}, &a.MovementRestricted, text{&a.RestrictionReason}, text{&a.RegisteredBy}, &a.Record)
	if err != nil {
		return store.Animal{}, err
	}
	if len(a.Record) == 0 {
		a.Record = nil
	}
	if a.Identifier, err = storedTag(a.Species, id); err != nil {
		return store.Animal{}, err
	}
	a.CPH, err = storedCPH(cph)
	return a, err
}

// dateOrNull is date, or NULL for the zero time.
func dateOrNull(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return date(t)
}

// text scans a nullable text column; NULL scans as "".
type text struct{ s *string }

func (x text) Scan(src any) error {
	var ns sql.NullString
	err := ns.Scan(src)
	*x.s = ns.String
	return err
}
