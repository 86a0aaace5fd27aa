package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// record is the part of a request record the tests read.
type record struct {
	RequestID     int64  `json:"requestId"`
	RequestStatus string `json:"requestStatus"`
	MovementDate  string `json:"movementDate"`
	UserName      string `json:"userName"`
	IsFullUndone  bool   `json:"isFullUndone"`
	UndoSupported bool   `json:"undoSupported"`
	TrackingID    string `json:"trackingId"`
	Errors        []struct{ Code, Message, Target string }
	Warnings      []struct{ Code, Message, Target string }
	Content       json.RawMessage
}

// applied reports whether the record's request took effect: Success, or
// CompletedWarning when it has warnings.
func (r record) applied() bool {
	return r.RequestStatus == "Success" && len(r.Warnings) == 0 || r.RequestStatus == "CompletedWarning" && len(r.Warnings) > 0
}

func (r record) codes() (errs, warns []string) {
	for _, e := range r.Errors {
		errs = append(errs, e.Code)
	}
	for _, w := range r.Warnings {
		warns = append(warns, w.Code)
	}
	return errs, warns
}

// post submits a body to a collection and returns the response.
func (b *bundle) post(token, collection string, body any, headers ...string) response {
	b.t.Helper()
	data, err := json.Marshal(body)
	if err != nil {
		b.t.Fatal(err)
	}
	return b.do(http.MethodPost, "/v1/"+collection, token, strings.NewReader(string(data)), append([]string{"Content-Type", "application/json"}, headers...)...)
}

// submit posts a request and waits until its job has decided it.
func (b *bundle) submit(token, collection string, content any) record {
	b.t.Helper()
	res := b.post(token, collection, map[string]any{"content": content})
	if res.status != http.StatusCreated {
		b.t.Fatalf("POST %s = %d %s", collection, res.status, res.body)
	}
	var rec record
	res.decode(&rec)
	if rec.RequestStatus != "Pending" {
		b.t.Fatalf("POST %s answered %s, want Pending", collection, rec.RequestStatus)
	}
	return b.await(token, collection, rec.RequestID)
}

// awaitLimit bounds how long await polls: a check that the job runs at
// all, not of its speed. A transfer of 30,000 tags under the race
// detector, beside the package's parallel tests, has taken over 20 s.
const awaitLimit = 2 * time.Minute

// await polls a request until it is no longer Pending, then reads it
// with its content. The polls leave the content out: a large request's,
// read every 10 ms, took the processor its own job needed.
func (b *bundle) await(token, collection string, id int64) record {
	b.t.Helper()
	deadline := time.Now().Add(awaitLimit)
	for query := "?$select=requestStatus"; ; {
		var rec record
		res := b.do(http.MethodGet, fmt.Sprintf("/v1/%s(%d)%s", collection, id, query), token, nil)
		if res.status != http.StatusOK {
			b.t.Fatalf("GET %s(%d) = %d %s", collection, id, res.status, res.body)
		}
		res.decode(&rec)
		switch {
		case rec.RequestStatus == "Pending" && time.Now().After(deadline):
			b.t.Fatalf("%s(%d) still Pending after %s", collection, id, awaitLimit)
		case rec.RequestStatus == "Pending":
			time.Sleep(10 * time.Millisecond)
		case query != "?$expand=content":
			query = "?$expand=content"
		default:
			return rec
		}
	}
}

// sheep builds the devices of sheep tags of flock 130181 by number.
func sheep(flock string, numbers ...int) []map[string]any {
	var out []map[string]any
	for _, n := range numbers {
		out = append(out, map[string]any{"tagNumber": fmt.Sprintf("UK0%s %05d", flock, n)})
	}
	return out
}

// transfer builds a transfer payload.
func transfer(date, from, to, user string, devices []map[string]any, batches []map[string]any) map[string]any {
	count := len(devices)
	for _, b := range batches {
		count += b["animalTotal"].(int)
	}
	group := map[string]any{"devices": devices}
	if len(batches) > 0 {
		group["batches"] = batches
	}
	if devices == nil {
		group["devices"] = []map[string]any{}
	}
	return map[string]any{
		"transferDate": date, "species": "Sheep", "userHolding": user,
		"sourceHolding": from, "destinationHolding": to, "animalCount": count,
		"movementGroups": []map[string]any{group},
	}
}

func day(offset int) string {
	loc, err := time.LoadLocation("Europe/London")
	if err != nil {
		loc = time.UTC
	}
	return time.Now().In(loc).AddDate(0, 0, offset).Format(time.DateOnly)
}
