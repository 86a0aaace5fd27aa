package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// calf is a registration body: a calf born on farm1 to dam, registered today.
func calf(identifier, dam, born string) map[string]any {
	site := map[string]any{"identifiers": []map[string]any{{"identifier": farm1, "type": "holdingNumber"}}}
	return map[string]any{
		"animal": map[string]any{"identifier": identifier, "species": "cattle", "sex": "female", "productionType": "dairy"},
		"breed":  map[string]any{"code": "HOL"},
		"birth": map[string]any{"site": site, "date": born, "year": mustYear(born),
			"assistedBirthFlag": false, "multipleBirthsFlag": false, "embryoTransferFlag": false},
		"registration": map[string]any{"birthDam": map[string]any{"identifier": dam}, "site": site,
			"date": day(0), "category": "birthRegistration", "identificationDate": born},
	}
}

func mustYear(date string) int {
	y, _ := strconv.Atoi(date[:4])
	return y
}

func (b *bundle) register(token string, body any, headers ...string) response {
	b.t.Helper()
	data, err := json.Marshal(body)
	if err != nil {
		b.t.Fatal(err)
	}
	return b.do(http.MethodPost, "/v1/animals", token, strings.NewReader(string(data)), append([]string{"Content-Type", "application/json"}, headers...)...)
}

