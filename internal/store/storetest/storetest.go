// Package storetest is the one conformance suite for store.Store: Exercise
// runs it against any implementation, and the sqlite and postgres packages
// both pass it. It also opens real stores for other packages' tests
// (OpenSQLite, OpenPostgres, Each), since Drover's tests use real databases
// rather than fakes.
package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// Exercise runs the conformance suite against stores made by open, which
// must return a new, empty store for every call (and close it at the end
// of the test). The subtests run in parallel.
func Exercise(t *testing.T, open func(t *testing.T) store.Store) {
	t.Helper()
	tests := []struct {
		name string
		run  func(t *testing.T, s store.Store)
	}{
		{"Ready", testReady},
		{"Unavailable", testUnavailable},
		{"Users", testUsers},
		{"NotFound", testNotFound},
		{"SeedTwice", testSeedTwice},
		{"SeedConcurrent", testSeedConcurrent},
		{"SeedLarge", testSeedLarge},
		{"SeedUpdate", testSeedUpdate},
		{"Mode", testMode},
		{"ModeRace", testModeRace},
		{"SigningKeys", testSigningKeys},
		{"AuthCodes", testAuthCodes},
		{"AuthCodeRace", testAuthCodeRace},
		{"RefreshTokens", testRefreshTokens},
		{"RefreshChain", testRefreshChain},
		{"CodeChain", testCodeChain},
		{"RefreshTokenRace", testRefreshTokenRace},
		{"InTx", testInTx},
		{"InTxPanic", testInTxPanic},
		{"SharedTxMany", testSharedTxMany},
		{"SharedTxErrors", testSharedTxErrors},
		{"SharedTxConflict", testSharedTxConflict},
		{"SharedTxPanic", testSharedTxPanic},
		{"SharedTxCancel", testSharedTxCancel},
		{"SharedTxClose", testSharedTxClose},
		{"GroupTrackingIDs", testGroupTrackingIDs},
		{"GroupWriteChecks", testGroupWriteChecks},
		{"GroupWritesWhole", testGroupWritesWhole},
		{"JobGroupClaim", testJobGroupClaim},
		{"JobGroupClaimKinds", testJobGroupClaimKinds},
		{"GroupReads", testGroupReads},
		{"GroupMoveReads", testGroupMoveReads},
		{"Times", testTimes},
		{"JobDone", testJobDone},
		{"JobError", testJobError},
		{"JobFinishFails", testJobFinishFails},
		{"JobDue", testJobDue},
		{"JobRetry", testJobRetry},
		{"JobCounts", testJobCounts},
		{"JobRace", testJobRace},
		{"JobSkipLocked", testJobSkipLocked},
		{"JobDueBeforeClaimed", testJobDueBeforeClaimed},
		{"RequestRoundTrip", testRequestRoundTrip},
		{"TrackingConflict", testTrackingConflict},
		{"MovementNotFound", testMovementNotFound},
		{"Visibility", testVisibility},
		{"KeysetPaging", testKeysetPaging},
		{"OffsetLimit", testOffsetLimit},
		{"ListingContent", testListingContent},
		{"DateListing", testDateListing},
		{"RequestFilter", testRequestFilter},
		{"MovementDateAsShown", testMovementDateAsShown},
		{"HoldingFilter", testHoldingFilter},
		{"FilterErrors", testFilterErrors},
		{"RequestOrder", testRequestOrder},
		{"RequestCount", testRequestCount},
		{"LiveRecordFilter", testLiveRecordFilter},
		{"MovementRoundTrip", testMovementRoundTrip},
		{"PendingReviews", testPendingReviews},
		{"BatchMovementIDs", testBatchMovementIDs},
		{"RequestsByID", testRequestsByID},
		{"ReviewFilter", testReviewFilter},
		{"ApprovedMovements", testApprovedMovements},
		{"ApprovedMovement", testApprovedMovement},
		{"ApprovedOrder", testApprovedOrder},
		{"ApprovedCount", testApprovedCount},
		{"InTransit", testInTransit},
		{"MovedAfter", testMovedAfter},
		{"MovementsOnRoute", testMovementsOnRoute},
		{"ArrivalsOn", testArrivalsOn},
		{"Replies", testReplies},
		{"ReplyRetention", testReplyRetention},
		{"JobRetention", testJobRetention},
		{"Animals", testAnimals},
		{"AnimalsTogether", testAnimalsTogether},
		{"AnimalsLocked", testAnimalsLocked},
		{"LockRequest", testLockRequest},
		{"RegistrationRoundTrip", testRegistrationRoundTrip},
		{"RegistrationConflict", testRegistrationConflict},
		{"UpdateRegistration", testUpdateRegistration},
		{"RegistrationNotFound", testRegistrationNotFound},
		{"TakePoll", testTakePoll},
		{"TakePollRace", testTakePollRace},
		{"RegisterAnimal", testRegisterAnimal},
		{"SeededAnimal", testSeededAnimal},
		{"LookUpRegistration", testLookUpRegistration},
		{"TraceWindows", testTraceWindows},
		{"TraceAnimals", testTraceAnimals},
		{"TraceUnnamedDeer", testTraceUnnamedDeer},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.run(t, open(t))
		})
	}
}

// ctx is a context for one test step, bounded so a hang fails the test.
func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(t.Context(), time.Minute)
	t.Cleanup(cancel)
	return c
}

// wantKind fails the test unless err is a *livestock.Error of kind k.
func wantKind(t *testing.T, what string, err error, k livestock.Kind) {
	t.Helper()
	var le *livestock.Error
	if !errors.As(err, &le) || le.Kind != k {
		t.Errorf("%s: error %v (%T), want kind %v", what, err, err, k)
	}
}

// must fails the test now when err is not nil.
func must(t *testing.T, what string, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

func testReady(t *testing.T, s store.Store) {
	if d := s.Dialect(); d != "sqlite" && d != "postgres" {
		t.Errorf("Dialect() = %q", d)
	}
	must(t, "Ready", s.Ready(ctx(t)))
}

// testUnavailable checks that a request out of time is KindUnavailable,
// whatever the driver says about it.
func testUnavailable(t *testing.T, s store.Store) {
	c, cancel := context.WithDeadline(ctx(t), time.Now().Add(-time.Second))
	defer cancel()
	_, err := s.UserByName(c, "keeper1")
	wantKind(t, "UserByName past its deadline", err, livestock.KindUnavailable)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("UserByName past its deadline: %v does not wrap the cause", err)
	}
	err = s.InTx(c, func(context.Context, store.Tx) error { return nil })
	wantKind(t, "InTx past its deadline", err, livestock.KindUnavailable)
	err = s.InSharedTx(c, func(context.Context, store.Tx) error { return nil })
	wantKind(t, "InSharedTx past its deadline", err, livestock.KindUnavailable)
	_, err = s.RunJob(c, []string{"k"}, time.Now(), nil)
	wantKind(t, "RunJob past its deadline", err, livestock.KindUnavailable)
	wantKind(t, "Ready past its deadline", s.Ready(c), livestock.KindUnavailable)
}
