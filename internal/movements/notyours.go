package movements

import (
	"context"
	"fmt"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// A write naming a request that does not concern its submitter (concerns:
// not their own, and no standing movement about a holding they act for)
// is answered as one naming an id not in use, word for word: a 400 with
// V024 "no such request" at submission, as the live catalogue has it
// (403, 4075, 21373 are immediate errors), or, for a review whose
// movement stopped concerning them before its job ran, the same error in
// the request's record.
// Request ids are sequential, and any other answer told a keeper which
// ids were other keepers' requests and what became of them. A request
// that concerns the submitter keeps its own refusals (only its submitter
// may undo or correct it; it does not await this holding's review): they
// tell nothing the look-up does not.

// unknownTarget is the refusal of a request naming, at source, request
// id that does not exist for its submitter.
func unknownTarget(source string, id int64) livestock.FieldError {
	return livestock.FieldError{Code: livestock.CodeTargetUnknown, Source: source, Value: fmt.Sprint(id), Message: "no such request"}
}

// noSuchRequest is the 400 answering a submission that names, at source,
// request id, which does not exist for its submitter.
func noSuchRequest(source string, id int64) error {
	return livestock.Invalid("the request named does not exist", unknownTarget(source, id))
}

// hiddenFrom reports whether the user named userName, with the grants tx
// sees now, may not see r. A user who no longer exists sees only their
// own requests. m is r's movement, locked, when it was read to tell
// (another's request), else zero.
func hiddenFrom(ctx context.Context, tx store.Tx, userName string, r store.Request) (m store.Movement, hidden bool, err error) {
	u, err := tx.UserByName(ctx, userName)
	if livestock.IsNotFound(err) {
		u, err = livestock.User{Name: userName}, nil
	}
	if err != nil {
		return store.Movement{}, false, err
	}
	m, ok, err := concernsNow(ctx, tx, tx.LockMovement, u, r)
	return m, !ok, err
}
