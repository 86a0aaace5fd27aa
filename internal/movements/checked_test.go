package movements

import (
	"fmt"
	"testing"

	"github.com/drover-registry/drover/internal/livestock"
)

// TestCheckedForgetsTheOldest: a transfer is taken once; tags come from a
// kept transfer without taking it; once full, the oldest is forgotten.
func TestCheckedForgetsTheOldest(t *testing.T) {
	t.Parallel()
	v := testVocab(t)
	d, err := v.decodeTransfer([]byte(transferSeeds[0]))
	if err != nil {
		t.Fatal(err)
	}
	c := newChecked(3)
	key := func(i int) []byte { return fmt.Appendf(nil, "content %d", i) }
	for i := range 4 {
		c.put(key(i), d.t)
	}
	if c.len() != 3 {
		t.Fatalf("len = %d after 4 puts into 3 places", c.len())
	}
	if _, ok := c.take(key(0)); ok {
		t.Error("the oldest is still kept")
	}
	tags, ok := c.tags(nil, key(1))
	if want := []string{"UK0130181 00001", "UK0130181 00002"}; !ok || fmt.Sprint(tags) != fmt.Sprint(want) {
		t.Errorf("tags = %q, %v; want %q", tags, ok, want)
	}
	got, ok := c.take(key(1))
	if !ok || got.Species != livestock.SpeciesSheep || len(got.Groups) != 1 {
		t.Errorf("take = %+v, %v", got, ok)
	}
	if _, ok := c.take(key(1)); ok {
		t.Error("taken twice")
	}
	if c.len() != 2 {
		t.Errorf("len = %d, want 2", c.len())
	}
}

// BenchmarkJobTransfer: what a job spends on its transfer before the
// rules, decoding the stored content of bench/movements' transfer, or
// taking the transfer its submission decoded.
//
//	go test ./internal/movements -run '^$' -bench JobTransfer
func BenchmarkJobTransfer(b *testing.B) {
	v := testVocab(b)
	d, err := v.decodeTransfer([]byte(`{"transferDate":"2026-11-20","species":"Sheep","userHolding":"01/100/0257",` +
		`"sourceHolding":"01/100/0257","destinationHolding":"01/100/0264","animalCount":1,"trackingId":"bench-000000123",` +
		`"movementGroups":[{"devices":[{"tagNumber":"UK0130181 00001"}]}]}`))
	if err != nil {
		b.Fatal(err)
	}
	stored := normalised(d.model)
	b.Run("decode", func(b *testing.B) {
		for b.Loop() {
			if _, err := v.decodeTransfer(stored); err != nil {
				b.Fatal(err)
			}
			appendTags(nil, stored)
		}
	})
	b.Run("take", func(b *testing.B) {
		c := newChecked(checkedCap)
		for b.Loop() {
			c.put(stored, d.t)
			c.tags(nil, stored)
			if _, ok := c.take(stored); !ok {
				b.Fatal("not kept")
			}
		}
	})
}
