package postgres

import (
	"strings"
	"testing"
)

// TestWarningsFor: each risky setting at its bad value gives a sentence
// naming it and its value; at any other value, none.
func TestWarningsFor(t *testing.T) {
	bad, good := map[string]string{}, map[string]string{}
	for _, s := range riskySettings {
		bad[s.name], good[s.name] = strings.ToUpper(s.bad), "on"
	}
	good["synchronous_commit"] = "local" // a weaker setting that still flushes this server's WAL
	if w := warningsFor(good); len(w) != 0 {
		t.Errorf("safe settings: warnings %q, want none", w)
	}
	w := warningsFor(bad)
	if len(w) != len(riskySettings) {
		t.Fatalf("every setting bad: %d warnings, want %d: %q", len(w), len(riskySettings), w)
	}
	for i, s := range riskySettings {
		if !strings.Contains(w[i], s.name+" = "+strings.ToUpper(s.bad)) || !strings.Contains(w[i], s.why) {
			t.Errorf("warning %d = %q, want %s and why", i, w[i], s.name)
		}
	}
}
