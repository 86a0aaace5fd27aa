package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/drover-registry/drover/internal/livestock"
)

const (
	userBySubjectSQL = `SELECT id, user_name, subject, role FROM users WHERE subject = $1`
	userByNameSQL    = `SELECT id, user_name, subject, role FROM users WHERE user_name = $1`
	userHoldingsSQL  = `SELECT h.cph, h.type, h.mhs, h.name FROM user_holdings uh
		JOIN holdings h ON h.cph = uh.cph WHERE uh.user_id = $1 ORDER BY h.cph`
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
	return user(ctx, t.tx, userByNameSQL, name)
}

func user(ctx context.Context, q querier, query, arg string) (livestock.User, error) {
	var u livestock.User
	err := q.QueryRowContext(ctx, query, arg).Scan(&u.ID, &u.Name, &u.Subject, &u.Role)
	if errors.Is(err, sql.ErrNoRows) {
		return livestock.User{}, notFound("no such user")
	}
	if err != nil {
		return livestock.User{}, err
	}
	rows, err := q.QueryContext(ctx, userHoldingsSQL, u.ID)
	if err != nil {
		return livestock.User{}, err
	}
	defer rows.Close()
	for rows.Next() {
		h, err := scanHolding(rows)
		if err != nil {
			return livestock.User{}, err
		}
		u.Holdings = append(u.Holdings, h)
	}
	return u, rows.Err()
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
