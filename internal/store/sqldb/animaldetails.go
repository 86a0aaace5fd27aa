package sqldb

import (
	"context"
	"database/sql"
	"errors"
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
	// issuedTagSQL reads the tag's flock in the same statement: a
	// registration's rules need both, and on the one writer a statement
	// costs more than a join.
	issuedTagSQL = `SELECT t.identifier, t.mark, t.species, t.issued_on, f.species, f.cph
		FROM issued_tags t JOIN flocks f ON f.mark = t.mark WHERE t.identifier = $1`
)

// RegisterAnimal adds an animal with its registration details. An
// identifier an animal wears already is KindConflict, and the animal is
// left as it was.
func (t *tx) RegisterAnimal(ctx context.Context, a store.Animal) (err error) {
	defer t.s.wrap(&err, "RegisterAnimal")
	res, err := t.tx.ExecContext(ctx, registerAnimalSQL, a.Identifier, a.Species, a.Sex, date(a.BirthDate),
		a.CPH.String(), date(a.OnSince), a.State,
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

// IssuedTag returns an identifier issued to a flock or herd, as this
// transaction sees it.
func (t *tx) IssuedTag(ctx context.Context, identifier string) (g store.IssuedTag, f store.Flock, err error) {
	defer t.s.wrap(&err, "IssuedTag")
	var cph string
	err = t.tx.QueryRowContext(ctx, issuedTagSQL, identifier).Scan(&g.Identifier, &g.Mark, &g.Species,
		day{&g.IssuedOn}, &f.Species, &cph)
	if errors.Is(err, sql.ErrNoRows) {
		return store.IssuedTag{}, store.Flock{}, notFound("the identifier %q was never issued", identifier)
	}
	if err != nil {
		return store.IssuedTag{}, store.Flock{}, err
	}
	f.Mark = g.Mark
	f.CPH, err = storedCPH(cph)
	return g, f, err
}

// scanAnimal reads one row of animalColumns.
func scanAnimal(row interface{ Scan(...any) error }) (store.Animal, error) {
	var a store.Animal
	var cph string
	err := row.Scan(&a.Identifier, &a.Species, &a.Sex, day{&a.BirthDate}, &cph, day{&a.OnSince}, &a.State,
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
