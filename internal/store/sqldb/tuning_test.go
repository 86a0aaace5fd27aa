package sqldb

import (
	"strings"
	"testing"
)

// TestTuningCheck: a dialect that leaves out a listing-merge form, or its
// placeholder, is told which, before any listing runs.
func TestTuningCheck(t *testing.T) {
	ok := Tuning{ListBranch: "{branch}", ListUnion: " UNION ", ListMerge: "{branches} LIMIT {limit}"}
	if err := ok.check(); err != nil {
		t.Fatalf("a complete Tuning: %v", err)
	}
	for _, tt := range []struct {
		change func(*Tuning)
		want   string
	}{
		{func(t *Tuning) { t.ListBranch = "" }, "ListBranch is required"},
		{func(t *Tuning) { t.ListUnion = "" }, "ListUnion is required"},
		{func(t *Tuning) { t.ListMerge = "SELECT 1" }, `ListMerge is "SELECT 1", without {branches}`},
	} {
		bad := ok
		tt.change(&bad)
		if err := bad.check(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("check() = %v; want %q", err, tt.want)
		}
	}
	defer func() {
		if p := recover(); p == nil || !strings.Contains(p.(error).Error(), "ListBranch is required") {
			t.Errorf("New with no Tuning: %v; want it refused", p)
		}
	}()
	New(Config{})
}
