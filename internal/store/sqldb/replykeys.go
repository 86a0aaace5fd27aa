package sqldb

import (
	"context"
	"database/sql"

	"github.com/pressly/goose/v3"

	"github.com/drover-registry/drover/internal/replay"
)

// ReplyKeysVersion is the migration that keys every kept answer by
// replay.Key of its correlation id, in both stores' schemas.
const ReplyKeysVersion = 23

// ReplyKeys is migration 00023, written in Go as it derives UUIDs: an
// answer kept under a correlation id as sent (an id that is not a UUID in
// lower case) is kept under replay.Key of it, the form a retry is looked
// up by since. Where a retry sent the derived id itself and was kept under
// it too, that answer stays and the other goes. It cannot be undone: the
// ids as sent are not kept, so going down leaves the keys as they are.
func ReplyKeys() *goose.Migration {
	return goose.NewGoMigration(ReplyKeysVersion, &goose.GoFunc{RunTx: replyKeysUp},
		&goose.GoFunc{RunTx: func(context.Context, *sql.Tx) error { return nil }})
}

func replyKeysUp(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, `SELECT user_name, correlation_id FROM replies`)
	if err != nil {
		return err
	}
	type key struct{ user, id string }
	kept := map[key]bool{}
	var raw []key
	for rows.Next() {
		var k key
		if err := rows.Scan(&k.user, &k.id); err != nil {
			rows.Close()
			return err
		}
		kept[k] = true
		if replay.Key(k.id) != k.id {
			raw = append(raw, k)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, k := range raw {
		to := key{k.user, replay.Key(k.id)}
		stmt, args := `UPDATE replies SET correlation_id = $1 WHERE user_name = $2 AND correlation_id = $3`, []any{to.id, k.user, k.id}
		if kept[to] {
			stmt, args = `DELETE FROM replies WHERE user_name = $1 AND correlation_id = $2`, []any{k.user, k.id}
		}
		if _, err := tx.ExecContext(ctx, stmt, args...); err != nil {
			return err
		}
		kept[to] = true
	}
	return nil
}
