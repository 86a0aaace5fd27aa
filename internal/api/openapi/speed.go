package openapi

import (
	"github.com/getkin/kin-openapi/openapi3"
)

// validationSpec is the document as the request validator sees it: the
// same paths and components, announced as OpenAPI 3.0.
//
// Why: for a 3.1 document kin-openapi compiles a JSON Schema 2020-12
// validator for every value it checks, on every request, and for schemas
// that reach their parts through $ref and use no 2020-only keyword it then
// throws that validator away and checks the value with its own schema
// visitor anyway. Measured under load, the compile was over half of the
// server's CPU. The visitor reads 3.1's type arrays (type: [string,
// "null"]) as 3.1 means them; what it does not check are the 2020-only
// keywords, and Load refuses a document that uses one (see
// jsonSchema2020Keyword), so validation is the same, without the compile.
func validationSpec(spec *openapi3.T) *openapi3.T {
	v := *spec
	v.OpenAPI = "3.0.3"
	return &v
}

// jsonSchema2020Keyword names a JSON Schema 2020-12 keyword used by a
// schema of the document, or returns "" when there is none.
func jsonSchema2020Keyword(spec *openapi3.T) string {
	seen := map[*openapi3.Schema]bool{}
	var walk func(s *openapi3.SchemaRef) string
	walk = func(ref *openapi3.SchemaRef) string {
		if ref == nil || ref.Value == nil || seen[ref.Value] {
			return ""
		}
		s := ref.Value
		seen[s] = true
		switch {
		case s.Const != nil:
			return "const"
		case len(s.PrefixItems) > 0:
			return "prefixItems"
		case s.Contains != nil:
			return "contains"
		case len(s.PatternProperties) > 0:
			return "patternProperties"
		case len(s.DependentSchemas) > 0:
			return "dependentSchemas"
		case s.PropertyNames != nil:
			return "propertyNames"
		case s.If != nil || s.Then != nil || s.Else != nil:
			return "if/then/else"
		}
		kids := []*openapi3.SchemaRef{s.Items, s.Not}
		kids = append(append(append(kids, s.AllOf...), s.AnyOf...), s.OneOf...)
		for _, p := range s.Properties {
			kids = append(kids, p)
		}
		if s.AdditionalProperties.Schema != nil {
			kids = append(kids, s.AdditionalProperties.Schema)
		}
		for _, k := range kids {
			if found := walk(k); found != "" {
				return found
			}
		}
		return ""
	}
	for _, s := range spec.Components.Schemas {
		if k := walk(s); k != "" {
			return k
		}
	}
	for _, item := range spec.Paths.Map() {
		for _, op := range item.Operations() {
			for _, p := range op.Parameters {
				if p.Value != nil {
					if k := walk(p.Value.Schema); k != "" {
						return k
					}
				}
			}
			if op.RequestBody != nil && op.RequestBody.Value != nil {
				for _, mt := range op.RequestBody.Value.Content {
					if k := walk(mt.Schema); k != "" {
						return k
					}
				}
			}
		}
	}
	return ""
}
