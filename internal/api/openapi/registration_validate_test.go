package openapi

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/standing"
)

// goodRegistration is a birth registration of a calf with every group of
// the body filled in.
const goodRegistration = `{
 "animal": {"identifier": "UK123450600001", "species": "cattle", "name": "Buttercup", "sex": "female", "productionType": "dairy"},
 "breed": {"code": "HOL"},
 "birth": {"site": {"identifiers": [{"identifier": "01/100/0257", "type": "holdingNumber"}]}, "date": "2026-11-01", "year": 2026,
  "mark": "UK123450", "assistedBirthFlag": false, "multipleBirthsFlag": false, "embryoTransferFlag": false},
 "registration": {"birthDam": {"identifier": "UK123450700002"}, "geneticDam": {"identifier": "UK123450700002"},
  "sire": {"identifier": "UK123450100003"}, "site": {"identifiers": [{"identifier": "01/100/0257"}]},
  "date": "2026-11-10", "category": "birthRegistration", "identificationDate": "2026-11-02"}
}`

// importRegistration is an import that died, with the import-only fields.
const importRegistration = `{
 "animal": {"identifier": "UK123450200004", "species": "buffalo", "sex": "male", "productionType": "meat"},
 "OriginalIdentifier": "FR1234567890",
 "importParents": {"sire": {"identifier": "FR1"}, "geneticDam": {"identifier": "FR2"}, "birthDam": {"identifier": "FR3"}},
 "birth": {"site": {"identifiers": [{"identifier": "FR-PORT-0001", "type": "portNumber"}]}, "date": "2026-03-14"},
 "death": {"carcassCollectionSite": {"identifiers": [{"identifier": "FSA1234", "type": "fsaNumber"}]}, "date": "2026-11-09",
  "reason": {"name": "Died in transit"}, "site": {"identifiers": [{"identifier": "LIP-0007", "type": "lipNumber"}]},
  "tseTestRequiredFlag": true, "createdDateTime": "2026-11-09T10:15:00.000Z", "updatedDateTime": "2026-11-09T10:15:00.000Z"},
 "registration": {"site": {"identifiers": [{"identifier": "01/100/0257"}]}, "date": "2026-11-10", "category": "registration"}
}`

