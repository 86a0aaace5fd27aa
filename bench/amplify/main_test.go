package main

import (
	"encoding/json"
	"io"
	"testing"
)

func TestTransferNamesEveryTagOnce(t *testing.T) {
	body, err := transfer(30000)
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Content struct {
			AnimalCount    int
			MovementGroups []struct{ Devices []struct{ TagNumber string } }
		}
	}
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, g := range got.Content.MovementGroups {
		for _, d := range g.Devices {
			if seen[d.TagNumber] {
				t.Fatalf("tag %s twice", d.TagNumber)
			}
			seen[d.TagNumber] = true
		}
	}
	if len(got.Content.MovementGroups) != 3 || len(seen) != 30000 || got.Content.AnimalCount != 30000 {
		t.Fatalf("%d groups, %d tags, animalCount %d", len(got.Content.MovementGroups), len(seen), got.Content.AnimalCount)
	}
	if len(body) > 1<<20 {
		t.Errorf("body of %d bytes is over the server's 1 MiB limit", len(body))
	}
}

func TestPagesFit(t *testing.T) {
	for _, c := range []struct {
		p    pages
		want bool
	}{
		{pages{}, false},
		{pages{bytes: []int{100, 2 << 20}, items: []int{5, 1}}, true},
		{pages{bytes: []int{2 << 20}, items: []int{2}}, false},
	} {
		if got := c.p.fits(1 << 20); got != c.want {
			t.Errorf("%v fits = %v, want %v", c.p, got, c.want)
		}
	}
}

func TestParseFlagsRefuses(t *testing.T) {
	for _, args := range [][]string{{"--transfers", "0"}, {"--tags", "2"}, {"extra"}} {
		if _, err := parseFlags(args, io.Discard); err == nil {
			t.Errorf("parseFlags(%q) accepted", args)
		}
	}
}
