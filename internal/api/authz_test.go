package api_test

import (
	"cmp"
	"fmt"
	"maps"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/api/openapi"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestAuthorizationMatrixIsComplete: every documented operation has a
// row, and every row a documented operation.
func TestAuthorizationMatrixIsComplete(t *testing.T) {
	t.Parallel()
	doc, err := openapi.Load()
	if err != nil {
		t.Fatal(err)
	}
	rows := authzMatrix()
	documented := map[string]bool{}
	for _, op := range doc.Operations() {
		key := op.Method + " " + op.Path
		documented[key] = true
		if _, ok := rows[key]; !ok {
			t.Errorf("%s has no row in authzMatrix: say who may call it", key)
		}
	}
	for key, row := range rows {
		if !documented[key] {
			t.Errorf("authzMatrix row %s is not a documented operation", key)
		}
		if strings.HasPrefix(strings.Fields(key)[1], "/v1/") == (row.public != 0) {
			t.Errorf("%s: every /v1 operation needs a token, and only those do", key)
		}
	}
}

// TestAuthorizationMatrix sends every operation as every principal.
func TestAuthorizationMatrix(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		f := newFixture(b)
		valid := f.k1
		// why is what the 401 must say: each token is refused for the one
		// thing it breaks, not for something else by accident.
		forged := []struct {
			name, why string
			tokens    []string
		}{
			{"no token", "", []string{""}},
			{"expired", "expired", []string{b.expiredToken()}},
			{"tampered signature", "signature invalid", []string{b.tamperedToken(valid)}},
			{"foreign key, same kid", "signature invalid", []string{b.foreignKeyToken(valid)}},
			{"alg none", "alg none", []string{b.algNoneToken(valid)}},
			{"HS256 with the public key", "algorithm not supported", b.hmacTokens(valid)},
		}
		people := []struct {
			name   string
			token  string
			status func(authzRow) int
		}{
			{"keeper3 (stranger)", b.token("keeper3"), func(r authzRow) int { return r.stranger }},
			{"inspector", b.token("inspector"), func(r authzRow) int { return r.inspector }},
			{"keeper1 (owner)", valid, func(r authzRow) int { return r.owner }},
		}
		rows := authzMatrix()
		for _, op := range slices.Sorted(maps.Keys(rows)) {
			row := rows[op]
			if row.public != 0 {
				if res := f.send(row.build(f), ""); res.status != row.public {
					t.Errorf("%s without a token: %d, want %d: %s", op, res.status, row.public, res.body)
				}
				continue
			}
			for _, fg := range forged {
				for _, tok := range fg.tokens {
					res := f.send(row.build(f), tok)
					if res.status != http.StatusUnauthorized {
						t.Errorf("%s, %s: %d, want 401: %s", op, fg.name, res.status, res.body)
						continue
					}
					if !strings.HasPrefix(res.header.Get("WWW-Authenticate"), "Bearer") {
						t.Errorf("%s, %s: WWW-Authenticate = %q", op, fg.name, res.header.Get("WWW-Authenticate"))
					}
					if p := res.problem(); !strings.Contains(p.Errors[0].Message, fg.why) {
						t.Errorf("%s, %s: refused because %q", op, fg.name, p.Errors[0].Message)
					}
				}
			}
			for _, p := range people {
				res := f.send(row.build(f), p.token)
				if want := p.status(row); res.status != want {
					t.Errorf("%s as %s: %d, want %d: %s", op, p.name, res.status, want, res.body)
				} else if want >= 400 {
					res.problem()
				}
			}
		}

		// keeper1 once withdrawn from every holding: still signed in, still
		// reading their own requests, acting for nothing. The calls are
		// built first: a registration to poll is made as keeper1 acting.
		calls := map[string]authzCall{}
		for op, row := range rows {
			if row.public == 0 {
				calls[op] = row.build(f)
			}
		}
		b.withdraw("keeper1")
		withdrawn := b.token("keeper1")
		for _, op := range slices.Sorted(maps.Keys(calls)) {
			row := rows[op]
			want := cmp.Or(row.withdrawn, row.owner)
			if res := f.send(calls[op], withdrawn); res.status != want {
				t.Errorf("%s as keeper1 withdrawn: %d, want %d: %s", op, res.status, want, res.body)
			} else if want >= 400 {
				res.problem()
			}
		}
	})
}

