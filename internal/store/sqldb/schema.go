package sqldb

import (
	"context"
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
		return fmt.Errorf("the database's schema is at version %d, newer than this build knows (%d): "+
			"serve it with the build that migrated it, or a later one", have, known)
	}
	return nil
}
