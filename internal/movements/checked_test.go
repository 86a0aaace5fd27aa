package movements

import (
	"fmt"
	"testing"

	"github.com/drover-registry/drover/internal/livestock"
)

// TestCheckedForgetsTheOldest: a transfer is taken once; tags come from a
// kept transfer without taking it; past the budget the oldest keys are
// forgotten, taken or not, and a key put again is forgotten only with its
// latest put; content over a sixteenth of the budget is not kept.
func TestCheckedForgetsTheOldest(t *testing.T) {
	t.Parallel()
	v := testVocab(t)
	d, err := v.decodeTransfer([]byte(transferSeeds[0]))
	if err != nil {
		t.Fatal(err)
	}
	key := func(i int) []byte { return fmt.Appendf(nil, "content %03d", i) } // 11 bytes
	c := newChecked(3 * 11 * 16)
	for i := range 49 {
		c.put(key(i), d.t)
	}
	if c.len() != 48 || c.bytes != 48*11 {
		t.Fatalf("len %d, %d bytes after 49 puts into 48 keys' room", c.len(), c.bytes)
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
	c.put(key(2), d.t)  // forgets key 1, taken; key 2's first put is now the oldest
	c.put(key(49), d.t) // forgets key 2's first put
	if _, ok := c.tags(nil, key(2)); !ok {
		t.Error("forgetting a key's first put forgot its latest")
	}
	c.put(key(50), d.t) // forgets key 3
	if _, ok := c.take(key(3)); ok {
		t.Error("key 3 kept past the budget")
	}
	if _, ok := c.take(key(4)); !ok {
		t.Error("key 4 forgotten within the budget")
	}
	if c.bytes > c.budget {
		t.Errorf("%d bytes held, over the budget of %d", c.bytes, c.budget)
	}
	c.put(make([]byte, c.budget/16+1), d.t)
	if _, ok := c.take(make([]byte, c.budget/16+1)); ok {
		t.Error("content over a sixteenth of the budget kept")
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
		c := newChecked(checkedBytes)
		for b.Loop() {
			c.put(stored, d.t)
			c.tags(nil, stored)
			if _, ok := c.take(stored); !ok {
				b.Fatal("not kept")
			}
		}
	})
}
