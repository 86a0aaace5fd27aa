package crash

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"
)

// verify reads every acknowledged request back through the API, from
// clients goroutines: a transfer must be final; a sync registration's
// animal must exist; an async registration must be final, and its animal
// exist when it Completed.
func verify(ctx context.Context, base, token string, entries []*entry) []string {
	work := make(chan *entry)
	var mu sync.Mutex
	var problems []string
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
			for e := range work {
				if err := verifyOne(ctx, base, token, e); err != nil {
					mu.Lock()
					problems = append(problems, fmt.Sprintf("%s %s (%s): %v", e.kind, e.corr, e.id, err))
					mu.Unlock()
				}
			}
		})
	}
	for _, e := range entries {
		if e.outcome == acked {
			work <- e
		}
	}
	close(work)
	wg.Wait()
	return problems
}

func verifyOne(ctx context.Context, base, token string, e *entry) error {
	var v struct {
		RequestStatus string `json:"requestStatus"`
		TrackingID    string `json:"trackingId"`
		Status        string `json:"status"`
		Identifier    string `json:"identifier"`
	}
	switch e.kind {
	case transfer:
		if err := get(ctx, base+"/v1/TransferRequests("+e.id+")", token, &v); err != nil {
			return err
		}
		if v.TrackingID != e.corr || (v.RequestStatus != "Success" && v.RequestStatus != "CompletedWarning" && v.RequestStatus != "Fail") {
			return fmt.Errorf("trackingId %q, status %q", v.TrackingID, v.RequestStatus)
		}
		return nil
	case asyncReg:
		if err := get(ctx, base+"/v1/requeststatus/"+e.id, token, &v); err != nil {
			return err
		}
		if v.Status == "Fail" {
			return nil
		}
		if v.Status != "Success" {
			return fmt.Errorf("status %q", v.Status)
		}
	}
	if err := get(ctx, base+"/v1/animals/"+e.tag, token, &v); err != nil {
		return err
	}
	if v.Identifier != e.tag {
		return fmt.Errorf("animal %s is %q", e.tag, v.Identifier)
	}
	return nil
}

// get reads u into v, waiting as told when a request status is polled too
// soon or the server sheds load (429 or 503 with Retry-After), a few times
// at most.
func get(ctx context.Context, u, token string, v any) error {
	for try := 0; ; try++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
		if err != nil {
			return err
		}
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			return err
		}
		if (res.StatusCode == http.StatusTooManyRequests || res.StatusCode == http.StatusServiceUnavailable) && try < 5 {
			secs, _ := strconv.Atoi(res.Header.Get("Retry-After"))
			res.Body.Close()
			time.Sleep(time.Duration(max(secs, 1)) * time.Second)
			continue
		}
		return decode(res, v)
	}
}

// decode reads a 200 answer into v.
func decode(res *http.Response, v any) error {
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %.200s", res.Status, b)
	}
	return json.Unmarshal(b, v)
}

// resubmit sends every unknown request again, with its correlation id and
// body. One that was stored must be answered with its first answer (the
// same id); any must now be acknowledged.
func resubmit(t *testing.T, base, token string, entries []*entry, s *snapshot) counts {
	var c counts
	cl := newClient(base, token)
	for _, e := range entries {
		if e.outcome != unknown {
			continue
		}
		n, id := stored(s, e)
		again := *e
		for try := 0; try < 5; try++ {
			cl.post(t.Context(), &again)
			if again.status != http.StatusServiceUnavailable {
				break
			}
			time.Sleep(time.Second) // shed: Retry-After is a second
		}
		e.resent = true
		c.sent++
		switch {
		case again.outcome != acked:
			t.Errorf("%s %s sent again: %d %s %.200s", e.kind, e.corr, again.status, again.err, again.answer)
			c.lost++
		case n == 1 && again.id == id:
			c.replayed++
		case n == 1:
			t.Errorf("%s %s sent again: answered %s, the first attempt stored %s", e.kind, e.corr, again.id, id)
			c.duplicated++
		}
	}
	return c
}
