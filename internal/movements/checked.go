package movements

import (
	"sync"

	"github.com/drover-registry/drover/internal/livestock"
)

// checkedCap bounds the transfers kept for their jobs: far more than a
// job pass claims, and at most a few megabytes.
const checkedCap = 4096

// checked keeps the transfers this process decoded at their submission,
// by the content stored for them, so that a job applying one here reads
// it from memory rather than decoding the stored content again, on the
// writer that every other write waits for. Decoding the stored content
// gives the same transfer (FuzzDecodeTransfer holds that), so a job that
// finds nothing here, on another replica or after a restart, decodes and
// does the same. The oldest is forgotten when full.
type checked struct {
	mu    sync.Mutex
	byKey map[string]livestock.Transfer
	order []string // keys in the order put: order[next] is the oldest once full
	next  int
}

func newChecked(n int) *checked {
	return &checked{byKey: make(map[string]livestock.Transfer, n), order: make([]string, n)}
}

// put keeps t, decoded for a request whose stored content is content.
func (c *checked) put(content []byte, t livestock.Transfer) {
	key := string(content)
	c.mu.Lock()
	defer c.mu.Unlock()
	if old := c.order[c.next]; old != "" {
		delete(c.byKey, old)
	}
	c.order[c.next] = key
	c.next = (c.next + 1) % len(c.order)
	c.byKey[key] = t
}

// take hands over the transfer kept for content, and forgets it: the job
// that takes it may keep what it holds.
func (c *checked) take(content []byte) (livestock.Transfer, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.byKey[string(content)]
	if ok {
		delete(c.byKey, string(content))
	}
	return t, ok
}

// tags appends the tag numbers of the transfer kept for content, as
// appendTags reads them from the content, and reports whether one was kept.
func (c *checked) tags(tags []string, content []byte) ([]string, bool) {
	c.mu.Lock()
	t, ok := c.byKey[string(content)]
	c.mu.Unlock()
	if !ok {
		return tags, false
	}
	for _, d := range t.Devices() {
		if !d.Value.Tag.IsZero() {
			tags = append(tags, d.Value.Tag.String())
		}
	}
	return tags, true
}

// len is how many transfers are kept.
func (c *checked) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.byKey)
}
