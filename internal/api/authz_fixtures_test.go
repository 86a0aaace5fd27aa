package api_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"time"

	"github.com/google/uuid"
	"golang.org/x/crypto/bcrypt"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/registration"
	"github.com/drover-registry/drover/internal/standing"
	"github.com/drover-registry/drover/internal/store"
)

// strangerCPH is the one holding of keeper3, a keeper with no relation to
// keeper1 or keeper2: every keeper1 resource is someone else's business
// to keeper3, with no shared holding to blur the line.
const strangerCPH = "01/100/0300"

// fixture is keeper1's business, created once per bundle for the
// authorization matrix: requests of every type, a movement awaiting
// keeper1's review, and a way to make fresh registrations.
type authzFixture struct {
	b           *bundle
	k1, k2      string
	private     record // keeper1 moving sheep between two of keeper1's holdings
	correction  record // keeper1 correcting a move to keeper2 before review
	undo        record // keeper1 undoing a private move
	review      record // keeper1 reviewing a move keeper2 sent to farm1
	toUndo      record // a private move left for the matrix to undo
	toReview    record // a move from keeper2 awaiting keeper1's review
	sent        int64  // the movement of keeper1's corrected move: its Departure record is keeper1's
	nextAnimal  int    // the next unregistered cattle number of herd 442501
	pastService *registration.Service
}

// addStranger seeds keeper3 (password keeper3) with one producer holding.
func (b *bundle) addStranger() {
	b.t.Helper()
	hash, err := bcrypt.GenerateFromPassword([]byte("keeper3"), bcrypt.MinCost)
	if err != nil {
		b.t.Fatal(err)
	}
	cph := livestock.MustCPH(strangerCPH)
	if _, err := b.store.Seed(b.t.Context(), store.Seed{
		Holdings: []livestock.Holding{{CPH: cph, Type: livestock.HoldingProducer}},
		Users:    []store.SeedUser{{Name: "keeper3", Role: livestock.RoleKeeper, PasswordHash: hash, Holdings: []livestock.CPH{cph}}},
	}); err != nil {
		b.t.Fatal(err)
	}
}

// newFixture creates keeper1's requests through the API, as keeper1 and
// keeper2 would.
func newFixture(b *bundle) *authzFixture {
	b.t.Helper()
	b.addStranger()
	f := &authzFixture{b: b, k1: b.token("keeper1"), k2: b.token("keeper2"), nextAnimal: 101}
	f.private = b.submit(f.k1, "TransferRequests", transfer(day(-1), farm1, "01/100/0258", farm1, sheep("130182", 1), nil))
	f.toUndo = b.submit(f.k1, "TransferRequests", transfer(day(-1), farm1, "01/100/0258", farm1, sheep("130182", 2), nil))
	f.undo = b.submit(f.k1, "UndoRequests", map[string]any{"requestToBeUndone_ID": f.private.RequestID})

	sent := b.submit(f.k1, "TransferRequests", transfer(day(0), farm1, farm2, farm1, sheep("130181", 1), nil))
	fix := transfer(day(0), farm1, farm2, farm1, sheep("130181", 2), nil)
	fix["requestToBeCorrected_ID"] = sent.RequestID
	f.correction = b.submit(f.k1, "CorrectTransferRequests", fix)
	f.sent = sent.RequestID

	arriving := b.submit(f.k2, "TransferRequests", transfer(day(0), farm2, farm1, farm2, sheep("130186", 1), nil))
	f.review = b.submit(f.k1, "ReviewHoldingMovementRequests", f.reviewOf(arriving.RequestID))
	f.toReview = b.submit(f.k2, "TransferRequests", transfer(day(0), farm2, farm1, farm2, sheep("130186", 2), nil))
	for _, r := range []record{f.private, f.toUndo, f.undo, sent, f.correction, arriving, f.review, f.toReview} {
		if !r.applied() {
			b.t.Fatalf("fixture request %d = %s %v", r.RequestID, r.RequestStatus, r.Errors)
		}
	}

	lists, err := standing.Load("")
	if err != nil {
		b.t.Fatal(err)
	}
	// Registrations made an hour ago may be polled at once: the poll
	// interval started then.
	past := func() time.Time { return time.Now().Add(-time.Hour) }
	if f.pastService, err = registration.New(b.store, lists, past, time.Second); err != nil {
		b.t.Fatal(err)
	}
	return f
}

// reviewOf accepts the whole of one sheep's move to farm1.
func (f *authzFixture) reviewOf(id int64) map[string]any {
	return map[string]any{"holding": farm1, "reviewMovement": map[string]any{
		"requestId": id, "isAccepted": true, "arrivalDate": day(0), "animalTotal": 1}}
}

// calf is a registration body for the next unregistered calf of keeper1's herd.
func (f *authzFixture) calf() map[string]any {
	n := f.nextAnimal
	f.nextAnimal++
	id := fmt.Sprintf("UK442501%s%05d", checkDigit(f.b.t, "442501", n), n)
	return calf(id, "UK442501300001", day(-3))
}

// registrationID queues a keeper1 registration dated an hour ago and
// returns its request id.
func (f *authzFixture) registrationID() string {
	f.b.t.Helper()
	u, err := f.b.store.UserByName(f.b.t.Context(), "keeper1")
	if err != nil {
		f.b.t.Fatal(err)
	}
	body, err := json.Marshal(f.calf())
	if err != nil {
		f.b.t.Fatal(err)
	}
	sum := sha256.Sum256(body)
	a, err := f.pastService.Submit(f.b.t.Context(), registration.Posted{User: u, Body: body, Async: true,
		CorrelationID: uuid.NewString(), Hash: hex.EncodeToString(sum[:])})
	if err != nil || a.RequestID == "" {
		f.b.t.Fatalf("queue registration: %v %d %s", err, a.Status, a.Body)
	}
	return a.RequestID
}
