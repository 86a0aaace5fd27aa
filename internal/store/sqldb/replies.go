package sqldb

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

const (
	replySQL = `SELECT user_name, correlation_id, request_hash, status, body, created_at, request_id
		FROM replies WHERE user_name = $1 AND correlation_id = $2`
	// saveReplySQL does nothing when the reply exists, so that the
	// transaction stays usable (a unique violation would abort it on
	// PostgreSQL) and the caller can read the first reply instead.
	saveReplySQL = `INSERT INTO replies (user_name, correlation_id, request_hash, status, body, created_at, request_id)
		VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (user_name, correlation_id) DO NOTHING`
)

// Reply returns the reply kept for a user's correlation id.
func (s *Store) Reply(ctx context.Context, userName, correlationID string) (r store.Reply, err error) {
	defer s.wrap(&err, "Reply")
	err = s.r.QueryRowContext(ctx, replySQL, userName, correlationID).Scan(&r.UserName, &r.CorrelationID,
		&r.RequestHash, &r.Status, &r.Body, instant{&r.CreatedAt}, &r.RequestID)
	if errors.Is(err, sql.ErrNoRows) {
		return store.Reply{}, notFound("no reply for correlation id %q", correlationID)
	}
	if len(r.Body) == 0 {
		r.Body = nil
	}
	return r, err
}

// SaveReply keeps a reply; a zero CreatedAt is taken as now. One that
// exists for the same user and correlation id is KindConflict, and is
// left as it was.
func (t *tx) SaveReply(ctx context.Context, r store.Reply) (err error) {
	defer t.s.wrap(&err, "SaveReply")
	if r.CreatedAt.IsZero() {
		r.CreatedAt = time.Now()
	}
	args := []any{r.UserName, r.CorrelationID, r.RequestHash, r.Status, notNilBytes(r.Body), t.s.at(r.CreatedAt), r.RequestID}
	if t.tx.Deferring() {
		t.tx.Later(rankReply, r.UserName+"\x00"+r.CorrelationID, 1, saveReplySQL, args...)
		return nil
	}
	res, err := t.tx.ExecContext(ctx, saveReplySQL, args...)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 1 {
		return err
	}
	return livestock.Errorf(livestock.KindConflict, "a reply for correlation id %q exists", r.CorrelationID)
}
