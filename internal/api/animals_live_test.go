package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// liveAnimal is a registration in the live service's Animal shape, with
// the definition's own example values (name, genotype, breed, mark) on a
// tag, dam and holding of the sandbox's keeper1.
func liveAnimal(identifier, born string) map[string]any {
	site := map[string]any{"type": map[string]any{"type": "producer", "description": "Agricultural holding"},
		"identifiers": []map[string]any{{"identifier": farm1, "type": "holdingNumber"}}}
	return map[string]any{
		"animal": map[string]any{"identifier": identifier, "species": "cattle", "name": "Ian", "sex": "male",
			"genotype": "QQQ/QRR", "originalIdentifier": nil, "productionType": "beef", "state": "registered"},
		"breed": map[string]any{"code": "DEX", "name": "Dexter", "crossBreed": false},
		"birth": map[string]any{"site": site, "date": born, "year": mustYear(born), "mark": "556773",
			"assistedBirthFlag": false, "multipleBirthsFlag": true, "embryoTransferFlag": false},
		"death": nil,
		"registration": map[string]any{"birthDam": map[string]any{"identifier": "UK442501300001", "species": "cattle", "sex": "female"},
			"site": site, "date": day(0), "category": "birthRegistration", "identificationDate": born},
		"birthingHistory": nil, "assurance": nil,
	}
}

// TestLiveRegistration: a client written from the live definition
// registers in async mode with LI-Request-Mode, polls to Success, and
// reads the animal; every answer is in the live shape (and, where the live
// definition is at hand, validates against its schema).
func TestLiveRegistration(t *testing.T) {
	t.Parallel()
	b := setup(t, storetest.OpenSQLite(t), api.Config{})
	k1 := b.token("keeper1")
	live := liveSchemas(t)
	const calfID = "UK442501600144"

	res := b.register(k1, liveAnimal(calfID, day(-2)), "LI-Request-Mode", "async")
	if res.status != http.StatusAccepted || res.header.Get("LI-Request-Id") == "" {
		t.Fatalf("async POST = %d %v %s", res.status, res.header, res.body)
	}
	live.check("AsyncAcceptedResponse", res.body)
	var queued struct{ RequestStatusURL, Requestid string }
	res.decode(&queued)
	if queued.RequestStatusURL != "/requeststatus/"+queued.Requestid || res.header.Get("LI-Request-Id") != queued.Requestid {
		t.Fatalf("202 = %s", res.body)
	}
	var st response
	for deadline := time.Now().Add(20 * time.Second); ; {
		wait, _ := strconv.Atoi(res.header.Get("Retry-After"))
		time.Sleep(time.Duration(max(wait, 1)) * time.Second)
		st = b.do(http.MethodGet, "/v1"+queued.RequestStatusURL, k1, nil)
		if !strings.Contains(string(st.body), `"status":"Pending"`) || time.Now().After(deadline) {
			break
		}
	}
	var status struct {
		Status, Identifier string
		Links              struct{ Self string }
	}
	st.decode(&status)
	if st.status != 200 || status.Status != "Success" || status.Identifier != calfID || status.Links.Self != "/animals/"+calfID {
		t.Fatalf("status = %d %s", st.status, st.body)
	}
	live.check("AnimalResponse", st.body)

	got := b.do(http.MethodGet, "/v1"+status.Links.Self, k1, nil)
	if got.status != 200 || got.header.Get("LI-Request-Id") == "" {
		t.Fatalf("GET animal = %d %v %s", got.status, got.header, got.body)
	}
	live.check("Animal", got.body)
	var animal struct {
		Animal struct{ Genotype, Name, State string }
		Breed  struct {
			Code, Name string
			CrossBreed bool
		}
		Birth struct {
			Year               int
			Mark               string
			MultipleBirthsFlag bool
			Site               struct {
				Type struct{ Type, Description string }
			}
		}
		Death any
	}
	got.decode(&animal)
	if animal.Animal.Genotype != "QQQ/QRR" || animal.Animal.Name != "Ian" || animal.Animal.State != "registered" ||
		animal.Breed.Name != "Dexter" || animal.Birth.Mark != "556773" || !animal.Birth.MultipleBirthsFlag ||
		animal.Birth.Site.Type.Type != "producer" || animal.Death != nil {
		t.Errorf("animal = %s", got.body)
	}
}