// TestRegistrationLifecycle: keeper1 registers a calf of a sandbox cow in
// async mode, polls politely until Completed and reads the animal back;
// then every refusal the issue lists.
func TestRegistrationLifecycle(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1, k2 := b.token("keeper1"), b.token("keeper2")
		const calfID, cow = "UK442501500101", "UK442501300001"

		res := b.register(k1, calf(calfID, cow, day(-3)), "x-Request-Mode", "ASYNC", "X-Correlation-ID", "reg-1")
		if res.status != http.StatusAccepted {
			t.Fatalf("async POST = %d %s", res.status, res.body)
		}
		var queued struct{ Requestid, ID, RequestStatus, RequestDate, RequestStatusURL string }
		res.decode(&queued)
		// requestStatusUrl is written as the live example writes it: under
		// the interface's base, /v1, where Location has the whole path.
		if queued.Requestid == "" || queued.ID != queued.Requestid || queued.RequestStatus != "Pending" ||
			queued.RequestStatusURL != "/requeststatus/"+queued.ID || res.header.Get("Location") != "/v1"+queued.RequestStatusURL {
			t.Fatalf("202 body = %s, Location %q", res.body, res.header.Get("Location"))
		}
		statusURL := "/v1" + queued.RequestStatusURL
		for _, h := range []string{"X-Request-ID", "LI-Request-Id"} {
			if res.header.Get(h) != queued.ID {
				t.Errorf("%s = %q, want %s", h, res.header.Get(h), queued.ID)
			}
		}
		if res.header.Get("Retry-After") != "1" || res.header.Get("X-Retry-After") != "1" || res.header.Get("X-Correlation-ID") != "reg-1" {
			t.Errorf("202 headers = %v", res.header)
		}
		// A retry of the same POST gets the same answer and queues nothing new.
		if again := b.register(k1, calf(calfID, cow, day(-3)), "x-Request-Mode", "async", "X-Correlation-ID", "reg-1"); string(again.body) != string(res.body) ||
			again.header.Get("Idempotent-Replayed") != "true" || len(res.header.Values("Idempotent-Replayed")) != 0 {
			t.Errorf("replayed 202 = %s, Idempotent-Replayed %q (first answer %q); want true, first none", again.body,
				again.header.Get("Idempotent-Replayed"), res.header.Values("Idempotent-Replayed"))
		}

		// Polling at once is too soon; another keeper may not look.
		soon := b.do(http.MethodGet, statusURL, k1, nil)
		if soon.status != http.StatusTooManyRequests || soon.header.Get("Retry-After") == "" || soon.header.Get("X-Retry-After") != soon.header.Get("Retry-After") ||
			soon.problem().Errors[0].Code != "R009" {
			t.Errorf("poll too soon = %d %v %s", soon.status, soon.header, soon.body)
		}
		// Another keeper's request is not found, answered as an unknown one
		// (the live definition declares 404 here, and no 403).
		const unknownID = "00000000-0000-0000-0000-000000000000"
		other := b.do(http.MethodGet, statusURL, k2, nil)
		missing := b.do(http.MethodGet, "/v1/requeststatus/"+unknownID, k1, nil)
		if missing.status != http.StatusNotFound {
			t.Errorf("unknown request = %d", missing.status)
		}
		if id := strings.TrimPrefix(statusURL, "/v1/requeststatus/"); other.status != http.StatusNotFound ||
			strings.ReplaceAll(string(other.body), id, unknownID) != string(missing.body) {
			t.Errorf("keeper2 polling keeper1's request = %d %s, want the answer to an unknown id: %s", other.status, other.body, missing.body)
		}
		// Politely: wait as told, until it is decided.
		var st struct {
			Status     string
			Identifier string
			Links      struct{ Self string }
			Result     struct {
				Identifier string
				Links      struct{ Self string }
			}
		}
		for deadline := time.Now().Add(20 * time.Second); ; {
			wait, _ := strconv.Atoi(soon.header.Get("Retry-After"))
			time.Sleep(time.Duration(wait) * time.Second)
			soon = b.do(http.MethodGet, statusURL, k1, nil)
			if soon.status != http.StatusOK {
				t.Fatalf("poll = %d %s", soon.status, soon.body)
			}
			soon.decode(&st)
			if st.Status != "Pending" || time.Now().After(deadline) {
				break
			}
		}
		// The live RequestStatus: Success, with the identifier and links at
		// the top level (result stays beside them).
		if st.Status != "Success" || st.Identifier != calfID || st.Links.Self != "/animals/"+calfID || st.Result.Identifier != calfID {
			t.Fatalf("status = %s", soon.body)
		}
		if soon.header.Get("LI-Request-Id") == "" {
			t.Errorf("request status without LI-Request-Id: %v", soon.header)
		}
		// The animal can be read at once, as the live Animal.
		var animal struct {
			Animal      struct{ Identifier, Species, Sex, State string }
			CurrentSite struct {
				Identifiers []struct{ Identifier, Type string }
			}
			Registration       struct{ BirthDam struct{ Identifier string } }
			Birth              struct{ Year int }
			Identifier         string
			Holding            string
			MovementRestricted bool
		}
		self := "/v1" + st.Links.Self
		got := b.do(http.MethodGet, self, k1, nil)
		got.decode(&animal)
		if got.status != 200 || animal.Animal.Identifier != calfID || animal.Animal.State != "registered" || len(animal.CurrentSite.Identifiers) != 1 ||
			animal.CurrentSite.Identifiers[0].Identifier != farm1 || animal.Registration.BirthDam.Identifier != cow || animal.Birth.Year == 0 ||
			animal.Identifier != calfID || animal.Holding != farm1 || animal.MovementRestricted {
			t.Errorf("animal = %d %s", got.status, got.body)
		}
		if res := b.do(http.MethodGet, self, k2, nil); res.status != http.StatusNotFound { // as a tag no animal wears
			t.Errorf("keeper2 reading keeper1's calf = %d, want 404", res.status)
		}
		if res := b.do(http.MethodGet, self, b.token("inspector"), nil); res.status != http.StatusOK {
			t.Errorf("inspector reading the calf = %d", res.status)
		}

		// Refusals, in sync mode (400 naming the field; nothing kept).
		for _, tc := range []struct {
			name, code, source string
			body               map[string]any
		}{
			{"registered already", "V032", "/animal/identifier", calf(calfID, cow, day(-3))},
			{"wrong check digit", "S008", "/animal/identifier", calf("UK442501"+wrongDigit(t, "442501", 102)+"00102", cow, day(-3))},
			{"dam on another keeper's holding", "V040", "/registration/birthDam/identifier", calf("UK442501"+checkDigit(t, "442501", 102)+"00102", "UK442502100001", day(-3))},
			{"born after registration", "V035", "", calf("UK442501"+checkDigit(t, "442501", 103)+"00103", cow, day(1))},
		} {
			res := b.register(k1, tc.body)
			if res.status != http.StatusBadRequest {
				t.Errorf("%s: %d %s", tc.name, res.status, res.body)
				continue
			}
			p := res.problem()
			found := false
			for _, e := range p.Errors {
				found = found || e.Code == tc.code && (tc.source == "" || e.Source == tc.source)
			}
			if !found {
				t.Errorf("%s: errors %+v, want %s at %s", tc.name, p.Errors, tc.code, tc.source)
			}
		}
		if res := b.register(k2, calf("UK442501"+checkDigit(t, "442501", 104)+"00104", cow, day(-3))); res.status != http.StatusBadRequest ||
			res.problem().Errors[0].Code != "V047" || res.problem().Errors[0].Source != "/registration/site/identifiers/0/identifier" {
			t.Errorf("keeper2 registering at keeper1's holding = %d %s, want 400 V047 naming the site", res.status, res.body)
		}
		if res := b.register(k1, calf("UK442501"+checkDigit(t, "442501", 104)+"00104", cow, day(-3)), "x-Request-Mode", "later"); res.status != http.StatusBadRequest {
			t.Errorf("unknown mode = %d", res.status)
		}

		// Sync: a late birth registration is registered, with W003, and the animal may not move.
		lateBody := calf("UK442501"+checkDigit(t, "442501", 105)+"00105", cow, day(-40))
		late := b.register(k1, lateBody, "X-Correlation-ID", "reg-late")
		// Its retry answers the same, headers included: the 200 body names
		// no request, yet X-Request-ID does.
		again := b.register(k1, lateBody, "X-Correlation-ID", "reg-late")
		for _, h := range []string{"X-Request-ID", "LI-Request-Id"} {
			if id := late.header.Get(h); id == "" || again.header.Get(h) != id {
				t.Errorf("%s: sync 200 %q, replayed %q; want the same request id", h, id, again.header.Get(h))
			}
		}
		if r, f := again.header.Get("Idempotent-Replayed"), late.header.Values("Idempotent-Replayed"); r != "true" || len(f) != 0 {
			t.Errorf("sync Idempotent-Replayed: first %q, replay %q; want none, then true", f, r)
		}
		if again.status != late.status || string(again.body) != string(late.body) {
			t.Errorf("replayed sync 200 = %d %s; want %d %s", again.status, again.body, late.status, late.body)
		}
		// Each answer ends its line, as every other JSON answer does.
		for _, r := range []response{res, late, again} {
			if !strings.HasSuffix(string(r.body), "}\n") {
				t.Errorf("a %d answer does not end its line: %q", r.status, r.body)
			}
		}
		var ok struct {
			Identifier string
			Warnings   []struct{ Code string }
		}
		late.decode(&ok)
		if late.status != 200 || len(ok.Warnings) != 1 || ok.Warnings[0].Code != "W003" {
			t.Fatalf("late registration = %d %s", late.status, late.body)
		}
		b.do(http.MethodGet, "/v1/animals/"+ok.Identifier, k1, nil).decode(&animal)
		if !animal.MovementRestricted {
			t.Errorf("a late-registered calf is not movement-restricted")
		}
	})
}

