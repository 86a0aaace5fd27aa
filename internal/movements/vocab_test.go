package movements

import (
	"testing"

	"github.com/drover-registry/drover/internal/standing"
)

// testVocab is the vocabulary of the built-in standing data.
func testVocab(t testing.TB) *vocab {
	t.Helper()
	lists, err := standing.Load("")
	if err != nil {
		t.Fatal(err)
	}
	v, err := newVocab(lists)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
