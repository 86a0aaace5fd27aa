package openapi

import (
	"encoding/xml"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// Every movements answer names its OData context, such as
// /v1/$metadata#TransferRequests/$entity. Metadata is the document that URL
// names: the service's entity model in OData's CSDL (XML), written from
// this OpenAPI document's schemas so that the two cannot disagree. An
// object schema becomes an entity type (the entity sets' items, keyed by
// requestId) or a complex type; strings, integers, booleans and their
// formats become Edm primitives; a member that can be one of several
// schemas (a request's content) is Edm.Untyped.

// MetadataNamespace is the namespace of the types in Metadata.
const MetadataNamespace = "Drover"

// metadataKey is the key of every entity type.
const metadataKey = "requestId"

// Metadata is the CSDL document of the entity sets in sets (entity set
// name → the schema of its items, such as "TransferRequests" →
// "MovementRequest"), each keyed by requestId, with no functions.
func (d *Doc) Metadata(sets map[string]string) ([]byte, error) {
	var m Model
	for _, set := range slices.Sorted(maps.Keys(sets)) {
		m.Sets = append(m.Sets, EntitySet{Name: set, Type: sets[set]})
	}
	return d.MetadataOf(m)
}

// MetadataOf is the CSDL document of model m.
func (d *Doc) MetadataOf(model Model) ([]byte, error) {
	m := csdlWriter{spec: d.spec, complex: map[string]*csdlType{}}
	schema := csdlSchema{Xmlns: "http://docs.oasis-open.org/odata/ns/edm", Namespace: MetadataNamespace}
	container := csdlContainer{Name: "Container"}
	entities := map[string]*csdlType{}
	sets := slices.Clone(model.Sets)
	slices.SortFunc(sets, func(a, b EntitySet) int { return strings.Compare(a.Name, b.Name) })
	for _, set := range sets {
		if t := entities[set.Type]; t != nil {
			container.Sets = append(container.Sets, set.csdl(t))
			continue
		}
		ref := d.spec.Components.Schemas[set.Type]
		if ref == nil || ref.Value == nil {
			return nil, fmt.Errorf("openapi: metadata: no schema %q for entity set %s", set.Type, set.Name)
		}
		t, err := m.object(set.Type, ref.Value)
		if err != nil {
			return nil, err
		}
		key := set.Key
		if len(key) == 0 {
			key = []string{metadataKey}
		}
		t.Key = &csdlKey{}
		for _, k := range key {
			if !slices.ContainsFunc(t.Properties, func(p csdlProperty) bool { return p.Name == k && p.Nullable == "false" }) {
				return nil, fmt.Errorf("openapi: metadata: %s has no required, non-null %s to be its key", set.Type, k)
			}
			t.Key.Refs = append(t.Key.Refs, csdlRef{Name: k})
		}
		entities[set.Type] = t
		schema.Entities = append(schema.Entities, *t)
		container.Sets = append(container.Sets, set.csdl(t))
	}
	for _, f := range model.Functions {
		if entities[f.Binding] == nil {
			return nil, fmt.Errorf("openapi: metadata: function %s is bound to %s, which no entity set has", f.Name, f.Binding)
		}
		collection := "Collection(" + MetadataNamespace + "." + f.Binding + ")"
		fn := csdlFunction{Name: f.Name, IsBound: "true", Return: csdlReturn{Type: collection}}
		fn.Params = append(fn.Params, csdlParam{Name: "bindingParameter", Type: collection, Nullable: "false"})
		for _, p := range f.Params {
			param := csdlParam{Name: p.Name, Type: p.Type}
			if !p.Nullable {
				param.Nullable = "false"
			}
			fn.Params = append(fn.Params, param)
		}
		schema.Functions = append(schema.Functions, fn)
	}
	for _, name := range slices.Sorted(maps.Keys(m.complex)) {
		schema.Complex = append(schema.Complex, *m.complex[name])
	}
	schema.Container = container
	doc := csdlDoc{Version: "4.01", Xmlns: "http://docs.oasis-open.org/odata/ns/edmx",
		Refs:     []csdlReference{{URI: capabilitiesURI, Include: csdlInclude{Namespace: capabilities, Alias: "Capabilities"}}},
		Services: csdlServices{Schemas: []csdlSchema{schema}}}
	b, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, err
	}
	return append([]byte(xml.Header), append(b, '\n')...), nil
}

// csdlWriter turns schemas into CSDL types, collecting the complex ones.
type csdlWriter struct {
	spec    *openapi3.T
	complex map[string]*csdlType
}

// object is the type of an object schema: its properties, in name order;
// members whose names begin with @ are OData's annotations, not
// properties.
func (m *csdlWriter) object(name string, s *openapi3.Schema) (*csdlType, error) {
	t := &csdlType{Name: name}
	for _, p := range slices.Sorted(maps.Keys(s.Properties)) {
		if strings.HasPrefix(p, "@") {
			continue
		}
		typ, nullable, err := m.typeOf(name+"."+p, s.Properties[p])
		if err != nil {
			return nil, err
		}
		prop := csdlProperty{Name: p, Type: typ}
		// On a collection, Nullable is said of its items: a collection
		// itself is never null (a nullable array is Edm.Untyped).
		if !nullable && (strings.HasPrefix(typ, "Collection(") || slices.Contains(s.Required, p)) {
			prop.Nullable = "false"
		}
		t.Properties = append(t.Properties, prop)
	}
	return t, nil
}