// checkDigit computes the check digit of a cattle ear tag (domain-notes §3).
func checkDigit(t *testing.T, herd string, animal int) string {
	t.Helper()
	h, err := strconv.Atoi(herd)
	if err != nil {
		t.Fatal(err)
	}
	return strconv.Itoa((h*100000+animal)%7 + 1)
}

// wrongDigit is a check digit that is not the right one.
func wrongDigit(t *testing.T, herd string, animal int) string {
	d, _ := strconv.Atoi(checkDigit(t, herd, animal))
	return strconv.Itoa(d%7 + 1)
}

// TestWholeNumbersWithAFraction: an integer of the schema written as
// 2026.0 or 1e0 is JSON Schema's integer, which the document's validator
// passes; the handlers read it as the integer it is, in both interfaces,
// and a number that is not whole is still refused at its pointer.
func TestWholeNumbersWithAFraction(t *testing.T) {
	t.Parallel()
	b := setup(t, storetest.OpenSQLite(t), api.Config{})
	k1 := b.token("keeper1")
	born := day(-3)
	data, _ := json.Marshal(calf("UK442501600102", "UK442501300001", born))
	year := `"year":` + born[:4]
	reg := strings.Replace(string(data), year, `"year":`+born[:1]+"."+born[1:4]+"e3", 1)
	if reg == string(data) {
		t.Fatalf("no %s in %s", year, data)
	}
	if res := b.do(http.MethodPost, "/v1/animals", k1, strings.NewReader(reg), "Content-Type", "application/json"); res.status != http.StatusOK {
		t.Fatalf("registration with %s: %d %s", reg, res.status, res.body)
	}
	// The year is read, not dropped: another year, written so, is V036.
	wrong := strings.Replace(strings.Replace(string(data), "UK442501600102", "UK442501700103", 1), year,
		fmt.Sprintf(`"year":%d.0`, mustYear(born)-1), 1)
	if res := b.do(http.MethodPost, "/v1/animals", k1, strings.NewReader(wrong), "Content-Type", "application/json"); res.status != http.StatusBadRequest ||
		res.problem().Errors[0].Code != "V036" || res.problem().Errors[0].Value != strconv.Itoa(mustYear(born)-1) {
		t.Errorf("registration with last year as a decimal: %d %s", res.status, res.body)
	}
	half := strings.Replace(string(data), year, year+".5", 1)
	if res := b.do(http.MethodPost, "/v1/animals", k1, strings.NewReader(half), "Content-Type", "application/json"); res.status != http.StatusBadRequest ||
		res.problem().Errors[0].Source != "/birth/year" {
		t.Errorf("registration with year %s.5: %d %s", born[:4], res.status, res.body)
	}

	move, _ := json.Marshal(map[string]any{"content": transfer(day(0), farm1, farm2, farm1, sheep("130181", 1), nil)})
	body := strings.Replace(string(move), `"animalCount":1`, `"animalCount":1.0`, 1)
	if res := b.do(http.MethodPost, "/v1/TransferRequests", k1, strings.NewReader(body), "Content-Type", "application/json"); res.status != http.StatusCreated {
		t.Errorf("transfer with animalCount 1.0: %d %s", res.status, res.body)
	}
}

