package openapi

import (
	"encoding/xml"
	"strings"
	"testing"
)

// csdlRead is the part of a CSDL document the tests read back.
type csdlRead struct {
	Schemas []struct {
		Namespace string `xml:"Namespace,attr"`
		Types     []struct {
			XMLName xml.Name
			Name    string `xml:"Name,attr"`
			Key     []struct {
				Name string `xml:"Name,attr"`
			} `xml:"Key>PropertyRef"`
			Properties []struct {
				Name     string `xml:"Name,attr"`
				Type     string `xml:"Type,attr"`
				Nullable string `xml:"Nullable,attr"`
			} `xml:"Property"`
		} `xml:",any"`
		Sets []struct {
			Name string `xml:"Name,attr"`
			Type string `xml:"EntityType,attr"`
		} `xml:"EntityContainer>EntitySet"`
	} `xml:"DataServices>Schema"`
}

func TestMetadata(t *testing.T) {
	t.Parallel()
	d, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	b, err := d.Metadata(map[string]string{"TransferRequests": "MovementRequest", "UndoRequests": "MovementRequest",
		"HoldingMovementForReviews": "MovementForReview"})
	if err != nil {
		t.Fatal(err)
	}
	var doc csdlRead
	if err := xml.Unmarshal(b, &doc); err != nil || len(doc.Schemas) != 1 {
		t.Fatalf("not a CSDL document with one schema (%v):\n%s", err, b)
	}
	s := doc.Schemas[0]
	sets := map[string]string{}
	for _, set := range s.Sets {
		sets[set.Name] = set.Type
	}
	if sets["TransferRequests"] != "Drover.MovementRequest" || sets["UndoRequests"] != "Drover.MovementRequest" ||
		sets["HoldingMovementForReviews"] != "Drover.MovementForReview" || len(sets) != 3 {
		t.Errorf("entity sets %v", sets)
	}
	types := map[string]map[string]string{} // type → property → Type, with "?" when nullable
	kinds := map[string]string{}
	for _, typ := range s.Types {
		kinds[typ.Name] = typ.XMLName.Local
		props := map[string]string{}
		for _, p := range typ.Properties {
			props[p.Name] = p.Type
			if p.Nullable != "false" {
				props[p.Name] += "?"
			}
		}
		types[typ.Name] = props
		if typ.XMLName.Local == "EntityType" && (len(typ.Key) != 1 || typ.Key[0].Name != "requestId") {
			t.Errorf("%s is keyed by %v, want requestId", typ.Name, typ.Key)
		}
	}
	if kinds["MovementRequest"] != "EntityType" || kinds["MovementForReview"] != "EntityType" || kinds["SingleError"] != "ComplexType" {
		t.Errorf("kinds %v", kinds)
	}
	// Every member the document gives a request, but its annotations.
	for name := range d.spec.Components.Schemas["MovementRequest"].Value.Properties {
		if _, ok := types["MovementRequest"][name]; !ok && !strings.HasPrefix(name, "@") {
			t.Errorf("MovementRequest lacks %s", name)
		}
	}
	for prop, want := range map[string]string{
		"requestId": "Edm.Int64", "requestDate": "Edm.DateTimeOffset", "movementDate": "Edm.DateTimeOffset?",
		"species": "Edm.String?", "isFullUndone": "Edm.Boolean", "errors": "Collection(Drover.SingleError)",
		"warnings": "Collection(Drover.SingleError)", "content": "Edm.Untyped?", "trackingId": "Edm.String?",
	} {
		if got := types["MovementRequest"][prop]; got != want {
			t.Errorf("MovementRequest.%s is %q, want %q", prop, got, want)
		}
	}
	// As for an approved movement, only the key is required: $select may
	// leave any other member out.
	for prop, want := range map[string]string{"requestId": "Edm.Int64", "movementDate": "Edm.DateTimeOffset?", "isAccepted": "Edm.Boolean?",
		"duplicateRequestIds": "Collection(Edm.Int64)", "reviewBatches": "Collection(Drover.ReviewBatch)"} {
		if got := types["MovementForReview"][prop]; got != want {
			t.Errorf("MovementForReview.%s is %q, want %s", prop, got, want)
		}
	}
	if _, ok := types["MovementRequest"]["@odata.context"]; ok {
		t.Error("an annotation became a property")
	}

	for _, bad := range []map[string]string{{"Things": "NoSuchSchema"}, {"Documents": "MovementDocument"}} {
		if _, err := d.Metadata(bad); err == nil {
			t.Errorf("Metadata(%v) = nil error; want a refusal (no schema, or no requestId to key it)", bad)
		}
	}
}

// On a collection CSDL's Nullable is said of the items, whether or not the
// member is required.
func TestMetadataCollectionsNullItems(t *testing.T) {
	t.Parallel()
	d, err := LoadFrom([]byte(`openapi: 3.1.0
info: {title: t, version: '1'}
paths: {}
components:
  schemas:
    Thing:
      type: object
      required: [requestId, names, maybeNames]
      properties:
        requestId: {type: integer, format: int64}
        names: {type: array, items: {type: string}}
        maybeNames: {type: array, items: {type: [string, 'null']}}
        optionalNames: {type: array, items: {type: string}}
        nullableNames: {type: [array, 'null'], items: {type: string}}
`))
	if err != nil {
		t.Fatal(err)
	}
	b, err := d.Metadata(map[string]string{"Things": "Thing"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<Property Name="names" Type="Collection(Edm.String)" Nullable="false">`,
		`<Property Name="maybeNames" Type="Collection(Edm.String)">`,
		`<Property Name="optionalNames" Type="Collection(Edm.String)" Nullable="false">`,
		`<Property Name="nullableNames" Type="Edm.Untyped">`,
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("metadata lacks %s:\n%s", want, b)
		}
	}
}