// typeOf is the CSDL type of a member's schema, and whether it may be
// null; for a collection, whether its items may be.
func (m *csdlWriter) typeOf(at string, ref *openapi3.SchemaRef) (string, bool, error) {
	if ref == nil || ref.Value == nil {
		return "", false, fmt.Errorf("openapi: metadata: %s has no schema", at)
	}
	s := ref.Value
	if name, ok := strings.CutPrefix(ref.Ref, "#/components/schemas/"); ok && s.Type.Is(openapi3.TypeObject) {
		if m.complex[name] == nil {
			m.complex[name] = &csdlType{Name: name} // before its members, which may refer back
			t, err := m.object(name, s)
			if err != nil {
				return "", false, err
			}
			m.complex[name] = t
		}
		return MetadataNamespace + "." + name, false, nil
	}
	// allOf with one schema (a $ref given its own description), oneOf or
	// anyOf of one schema and null.
	var alts []*openapi3.SchemaRef
	nullable := s.Type.Includes(openapi3.TypeNull)
	for _, list := range []openapi3.SchemaRefs{s.AllOf, s.OneOf, s.AnyOf} {
		for _, a := range list {
			if a.Value != nil && a.Value.Type.Is(openapi3.TypeNull) {
				nullable = true
				continue
			}
			alts = append(alts, a)
		}
	}
	switch {
	case len(alts) == 1:
		typ, n, err := m.typeOf(at, alts[0])
		return typ, nullable || n, err
	case len(alts) > 1:
		return "Edm.Untyped", nullable, nil
	}
	switch {
	case s.Type.Includes(openapi3.TypeObject) && len(s.Properties) == 0:
		// An object of no declared members (a request's content, whose
		// model is its collection's) can hold anything.
		return "Edm.Untyped", nullable, nil
	case s.Type.Includes(openapi3.TypeArray):
		if nullable { // CSDL has no null collection
			return "Edm.Untyped", true, nil
		}
		item, itemNullable, err := m.typeOf(at+"[]", s.Items)
		return "Collection(" + item + ")", itemNullable, err
	case s.Type.Includes(openapi3.TypeString):
		switch s.Format {
		case "date-time":
			return "Edm.DateTimeOffset", nullable, nil
		case "date":
			return "Edm.Date", nullable, nil
		}
		return "Edm.String", nullable, nil
	case s.Type.Includes(openapi3.TypeInteger):
		if s.Format == "int64" {
			return "Edm.Int64", nullable, nil
		}
		return "Edm.Int32", nullable, nil
	case s.Type.Includes(openapi3.TypeNumber):
		return "Edm.Decimal", nullable, nil
	case s.Type.Includes(openapi3.TypeBoolean):
		return "Edm.Boolean", nullable, nil
	}
	return "", false, fmt.Errorf("openapi: metadata: %s: no Edm type for its schema", at)
}

// The CSDL XML elements written (OData 4.01, part 3).
type (
	csdlDoc struct {
		XMLName  xml.Name        `xml:"edmx:Edmx"`
		Xmlns    string          `xml:"xmlns:edmx,attr"`
		Version  string          `xml:"Version,attr"`
		Refs     []csdlReference `xml:"edmx:Reference"`
		Services csdlServices    `xml:"edmx:DataServices"`
	}
	csdlServices struct {
		Schemas []csdlSchema `xml:"Schema"`
	}
	csdlSchema struct {
		Xmlns     string         `xml:"xmlns,attr"`
		Namespace string         `xml:"Namespace,attr"`
		Entities  []csdlType     `xml:"EntityType"`
		Complex   []csdlType     `xml:"ComplexType"`
		Functions []csdlFunction `xml:"Function"`
		Container csdlContainer  `xml:"EntityContainer"`
	}
	csdlType struct {
		Name       string         `xml:"Name,attr"`
		Key        *csdlKey       `xml:"Key,omitempty"`
		Properties []csdlProperty `xml:"Property"`
	}
	csdlKey struct {
		Refs []csdlRef `xml:"PropertyRef"`
	}
	csdlRef struct {
		Name string `xml:"Name,attr"`
	}
	csdlProperty struct {
		Name     string `xml:"Name,attr"`
		Type     string `xml:"Type,attr"`
		Nullable string `xml:"Nullable,attr,omitempty"`
	}
	csdlContainer struct {
		Name string    `xml:"Name,attr"`
		Sets []csdlSet `xml:"EntitySet"`
	}
	csdlSet struct {
		Name        string           `xml:"Name,attr"`
		Type        string           `xml:"EntityType,attr"`
		Annotations []csdlAnnotation `xml:"Annotation"`
	}
)
