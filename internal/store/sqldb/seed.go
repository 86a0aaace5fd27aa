package sqldb

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

const (
	anyUserSQL         = `SELECT EXISTS (SELECT 1 FROM users)`
	seedHoldingsSQL    = `INSERT INTO holdings (cph, type, mhs, name)`
	seedUsersSQL       = `INSERT INTO users (user_name, subject, role, password_hash)`
	seedUserHoldingSQL = `INSERT INTO user_holdings (user_id, cph)
		SELECT id, $2 FROM users WHERE user_name = $1 ON CONFLICT DO NOTHING`
	clearUserHoldingsSQL = `DELETE FROM user_holdings WHERE user_id = (SELECT id FROM users WHERE user_name = $1)`
	// The conflict clauses of an update (Seed.Update): both dialects
	// name the proposed row excluded.
	updateHoldingsSQL = ` ON CONFLICT (cph) DO UPDATE SET type = excluded.type, mhs = excluded.mhs, name = excluded.name`
	updateUsersSQL    = ` ON CONFLICT (user_name) DO UPDATE SET subject = excluded.subject, role = excluded.role,
		password_hash = COALESCE(excluded.password_hash, users.password_hash)`
	seedFlocksSQL  = `INSERT INTO flocks (mark, species, cph)`
	seedTagsSQL    = `INSERT INTO issued_tags (identifier, mark, species, issued_on)`
	seedAnimalsSQL = `INSERT INTO animals (identifier, species, sex, birth_date, cph, on_since, state)`
)

// Seed writes the sandbox's data (only into a sandbox database), or an
// operator's import, in one transaction, leaving every row that exists as it is unless sd.Update is
// set (store.Seed says what it changes). Seeders queue behind each other
// (the dialect's SeedLock, or SQLite's single writer), so exactly one of
// them sees an empty users table and reports created.
func (s *Store) Seed(ctx context.Context, sd store.Seed) (created bool, err error) {
	defer s.wrap(&err, "Seed")
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return false, err
	}
	defer func() {
		if err != nil {
			rollback(tx)
		}
	}()
	if s.d.SeedLock != "" {
		if _, err := tx.ExecContext(ctx, s.d.SeedLock); err != nil {
			return false, err
		}
	}
	if sd.Sandbox {
		// In the transaction, so that test users never land in a database
		// another command has just claimed for production.
		m, err := mode(ctx, tx)
		if err != nil {
			return false, err
		}
		if m != store.ModeSandbox {
			return false, livestock.Errorf(livestock.KindConflict, "sandbox data goes only into a sandbox database; this one's mode is %q", m)
		}
	}
	var existed bool
	if err := tx.QueryRowContext(ctx, anyUserSQL).Scan(&existed); err != nil {
		return false, err
	}
	holdingsTail, usersTail := onConflictNothing, onConflictNothing
	if sd.Update {
		holdingsTail, usersTail = updateHoldingsSQL, updateUsersSQL
	}
	err = s.insertMany(ctx, tx, seedHoldingsSQL, holdingsTail, 4, len(sd.Holdings), func(i int) []any {
		h := sd.Holdings[i]
		var mhs any
		if !h.MHS.IsZero() {
			mhs = h.MHS.String()
		}
		return []any{h.CPH.String(), string(h.Type), mhs, h.Name}
	})
	if err != nil {
		return false, err
	}
	err = s.insertMany(ctx, tx, seedUsersSQL, usersTail, 4, len(sd.Users), func(i int) []any {
		u := sd.Users[i]
		subject := u.Subject
		if subject == "" {
			subject = u.Name
		}
		return []any{u.Name, subject, string(u.Role), nullBytes(u.PasswordHash)}
	})
	if err != nil {
		return false, err
	}
	if err := seedUserHoldings(ctx, tx, sd.Users, sd.Update); err != nil {
		return false, err
	}
	err = s.insertMany(ctx, tx, seedFlocksSQL, onConflictNothing, 3, len(sd.Flocks), func(i int) []any {
		f := sd.Flocks[i]
		return []any{f.Mark.String(), store.SpeciesName(f.Species), f.CPH.String()}
	})
	if err != nil {
		return false, err
	}
	err = s.insertMany(ctx, tx, seedTagsSQL, onConflictNothing, 4, len(sd.Tags), func(i int) []any {
		g := sd.Tags[i]
		return []any{g.Identifier.String(), g.Mark.String(), store.SpeciesName(g.Species), date(g.IssuedOn)}
	})
	if err != nil {
		return false, err
	}
	err = s.insertMany(ctx, tx, seedAnimalsSQL, onConflictNothing, 7, len(sd.Animals), func(i int) []any {
		a := sd.Animals[i]
		return []any{a.Identifier.String(), store.SpeciesName(a.Species), a.Sex.String(), date(a.BirthDate), a.CPH.String(), date(a.OnSince), a.State.String()}
	})
	if err != nil {
		return false, err
	}
	if err := tx.Commit(); err != nil {
		return false, err
	}
	return !existed && len(sd.Users) > 0, nil
}

// seedUserHoldings links each user to their holdings; with update, it
// first removes the links each listed user had.
func seedUserHoldings(ctx context.Context, tx *sql.Tx, users []store.SeedUser, update bool) error {
	if update {
		for _, u := range users {
			if _, err := tx.ExecContext(ctx, clearUserHoldingsSQL, u.Name); err != nil {
				return err
			}
		}
	}
	stmt, err := tx.PrepareContext(ctx, seedUserHoldingSQL)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, u := range users {
		for _, h := range u.Holdings {
			if _, err := stmt.ExecContext(ctx, u.Name, h.String()); err != nil {
				return err
			}
		}
	}
	return nil
}

// onConflictNothing ends Seed's inserts: a row that exists stays as it is.
const onConflictNothing = " ON CONFLICT DO NOTHING"

// insertMany runs head VALUES (…), (…) tail for n rows of width columns,
// in as few statements as the dialect's MaxParams allows.
func (s *Store) insertMany(ctx context.Context, q querier, head, tail string, width, n int, row func(i int) []any) error {
	per := max(s.d.MaxParams/width, 1)
	for start := 0; start < n; start += per {
		end := min(start+per, n)
		args := make([]any, 0, (end-start)*width)
		var b strings.Builder
		b.WriteString(head)
		b.WriteString(" VALUES ")
		for i := start; i < end; i++ {
			if i > start {
				b.WriteString(", ")
			}
			b.WriteByte('(')
			for j := range width {
				if j > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "$%d", len(args)+j+1)
			}
			b.WriteByte(')')
			args = append(args, row(i)...)
		}
		b.WriteString(tail)
		if _, err := q.ExecContext(ctx, b.String(), args...); err != nil {
			return err
		}
	}
	return nil
}

// nullBytes binds an empty byte slice as NULL.
func nullBytes(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return b
}
