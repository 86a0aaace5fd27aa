package openapi

import (
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/google/go-cmp/cmp"
)

// registrationOps is every operation of the animal registration interface,
// with its success statuses and schemas and the error statuses it documents
// beyond those every operation of the interface has (400, 401, 429, 500,
// 503: the live definition declares no 413 or 504, and Drover answers 400
// and 503 in their place).
var registrationOps = []struct {
	id, method, path string
	success          map[string]string // status → schema
	errors           []string
}{
	{"registerAnimal", "POST", "/v1/animals",
		map[string]string{"200": "RegistrationResult", "202": "RegistrationAccepted"}, nil},
	{"getRequestStatus", "GET", "/v1/requeststatus/{requestId}",
		map[string]string{"200": "RegistrationRequestStatus"}, []string{"404"}},
	{"getAnimal", "GET", "/v1/animals/{identifier}",
		map[string]string{"200": "Animal"}, []string{"403", "404"}},
	{"getAnimalBreeds", "GET", "/v1/breeds", map[string]string{"200": "BreedList"}, nil},
	{"getAnimalDeathReasons", "GET", "/v1/deathreasons", map[string]string{"200": "DeathReasonList"}, nil},
	{"getAnimalGenotypes", "GET", "/v1/genotypes", map[string]string{"200": "GenotypeList"}, nil},
	{"getMovementRejectionReasons", "GET", "/v1/rejectionreasons", map[string]string{"200": "RejectionReasonList"}, nil},
	{"getHauliers", "GET", "/v1/hauliers", map[string]string{"200": "HaulierList"}, nil},
}

// TestRegistrationOperations: each operation of the registration interface
// has its operationId, the Registration tag, its success responses and
// exactly the error responses that apply to it.
func TestRegistrationOperations(t *testing.T) {
	t.Parallel()
	d := load(t)
	for _, m := range registrationOps {
		t.Run(m.id, func(t *testing.T) {
			item := d.spec.Paths.Find(m.path)
			if item == nil || item.GetOperation(m.method) == nil {
				t.Fatalf("no operation %s %s", m.method, m.path)
			}
			op := item.GetOperation(m.method)
			if op.OperationID != m.id {
				t.Errorf("operationId %q, want %q", op.OperationID, m.id)
			}
			if !slices.Equal(op.Tags, []string{"Registration"}) {
				t.Errorf("tags %v, want [Registration]", op.Tags)
			}
			if op.Description == "" {
				t.Error("no description")
			}
			want := append([]string{"400", "401", "429", "500", "503"}, m.errors...)
			for status, schema := range m.success {
				want = append(want, status)
				r := op.Responses.Value(status)
				if r == nil || r.Value.Content.Get("application/json") == nil {
					t.Errorf("no application/json %s response", status)
					continue
				}
				if ref := r.Value.Content.Get("application/json").Schema.Ref; ref != "#/components/schemas/"+schema {
					t.Errorf("%s response schema %q, want %s", status, ref, schema)
				}
				if r.Value.Headers["LI-Correlation-Id"] == nil {
					t.Errorf("%s response has no LI-Correlation-Id header", status)
				}
			}
			slices.Sort(want)
			if diff := cmp.Diff(want, slices.Sorted(maps.Keys(op.Responses.Map()))); diff != "" {
				t.Errorf("responses (-want +got):\n%s", diff)
			}
			if (m.method == "POST") != (op.RequestBody != nil) {
				t.Errorf("request body %v for %s", op.RequestBody != nil, m.method)
			}
		})
	}
}

// TestRegistrationQueuedHeaders: the 202 names the request and the wait
// both as the interface document does and as the live service does, on
// every answer; Idempotent-Replayed only on a replay, so it is optional.
func TestRegistrationQueuedHeaders(t *testing.T) {
	t.Parallel()
	d := load(t)
	r := d.spec.Paths.Find("/v1/animals").Post.Responses.Value("202").Value
	want := []string{"Idempotent-Replayed", "LI-Correlation-Id", "LI-Request-Id", "Location", "Retry-After", "X-Correlation-ID", "X-Request-ID", "X-Retry-After"}
	if diff := cmp.Diff(want, slices.Sorted(maps.Keys(r.Headers))); diff != "" {
		t.Errorf("202 headers (-want +got):\n%s", diff)
	}
	for name, h := range r.Headers {
		if h.Value.Required != (name != "Idempotent-Replayed") {
			t.Errorf("202 header %s required = %v", name, h.Value.Required)
		}
	}
	for _, name := range []string{"X-Request-ID", "LI-Request-Id"} {
		if ref := r.Headers[name].Value.Schema.Ref; ref != "#/components/schemas/UUID" {
			t.Errorf("%s schema %q, want UUID", name, ref)
		}
	}
}

