package openapi

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestForIssuer(t *testing.T) {
	t.Parallel()
	d, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	const issuer = "https://login.example.gov/realms/livestock"
	b, err := d.ForIssuer(issuer)
	if err != nil {
		t.Fatal(err)
	}
	prod, err := LoadFrom(b)
	if err != nil {
		t.Fatalf("the production document is not a valid OpenAPI 3.1 document: %v", err)
	}
	for _, op := range prod.Operations() {
		if strings.HasPrefix(op.Path, "/oauth2/") || strings.HasPrefix(op.Path, "/.well-known/") {
			t.Errorf("the production document has the sandbox issuer's %s %s", op.Method, op.Path)
		}
	}
	if len(prod.Operations()) == len(d.Operations()) || len(prod.Operations()) == 0 {
		t.Errorf("%d operations, the sandbox's %d: want the issuer's removed and the rest kept",
			len(prod.Operations()), len(d.Operations()))
	}
	oauth2 := prod.spec.Components.SecuritySchemes["oauth2"].Value
	if oauth2.Type != "openIdConnect" || oauth2.OpenIdConnectUrl != issuer+"/.well-known/openid-configuration" {
		t.Errorf("oauth2 scheme %s at %q; want openIdConnect at the issuer's discovery document", oauth2.Type, oauth2.OpenIdConnectUrl)
	}
	if oauth2.Flows != nil {
		t.Error("the oauth2 scheme still has the sandbox's flows")
	}
	desc := prod.spec.Info.Description
	auth, _, _ := strings.Cut(desc[strings.Index(desc, "## Authentication"):], "## Correlation")
	if strings.Contains(auth, "/oauth2/") || strings.Contains(string(b), `"/oauth2/token"`) || !strings.Contains(auth, issuer) {
		t.Errorf("the description still sends readers to /oauth2, or does not name the issuer:\n%s", desc)
	}
	if !strings.Contains(desc, "## Correlation") {
		t.Error("the description lost the sections after Authentication")
	}
	for _, gone := range []string{`"TokenRequest"`, `"AuthorizeForm"`, `"ClientID"`, `"OpenIDConfiguration"`} {
		if strings.Contains(string(b), gone) {
			t.Errorf("the production document still has the sandbox issuer's component %s", gone)
		}
	}
	for _, kept := range []string{`"TransferRequest"`, `"ProblemError"`, `"XCorrelationID"`, `"BadRequest"`} {
		if !strings.Contains(string(b), kept) {
			t.Errorf("the production document lost the component %s", kept)
		}
	}
	if !strings.Contains(string(b), `"maxLength":2000`) {
		t.Error("numbers were not kept as written")
	}
	var sandbox map[string]any
	if err := json.Unmarshal(d.JSON(), &sandbox); err != nil || sandbox["paths"].(map[string]any)["/oauth2/token"] == nil {
		t.Error("ForIssuer changed the sandbox's document")
	}
	for _, bad := range []string{"", "login.example.gov", "/realms/x", "https://"} {
		if _, err := d.ForIssuer(bad); err == nil {
			t.Errorf("ForIssuer(%q) = nil error; want a refusal", bad)
		}
	}
}
