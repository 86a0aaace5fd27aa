package main

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/drover-registry/drover/bench/internal/cli/clitest"
	"github.com/drover-registry/drover/internal/livestock"
)

// The benchmark itself is a program (go run ./bench/registration), never a
// timed test: these check its flags and what it sends.

func TestParseFlags(t *testing.T) {
	t.Parallel()
	clitest.Parses(t, parseFlags, nil, options{Duration: 20 * time.Second, Rate: 1000, Connections: 64})
	clitest.Parses(t, parseFlags, []string{"--database", "x.db", "--duration", "2s", "--rate", "10", "--connections", "8", "--workers", "2"},
		options{Database: "x.db", Duration: 2 * time.Second, Rate: 10, Connections: 8, Workers: 2})
	clitest.Refuses(t, parseFlags, []string{"--rate", "0"}, []string{"--connections", "0"}, []string{"--workers", "-1"},
		[]string{"--rate", "10000", "--duration", "40s"},
		[]string{"--rate", "5000", "--duration", "40s"}, // 200,000 async and as many sync: past the supply
		[]string{"extra"})
}

// TestTags checks the benchmark's identifiers against the registry's own
// rule, at both ends of each herd's numbers and beside the sandbox's.
func TestTags(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		n, number int
		mark      string
	}{
		{1, 1, "442501"}, {150, 150, "442501"}, {firstNumber, firstNumber, "442501"}, {4242, 4242, "442501"},
		{firstNumber + perHerd - 1, 99999, "442501"}, {firstNumber + perHerd, firstNumber, "442601"},
		{firstNumber + 3*perHerd + 7, firstNumber + 7, "442603"}, {firstNumber + supply - 1, 99999, "442603"},
	} {
		want, err := livestock.NewCattleTag(c.mark, c.number)
		if err != nil || tagID(c.n) != want.String() {
			t.Errorf("tagID(%d) = %s; want %v (%v)", c.n, tagID(c.n), want, err)
		}
	}
	// Past the supply's last number (the baseline's count): round to its first.
	if got, want := tagID(firstNumber+supply), tagID(firstNumber); got != want {
		t.Errorf("tagID(first + supply) = %s; want %s", got, want)
	}
}

func TestCalfIsJSON(t *testing.T) {
	t.Parallel()
	var v struct {
		Animal       struct{ Identifier string }
		Birth        struct{ Date string }
		Registration struct{ Date, Category string }
	}
	today := livestock.UKDate(time.Date(2027, 1, 2, 12, 0, 0, 0, time.UTC))
	if err := json.Unmarshal(keeper1.CalfRegistration(tagID(200), today), &v); err != nil {
		t.Fatal(err)
	}
	if v.Animal.Identifier != tagID(200) || v.Birth.Date != "2026-12-30" || v.Registration.Date != "2027-01-02" ||
		v.Registration.Category != "birthRegistration" {
		t.Errorf("calf = %+v", v)
	}
}
