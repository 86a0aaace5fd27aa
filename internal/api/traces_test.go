package api_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/sandbox"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// traceSetup starts a server whose registry has one movement: keeper1's
// cow from keeper1's producer holding to keeper2's, completed on 5 March
// 2025. It returns the cow's tag and the two holdings.
func traceSetup(t *testing.T, s store.Store) (*bundle, string, string, string) {
	b := setup(t, s, api.Config{})
	cow, from, to := sandbox.Keepers[0].Cow().String(), sandbox.Keepers[0].ProducerCPH().String(), sandbox.Keepers[1].ProducerCPH().String()
	src, dst := sandbox.Keepers[0].ProducerCPH(), sandbox.Keepers[1].ProducerCPH()
	day := time.Date(2025, 3, 5, 0, 0, 0, 0, time.UTC)
	err := s.InTx(context.Background(), func(ctx context.Context, tx store.Tx) error {
		id, err := tx.InsertRequest(ctx, store.Request{Type: store.RequestTransfer, Status: store.StatusSuccess, UserName: "keeper1",
			RequestDate: day, UpdatedDate: day, CorrelationID: "c", Holdings: []livestock.CPH{src, dst}, Content: []byte(`{}`)})
		if err != nil {
			return err
		}
		m := store.Movement{ID: id, UserName: "keeper1", Species: livestock.SpeciesCattle, Source: src, Destination: dst, TransferDate: day, ArrivalDate: day,
			State: store.MovementCompleted, AnimalCount: 1, ReportedBy: store.SideDeparture,
			Devices: []store.MovementDevice{{Identifier: sandbox.Keepers[0].Cow().Tag(), PriorCPH: src, PriorOnSince: sandbox.Since, Outcome: "accepted"}}}
		if err := tx.InsertMovement(ctx, m); err != nil {
			return err
		}
		return tx.MoveAnimals(ctx, []string{cow}, dst, day)
	})
	if err != nil {
		t.Fatal(err)
	}
	return b, cow, from, to
}

func escCPH(c string) string { return strings.ReplaceAll(c, "/", "%2F") }

// TestTraceEndpoint: the inspector traces keeper1's holding forward and
// finds keeper2's, with the path and the cow where it is now, in JSON,
// CSV and DOT; each trace is in the audit log; a keeper may not trace.
func TestTraceEndpoint(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b, cow, from, to := traceSetup(t, s)
		insp := b.token(sandbox.Inspector)
		body := `{"holding":"` + from + `","from":"2025-03-01","to":"2025-03-30","direction":"both","hops":3}`
		res := b.do(http.MethodPost, "/v1/traces", insp, strings.NewReader(body), "Content-Type", "application/json")
		if res.status != http.StatusOK {
			t.Fatalf("trace: %d %s", res.status, res.body)
		}
		var got struct {
			Holdings []struct {
				Holding, Direction string
				Hops               int
				Path               []struct{ MovementID int64 }
			}
			Animals []struct{ Identifier, Holding string }
		}
		res.decode(&got)
		if len(got.Holdings) != 1 || got.Holdings[0].Holding != to || got.Holdings[0].Direction != "forward" || got.Holdings[0].Hops != 1 ||
			len(got.Holdings[0].Path) != 1 {
			t.Errorf("holdings = %+v, want %s forward at one hop", got.Holdings, to)
		}
		if len(got.Animals) != 1 || got.Animals[0].Identifier != cow || got.Animals[0].Holding != to {
			t.Errorf("animals = %+v, want the cow, now on %s", got.Animals, to)
		}
		csv := b.do(http.MethodPost, "/v1/traces", insp, strings.NewReader(body), "Content-Type", "application/json", "Accept", "text/csv")
		if !strings.HasPrefix(csv.header.Get("Content-Type"), "text/csv") || !strings.Contains(string(csv.body), "holding,forward,"+to+",1,2025-03-05") {
			t.Errorf("CSV: %s %s", csv.header.Get("Content-Type"), csv.body)
		}
		dot := b.do(http.MethodPost, "/v1/traces", insp, strings.NewReader(body), "Content-Type", "application/json", "Accept", "text/vnd.graphviz")
		if !strings.HasPrefix(string(dot.body), "digraph trace {") || !strings.Contains(string(dot.body), `"`+from+`" -> "`+to+`"`) {
			t.Errorf("DOT: %s", dot.body)
		}
		var entries []store.AuditEntry
		err := s.InTx(context.Background(), func(ctx context.Context, tx store.Tx) (err error) {
			entries, err = storetest.AuditEntries(ctx, tx, "Holdings("+from+")")
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(entries) != 3 || entries[0].UserName != sandbox.Inspector || entries[0].Action != "trace" ||
			!strings.Contains(entries[0].Detail, `"hops":3`) || entries[0].CorrelationID == "" {
			t.Errorf("audit = %+v, want three traces by the inspector, each with its query", entries)
		}
		// A client that asks for gzip gets the same answer compressed; one
		// that refuses it gets it plain.
		plain := b.do(http.MethodPost, "/v1/traces", insp, strings.NewReader(body), "Content-Type", "application/json", "Accept-Encoding", "gzip;q=0")
		zipped := b.do(http.MethodPost, "/v1/traces", insp, strings.NewReader(body), "Content-Type", "application/json", "Accept-Encoding", "gzip")
		if plain.header.Get("Content-Encoding") != "" || zipped.header.Get("Content-Encoding") != "gzip" {
			t.Fatalf("Content-Encoding: refused %q, asked %q", plain.header.Get("Content-Encoding"), zipped.header.Get("Content-Encoding"))
		}
		zr, err := gzip.NewReader(bytes.NewReader(zipped.body))
		if err != nil {
			t.Fatal(err)
		}
		unzipped, err := io.ReadAll(zr)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(unzipped, plain.body) || !json.Valid(plain.body) {
			t.Errorf("gzipped answer differs from the plain one:\n%s\n%s", unzipped, plain.body)
		}
		if res := b.do(http.MethodPost, "/v1/traces", b.token("keeper1"), strings.NewReader(body), "Content-Type", "application/json"); res.status != http.StatusForbidden {
			t.Errorf("keeper1 traced: %d %s", res.status, res.body)
		}
		// An animal named in another form is echoed, and audited, as the
		// register prints it.
		spaced := cow[:2] + " " + cow[2:8] + " " + cow[8:]
		byAnimal := b.do(http.MethodPost, "/v1/traces", insp, strings.NewReader(`{"animal":"`+spaced+`","from":"2025-03-01","to":"2025-03-30","direction":"both","hops":1}`),
			"Content-Type", "application/json")
		var echo struct{ Query struct{ Animal string } }
		byAnimal.decode(&echo)
		if byAnimal.status != http.StatusOK || echo.Query.Animal != cow {
			t.Errorf("trace of %q: %d, query.animal %q; want 200 echoing %s", spaced, byAnimal.status, echo.Query.Animal, cow)
		}
		err = s.InTx(context.Background(), func(ctx context.Context, tx store.Tx) (err error) {
			entries, err = storetest.AuditEntries(ctx, tx, "Animals("+cow+")")
			return err
		})
		if err != nil || len(entries) != 1 {
			t.Errorf("audit of the animal's trace = %+v, %v; want one entry under Animals(%s)", entries, err, cow)
		}
	})
}

