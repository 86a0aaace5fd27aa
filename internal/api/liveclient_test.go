package api_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/api/openapi/live"
	"github.com/drover-registry/drover/internal/clientgen"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// TestLiveGeneratedClientFlow is issue 19's "done when", literally: a
// vendor generates Go clients with oapi-codegen from the live service's own
// definitions (movements and registration, read from ../shared/spec/live/
// and only adapted for the generator by prepareForOapiCodegen), writes a
// program against nothing but their typed methods and models
// (testdata/liveclient/main.go), and runs transfer, poll, correction,
// review look-up, review, ApprovedMovements, undo, $count, registration
// sync and async, request status and animal look-up against a Drover
// server, unchanged but for its base URL and bearer tokens. Every answer
// on the way is also held to the live definition, as the suite's are.
//
// Everything generated stays in a temporary directory. With -short, or
// without the definitions or the generator (offline), it skips saying why,
// except in CI, where it fails.
func TestLiveGeneratedClientFlow(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the client generated from the live definitions (it is fetched and built)")
	}
	contract := live.ForTest(t)
	clientgen.FetchGo(t, clientgen.OapiCodegenModule+"@"+clientgen.OapiCodegenVer)
	clientgen.FetchGo(t, clientgen.OapiRuntimeModule+"@"+clientgen.OapiRuntimeVer)

	dir := t.TempDir()
	for _, g := range []struct{ file, pkg string }{{live.CLAFile, "cla"}, {live.LISFile, "lis"}} {
		data, err := live.Definition(contract.Dir, g.file)
		if err != nil {
			t.Fatal(err)
		}
		def, err := decodeDefinition(data)
		if err != nil {
			t.Fatalf("%s: %v", g.file, err)
		}
		if data, err = json.Marshal(prepareForOapiCodegen(def)); err != nil {
			t.Fatal(err)
		}
		spec := filepath.Join(dir, g.pkg+".json")
		if err := os.WriteFile(spec, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(filepath.Join(dir, g.pkg), 0o755); err != nil {
			t.Fatal(err)
		}
		clientgen.Run(t, dir, "go", "run", clientgen.OapiCodegenModule+"/cmd/oapi-codegen@"+clientgen.OapiCodegenVer,
			"-generate", "types,client", "-package", g.pkg, "-o", filepath.Join(g.pkg, "client.go"), spec)
	}
	driver, err := os.ReadFile(filepath.Join("testdata", "liveclient", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), driver, 0o644); err != nil {
		t.Fatal(err)
	}
	clientgen.InitModule(t, dir, "example.com/farmsoftware", clientgen.OapiRuntimeModule+"@"+clientgen.OapiRuntimeVer)
	clientgen.Run(t, dir, "go", "build", "-o", "farmsoftware", ".")

	b := setup(t, storetest.OpenSQLite(t), api.Config{})
	front, answers := liveCheckingProxy(t, b.url)
	cmd := []string{filepath.Join(dir, "farmsoftware")}
	env := append(os.Environ(), "DROVER_BASE="+front, "DROVER_K1="+b.token("keeper1"), "DROVER_K2="+b.token("keeper2"))
	start := time.Now()
	out, err := runWithEnv(dir, env, cmd...)
	t.Logf("the generated client's flow, in %v, %d answers held to the live definition:\n%s",
		time.Since(start).Round(time.Millisecond), answers.Load(), out)
	if err != nil {
		t.Fatalf("the flow with the client generated from the live definitions failed: %v", err)
	}
}

// liveCheckingProxy stands in front of a server and holds each answer it
// passes on to the live definition (checkLive), counting them.
func liveCheckingProxy(t *testing.T, target string) (string, *atomic.Int64) {
	var answers atomic.Int64
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(u)
	proxy.ModifyResponse = func(res *http.Response) error {
		data, err := io.ReadAll(res.Body)
		res.Body.Close()
		if err != nil {
			return err
		}
		res.Body = io.NopCloser(bytes.NewReader(data))
		answers.Add(1)
		checkLive(t, res.Request.Method, res.Request.URL.EscapedPath(), res.StatusCode, res.Header, data)
		return nil
	}
	ts := httptest.NewServer(proxy)
	t.Cleanup(ts.Close)
	return ts.URL, &answers
}

func runWithEnv(dir string, env []string, argv ...string) ([]byte, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = dir, env
	return cmd.CombinedOutput()
}
