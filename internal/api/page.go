package api

import (
	"net/http"
	"strconv"
	"sync"
)

// page is the answer to a request for a listing, written as it is built,
// in one buffer: the items are appended straight after the envelope's
// start and never encoded twice, and the buffer is kept for the next
// page. It ends early when the items outgrow the byte budget (counting
// each item's bytes and one comma): the first item is always written, whatever its size, so that
// every page moves the listing on. A page that may not end early (one
// asked for with $top, which has no next link) is instead sent in parts
// of about the budget each (keep).
type page struct {
	b      []byte
	start  int // where the first item begins
	budget int
	items  int  // the items written
	cut    bool // whether the budget ended the page early
	sent   bool // whether a part of the page has been sent (keep)
	pooled *[]byte
}

// pageBuffers keeps the buffers of pages written, so that a steady
// listing load allocates none. A buffer past maxPooled (a page of large
// items) is let go, so that one such page does not pin its memory.
var pageBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

const maxPooled = 2 << 20

// newPage begins the page of collection context: its @odata.context,
// its @odata.count when count is not nil, and its value array.
func newPage(context string, count *int64, budget int) *page {
	pb := pageBuffers.Get().(*[]byte)
	p := &page{b: (*pb)[:0], budget: budget, pooled: pb}
	p.b = append(p.b, `{"@odata.context":`...)
	p.b = appendString(p.b, context)
	if count != nil {
		p.b = strconv.AppendInt(append(p.b, `,"@odata.count":`...), *count, 10)
	}
	p.b = append(p.b, `,"value":[`...)
	p.start = len(p.b)
	return p
}

// open begins the next item, after a comma if it is not the first, and
// returns the mark to give close once the item is appended to p.b.
func (p *page) open() int {
	mark := len(p.b)
	if p.items > 0 {
		p.b = append(p.b, ',')
	}
	return mark
}

// close keeps the item appended since mark and reports true, or, when it
// takes the page past its budget, takes it out again, marks the page cut
// and reports false: no more items go on this page.
func (p *page) close(mark int) bool {
	// The size counted is the items' bytes and one comma each, the last
	// one's counting the closing bracket.
	if size := len(p.b) - p.start + 1; p.items > 0 && size > p.budget {
		p.b, p.cut = p.b[:mark], true
		return false
	}
	p.items++
	return true
}

// keep keeps the item appended since open, whatever the page's size, and
// sends what the page holds to w once it is past its budget.
func (p *page) keep(w http.ResponseWriter) error {
	p.items++
	if len(p.b) <= p.budget {
		return nil
	}
	err := p.send(w, http.StatusOK, p.b)
	p.b = p.b[:0]
	return err
}

// send writes body, the page or a part of it, to w: with code and the
// headers when it is the first part sent, else after the parts before.
func (p *page) send(w http.ResponseWriter, code int, body []byte) error {
	if !p.sent {
		p.sent = true
		return writeBody(w, code, body)
	}
	_, err := w.Write(body)
	return err
}

// end closes the page, with its @odata.nextLink when next is not "", and
// returns its body. The body is p's buffer: it is valid until free.
func (p *page) end(next string) []byte {
	p.b = append(p.b, ']')
	if next != "" {
		p.b = appendString(append(p.b, `,"@odata.nextLink":`...), next)
	}
	return append(p.b, '}', '\n')
}

// free gives the page's buffer back for another page.
func (p *page) free() {
	if cap(p.b) <= maxPooled {
		*p.pooled = p.b[:0]
		pageBuffers.Put(p.pooled)
	}
	p.b = nil
}