// TestRegistrationParameters: the mode headers and path parameters are
// shared components.
func TestRegistrationParameters(t *testing.T) {
	t.Parallel()
	d := load(t)
	refs := func(path, method string) []string {
		item := d.spec.Paths.Find(path)
		var out []string
		for _, p := range append(item.Parameters, item.GetOperation(method).Parameters...) {
			out = append(out, strings.TrimPrefix(p.Ref, "#/components/parameters/"))
		}
		return out
	}
	want := map[string][]string{
		"registerAnimal":   {"XCorrelationID", "LICorrelationID", "RequestMode", "LIRequestMode"},
		"getRequestStatus": {"XCorrelationID", "LICorrelationID", "RegistrationRequestID"},
		"getAnimal":        {"XCorrelationID", "LICorrelationID", "AnimalIdentifierInPath"},
		// The reference lists' own parameters are written in place.
		"getAnimalBreeds":             {"XCorrelationID", "LICorrelationID", "ReferenceSpecies"},
		"getAnimalDeathReasons":       {"XCorrelationID", "LICorrelationID", "ReferenceSpecies"},
		"getAnimalGenotypes":          {"XCorrelationID", "LICorrelationID", "ReferenceSpecies"},
		"getMovementRejectionReasons": {"XCorrelationID", "LICorrelationID", "ReferenceSpecies", ""},
		"getHauliers":                 {"XCorrelationID", "LICorrelationID", "", "", "", "", "", ""},
	}
	for _, m := range registrationOps {
		if diff := cmp.Diff(want[m.id], refs(m.path, m.method)); diff != "" {
			t.Errorf("%s parameters (-want +got):\n%s", m.id, diff)
		}
	}
	params := d.spec.Components.Parameters
	for name, header := range map[string]string{"RequestMode": "x-Request-Mode", "LIRequestMode": "LI-Request-Mode"} {
		p := params[name].Value
		if p.Name != header || p.In != "header" || p.Required {
			t.Errorf("%s is %s in %s (required %v), want optional header %s", name, p.Name, p.In, p.Required, header)
		}
	}
}

// TestRegistrationWireNames pins the JSON names of every registration
// request and answer: they are the live service's and the interface
// document's, spelling included (requestid, OriginalIdentifier).
func TestRegistrationWireNames(t *testing.T) {
	t.Parallel()
	schemas := load(t).spec.Components.Schemas
	want := map[string][]string{
		"AnimalRegistration": {"OriginalIdentifier", "animal", "assurance", "birth", "birthingHistory", "breed", "createdDateTime",
			"currentSite", "death", "homeSite", "importParents", "registration", "updatedDateTime"},
		"RegistrationAnimal":   {"genotype", "identifier", "name", "originalIdentifier", "productionType", "sex", "species", "state"},
		"RegistrationBirth":    {"assistedBirthFlag", "date", "embryoTransferFlag", "mark", "multipleBirthFlag", "multipleBirthsFlag", "site", "year"},
		"RegistrationDeath":    {"carcassCollectionSite", "createdDateTime", "date", "reason", "receivedDate", "site", "tseTestRequiredFlag", "updatedDateTime"},
		"DeathReason":          {"id", "name"},
		"RegistrationDetails":  {"birthDam", "category", "date", "geneticDam", "identificationDate", "sire", "site"},
		"ImportParents":        {"birthDam", "geneticDam", "sire"},
		"AnimalReference":      {"identifier", "name", "sex", "species"},
		"Breed":                {"code", "crossBreed", "name"},
		"Site":                 {"identifiers", "name", "type"},
		"SiteIdentifier":       {"identifier", "type"},
		"SiteActivity":         {"description", "type"},
		"RegistrationResult":   {"identifier", "links", "warnings"},
		"AnimalLinks":          {"self"},
		"RegistrationFailure":  {"errors"},
		"RegistrationAccepted": {"id", "requestDate", "requestStatus", "requestStatusUrl", "requestid"},
		"RegistrationRequestStatus": {"detail", "errors", "identifier", "links", "requestDate", "requestId", "result", "status",
			"title", "updatedDate", "warnings"},
		"RegistrationProblem":      {"detail", "errors", "instance", "status", "title", "type"},
		"RegistrationProblemError": {"code", "detail", "message", "source", "value"},
		"Animal": {"OriginalIdentifier", "animal", "birth", "breed", "createdDateTime", "currentSite", "death", "holding", "identifier",
			"importParents", "movementRestricted", "name", "onSince", "productionType", "receivedDate", "registeredBy",
			"registration", "restrictionReason", "sex", "species", "state"},
		"AnimalSummary":            {"genotype", "identifier", "name", "originalIdentifier", "productionType", "sex", "species", "state"},
		"AnimalSite":               {"identifiers", "type"},
		"AnimalBirth":              {"assistedBirthFlag", "date", "embryoTransferFlag", "mark", "multipleBirthsFlag", "site", "year"},
		"AnimalRegistrationRecord": {"birthDam", "category", "date", "geneticDam", "identificationDate", "sire", "site"},
		"AnimalDeath":              {"carcassCollectionSite", "createdDateTime", "date", "reason", "site", "tseTestRequiredFlag", "updatedDateTime"},
	}
	for name, props := range want {
		s := schemas[name]
		if s == nil {
			t.Errorf("no schema %s", name)
			continue
		}
		if diff := cmp.Diff(props, slices.Sorted(maps.Keys(s.Value.Properties))); diff != "" {
			t.Errorf("%s properties (-want +got):\n%s", name, diff)
		}
	}
}

