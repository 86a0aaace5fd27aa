package movements

import (
	"context"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// The order in which a movement job takes its locks, the same in every
// writer (transfer, correction, review, undo), so that two jobs never wait
// for each other in a cycle. On PostgreSQL a cycle is a deadlock: the
// server aborts one job's attempt, which is retried after a backoff.
//
//  0. the store's lock on moves of animals, first of all (queueForMoves):
//     a job shares its transaction with others (a group commit), which
//     keep their locks until it commits. Taken later, a group holding rows
//     could wait for it while the group holding it waited for those rows;
//  1. requests, newest first: the job's own request (apply), then the
//     request it names (the one undone, corrected or reviewed), then, for
//     the undo of a review, the request that review decided;
//  2. the movement those requests carry (LockMovement);
//  3. the animals (store.Tx.Animals and MoveAnimals take the lock of 0
//     again, which the job holds already).
//
// A job updates only rows it has locked in that order, and locks nothing
// of an earlier step after a later one. Newest first holds because a
// request names only requests stored before it: ids grow, and a
// submission names a request it has seen. lockNamed refuses a name at or
// after the naming request as a request not in use, which it was when
// the naming request was submitted.

// lockNamed locks request id, which the stored request by names, in the
// order above. A request named by one stored before it does not exist
// for it: NotFound, as for an id never used.
func lockNamed(ctx context.Context, tx store.Tx, by, id int64) (store.Request, error) {
	if id <= 0 || id >= by {
		return store.Request{}, livestock.Errorf(livestock.KindNotFound, "no request %d before request %d", id, by)
	}
	return tx.LockRequest(ctx, id)
}

// queueForMoves takes the store's lock on moves of animals (store.Tx.Animals
// of no animal): the job then queues behind every other transaction that
// has checked or made a move, until it ends, before it locks any row.
func queueForMoves(ctx context.Context, tx store.Tx) error {
	_, err := tx.Animals(ctx, nil)
	return err
}
