package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"testing"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// rewritten is body as a client that serialises its request again for a
// retry might send it: indented, and every object's members in reverse
// order.
func rewritten(t *testing.T, body any) []byte {
	t.Helper()
	data, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	var write func(v json.RawMessage, indent string)
	write = func(v json.RawMessage, indent string) {
		var members map[string]json.RawMessage
		var items []json.RawMessage
		switch {
		case json.Unmarshal(v, &members) == nil && members != nil:
			names := slices.Sorted(maps.Keys(members))
			slices.Reverse(names)
			b.WriteString("{")
			for i, name := range names {
				if i > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, "\n%s  %q : ", indent, name)
				write(members[name], indent+"  ")
			}
			b.WriteString("\n" + indent + "}")
		case json.Unmarshal(v, &items) == nil && items != nil:
			b.WriteString("[ ")
			for i, item := range items {
				if i > 0 {
					b.WriteString(", ")
				}
				write(item, indent)
			}
			b.WriteString(" ]")
		default:
			b.Write(v)
		}
	}
	write(data, "")
	b.WriteString("\n")
	if bytes.Equal(b.Bytes(), data) || !json.Valid(b.Bytes()) {
		t.Fatalf("rewriting %s gave %s", data, b.Bytes())
	}
	return b.Bytes()
}

// TestRetryWrittenAgain: a retry whose client serialised the request again
// (other spacing, members in another order) is the same request: it gets
// the first answer and stores nothing, on both interfaces. The same
// request in another mode, or another request, is still V004.
func TestRetryWrittenAgain(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		k1 := b.token("keeper1")
		post := func(path string, body []byte, headers ...string) response {
			return b.do(http.MethodPost, path, k1, bytes.NewReader(body), append([]string{"Content-Type", "application/json"}, headers...)...)
		}
		replayed := func(name string, first, again response) {
			t.Helper()
			if again.status != first.status || !bytes.Equal(again.body, first.body) || again.header.Get("Idempotent-Replayed") != "true" {
				t.Errorf("%s: retry written again = %d %s (Idempotent-Replayed %q); want the first answer %d %s",
					name, again.status, again.body, again.header.Get("Idempotent-Replayed"), first.status, first.body)
			}
		}
		mismatch := func(name string, res response) {
			t.Helper()
			if res.status != http.StatusBadRequest || res.problem().Errors[0].Code != "V004" {
				t.Errorf("%s: %d %s, want 400 V004", name, res.status, res.body)
			}
		}

		transferBody := map[string]any{"content": transfer(day(0), farm1, farm2, farm1, sheep("130181", 1), nil)}
		data, _ := json.Marshal(transferBody)
		first := post("/v1/TransferRequests", data, "X-Correlation-ID", "move-1")
		if first.status != http.StatusCreated {
			t.Fatalf("transfer: %d %s", first.status, first.body)
		}
		replayed("transfer", first, post("/v1/TransferRequests", rewritten(t, transferBody), "X-Correlation-ID", "move-1"))
		other := map[string]any{"content": transfer(day(0), farm1, farm2, farm1, sheep("130181", 2), nil)}
		mismatch("another transfer written again", post("/v1/TransferRequests", rewritten(t, other), "X-Correlation-ID", "move-1"))

		const cow = "UK442501300001"
		for i, mode := range []string{"sync", "async"} {
			body := calf("UK442501"+checkDigit(t, "442501", 111+i)+fmt.Sprintf("%05d", 111+i), cow, day(-3))
			data, _ := json.Marshal(body)
			corr := "reg-" + mode
			first := post("/v1/animals", data, "X-Correlation-ID", corr, "x-Request-Mode", mode)
			if first.status != map[string]int{"sync": 200, "async": 202}[mode] {
				t.Fatalf("%s registration: %d %s", mode, first.status, first.body)
			}
			replayed(mode+" registration", first, post("/v1/animals", rewritten(t, body), "X-Correlation-ID", corr, "x-Request-Mode", mode))
			otherMode := map[string]string{"sync": "async", "async": "sync"}[mode]
			mismatch(mode+" registration written again in "+otherMode+" mode",
				post("/v1/animals", rewritten(t, body), "X-Correlation-ID", corr, "x-Request-Mode", otherMode))
		}

		var list struct{ Value []record }
		b.do(http.MethodGet, "/v1/TransferRequests", k1, nil).decode(&list)
		if len(list.Value) != 1 {
			t.Errorf("keeper1 has %d transfer requests after the retries, want 1", len(list.Value))
		}
	})
}
