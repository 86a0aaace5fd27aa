package sqldb

import (
	"context"
	"database/sql"
	"errors"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

const (
	// A claim that finds a mode recorded waits for its commit (the
	// primary key) and changes nothing, so the first claim wins.
	claimModeSQL = `INSERT INTO settings (name, value) VALUES ('mode', $1) ON CONFLICT (name) DO NOTHING`
	modeSQL      = `SELECT value FROM settings WHERE name = 'mode'`
)

// ClaimMode records m as the database's mode unless one is recorded, and
// returns the mode recorded. Both statements go to the writer, which on
// SQLite is the one connection that sees its own write at once.
func (s *Store) ClaimMode(ctx context.Context, m store.Mode) (_ store.Mode, err error) {
	defer s.wrap(&err, "ClaimMode")
	if m != store.ModeSandbox && m != store.ModeProduction {
		return "", livestock.Errorf(livestock.KindInvalid, "no such database mode %q", m)
	}
	if _, err := s.w.ExecContext(ctx, claimModeSQL, string(m)); err != nil {
		return "", err
	}
	return mode(ctx, s.w)
}

// Mode is the database's recorded mode, "" when none is.
func (s *Store) Mode(ctx context.Context) (_ store.Mode, err error) {
	defer s.wrap(&err, "Mode")
	return mode(ctx, s.w)
}

// mode is the database's recorded mode, "" when none is.
func mode(ctx context.Context, q querier) (store.Mode, error) {
	var m string
	err := q.QueryRowContext(ctx, modeSQL).Scan(&m)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return store.Mode(m), err
}