// TestValidateRegistration checks requests of the registration interface
// against drover.yaml itself.
func TestValidateRegistration(t *testing.T) {
	t.Parallel()
	d := load(t)
	post := func(body string, header map[string]string) request {
		return request{method: "POST", target: "/v1/animals", ctype: "application/json", body: body, header: header}
	}
	edit := func(old, new string) string {
		if !strings.Contains(goodRegistration, old) {
			t.Fatalf("the good body has no %s", old)
		}
		return strings.Replace(goodRegistration, old, new, 1)
	}
	mode := func(name, value string) map[string]string { return map[string]string{name: value} }
	status := func(id string) request {
		return request{target: "/v1/requeststatus/" + id, template: "/v1/requeststatus/{requestId}", params: map[string]string{"requestId": id}}
	}
	animal := func(id string) request {
		return request{target: "/v1/animals/x", template: "/v1/animals/{identifier}", params: map[string]string{"identifier": id}}
	}
	var sixSites = "[" + strings.Repeat(`{"identifier":"x"},`, 5) + `{"identifier":"x"}]`
	const modeRule = "must be one of: sync, async (in any letter case)"
	tests := []struct {
		name string
		req  request
		want []fe
	}{
		{"good, sync", post(goodRegistration, mode("x-Request-Mode", "sync")), nil},
		{"good, no mode", post(goodRegistration, nil), nil},
		{"good, ASYNC", post(goodRegistration, mode("x-Request-Mode", "ASYNC")), nil},
		{"good, sYnC", post(goodRegistration, mode("x-request-mode", "sYnC")), nil},
		{"good, LI-Request-Mode Async", post(goodRegistration, mode("LI-Request-Mode", "Async")), nil},
		{"import that died", post(importRegistration, mode("x-Request-Mode", "async")), nil},
		{"x-Request-Mode later", post(goodRegistration, mode("x-Request-Mode", "later")),
			[]fe{{"S006", modeRule, "header:x-Request-Mode", "later"}}},
		{"LI-Request-Mode asynchronous", post(goodRegistration, mode("LI-Request-Mode", "asynchronous")),
			[]fe{{"S006", modeRule, "header:LI-Request-Mode", "asynchronous"}}},
		{"no animal identifier", post(edit(`"identifier": "UK123450600001", `, ""), nil),
			[]fe{{"S002", "is required", "/animal/identifier", ""}}},
		{"sex M", post(edit(`"sex": "female"`, `"sex": "M"`), nil),
			[]fe{{"S006", "must be one of: male, female", "/animal/sex", "M"}}},
		{"species Cattle", post(edit(`"species": "cattle"`, `"species": "Cattle"`), nil),
			[]fe{{"S006", "must be one of: bison, buffalo, cattle, deer, goats, sheep", "/animal/species", "Cattle"}}},
		{"unknown property", post(edit(`"breed": {"code": "HOL"},`, `"breed": {"code": "HOL"}, "colour": "red",`), nil),
			[]fe{{"S004", `property "colour" is not allowed`, "/colour", "red"}}},
		{"empty site identifier", post(edit(`{"identifier": "01/100/0257"}]`, `{"identifier": "", "type": "portNumber"}]`), nil),
			[]fe{{"S007", "must not be empty", "/registration/site/identifiers/0/identifier", ""}}},
		{"unknown property, deep", post(edit(`{"identifier": "01/100/0257"}]`, `{"identifier": "01/100/0257", "kind": "farm"}]`), nil),
			[]fe{{"S004", `property "kind" is not allowed`, "/registration/site/identifiers/0/kind", "farm"}}},
		{"site type farm", post(edit(`{"identifier": "01/100/0257"}]`, `{"identifier": "01/100/0257", "type": "farm"}]`), nil),
			[]fe{{"S006", "must be one of: holdingNumber, fsaNumber, portNumber, lipNumber", "/registration/site/identifiers/0/type", "farm"}}},
		{"identifier of 21", post(edit(`"UK123450600001"`, `"UK1234506000011234567"`), nil),
			[]fe{{"S007", "must be at most 20 characters long", "/animal/identifier", "UK1234506000011234567"}}},
		{"no site identifiers", post(edit(`{"identifiers": [{"identifier": "01/100/0257"}]}`, `{"identifiers": []}`), nil),
			[]fe{{"S007", "must have at least 1 items", "/registration/site/identifiers", "[]"}}},
		{"six site identifiers", post(edit(`[{"identifier": "01/100/0257"}]`, sixSites), nil),
			[]fe{{"S007", "must have at most 5 items", "/registration/site/identifiers", sixSites[:100] + "…"}}},
		{"birth year 1899, date not a date", post(edit(`"date": "2026-11-01", "year": 2026`, `"date": "2026-13-01", "year": 1899`), nil),
			[]fe{{"S008", "must be a date, YYYY-MM-DD", "/birth/date", "2026-13-01"}, {"S008", "must be at least 1900", "/birth/year", "1899"}}},
		{"no registration category", post(edit(`"date": "2026-11-10", "category": "birthRegistration"`, `"date": "2026-11-10"`), nil),
			[]fe{{"S002", "is required", "/registration/category", ""}}},
		// The live Animal: only animal and registration are required, a
		// death may be null or named by its reason's id, and the members
		// the register fills in may be sent back as read.
		{"death without a date (the decoder's to refuse)", post(strings.Replace(importRegistration, `"date": "2026-11-09",`, "", 1), nil), nil},
		{"live: no birth, death null", post(edit(`"birth": {"site": {"identifiers": [{"identifier": "01/100/0257", "type": "holdingNumber"}]}, "date": "2026-11-01", "year": 2026,
  "mark": "UK123450", "assistedBirthFlag": false, "multipleBirthsFlag": false, "embryoTransferFlag": false},`, `"death": null,`), nil), nil},
		{"live: birth year without date", post(edit(`"date": "2026-11-01", "year": 2026`, `"year": 2026`), nil), nil},
		{"live: read-only members", post(edit(`"productionType": "dairy"}`, `"productionType": "dairy", "genotype": "ARR/ARR", "originalIdentifier": null, "state": "registered"},
 "currentSite": {"type": {"type": "producer", "description": "Agricultural holding"}, "identifiers": [{"identifier": "01/100/0257", "type": "holdingNumber"}], "name": "Hill Farm"},
 "createdDateTime": "2026-11-10T09:00:00Z", "birthingHistory": null, "assurance": null`), nil), nil},
		{"live: parent as read", post(edit(`"birthDam": {"identifier": "UK123450700002"}`, `"birthDam": {"identifier": "UK123450700002", "species": "cattle", "name": "Daisy", "sex": "female"}`), nil), nil},
		{"live: death reason by id", post(strings.Replace(importRegistration, `"reason": {"name": "Died in transit"}`, `"reason": {"id": "0b6f3c1e-8d2a-4f57-9c1b-2e4d6a8f0c31"}`, 1), nil), nil},
		{"death reason id not a UUID", post(strings.Replace(importRegistration, `"reason": {"name": "Died in transit"}`, `"reason": {"id": "transit"}`, 1), nil),
			[]fe{{"S008", "must match the pattern ^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$", "/death/reason/id", "transit"}}},
		{"enveloped", post(`{"content": {}}`, nil),
			[]fe{
				{"S002", "is required", "/animal", ""},
				{"S004", `property "content" is not allowed`, "/content", "{}"},
				{"S002", "is required", "/registration", ""},
			}},
		{"not an object", post(`[1,2]`, nil), []fe{{"S003", "must be an object", "body", "[1,2]"}}},
		{"a string", post(`"UK123450600001"`, nil), []fe{{"S003", "must be an object", "body", "UK123450600001"}}},
		{"status", status("0b6f3c1e-8d2a-4f57-9c1b-2e4d6a8f0c31"), nil},
		// Not a UUID: the handler answers 404, as the live definition has no 400 here.
		{"status: not a UUID", status("42"), nil},
		{"animal", animal("UK0123456 00001"), nil},
		{"animal: too long", animal(strings.Repeat("9", 21)),
			[]fe{{"S007", "must be at most 20 characters long", "path:identifier", strings.Repeat("9", 21)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tt.want, tt.req.validate(d)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestEveryListedBreedFits: a breed code is sent back as the breed list
// gives it, so the document's bound on breed.code is the standing data's
// bound on any code, and every built-in breed passes it.
func TestEveryListedBreedFits(t *testing.T) {
	t.Parallel()
	d := load(t)
	if got := d.spec.Components.Schemas["Breed"].Value.Properties["code"].Value.MaxLength; got == nil || *got != standing.MaxCodeLength {
		t.Errorf("Breed.code maxLength = %v, want standing.MaxCodeLength (%d)", got, standing.MaxCodeLength)
	}
	lists, err := standing.Load("")
	if err != nil {
		t.Fatal(err)
	}
	for _, species := range []string{"cattle", "sheep", "goats"} {
		for _, b := range lists.Breeds(species) {
			body, _ := json.Marshal(b.Code)
			req := request{method: "POST", target: "/v1/animals", ctype: "application/json",
				body: strings.Replace(goodRegistration, `"code": "HOL"`, `"code": `+string(body), 1)}
			if errs := req.validate(d); len(errs) > 0 {
				t.Errorf("%s breed %q: %v", species, b.Code, errs)
			}
		}
	}
}