// TestTraceBadInput: each fault is a 400 naming the member at fault.
func TestTraceBadInput(t *testing.T) {
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		insp := b.token(sandbox.Inspector)
		for _, tc := range []struct{ body, member string }{
			{`{"holding":"01/100/0257","from":"2025-03-01","to":"2025-03-30","direction":"both","hops":7}`, "hops"},
			{`{"holding":"01/100/0257","from":"2025-03-01","to":"2025-03-30","direction":"both","hops":-1}`, "hops"},
			{`{"holding":"01/100/0257","from":"2025-03-30","to":"2025-03-01","direction":"both","hops":3}`, "to"},
			{`{"holding":"01/100/0257","from":"2024-01-01","to":"2025-03-01","direction":"both","hops":3}`, "to"},
			{`{"holding":"01/100/0257","from":"2025-02-30","to":"2025-03-01","direction":"both","hops":3}`, "from"},
			{`{"holding":"01/100/0257","from":"2025-03-01","to":"2025-03-30","direction":"sideways","hops":3}`, "direction"},
			{`{"holding":"01/100/0257","animal":"UK442501300001","from":"2025-03-01","to":"2025-03-30","direction":"both","hops":3}`, "holding"},
			{`{"from":"2025-03-01","to":"2025-03-30","direction":"both","hops":3}`, "holding"},
			{`{"holding":"not a cph","from":"2025-03-01","to":"2025-03-30","direction":"both","hops":3}`, "holding"},
			{`{"holding":"01/100/0257","from":"2025-03-01","direction":"both","hops":3}`, "to"},
			{`{"holding":"01/100/0257","from":"0001-01-01","to":"0001-01-30","direction":"both","hops":3}`, "from"},
		} {
			res := b.do(http.MethodPost, "/v1/traces", insp, strings.NewReader(tc.body), "Content-Type", "application/json")
			if res.status != http.StatusBadRequest {
				t.Errorf("%s: %d, want 400", tc.body, res.status)
				continue
			}
			if p := res.problem(); !strings.Contains(p.Errors[0].Source, tc.member) {
				t.Errorf("%s: errors %+v, want the first at %s", tc.body, p.Errors, tc.member)
			}
		}
		// An animal no one registered is a 404 at the member that named it.
		body := `{"animal":"UK999999900001","from":"2025-03-01","to":"2025-03-30","direction":"both","hops":3}`
		res := b.do(http.MethodPost, "/v1/traces", insp, strings.NewReader(body), "Content-Type", "application/json")
		if res.status != http.StatusNotFound {
			t.Fatalf("unknown animal: %d %s, want 404", res.status, res.body)
		}
		if p := res.problem(); len(p.Errors) != 1 || p.Errors[0].Source != "/animal" || p.Errors[0].Value != "UK999999900001" {
			t.Errorf("unknown animal: errors %+v, want one at /animal naming it", p.Errors)
		}
		// So is a holding no one registered and no movement names: a typo,
		// not a holding without contacts.
		body = `{"holding":"99/999/9999","from":"2025-03-01","to":"2025-03-30","direction":"both","hops":3}`
		res = b.do(http.MethodPost, "/v1/traces", insp, strings.NewReader(body), "Content-Type", "application/json")
		if p := res.problem(); res.status != http.StatusNotFound || len(p.Errors) != 1 || p.Errors[0].Source != "/holding" {
			t.Errorf("unknown holding: %d %+v, want 404 at /holding", res.status, p.Errors)
		}
		// A registered holding without movements is traced: nothing reached.
		body = `{"holding":"01/100/0262","from":"2025-03-01","to":"2025-03-30","direction":"both","hops":3}`
		if res = b.do(http.MethodPost, "/v1/traces", insp, strings.NewReader(body), "Content-Type", "application/json"); res.status != http.StatusOK {
			t.Errorf("a quiet holding: %d %s, want 200", res.status, res.body)
		}
	})
}
