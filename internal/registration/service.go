package registration

import (
	"context"
	"strings"
	"time"

	"github.com/drover-registry/drover/internal/jobs"
	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/replay"
	"github.com/drover-registry/drover/internal/standing"
	"github.com/drover-registry/drover/internal/store"
)

// JobKind is the kind of the job that applies a queued registration.
const JobKind = "registration.apply"

// Store is what the service uses of store.Store: registration requests
// and their polls, the replies a retried submission is given, the
// animals, flocks and holdings a registration's record shows, and the
// shared transaction each submission commits in (with its job). A job
// reads and writes only through its Tx.
type Store interface {
	store.RegistrationStore
	replay.Replies
	Animal(ctx context.Context, identifier string) (store.Animal, error)
	Flock(ctx context.Context, mark livestock.FlockMark) (store.Flock, error)
	Holding(ctx context.Context, cph livestock.CPH) (livestock.Holding, error)
	InSharedTx(ctx context.Context, fn func(ctx context.Context, tx store.Tx) error) error
}

// Service carries out the registration interface over a store.
type Service struct {
	store      Store
	now        func() time.Time
	retryAfter time.Duration
	breeds     map[string]map[string]string // species (registration name) → breed code → name
	// deathReasons are the death reasons' names by id (GET
	// /v1/deathreasons), deathReasonIDs the ids by lower-case name.
	deathReasons, deathReasonIDs map[string]string
	notify                       func()
}

// New makes the service. retryAfter is the wait the answer to an async
// submission asks for, and the least time between two polls of it.
func New(st Store, lists *standing.Lists, now func() time.Time, retryAfter time.Duration) (*Service, error) {
	s := &Service{store: st, now: now, retryAfter: retryAfter, breeds: map[string]map[string]string{}, notify: func() {}}
	for list, species := range map[string]string{"cattleBreeds": "cattle", "sheepBreeds": "sheep", "goatBreeds": "goats"} {
		entries, err := lists.List(list)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			sp := species
			if x := e.Extra["species"]; x != "" {
				sp = strings.ToLower(x)
			}
			if s.breeds[sp] == nil {
				s.breeds[sp] = map[string]string{}
			}
			s.breeds[sp][e.Code] = e.Description
		}
	}
	s.deathReasons, s.deathReasonIDs = map[string]string{}, map[string]string{}
	for _, r := range lists.DeathReasons("") {
		s.deathReasons[r.ID], s.deathReasonIDs[strings.ToLower(r.Name)] = r.Name, r.ID
	}
	return s, nil
}

// Register makes r apply queued registrations, and lets submissions wake it.
func (s *Service) Register(r *jobs.Runner) {
	r.Register(JobKind, s.applyJob)
	r.RegisterAbandon(JobKind, s.abandonJob)
	s.notify = r.Notify
}

// RetryAfter is the wait between polls.
func (s *Service) RetryAfter() time.Duration { return s.retryAfter }

func (s *Service) breedKnown(sp livestock.Species, code string) bool {
	_, ok := s.breeds[sp.RegistrationName()][code]
	return ok
}
