package live

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// Locate finds the directory of the live definitions: $DROVER_LIVE_SPEC
// when set, or else shared/spec/live in the parent of the repository (the
// directory with go.mod above the working directory) or in any directory
// above that, which finds /work/shared from /work/main and from a worktree
// under /work/wt alike. The error says where it looked.
func Locate() (string, error) {
	if dir := os.Getenv(EnvDir); dir != "" {
		if !hasDefinitions(dir) {
			return "", fmt.Errorf("%s=%s holds no %s and %s", EnvDir, dir, claFile, lisFile)
		}
		return dir, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	root := wd
	for !exists(filepath.Join(root, "go.mod")) {
		up := filepath.Dir(root)
		if up == root {
			return "", errors.New("no go.mod above " + wd)
		}
		root = up
	}
	var tried []string
	for dir := filepath.Dir(root); ; dir = filepath.Dir(dir) {
		spec := filepath.Join(dir, "shared", "spec", "live")
		if hasDefinitions(spec) {
			return spec, nil
		}
		tried = append(tried, spec)
		if filepath.Dir(dir) == dir {
			return "", fmt.Errorf("no live definitions in any of %v (set %s to name them)", tried, EnvDir)
		}
	}
}

func hasDefinitions(dir string) bool {
	return exists(filepath.Join(dir, claFile)) && exists(filepath.Join(dir, lisFile))
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

var shared struct {
	once     sync.Once
	c        *Contract
	notFound error // the definitions are absent
	err      error // they are present and do not load
}

// Shared is the live contract, loaded once per process. found is false
// when the definitions are absent, and err then says where it looked;
// when they are present but do not load, found is true and err says why.
func Shared() (c *Contract, found bool, err error) {
	shared.once.Do(func() {
		var dir string
		if dir, shared.notFound = Locate(); shared.notFound == nil {
			shared.c, shared.err = Load(dir)
		}
	})
	if shared.notFound != nil {
		return nil, false, shared.notFound
	}
	return shared.c, true, shared.err
}

// ForTest is the shared live contract for a test. When the definitions
// cannot be found it skips t, saying why, except in CI (CI set), where it
// fails t: the shared folder is part of every checkout CI makes
// (../shared/spec/live/README.md), so its absence there is a broken
// checkout, not a reason to pass without the check.
func ForTest(t testing.TB) *Contract {
	t.Helper()
	c, found, err := Shared()
	switch {
	case found && err != nil:
		t.Fatal(err)
	case !found && os.Getenv("CI") != "":
		t.Fatalf("the live contract check cannot run in CI: %v", err)
	case !found:
		t.Skipf("skipping the live contract check (the live definitions are not here): %v", err)
	}
	return c
}
