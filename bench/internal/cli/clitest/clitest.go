// Package clitest checks a benchmark program's flags: what its parse
// function makes of good arguments, and that it refuses bad ones. The
// benchmarks themselves are programs, never timed tests, so their flags
// are most of what their tests check.
package clitest

import (
	"io"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Parse is a program's flag parser, writing its usage to out.
type Parse[O any] func(args []string, out io.Writer) (O, error)

// Parses fails t unless parse reads args as want.
func Parses[O any](t *testing.T, parse Parse[O], args []string, want O) {
	t.Helper()
	got, err := parse(args, io.Discard)
	if err != nil {
		t.Errorf("parse(%q): %v", args, err)
		return
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parse(%q) (-want +got):\n%s", args, diff)
	}
}

// Refuses fails t for each of bad that parse accepts.
func Refuses[O any](t *testing.T, parse Parse[O], bad ...[]string) {
	t.Helper()
	for _, args := range bad {
		if _, err := parse(args, io.Discard); err == nil {
			t.Errorf("parse(%q) accepted", args)
		}
	}
}