// TestLiveRegistrationErrors: the registration interface's errors are the
// live problem details (type the RFC's section, errors[] of code, detail,
// source, value), each naming the field, with LI-Request-Id.
func TestLiveRegistrationErrors(t *testing.T) {
	t.Parallel()
	b := setup(t, storetest.OpenSQLite(t), api.Config{})
	k1 := b.token("keeper1")
	bad := liveAnimal("UK442501700145", day(-2))
	bad["animal"].(map[string]any)["sex"] = "M"
	for _, tc := range []struct {
		name, title, code, source string
		res                       response
	}{
		{"schema", "Request Schema Error", "S006", "/animal/sex", b.register(k1, bad)},
		{"rule", "Validation Error", "V040", "/registration/birthDam/identifier", // another keeper's cow is not registered to keeper1
			b.register(k1, calf("UK442501700145", "UK442502100001", day(-3)), "LI-Request-Mode", "sync")},
		{"not found", "Not Found", "R001", "path:identifier", b.do(http.MethodGet, "/v1/animals/UK442501700145", k1, nil)},
		{"no species", "Request Schema Error", "S002", "query:species", b.do(http.MethodGet, "/v1/breeds", k1, nil)},
	} {
		var p struct {
			Type, Title, Detail string
			Status              int
			Errors              []struct{ Code, Detail, Message, Source, Value string }
		}
		tc.res.decode(&p)
		if !strings.HasPrefix(p.Type, "https://datatracker.ietf.org/doc/html/rfc9110#section-15.") || p.Title != tc.title ||
			p.Status != tc.res.status || p.Detail == "" || tc.res.header.Get("LI-Request-Id") == "" {
			t.Errorf("%s: %d %s", tc.name, tc.res.status, tc.res.body)
			continue
		}
		found := false
		for _, e := range p.Errors {
			found = found || e.Code == tc.code && e.Source == tc.source && e.Detail != "" && e.Detail == e.Message
		}
		if !found {
			t.Errorf("%s: errors %+v, want %s at %s with its detail", tc.name, p.Errors, tc.code, tc.source)
		}
	}
}

// TestReferenceLists: the reference lists in the live shapes, filtered as
// the live definition's parameters say.
func TestReferenceLists(t *testing.T) {
	t.Parallel()
	b := setup(t, storetest.OpenSQLite(t), api.Config{})
	k1 := b.token("keeper1")
	live := liveSchemas(t)
	type list struct {
		Count  int
		Values []map[string]any
	}
	get := func(path, schema string) list {
		t.Helper()
		res := b.do(http.MethodGet, path, k1, nil)
		if res.status != 200 {
			t.Fatalf("%s = %d %s", path, res.status, res.body)
		}
		live.check(schema, res.body)
		var l list
		res.decode(&l)
		if l.Count != len(l.Values) && !strings.Contains(path, "page") {
			t.Errorf("%s: count %d, %d values", path, l.Count, len(l.Values))
		}
		return l
	}
	if l := get("/v1/breeds?species=bison", "BreedList"); l.Count != 1 || l.Values[0]["code"] != "BIS" || l.Values[0]["crossBreed"] != false {
		t.Errorf("bison breeds = %+v", l)
	}
	if l := get("/v1/breeds?species=deer", "BreedList"); l.Count != 0 || l.Values == nil {
		t.Errorf("deer breeds = %+v", l)
	}
	sheep, cattle := get("/v1/deathreasons?species=sheep", "DeathReasonList"), get("/v1/deathreasons?species=cattle", "DeathReasonList")
	if sheep.Count == 0 || cattle.Count != sheep.Count+1 || sheep.Values[0]["deathReasonId"] == "" {
		t.Errorf("death reasons: sheep %+v, cattle %+v", sheep, cattle)
	}
	if l := get("/v1/genotypes?species=sheep", "GenotypeList"); l.Count != 15 || l.Values[0]["genotype"] != "ARR/ARR" {
		t.Errorf("sheep genotypes = %+v", l)
	}
	if l := get("/v1/rejectionreasons?species=cattle&text=NUMBER", "RejectionReasonList"); l.Count != 1 {
		t.Errorf("rejection reasons with 'number' = %+v", l)
	}
	all := get("/v1/hauliers", "HaulierList")
	deer := get("/v1/hauliers?species=deer&species=bison", "HaulierList")
	page := get("/v1/hauliers?species=sheep&order=name&sort=desc&page=2&pageSize=2", "HaulierList")
	if all.Count < 4 || deer.Count != 2 || page.Count != 3 || len(page.Values) != 1 || page.Values[0]["name"] != "Ashby Brothers Haulage" {
		t.Errorf("hauliers: all %d, deer or bison %+v, sheep page 2 by name desc %+v", all.Count, deer, page)
	}
	if res := b.do(http.MethodGet, "/v1/genotypes?species=pigs", k1, nil); res.status != 400 || res.problem().Errors[0].Source != "query:species" {
		t.Errorf("pigs = %d %s", res.status, res.body)
	}
}

