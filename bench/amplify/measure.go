package main

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
)

// storedErrors is what the server kept of each request's errors: how many,
// and the codes seen.
type storedErrors struct {
	counts []int
	codes  map[string]int
}

// bounded is the target: at most 100 errors and the live code 40 a request.
func (s storedErrors) bounded() bool {
	return len(s.counts) > 0 && slices.Max(s.counts) <= 101
}

func (s storedErrors) String() string {
	if len(s.counts) == 0 {
		return "none read"
	}
	return fmt.Sprintf("%d–%d (code 40 in %d of %d)", slices.Min(s.counts), slices.Max(s.counts), s.codes["40"], len(s.counts))
}

// await polls each request until it is no longer Pending or Processing and
// counts its stored errors.
func (p *probe) await(ctx context.Context, ids []int64) (storedErrors, error) {
	s := storedErrors{codes: map[string]int{}}
	deadline := time.Now().Add(5 * time.Minute)
	for _, id := range ids {
		for {
			var r struct {
				RequestStatus string `json:"requestStatus"`
				Errors        []struct {
					Code string `json:"code"`
				} `json:"errors"`
			}
			if _, err := p.do(ctx, http.MethodGet, fmt.Sprintf("/v1/TransferRequests(%d)", id), p.k1, nil, &r); err != nil {
				return s, err
			}
			if r.RequestStatus != "Pending" && r.RequestStatus != "Processing" {
				s.counts = append(s.counts, len(r.Errors))
				for _, e := range r.Errors {
					if e.Code == "40" {
						s.codes["40"]++
					}
				}
				break
			}
			if time.Now().After(deadline) {
				return s, fmt.Errorf("request %d still %s after 5 minutes", id, r.RequestStatus)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	return s, nil
}

// pages is a listing read through its next links: each page's size and
// how many items it held.
type pages struct {
	bytes, items []int
}

// fits is the target: every page within budget, or holding one item.
func (p pages) fits(budget int) bool {
	for i, b := range p.bytes {
		if b > budget && p.items[i] > 1 {
			return false
		}
	}
	return len(p.bytes) > 0
}

func (p pages) String() string {
	if len(p.bytes) == 0 {
		return "no page"
	}
	return fmt.Sprintf("%d page(s), %d item(s), largest %s", len(p.bytes), sum(p.items), size(slices.Max(p.bytes)))
}

// list reads keeper2's listing of transfer requests with query through
// every next link.
func (p *probe) list(ctx context.Context, query string) (pages, error) {
	var ps pages
	path := "/v1/TransferRequests"
	if query != "" {
		path += "?" + query
	}
	for path != "" && len(ps.bytes) < 1000 {
		var page struct {
			Value []struct{}
			Next  string `json:"@odata.nextLink"`
		}
		n, err := p.do(ctx, http.MethodGet, path, p.k2, nil, &page)
		if err != nil {
			return ps, err
		}
		ps.bytes, ps.items = append(ps.bytes, n), append(ps.items, len(page.Value))
		path = ""
		if page.Next != "" {
			if path, err = pathOf(page.Next); err != nil {
				return ps, err
			}
		}
	}
	return ps, nil
}

func sum(xs []int) (n int) {
	for _, x := range xs {
		n += x
	}
	return n
}

// size is a byte count in kB or MB.
func size[N ~int | ~int64](n N) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.2f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.0f kB", float64(n)/(1<<10))
	}
	return strings.TrimSpace(fmt.Sprintf("%d B", n))
}