// TestRegistrationExamplesWork: every example body of POST /v1/animals in
// the document registers its animal in a new sandbox, as keeper1. Vendors
// try them first from /docs; they had used tags the sandbox never issued
// (V031, found by an audit).
func TestRegistrationExamplesWork(t *testing.T) {
	t.Parallel()
	b := setup(t, storetest.OpenSQLite(t), api.Config{})
	var doc struct {
		Paths map[string]struct {
			Post struct {
				RequestBody struct {
					Content map[string]struct {
						Examples map[string]struct{ Value json.RawMessage }
					}
				}
			}
		}
	}
	if err := json.Unmarshal(b.doc.JSON(), &doc); err != nil {
		t.Fatal(err)
	}
	examples := doc.Paths["/v1/animals"].Post.RequestBody.Content["application/json"].Examples
	if len(examples) == 0 {
		t.Fatal("no examples of POST /v1/animals in the document")
	}
	k1 := b.token("keeper1")
	for name, ex := range examples {
		res := b.do(http.MethodPost, "/v1/animals", k1, strings.NewReader(string(ex.Value)), "Content-Type", "application/json")
		if res.status != http.StatusOK {
			t.Errorf("example %s: %d %s", name, res.status, res.body)
		}
	}
}

// TestRegistrationLiveDefaults: what the live definition says where
// animal-registration.md is silent. A mode header sent empty is no mode,
// which is sync; a request id that is not a UUID names no request, a 404
// as for an unknown one (the definition declares no 400 there).
func TestRegistrationLiveDefaults(t *testing.T) {
	t.Parallel()
	b := setup(t, storetest.OpenSQLite(t), api.Config{})
	k1 := b.token("keeper1")
	const cow = "UK442501300001"
	for i, h := range []string{"x-Request-Mode", "LI-Request-Mode"} {
		n := 106 + i
		res := b.register(k1, calf("UK442501"+checkDigit(t, "442501", n)+fmt.Sprintf("%05d", n), cow, day(-3)), h, "")
		if res.status != http.StatusOK {
			t.Errorf("%s sent empty = %d %s, want 200 (sync)", h, res.status, res.body)
		}
	}
	unknown := b.do(http.MethodGet, "/v1/requeststatus/00000000-0000-4000-8000-000000000000", k1, nil)
	for _, id := range []string{"xyz", "{00000000-0000-4000-8000-000000000000}", "00000000000040008000000000000000", "urn:uuid:00000000-0000-4000-8000-000000000000", "%41", strings.Repeat("a", 2000)} {
		res := b.do(http.MethodGet, "/v1/requeststatus/"+id, k1, nil)
		if res.status != http.StatusNotFound || res.problem().Errors[0].Code != "R001" || res.problem().Errors[0].Source != "path:requestId" {
			t.Errorf("request status of %.40q = %d %s; want 404 R001 at path:requestId, as %s", id, res.status, res.body, unknown.body)
		}
	}
}
