// Package openapi owns Drover's contract: the OpenAPI 3.1 document that
// describes every endpoint (drover.yaml, embedded), served as JSON at
// /openapi.json and rendered by the bundled Swagger UI at /docs, and the
// request validator that checks a request against it and reports every
// broken rule as a livestock.FieldError with a stable code.
//
// The document is the source of truth for request shapes: handlers decode
// bodies that have already passed ValidateRequest, so they check only what
// a schema cannot say (a CPH's county exists, a user keeps a holding).
// Tests hold the document and the code together: the router's routes and
// the document's operations are the same set, and the error code enum is
// exactly livestock.Codes.
package openapi

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers"
)

//go:embed drover.yaml
var droverYAML []byte

// Doc is a loaded, validated OpenAPI 3.1 document. It is safe for
// concurrent use.
type Doc struct {
	spec   *openapi3.T
	json   []byte
	ops    []Operation
	routes map[Operation]*routers.Route
	// matchers find the path template of a request path, most specific
	// first, for ValidateResponse.
	matchers []pathMatcher
}

// Operation names one documented operation: an HTTP method and a path
// template written as in the document (and as in the chi router), such as
// "/v1/StandingData/{list}".
type Operation struct {
	Method string
	Path   string
}

// Load parses and validates the embedded document.
func Load() (*Doc, error) {
	return LoadFrom(droverYAML)
}

// LoadFrom parses and validates an OpenAPI 3.1 document in YAML or JSON.
// References must be internal to the document.
func LoadFrom(data []byte) (*Doc, error) {
	loader := openapi3.NewLoader()
	loader.IsExternalRefsAllowed = false
	loader.Context = context.Background()
	spec, err := loader.LoadFromData(data)
	if err != nil {
		return nil, fmt.Errorf("openapi: parse: %w", err)
	}
	if !spec.IsOpenAPI31OrLater() {
		return nil, fmt.Errorf("openapi: the document is OpenAPI %q; want 3.1", spec.OpenAPI)
	}
	if err := spec.Validate(loader.Context); err != nil {
		return nil, fmt.Errorf("openapi: invalid document: %w", err)
	}
	js, err := json.Marshal(spec)
	if err != nil {
		return nil, fmt.Errorf("openapi: marshal: %w", err)
	}
	if k := jsonSchema2020Keyword(spec); k != "" {
		return nil, fmt.Errorf("openapi: a schema uses %s, which the request validator does not check; see validationSpec", k)
	}
	d := &Doc{spec: spec, json: js, routes: make(map[Operation]*routers.Route)}
	checked := validationSpec(spec)
	for path, item := range spec.Paths.Map() {
		for method, op := range item.Operations() {
			o := Operation{Method: strings.ToUpper(method), Path: path}
			d.ops = append(d.ops, o)
			d.routes[o] = &routers.Route{
				Spec: checked, Path: path, PathItem: item, Method: o.Method, Operation: op,
			}
		}
	}
	d.matchers = newPathMatchers(slices.Collect(maps.Keys(spec.Paths.Map())))
	slices.SortFunc(d.ops, func(a, b Operation) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return strings.Compare(a.Method, b.Method)
	})
	return d, nil
}

// JSON returns the document as JSON, for GET /openapi.json. It is
// marshalled once, at load; callers must not modify it.
func (d *Doc) JSON() []byte { return d.json }

// Operations lists every documented operation, sorted by path then method.
func (d *Doc) Operations() []Operation { return slices.Clone(d.ops) }
