package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/drover-registry/drover/internal/livestock"
)

const (
	// A user and their holdings are read in one statement, a row a holding
	// (one with no holding columns for a user with none): a job reads its
	// submitter twice, and on PostgreSQL every statement is a round trip
	// of the committer's.
	userBySubjectSQL = `SELECT u.id, u.user_name, u.subject, u.role, h.cph, h.type, h.mhs, h.name
		FROM users u LEFT JOIN user_holdings uh ON uh.user_id = u.id LEFT JOIN holdings h ON h.cph = uh.cph
		WHERE u.subject = $1 ORDER BY h.cph`
	userByNameSQL = `SELECT u.id, u.user_name, u.subject, u.role, h.cph, h.type, h.mhs, h.name
		FROM users u LEFT JOIN user_holdings uh ON uh.user_id = u.id LEFT JOIN holdings h ON h.cph = uh.cph
		WHERE u.user_name = $1 ORDER BY h.cph`
	passwordHashSQL = `SELECT password_hash FROM users WHERE user_name = $1`
	holdingSQL      = `SELECT cph, type, mhs, name FROM holdings WHERE cph = $1`
)

// UserBySubject returns the user a token subject maps to, with holdings.
func (s *Store) UserBySubject(ctx context.Context, subject string) (u livestock.User, err error) {
	defer s.wrap(&err, "UserBySubject")
	return user(ctx, s.r, userBySubjectSQL, subject)
}

// UserByName returns the user with a user name, with holdings.
func (s *Store) UserByName(ctx context.Context, name string) (u livestock.User, err error) {
	defer s.wrap(&err, "UserByName")
	return user(ctx, s.r, userByNameSQL, name)
}

// UserByName returns a user as this transaction sees it, so that a job
// holding a transaction never needs a second connection from the pool.
func (t *tx) UserByName(ctx context.Context, name string) (u livestock.User, err error) {
	defer t.s.wrap(&err, "UserByName")
	return t.cachedUser(ctx, name)
}

func user(ctx context.Context, q querier, query, arg string) (livestock.User, error) {
	rows, err := q.QueryContext(ctx, query, arg)
	if err != nil {
		return livestock.User{}, err
	}
	defer rows.Close()
	var u livestock.User
	found := false
	for rows.Next() {
		var cph, typ, mhs, name sql.NullString
		if err := rows.Scan(&u.ID, &u.Name, &u.Subject, &u.Role, &cph, &typ, &mhs, &name); err != nil {
			return livestock.User{}, err
		}
		found = true
		if !cph.Valid {
			continue // a user with no holding
		}
		h, err := scanHolding(holdingRow{cph, typ, mhs, name})
		if err != nil {
			return livestock.User{}, err
		}
		u.Holdings = append(u.Holdings, h)
	}
	if err := rows.Err(); err != nil {
		return livestock.User{}, err
	}
	if !found {
		return livestock.User{}, notFound("no such user")
	}
	return u, nil
}

// holdingRow is a holding's columns read beside a user's, for scanHolding.
type holdingRow struct{ cph, typ, mhs, name sql.NullString }

func (r holdingRow) Scan(dest ...any) error {
	*dest[0].(*string) = r.cph.String
	*dest[1].(*livestock.HoldingType) = livestock.HoldingType(r.typ.String)
	*dest[2].(*sql.NullString) = r.mhs
	*dest[3].(*string) = r.name.String
	return nil
}

// PasswordHash returns a user's bcrypt hash, or KindNotFound when the user
// is unknown or has no password.
func (s *Store) PasswordHash(ctx context.Context, userName string) (hash []byte, err error) {
	defer s.wrap(&err, "PasswordHash")
	err = s.r.QueryRowContext(ctx, passwordHashSQL, userName).Scan(&hash)
	if errors.Is(err, sql.ErrNoRows) || err == nil && len(hash) == 0 {
		return nil, notFound("no password for user %q", userName)
	}
	return hash, err
}

// Holding returns one holding.
func (s *Store) Holding(ctx context.Context, cph livestock.CPH) (h livestock.Holding, err error) {
	defer s.wrap(&err, "Holding")
	return holding(ctx, s.r, holdingSQL, cph.String(), notFoundHolding)
}

func scanHolding(row interface{ Scan(...any) error }) (livestock.Holding, error) {
	var cph string
	var typ livestock.HoldingType
	var mhs sql.NullString
	var name string
	if err := row.Scan(&cph, &typ, &mhs, &name); err != nil {
		return livestock.Holding{}, err
	}
	h := livestock.Holding{Type: typ, Name: name}
	var err error
	if h.CPH, err = livestock.ParseCPH(cph); err != nil {
		// %v, not %w: a bad stored value is our fault, not the caller's.
		return livestock.Holding{}, fmt.Errorf("stored CPH %q: %v", cph, err)
	}
	if mhs.Valid && mhs.String != "" {
		if h.MHS, err = livestock.ParseMHS(mhs.String); err != nil {
			return livestock.Holding{}, fmt.Errorf("stored MHS %q: %v", mhs.String, err)
		}
	}
	return h, nil
}

// seededTables are the tables Seed writes, in the order it writes them.
var seededTables = []string{"holdings", "users", "user_holdings", "flocks", "issued_tags", "animals"}

// RowCounts reports the number of rows in each table Seed writes, for the
// operator and for tests. It is not part of store.Store.
func (s *Store) RowCounts(ctx context.Context) (counts map[string]int, err error) {
	defer s.wrap(&err, "RowCounts")
	counts = make(map[string]int, len(seededTables))
	for _, table := range seededTables {
		var n int
		// table is one of seededTables, never input.
		if err := s.r.QueryRowContext(ctx, "SELECT count(*) FROM "+table).Scan(&n); err != nil {
			return nil, err
		}
		counts[table] = n
	}
	return counts, nil
}