// TestForbiddenIsNotNotFound pins where a keeper asking for another
// keeper's business gets a 403 and where a 404. Another keeper's animal
// and movement request are a 404, the same answer as for a tag no animal
// wears or an id not in use (or of another type): a 403 told a keeper
// which tags and ids were other keepers' (issue 20, which narrows the
// spec's "a user lacking permission for a resource gets 403" to what the
// caller names as theirs). Another keeper's registration status is a 404
// too: the live definition declares 404 there and no 403.
func TestForbiddenIsNotNotFound(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		f := newFixture(b)
		stranger := b.token("keeper3")
		for _, tc := range []struct {
			path     string
			owner    int // keeper1's answer; keeper3 gets 403 where keeper1 gets 200 …
			stranger int // … unless this says otherwise
		}{
			{fmt.Sprintf("/v1/TransferRequests(%d)", f.private.RequestID), http.StatusOK, http.StatusNotFound},
			{fmt.Sprintf("/v1/UndoRequests(%d)", f.private.RequestID), http.StatusNotFound, 0},
			{"/v1/TransferRequests(999999)", http.StatusNotFound, 0},
			{"/v1/requeststatus/" + f.registrationID(), http.StatusOK, http.StatusNotFound},
			{"/v1/requeststatus/00000000-0000-4000-8000-000000000000", http.StatusNotFound, 0},
			{"/v1/animals/UK442501300001", http.StatusOK, http.StatusNotFound},
			{"/v1/animals/UK442501" + checkDigit(t, "442501", 149) + "00149", http.StatusNotFound, 0},
		} {
			want := tc.owner
			if tc.stranger != 0 {
				want = tc.stranger
			} else if want == http.StatusOK {
				want = http.StatusForbidden
			}
			if res := b.do(http.MethodGet, tc.path, stranger, nil); res.status != want {
				t.Errorf("keeper3 GET %s: %d, want %d", tc.path, res.status, want)
			}
			if res := b.do(http.MethodGet, tc.path, f.k1, nil); res.status != tc.owner {
				t.Errorf("keeper1 GET %s: %d, want %d", tc.path, res.status, tc.owner)
			}
		}
	})
}

// TestNotYoursIsNotThere: a keeper asking by id for another keeper's
// movement request gets the very answer of an id not in use, or in use by
// a request of another type, but for the id itself; the owner and the
// inspector get the request.
func TestNotYoursIsNotThere(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		f := newFixture(b)
		stranger, inspector := b.token("keeper3"), b.token("inspector")
		answer := func(path string, id int64) string {
			res := b.do(http.MethodGet, fmt.Sprintf("/v1/%s(%d)", path, id), stranger, nil)
			if res.status != http.StatusNotFound {
				t.Errorf("keeper3 GET %s(%d): %d, want 404", path, id, res.status)
			}
			n := fmt.Sprint(id)
			return res.header.Get("Content-Type") + " " + regexp.MustCompile(`\b`+n+`\b`).ReplaceAllString(string(res.body), "ID")
		}
		for path, r := range map[string]record{"TransferRequests": f.private, "UndoRequests": f.undo,
			"CorrectTransferRequests": f.correction, "ReviewHoldingMovementRequests": f.review} {
			notYours := answer(path, r.RequestID)
			otherType := f.private.RequestID
			if path == "TransferRequests" {
				otherType = f.undo.RequestID
			}
			for what, got := range map[string]string{"an id not in use": answer(path, 999999), "an id of another type": answer(path, otherType)} {
				if got != notYours {
					t.Errorf("%s: another keeper's request answers\n%s\nand %s\n%s", path, notYours, what, got)
				}
			}
			for who, tok := range map[string]string{"keeper1": f.k1, "inspector": inspector} {
				if res := b.do(http.MethodGet, fmt.Sprintf("/v1/%s(%d)", path, r.RequestID), tok, nil); res.status != http.StatusOK {
					t.Errorf("%s GET %s(%d): %d, want 200", who, path, r.RequestID, res.status)
				}
			}
		}
	})
}
