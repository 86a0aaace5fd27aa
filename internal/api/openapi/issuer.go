package openapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// The document describes the sandbox, whose tokens come from Drover's own
// issuer under /oauth2 and /.well-known. In production (drover serve
// --issuer) tokens come from the operator's OpenID Connect provider and
// those paths are not served, so the document served there must not send
// a vendor's tools to them.

// sandboxIssuerPaths begin the paths of the sandbox's own issuer.
var sandboxIssuerPaths = []string{"/oauth2/", "/.well-known/"}

// authSection is the description's section on tokens, up to the next one.
const authSection, nextSection = "## Authentication\n", "\n## "

// ForIssuer is the document as served when tokens come from issuer, an
// OpenID Connect provider's URL: without the sandbox issuer's operations,
// with the oauth2 scheme an openIdConnect one at the issuer's discovery
// document, and the description's section on tokens naming the issuer.
func (d *Doc) ForIssuer(issuer string) ([]byte, error) {
	u, err := url.Parse(issuer)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return nil, fmt.Errorf("openapi: issuer %q is not an absolute URL", issuer)
	}
	discovery := strings.TrimRight(issuer, "/") + "/.well-known/openid-configuration"
	var doc map[string]any
	dec := json.NewDecoder(bytes.NewReader(d.json))
	dec.UseNumber() // the examples' numbers as written
	if err := dec.Decode(&doc); err != nil {
		return nil, err
	}
	paths, _ := doc["paths"].(map[string]any)
	for p := range paths {
		for _, prefix := range sandboxIssuerPaths {
			if strings.HasPrefix(p, prefix) {
				delete(paths, p)
			}
		}
	}
	components, _ := doc["components"].(map[string]any)
	schemes, _ := components["securitySchemes"].(map[string]any)
	bearer, _ := schemes["bearer"].(map[string]any)
	if paths == nil || bearer == nil || schemes["oauth2"] == nil {
		return nil, errors.New("openapi: the document has no paths, bearer or oauth2 scheme to rewrite")
	}
	prune(doc, components)
	bearer["description"] = "An access token from the issuer " + issuer + ", sent as `Authorization: Bearer <token>`."
	schemes["oauth2"] = map[string]any{
		"type":             "openIdConnect",
		"openIdConnectUrl": discovery,
		"description":      "The operator's OpenID Connect provider, described at " + discovery + ".",
	}
	info, _ := doc["info"].(map[string]any)
	desc, _ := info["description"].(string)
	head, rest, found := strings.Cut(desc, authSection)
	if !found {
		return nil, errors.New("openapi: the description has no " + strings.TrimSpace(authSection) + " section")
	}
	tail := ""
	if i := strings.Index(rest, nextSection); i >= 0 {
		tail = rest[i:]
	}
	info["description"] = head + authSection + "\n" +
		"Endpoints under `/v1` are user-restricted. Send an access token in the\n" +
		"`Authorization: Bearer <token>` header. Tokens are JSON Web Tokens from the issuer\n" +
		issuer + ", described at " + discovery + "; get them from it as its\n" +
		"operator directs. This service runs no issuer of its own.\n" + tail
	return json.Marshal(doc)
}

// prunable are the kinds of component that are reached only by $ref.
// (Security schemes are named by security requirements instead.)
var prunable = []string{"schemas", "parameters", "responses", "headers", "requestBodies", "examples"}

// prune deletes the components no $ref reaches any more from the rest of
// the document, directly or through other components: what only the
// sandbox issuer's operations used.
func prune(doc, components map[string]any) {
	const prefix = "#/components/"
	reached := map[string]bool{}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for key, x := range v {
				ref, ok := x.(string)
				if key != "$ref" || !ok || !strings.HasPrefix(ref, prefix) || reached[ref] {
					walk(x)
					continue
				}
				reached[ref] = true
				kind, name, _ := strings.Cut(strings.TrimPrefix(ref, prefix), "/")
				if m, ok := components[kind].(map[string]any); ok {
					walk(m[name])
				}
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	for key, v := range doc {
		if key != "components" {
			walk(v)
		}
	}
	for _, kind := range prunable {
		m, _ := components[kind].(map[string]any)
		for name := range m {
			if !reached[prefix+kind+"/"+name] {
				delete(m, name)
			}
		}
	}
}