// TestRegistrationBodyClosed: every object of the registration body, at
// every depth, refuses properties it does not list.
func TestRegistrationBodyClosed(t *testing.T) {
	t.Parallel()
	seen := map[*openapi3.Schema]bool{}
	var walk func(at string, s *openapi3.Schema)
	walk = func(at string, s *openapi3.Schema) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		if s.Type.Is("object") {
			if ap := s.AdditionalProperties.Has; ap == nil || *ap {
				t.Errorf("%s does not refuse unknown properties", at)
			}
		}
		for name, p := range s.Properties {
			walk(at+"/"+name, p.Value)
		}
		if s.Items != nil {
			walk(at+"/0", s.Items.Value)
		}
		for _, x := range slices.Concat(s.AllOf, s.AnyOf, s.OneOf) {
			walk(at, x.Value)
		}
	}
	walk("AnimalRegistration", load(t).spec.Components.Schemas["AnimalRegistration"].Value)
	if len(seen) < 15 {
		t.Errorf("walked %d schemas; the body has more", len(seen))
	}
}

// TestIgnoreCaseEnums: a schema's x-enumIgnoreCase and its pattern say the
// same thing: every spelling of each value, in any letter case, matches,
// and nothing else does.
func TestIgnoreCaseEnums(t *testing.T) {
	t.Parallel()
	found := 0
	for name, s := range load(t).spec.Components.Schemas {
		values, ok := s.Value.Extensions["x-enumIgnoreCase"].([]any)
		if !ok {
			continue
		}
		found++
		re, err := regexp.Compile(s.Value.Pattern)
		if err != nil {
			t.Errorf("%s: pattern: %v", name, err)
			continue
		}
		for _, v := range values {
			word := v.(string)
			for _, spelling := range caseVariants(word) {
				if !re.MatchString(spelling) {
					t.Errorf("%s: %q does not match %s", name, spelling, s.Value.Pattern)
				}
			}
			for _, near := range []string{word + "x", "x" + word, word[:len(word)-1], " " + word, word + "\n"} {
				if re.MatchString(near) {
					t.Errorf("%s: %q matches %s", name, near, s.Value.Pattern)
				}
			}
		}
		if re.MatchString("") {
			t.Errorf("%s: the empty string matches %s", name, s.Value.Pattern)
		}
	}
	if found == 0 {
		t.Error("no schema has x-enumIgnoreCase; RequestMode should")
	}
}

// caseVariants is every spelling of an ASCII word in upper and lower case.
func caseVariants(word string) []string {
	out := []string{""}
	for _, r := range word {
		var next []string
		for _, prefix := range out {
			lower, upper := strings.ToLower(string(r)), strings.ToUpper(string(r))
			next = append(next, prefix+lower)
			if upper != lower {
				next = append(next, prefix+upper)
			}
		}
		out = next
	}
	return out
}
