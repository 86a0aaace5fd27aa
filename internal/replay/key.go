package replay

import "github.com/google/uuid"

// Key is the form of a correlation id that marks a retry, and under which
// its answer is kept. A UUID's letters may come in either case, and
// LI-Correlation-Id answers it in lower case: a retry sending it back as
// answered is the same request. Any other id is kept as sent, not hashed:
// a client whose ids come in order (a counter, a UUIDv7) then keeps the
// unique index's writes on a few pages; hashed, every id took a page of
// its own and the SQLite committer's commits three times as long (see
// docs/performance.md).
func Key(id string) string {
	if u, err := uuid.Parse(id); err == nil {
		return u.String()
	}
	return id
}
