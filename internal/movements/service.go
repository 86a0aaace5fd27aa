package movements

import (
	"context"
	"time"

	"github.com/drover-registry/drover/internal/jobs"
	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/replay"
	"github.com/drover-registry/drover/internal/standing"
	"github.com/drover-registry/drover/internal/store"
)

// JobKind is the kind of the job that applies a movement request.
const JobKind = "movements.apply"

// Store is what the service uses of store.Store: the movement requests
// and movements it shows, the replies a retried submission is given, the
// holdings a request names, and the shared transaction each submission
// commits in (with its job). A job reads and writes only through its Tx.
type Store interface {
	store.MovementStore
	replay.Replies
	Holding(ctx context.Context, cph livestock.CPH) (livestock.Holding, error)
	InSharedTx(ctx context.Context, fn func(ctx context.Context, tx store.Tx) error) error
}

// Service carries out the movements interface over a store.
type Service struct {
	store  Store
	now    func() time.Time
	vocab  *vocab
	notify func()
}

// stamp is the time a request records (requestDate, updatedDate): now, in
// UTC, to the second, as the API shows it. Kept finer, a request shown as
// received at 13:23:15Z was not found by $filter=requestDate eq
// 2026-11-25T13:23:15Z, nor by le.
func (s *Service) stamp() time.Time { return s.now().UTC().Truncate(time.Second) }

// New makes the service. Requests name values from the standing data
// lists; among them processingFlags, whose entries with exemptsStandstill
// "true" exempt a move from standstill.
func New(st Store, lists *standing.Lists, now func() time.Time) (*Service, error) {
	v, err := newVocab(lists)
	if err != nil {
		return nil, err
	}
	return &Service{store: st, now: now, vocab: v, notify: func() {}}, nil
}

// Register makes r apply movement requests, and lets submissions wake it.
func (s *Service) Register(r *jobs.Runner) {
	r.Register(JobKind, s.apply)
	r.RegisterAbandon(JobKind, s.abandon)
	s.notify = r.Notify
}

// dateOf is the UK calendar date of an instant.
func (s *Service) dateOf(t time.Time) livestock.Date { return livestock.UKDate(t) }
