package tracing

import (
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// Service answers tracing questions over one store.
type Service struct {
	st  store.TraceStore
	now func() time.Time
	// minRun is the fewest frontier holdings read as a run of their own
	// (frontierMoves); the tests lower it so that small registries split.
	minRun int
}

// New returns a Service reading st; now gives today, for a register or
// history asked of no date.
func New(st store.TraceStore, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{st: st, now: now, minRun: 16}
}

// Today is the service's current date, at 00:00 UTC: the UK calendar's
// day, as movement dates are, so that from midnight to one in the morning
// of British Summer Time it is already the new day.
func (s *Service) Today() time.Time {
	return livestock.UKDate(s.now()).Time()
}

// never is a date after any movement: the window reads' open end.
var never = time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC)
