package api_test

import (
	"encoding/json"
	"sort"
	"strings"
)

// prepareForOapiCodegen rewrites a live definition, decoded as generic
// JSON, so that oapi-codegen v2.8.2 can generate from it, changing no wire
// shape. The movements definition needs nothing; the registration one hits
// two limits of the generator:
//
//   - an allOf whose members but one carry only annotations (example,
//     description, readOnly, nullable, …), as in `allOf: [{$ref: uuid},
//     {example: …}]`, which it refuses to merge ("incompatible formats",
//     "different ReadOnly"): the annotations move to the schema holding the
//     allOf, which keeps the one member;
//   - two component schemas whose names differ only in their first letter's
//     case (Animal and animal), which give one Go type name: the later one,
//     in sorted order, is renamed with the suffix Part, references included.
func prepareForOapiCodegen(def map[string]any) map[string]any {
	liftAnnotations(def)
	schemas, _ := def["components"].(map[string]any)["schemas"].(map[string]any)
	renamed := map[string]string{}
	names := make([]string, 0, len(schemas))
	for n := range schemas {
		names = append(names, n)
	}
	sort.Strings(names)
	goNames := map[string]bool{}
	for _, n := range names {
		goName := strings.ToUpper(n[:1]) + n[1:]
		if goNames[goName] {
			renamed["#/components/schemas/"+n] = "#/components/schemas/" + n + "Part"
			schemas[n+"Part"] = schemas[n]
			delete(schemas, n)
		}
		goNames[goName] = true
	}
	renameRefs(def, renamed)
	return def
}

var annotations = map[string]bool{"example": true, "description": true, "readOnly": true, "writeOnly": true,
	"nullable": true, "deprecated": true, "title": true}

func liftAnnotations(v any) {
	switch v := v.(type) {
	case map[string]any:
		if all, ok := v["allOf"].([]any); ok {
			var keep, notes []map[string]any
			for _, m := range all {
				if m, ok := m.(map[string]any); ok && onlyAnnotations(m) {
					notes = append(notes, m)
				} else if ok {
					keep = append(keep, m)
				}
			}
			if len(keep) == 1 && len(notes) > 0 && len(keep)+len(notes) == len(all) {
				v["allOf"] = []any{keep[0]}
				for _, n := range notes {
					for k, a := range n {
						if _, set := v[k]; !set {
							v[k] = a
						}
					}
				}
			}
		}
		for _, c := range v {
			liftAnnotations(c)
		}
	case []any:
		for _, c := range v {
			liftAnnotations(c)
		}
	}
}

func onlyAnnotations(m map[string]any) bool {
	for k := range m {
		if !annotations[k] {
			return false
		}
	}
	return true
}

func renameRefs(v any, renamed map[string]string) {
	switch v := v.(type) {
	case map[string]any:
		if ref, ok := v["$ref"].(string); ok && renamed[ref] != "" {
			v["$ref"] = renamed[ref]
		}
		for _, c := range v {
			renameRefs(c, renamed)
		}
	case []any:
		for _, c := range v {
			renameRefs(c, renamed)
		}
	}
}

// decodeDefinition decodes a definition's strict JSON keeping its numbers
// as written.
func decodeDefinition(data []byte) (map[string]any, error) {
	d := json.NewDecoder(strings.NewReader(string(data)))
	d.UseNumber()
	var def map[string]any
	return def, d.Decode(&def)
}
