package openapi

import (
	"net/http/httptest"
	"strings"
	"testing"
)

// TestNo2020Keywords holds the document to what the request validator
// checks: Load refuses a schema with a JSON Schema 2020-12 keyword.
func TestNo2020Keywords(t *testing.T) {
	t.Parallel()
	d := load(t)
	if k := jsonSchema2020Keyword(d.spec); k != "" {
		t.Fatalf("the document uses %s", k)
	}
	bad := strings.Replace(string(droverYAML), "    Species:\n", "    Species:\n      const: Sheep\n", 1)
	if bad == string(droverYAML) {
		t.Fatal("the test's edit did not apply: is components.schemas.Species still there?")
	}
	if _, err := LoadFrom([]byte(bad)); err == nil || !strings.Contains(err.Error(), "const") {
		t.Errorf("a document using const loaded: %v", err)
	}
}

// BenchmarkValidateTransfer measures the check of one transfer request.
func BenchmarkValidateTransfer(b *testing.B) {
	d, err := Load()
	if err != nil {
		b.Fatal(err)
	}
	body := `{"content":{"transferDate":"2026-11-20","species":"Sheep","userHolding":"01/100/0257","sourceHolding":"01/100/0257",
		"destinationHolding":"01/100/0264","animalCount":1,"movementGroups":[{"devices":[{"tagNumber":"UK0130181 00001"}]}]}}`
	for b.Loop() {
		r := httptest.NewRequest("POST", "/v1/TransferRequests", strings.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		if errs := d.ValidateRequest(r, "/v1/TransferRequests", nil); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}
