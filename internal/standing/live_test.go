package standing

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// liveSummary finds the live service's developer-portal text
// (shared/spec/live/cla-v1.0-summary.json beside the checkout or above it).
func liveSummary(t *testing.T) []byte {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for ; dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		if b, err := os.ReadFile(filepath.Join(dir, "shared", "spec", "live", "cla-v1.0-summary.json")); err == nil {
			return b
		}
	}
	t.Skip("the live definitions (shared/spec/live/cla-v1.0-summary.json) are not beside this checkout: the live standing data is not compared")
	return nil
}

// liveTables reads the value column of each table of the summary's
// standing data whose title contains title.
func liveTables(t *testing.T, summary []byte, title string) []string {
	t.Helper()
	var doc struct {
		Sections []struct {
			Title   string
			Content []struct{ Body json.RawMessage }
		}
	}
	if err := json.Unmarshal(summary, &doc); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range doc.Sections {
		if s.Title != "Standing data" {
			continue
		}
		for _, c := range s.Content {
			var detail struct {
				Title string
				Body  []struct {
					Body struct{ Rows []struct{ Data []string } }
				}
			}
			if err := json.Unmarshal(c.Body, &detail); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(detail.Title, title) {
				continue
			}
			for _, table := range detail.Body {
				for _, r := range table.Body.Rows {
					out = append(out, r.Data[0])
				}
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("no standing data %q in the live summary", title)
	}
	return out
}

// TestLiveStandingData holds the lists a live client names values from to
// the values the live service publishes: every live value is a code.
func TestLiveStandingData(t *testing.T) {
	t.Parallel()
	summary := liveSummary(t)
	l := builtInLists(t)
	for _, tc := range []struct{ title, list string }{
		{"Breeds (sheep)", "sheepBreeds"},
		{"Breeds (goats)", "goatBreeds"},
		{"Exemption Codes", "processingFlags"},
		{"Document Types", "documentType"},
		{"Stock Types", "stockType"},
		{"FCI Withdrawal Periods", "metFCIWithdrawalPeriod"},
	} {
		for _, v := range liveTables(t, summary, tc.title) {
			if !l.Has(tc.list, v) {
				t.Errorf("%s: the live value %q is not a code", tc.list, v)
			}
		}
	}
}

// TestLiveAliases: Drover's earlier codes still name the live values.
func TestLiveAliases(t *testing.T) {
	t.Parallel()
	l := builtInLists(t)
	want := map[string]map[string]string{
		"sheepBreeds":            {"TEX": "Texel", "PDO": "Dorset Horn & Poll Dorset", "XBR": "Other"},
		"goatBreeds":             {"BOE": "Boer"},
		"metFCIWithdrawalPeriod": {"Yes": "WITHDRAWAL_MET", "NotApplicable": "WITHDRAWAL_NOT_RELEVANT"},
	}
	for list, aliases := range want {
		entries, _ := l.List(list)
		for _, e := range entries {
			if to, ok := aliases[e.Code]; ok {
				if e.Extra["aliasOf"] != to || !l.Has(list, to) {
					t.Errorf("%s %s: aliasOf %q, want %q", list, e.Code, e.Extra["aliasOf"], to)
				}
				delete(aliases, e.Code)
			}
		}
		if len(aliases) > 0 {
			t.Errorf("%s lacks %v", list, aliases)
		}
	}
	flags, _ := l.List("processingFlags")
	ids := map[string]bool{}
	for _, f := range flags {
		if f.Extra["processingFlagId"] == "" || ids[f.Extra["processingFlagId"]] || f.Extra["species"] == "" {
			t.Errorf("processingFlags %s: id %q (each flag needs its own), species %q", f.Code, f.Extra["processingFlagId"], f.Extra["species"])
		}
		ids[f.Extra["processingFlagId"]] = true
	}
}