// liveDefinition checks bodies against the live registration definition's
// schemas, read from shared/spec/live beside the project (or
// DROVER_LIVE_SPEC). Where it is not at hand the checks are skipped, and
// the test says so.
type liveDefinition struct {
	t   *testing.T
	doc *openapi3.T
}

func liveSchemas(t *testing.T) liveDefinition {
	path := os.Getenv("DROVER_LIVE_SPEC")
	for dir, _ := filepath.Abs("."); path == "" && dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		if p := filepath.Join(dir, "shared", "spec", "live", "lis-definition.json"); fileExists(p) {
			path = p
		}
	}
	if path == "" {
		t.Log("the live definition (shared/spec/live/lis-definition.json) is not at hand: answers are not checked against it")
		return liveDefinition{t: t}
	}
	doc, err := openapi3.NewLoader().LoadFromFile(path)
	if err != nil {
		t.Fatalf("load %s: %v", path, err)
	}
	return liveDefinition{t: t, doc: doc}
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// check validates body against the live schema name, as a response.
func (l liveDefinition) check(name string, body []byte) {
	l.t.Helper()
	if l.doc == nil {
		return
	}
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		l.t.Fatalf("%s: %v", name, err)
	}
	if err := l.doc.Components.Schemas[name].Value.VisitJSON(v, openapi3.VisitAsResponse(), openapi3.MultiErrors()); err != nil {
		l.t.Errorf("the answer breaks the live %s: %v\n%s", name, err, body)
	}
}

// TestMultipleBirthFlagSpellings: the interface document also spells
// birth.multipleBirthsFlag without its s; either is read, the record
// answers the live spelling, and the two disagreeing are refused.
func TestMultipleBirthFlagSpellings(t *testing.T) {
	t.Parallel()
	b := setup(t, storetest.OpenSQLite(t), api.Config{})
	k1 := b.token("keeper1")
	calf := func(n int) string { return "UK442501" + checkDigit(t, "442501", n) + fmt.Sprintf("%05d", n) }
	body := liveAnimal(calf(145), day(-2))
	birth := body["birth"].(map[string]any)
	delete(birth, "multipleBirthsFlag")
	birth["multipleBirthFlag"] = true
	if res := b.register(k1, body); res.status != http.StatusOK {
		t.Fatalf("registered with multipleBirthFlag: %d %s", res.status, res.body)
	}
	var animal struct{ Birth map[string]any }
	b.get("/v1/animals/"+calf(145), k1).decode(&animal)
	if animal.Birth["multipleBirthsFlag"] != true {
		t.Errorf("birth read back as %v, want multipleBirthsFlag true", animal.Birth)
	}

	body = liveAnimal(calf(146), day(-2))
	body["birth"].(map[string]any)["multipleBirthFlag"] = false // multipleBirthsFlag is true
	res := b.register(k1, body)
	if p := res.problem(); res.status != http.StatusBadRequest || len(p.Errors) == 0 || p.Errors[0].Source != "/birth/multipleBirthFlag" {
		t.Errorf("the two spellings disagreeing: %d %s, want 400 at /birth/multipleBirthFlag", res.status, res.body)
	}
}
