package sqldb

import (
	"context"
	"errors"
	"fmt"

	"github.com/pressly/goose/v3"
)

// SchemaKnown refuses a database whose schema a later build migrated past
// the migrations this build carries: an older binary would serve it with
// statements written for a schema it no longer has (a rollback that
// forgot the database), and say nothing until one failed.
func SchemaKnown(ctx context.Context, p *goose.Provider) error {
	have, err := p.GetDBVersion(ctx)
	if err != nil {
		return err
	}
	var known int64
	for _, s := range p.ListSources() {
		known = max(known, s.Version)
	}
	if have > known {
		return newerError(have, known)
	}
	return nil
}

func newerError(have, known int64) error {
	return fmt.Errorf("the database's schema is at version %d, newer than this build knows (%d): "+
		"serve it with the build that migrated it, or a later one", have, known)
}

// SchemaCurrent refuses a database that is not at this build's schema:
// one never migrated (versioned false: no goose version table, which the
// dialect looks for first, since goose creates it when asked anything),
// one with migrations still to apply, or one a later build migrated. It is
// what a command that must change nothing (drover trace) asks instead of
// migrating: applying a migration is serve's and migrate's to do, with the
// replicas stopped where the migration says so.
func SchemaCurrent(ctx context.Context, p *goose.Provider, versioned bool) error {
	if !versioned {
		return errors.New("no Drover schema here (no migration was ever applied): drover serve or drover migrate makes one")
	}
	// Read without the migration lock (GetVersions), so that a trace
	// beside a migrating replica is told at once rather than waiting.
	have, known, err := p.GetVersions(ctx)
	if err != nil {
		return err
	}
	if have > known {
		return newerError(have, known)
	}
	pending, err := p.HasPending(ctx)
	if err != nil {
		return err
	}
	if pending {
		return errors.New("the database has migrations still to apply: run drover migrate with the build that will serve it, then try again")
	}
	return nil
}
