package groupcommit

import (
	"context"
	"testing"
	"time"
)

// TestGroupDeadlineCallers: a group runs under the latest deadline of its
// callers waiting on an answer, whatever its jobs' deadlines; under its
// jobs' latest when it has no other caller; under none when a caller that
// counts has none.
func TestGroupDeadlineCallers(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 24, 12, 0, 0, 0, time.UTC)
	at := func(d time.Duration, background bool) *call[int] {
		ctx := context.Background()
		if d > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithDeadline(ctx, now.Add(d))
			t.Cleanup(cancel)
		}
		return &call[int]{ctx: ctx, opts: Options{Background: background}}
	}
	const request, job = false, true
	for _, tc := range []struct {
		name  string
		batch []*call[int]
		want  time.Duration // after now; 0 is none
	}{
		{"requests", []*call[int]{at(time.Second, request), at(2*time.Second, request)}, 2 * time.Second},
		{"a request and a job", []*call[int]{at(time.Second, request), at(30*time.Second, job)}, time.Second},
		{"a request and a job without a deadline", []*call[int]{at(time.Second, request), at(0, job)}, time.Second},
		{"jobs alone", []*call[int]{at(30*time.Second, job), at(20*time.Second, job)}, 30 * time.Second},
		{"a request without a deadline", []*call[int]{at(time.Second, request), at(0, request), at(30*time.Second, job)}, 0},
		{"a job without a deadline, alone", []*call[int]{at(0, job)}, 0},
	} {
		got := groupDeadline(tc.batch)
		var want time.Time
		if tc.want > 0 {
			want = now.Add(tc.want)
		}
		if !got.Equal(want) {
			t.Errorf("%s: deadline %v, want %v", tc.name, got, want)
		}
	}
}
