package openapi

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The client generators a vendor is likely to run on /openapi.json, each
// pinned: a Go client from oapi-codegen and from ogen, and TypeScript
// types from openapi-typescript checked by tsc. TestGeneratedClients
// generates each from the document and builds it.
const (
	ogenModule        = "github.com/ogen-go/ogen"
	ogenVersion       = "v1.24.0"
	oapiCodegenModule = "github.com/oapi-codegen/oapi-codegen/v2"
	oapiCodegenVer    = "v2.8.2"
	oapiRuntimeModule = "github.com/oapi-codegen/runtime"
	oapiRuntimeVer    = "v1.9.0"
	openapiTypescript = "openapi-typescript@7.13.0"
	typescript        = "typescript@5.9.3"
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
		fetchGo(t, ogenModule+"@"+ogenVersion)
		run(t, dir, "go", "run", ogenModule+"/cmd/ogen@"+ogenVersion, "--target", "droverclient", "--package", "droverclient", "--clean", "openapi.json")
		buildModule(t, dir, ogenModule+"@"+ogenVersion)
	})
	t.Run("oapi-codegen", func(t *testing.T) {
		t.Parallel()
		dir := writeSpec(t, d)
		fetchGo(t, oapiCodegenModule+"@"+oapiCodegenVer)
		if err := os.Mkdir(filepath.Join(dir, "droverclient"), 0o755); err != nil {
			t.Fatal(err)
		}
		run(t, dir, "go", "run", oapiCodegenModule+"/cmd/oapi-codegen@"+oapiCodegenVer,
			"-generate", "types,client", "-package", "droverclient", "-o", "droverclient/client.go", "openapi.json")
		buildModule(t, dir, oapiRuntimeModule+"@"+oapiRuntimeVer)
	})
	t.Run("openapi-typescript", func(t *testing.T) {
		t.Parallel()
		if _, err := exec.LookPath("npx"); err != nil {
			unavailable(t, "npx is not installed")
		}
		dir := writeSpec(t, d)
		if out, err := command(dir, "npx", "--yes", openapiTypescript, "openapi.json", "-o", "schema.d.ts"); err != nil {
			unavailable(t, "%s failed or cannot be fetched: %v\n%s", openapiTypescript, err, out)
		}
		run(t, dir, "npx", "--yes", "-p", typescript, "tsc", "--noEmit", "--strict", "schema.d.ts")
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

// fetchGo skips (or, in CI, fails) t when module@version cannot be fetched.
func fetchGo(t *testing.T, moduleAtVersion string) {
	if out, err := command(t.TempDir(), "go", "mod", "download", "-json", moduleAtVersion); err != nil {
		unavailable(t, "%s cannot be fetched: %v\n%s", moduleAtVersion, err, out)
	}
}

// buildModule makes dir a module that requires the generator's runtime at
// its pinned version, and builds the generated package in it.
func buildModule(t *testing.T, dir, require string) {
	run(t, dir, "go", "mod", "init", "example.com/droverclientcheck")
	run(t, dir, "go", "get", require)
	run(t, dir, "go", "mod", "tidy")
	run(t, dir, "go", "build", "./...")
}

func unavailable(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf(format, args...)
	}
	t.Skipf("skipping, the generator is unavailable: "+format, args...)
}

func run(t *testing.T, dir, name string, args ...string) {
	t.Helper()
	if out, err := command(dir, name, args...); err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
}

// command runs a tool in dir, within ten minutes, with the module mode a
// scratch module needs whatever the caller's environment says.
func command(dir, name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "npm_config_yes=true", "npm_config_update_notifier=false")
	return cmd.CombinedOutput()
}
