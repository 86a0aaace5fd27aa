// Package live holds Drover to the live service's own published OpenAPI
// definitions: the movements interface (CLA OData v1.0) and the registration
// interface (LIS), read at test time from ../shared/spec/live/. It maps a
// request Drover answers to the live operation a client generated from those
// definitions would call, and checks the answer against that operation's
// declared statuses, media types and response schemas.
//
// The definitions have known faults; oddities.go works around each of them
// in one place, beside the list of members Drover adds on purpose. Nothing of
// the definitions is copied into the project: they are loaded from the
// shared folder, and a test that needs them says so when they are absent.
package live

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/routers"
)

// EnvDir names a directory holding the live definitions, to use instead of
// the shared folder found next to the repository.
const EnvDir = "DROVER_LIVE_SPEC"

// The two definitions, as the shared folder names them.
const (
	claFile = "cla-v1.0-definition.json"
	lisFile = "lis-definition.json"
)

// Contract is the two live definitions, loaded and corrected for their
// known oddities, ready to check answers. It is safe for concurrent use.
type Contract struct {
	Dir string       // where the definitions were read
	ops []*Operation // every live operation, most specific path first
}

// Operation is one operation of a live definition.
type Operation struct {
	Def    string // "CLA" (movements) or "LIS" (registration)
	Method string
	Path   string // the template as the definition writes it, without its server's base path
	route  *routers.Route
	match  pathPattern
}

func (o *Operation) String() string { return o.Def + " " + o.Method + " " + o.Path }

// Load reads both definitions from dir and applies the workarounds of
// oddities.go.
func Load(dir string) (*Contract, error) {
	c := &Contract{Dir: dir}
	for _, f := range []struct{ def, file string }{{"CLA", claFile}, {"LIS", lisFile}} {
		data, err := os.ReadFile(filepath.Join(dir, f.file))
		if err != nil {
			return nil, fmt.Errorf("live: %w", err)
		}
		loader := openapi3.NewLoader()
		spec, err := loader.LoadFromData(escapeLineFeeds(data))
		if err != nil {
			return nil, fmt.Errorf("live: %s: %w", f.file, err)
		}
		// The definitions' own examples do not all match their schemas
		// (a number where a string is declared); they are not ours to fix.
		if err := spec.Validate(context.Background(), openapi3.DisableExamplesValidation()); err != nil {
			return nil, fmt.Errorf("live: %s: invalid definition: %w", f.file, err)
		}
		correct(f.def, spec)
		for path, item := range spec.Paths.Map() {
			for method, op := range item.Operations() {
				o := &Operation{Def: f.def, Method: strings.ToUpper(method), Path: path,
					route: &routers.Route{Spec: spec, Path: path, PathItem: item, Method: strings.ToUpper(method), Operation: op}}
				if o.match, err = compilePath(path); err != nil {
					return nil, fmt.Errorf("live: %s: %w", f.file, err)
				}
				c.ops = append(c.ops, o)
			}
		}
	}
	sortOperations(c.ops)
	return c, nil
}

// Operations lists every operation of both definitions.
func (c *Contract) Operations() []*Operation { return append([]*Operation(nil), c.ops...) }

// Example is the request body example the definition gives for op and
// media type application/json (the first of several, by name), as JSON;
// nil when it gives none.
func (o *Operation) Example() any {
	body := o.route.Operation.RequestBody
	if body == nil || body.Value == nil {
		return nil
	}
	mt := body.Value.Content.Get("application/json")
	if mt == nil {
		return nil
	}
	if mt.Example != nil {
		return mt.Example
	}
	var names []string
	for name := range mt.Examples {
		names = append(names, name)
	}
	for _, name := range sortedRequestExamples(names) {
		if ex := mt.Examples[name]; ex != nil && ex.Value != nil {
			return ex.Value.Value
		}
	}
	return nil
}

// escapeLineFeeds writes each raw line feed, carriage return and tab inside
// a JSON string as its escape: cla-v1.0-definition.json has raw ones in its
// descriptions, which strict JSON parsers refuse.
func escapeLineFeeds(b []byte) []byte {
	var out bytes.Buffer
	out.Grow(len(b))
	inString, escaped := false, false
	for _, c := range b {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			case c == '\n':
				out.WriteString(`\n`)
				continue
			case c == '\r':
				out.WriteString(`\r`)
				continue
			case c == '\t':
				out.WriteString(`\t`)
				continue
			}
		} else if c == '"' {
			inString = true
		}
		out.WriteByte(c)
	}
	return out.Bytes()
}

// The two definitions' file names, for a test that generates a client from
// them (TestLiveGeneratedClientFlow).
const (
	CLAFile = claFile
	LISFile = lisFile
)

// Definition reads one definition from dir as strict JSON, its raw line
// feeds inside strings escaped, as a generator or a JSON decoder needs it.
func Definition(dir, file string) ([]byte, error) {
	data, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		return nil, fmt.Errorf("live: %w", err)
	}
	return escapeLineFeeds(data), nil
}
