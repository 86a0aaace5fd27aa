package movements

import (
	"sync"

	"github.com/drover-registry/drover/internal/livestock"
)

// checkedBytes bounds the stored content of the transfers kept for their
// jobs; a transfer's decoding takes about as much again. A transfer of
// bench/movements' shape is 300 bytes, so this keeps the last six
// thousand or so, more than the jobs fall behind under a full load.
const checkedBytes = 2 << 20

// checked keeps the transfers this process decoded at their submission,
// by the content stored for them, so that a job applying one here reads
// it from memory rather than decoding the stored content again, on the
// writer that every other write waits for. Decoding the stored content
// gives the same transfer (FuzzDecodeTransfer holds that), so a job that
// finds nothing here, on another replica or after a restart, decodes and
// does the same. The oldest are forgotten past the budget, counted in
// the bytes of the keys held, taken or not.
type checked struct {
	mu     sync.Mutex
	byKey  map[string]checkedEntry
	order  []checkedKey // put, oldest first, from head
	head   int
	bytes  int // of the keys in order[head:]
	budget int
	seq    uint64
}

type checkedEntry struct {
	t   livestock.Transfer
	seq uint64 // of the put that holds it, so that only that put's key forgets it
}

type checkedKey struct {
	key string
	seq uint64
}

func newChecked(budget int) *checked {
	return &checked{byKey: map[string]checkedEntry{}, budget: budget}
}

// put keeps t, decoded for a request whose stored content is content.
// Content over a sixteenth of the budget is not kept.
func (c *checked) put(content []byte, t livestock.Transfer) {
	if len(content) > c.budget/16 {
		return
	}
	key := string(content)
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.bytes+len(key) > c.budget {
		c.forgetOldest()
	}
	c.seq++
	c.byKey[key] = checkedEntry{t: t, seq: c.seq}
	c.order = append(c.order, checkedKey{key, c.seq})
	c.bytes += len(key)
}

// forgetOldest drops the oldest key, and its transfer if that key's put
// still holds it. c.mu is held.
func (c *checked) forgetOldest() {
	k := c.order[c.head]
	c.order[c.head] = checkedKey{}
	c.head++
	c.bytes -= len(k.key)
	if e, ok := c.byKey[k.key]; ok && e.seq == k.seq {
		delete(c.byKey, k.key)
	}
	if c.head > len(c.order)/2 {
		c.order = append(c.order[:0], c.order[c.head:]...)
		c.head = 0
	}
}

// take hands over the transfer kept for content, and forgets it: the job
// that takes it may keep what it holds.
func (c *checked) take(content []byte) (livestock.Transfer, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[string(content)]
	if ok {
		delete(c.byKey, string(content))
	}
	return e.t, ok
}

// tags appends the tag numbers of the transfer kept for content, as
// appendTags reads them from the content, and reports whether one was kept.
func (c *checked) tags(tags []string, content []byte) ([]string, bool) {
	c.mu.Lock()
	e, ok := c.byKey[string(content)]
	c.mu.Unlock()
	if !ok {
		return tags, false
	}
	return transferTags(tags, e.t), true
}

// transferTags appends the tag numbers t names, as appendTags reads them
// from t's stored content.
func transferTags(tags []string, t livestock.Transfer) []string {
	for _, d := range t.Devices() {
		if !d.Value.Tag.IsZero() {
			tags = append(tags, d.Value.Tag.String())
		}
	}
	return tags
}

// len is how many transfers are kept.
func (c *checked) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.byKey)
}
