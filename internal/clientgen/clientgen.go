// Package clientgen runs the pinned client generators a vendor is likely to
// use, in scratch modules, for tests: TestGeneratedClients builds clients
// generated from Drover's document, TestLiveGeneratedClientFlow runs a flow
// with clients generated from the live definitions. The generators come
// from the Go module proxy; when one cannot be fetched (offline) the test
// skips saying so, except in CI (CI set), where it fails.
package clientgen

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// The generators and runtimes, each pinned.
const (
	OgenModule        = "github.com/ogen-go/ogen"
	OgenVersion       = "v1.24.0"
	OapiCodegenModule = "github.com/oapi-codegen/oapi-codegen/v2"
	OapiCodegenVer    = "v2.8.2"
	OapiRuntimeModule = "github.com/oapi-codegen/runtime"
	OapiRuntimeVer    = "v1.9.0"
	OpenapiTypescript = "openapi-typescript@7.13.0"
	Typescript        = "typescript@5.9.3"
)

// FetchGo skips (or, in CI, fails) t when module@version cannot be fetched.
func FetchGo(t testing.TB, moduleAtVersion string) {
	t.Helper()
	if out, err := Command(t.TempDir(), "go", "mod", "download", "-json", moduleAtVersion); err != nil {
		Unavailable(t, "%s cannot be fetched: %v\n%s", moduleAtVersion, err, out)
	}
}

// InitModule makes dir the module named path, requiring each
// module@version (a generator's runtime at its pinned version).
func InitModule(t testing.TB, dir, path string, require ...string) {
	t.Helper()
	Run(t, dir, "go", "mod", "init", path)
	for _, r := range require {
		Run(t, dir, "go", "get", r)
	}
	Run(t, dir, "go", "mod", "tidy")
}

// BuildModule makes dir a module that requires the generator's runtime at
// its pinned version, and builds the generated package in it.
func BuildModule(t testing.TB, dir, require string) {
	t.Helper()
	InitModule(t, dir, "example.com/droverclientcheck", require)
	Run(t, dir, "go", "build", "./...")
}

// Unavailable skips t saying why a generator cannot run, or fails it in CI.
func Unavailable(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf(format, args...)
	}
	t.Skipf("skipping, the generator is unavailable: "+format, args...)
}

// Run runs a tool in dir and fails t, with its output, when it fails.
func Run(t testing.TB, dir, name string, args ...string) []byte {
	t.Helper()
	out, err := Command(dir, name, args...)
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return out
}

// Command runs a tool in dir, within ten minutes, with the module mode a
// scratch module needs whatever the caller's environment says.
func Command(dir, name string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "npm_config_yes=true", "npm_config_update_notifier=false")
	return cmd.CombinedOutput()
}
