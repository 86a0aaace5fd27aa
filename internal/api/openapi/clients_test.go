package openapi

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/drover-registry/drover/internal/clientgen"
)

// TestGeneratedClients: a client generated from Drover's document by each
// generator builds. The generators are fetched from the Go module proxy and
// the npm registry; with -short, or when a generator cannot be fetched
// (offline), the subtest skips saying so, except in CI (CI set), which
// reaches both registries, where it fails.
//
// The document keeps to what ogen v1.24.0 can generate: it reads a oneOf
// of objects by their unique members, and cannot read a oneOf of objects
// beside null, nor an anyOf of objects, so a nullable choice of objects is
// written oneOf [oneOf [A, B], null] (RegistrationRequestStatus.result);
// each movements collection has its own record, whose content is one
// model or null.
func TestGeneratedClients(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the client generators (they are fetched and built)")
	}
	d := load(t)
	t.Run("ogen", func(t *testing.T) {
		t.Parallel()
		dir := writeSpec(t, d)
		clientgen.FetchGo(t, clientgen.OgenModule+"@"+clientgen.OgenVersion)
		clientgen.Run(t, dir, "go", "run", clientgen.OgenModule+"/cmd/ogen@"+clientgen.OgenVersion, "--target", "droverclient", "--package", "droverclient", "--clean", "openapi.json")
		clientgen.BuildModule(t, dir, clientgen.OgenModule+"@"+clientgen.OgenVersion)
	})
	t.Run("oapi-codegen", func(t *testing.T) {
		t.Parallel()
		dir := writeSpec(t, d)
		clientgen.FetchGo(t, clientgen.OapiCodegenModule+"@"+clientgen.OapiCodegenVer)
		if err := os.Mkdir(filepath.Join(dir, "droverclient"), 0o755); err != nil {
			t.Fatal(err)
		}
		clientgen.Run(t, dir, "go", "run", clientgen.OapiCodegenModule+"/cmd/oapi-codegen@"+clientgen.OapiCodegenVer,
			"-generate", "types,client", "-package", "droverclient", "-o", "droverclient/client.go", "openapi.json")
		clientgen.BuildModule(t, dir, clientgen.OapiRuntimeModule+"@"+clientgen.OapiRuntimeVer)
	})
	t.Run("openapi-typescript", func(t *testing.T) {
		t.Parallel()
		if _, err := exec.LookPath("npx"); err != nil {
			clientgen.Unavailable(t, "npx is not installed")
		}
		dir := writeSpec(t, d)
		if out, err := clientgen.Command(dir, "npx", "--yes", clientgen.OpenapiTypescript, "openapi.json", "-o", "schema.d.ts"); err != nil {
			clientgen.Unavailable(t, "%s failed or cannot be fetched: %v\n%s", clientgen.OpenapiTypescript, err, out)
		}
		clientgen.Run(t, dir, "npx", "--yes", "-p", clientgen.Typescript, "tsc", "--noEmit", "--strict", "schema.d.ts")
	})
}

// writeSpec writes the document as served (/openapi.json) to a new
// directory.
func writeSpec(t *testing.T, d *Doc) string {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "openapi.json"), d.JSON(), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}
