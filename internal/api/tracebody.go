package api

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/tracing"
)

// traceSpecies are the species a trace may be narrowed to, spelled in its
// body as the store spells them (Sheep, Goats, Deer, Cattle).
var traceSpecies = []livestock.Species{livestock.SpeciesSheep, livestock.SpeciesGoats, livestock.SpeciesDeer, livestock.SpeciesCattle}

// readTrace decodes and checks a trace's body; every fault is a 400 naming
// the member and the rule.
func readTrace(body io.Reader) (tracing.Query, error) {
	var req traceRequest
	dec := json.NewDecoder(body)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return tracing.Query{}, livestock.Invalid("the body is not a trace", livestock.FieldError{Code: livestock.CodeMalformedJSON,
			Source: "body", Message: "must be a JSON object with holding or animal, from, to, direction and hops: " + err.Error()})
	}
	bad := func(code livestock.Code, member, value, rule string) (tracing.Query, error) {
		return tracing.Query{}, livestock.Invalid("the trace is not valid", livestock.FieldError{Code: code, Source: "/" + member, Value: value, Message: rule})
	}
	var q tracing.Query
	switch {
	case (req.Holding == nil) == (req.Animal == nil):
		return bad(livestock.CodeMissing, "holding", "", "give exactly one of holding (a CPH) and animal (a tag)")
	case req.Holding != nil:
		c, err := livestock.ParseCPH(*req.Holding)
		if err != nil {
			return bad(livestock.CodeBadFormat, "holding", *req.Holding, "must be a CPH, CC/PPP/HHHH")
		}
		q.Holding = c
	default:
		if *req.Animal == "" || len(*req.Animal) > 40 {
			return bad(livestock.CodeBadLength, "animal", *req.Animal, "must be an animal's tag, 1 to 40 characters")
		}
		q.Animal = *req.Animal
	}
	for _, d := range []struct {
		name string
		v    *string
		to   *time.Time
	}{{"from", req.From, &q.From}, {"to", req.To, &q.To}} {
		if d.v == nil {
			return bad(livestock.CodeMissing, d.name, "", "required: a date, YYYY-MM-DD")
		}
		v, rule := recordDate(*d.v)
		if rule != "" {
			return bad(livestock.CodeBadFormat, d.name, *d.v, rule)
		}
		*d.to = v.Time()
	}
	if err := checkWindow(q.From, q.To, "/from", "/to", maxTraceDays); err != nil {
		return tracing.Query{}, err
	}
	if req.Direction == nil {
		return bad(livestock.CodeMissing, "direction", "", "required: backward, forward or both")
	}
	switch d := tracing.Direction(*req.Direction); d {
	case tracing.Backward, tracing.Forward, tracing.Both:
		q.Direction = d
	default:
		return bad(livestock.CodeBadEnum, "direction", *req.Direction, "must be backward, forward or both")
	}
	if req.Hops == nil {
		return bad(livestock.CodeMissing, "hops", "", fmt.Sprintf("required: 0 to %d", maxTraceHops))
	}
	if *req.Hops < 0 || *req.Hops > maxTraceHops {
		return bad(livestock.CodeSchema, "hops", strconv.Itoa(*req.Hops), fmt.Sprintf("must be 0 to %d", maxTraceHops))
	}
	q.Hops = *req.Hops
	if req.Species != nil {
		sp, err := store.ParseSpecies(*req.Species)
		if err != nil || !slices.Contains(traceSpecies, sp) {
			return bad(livestock.CodeBadEnum, "species", *req.Species, "must be Sheep, Goats, Deer or Cattle")
		}
		q.Species = sp
	}
	return q, nil
}

// checkWindow refuses a window that ends before it starts or spans more
// than max days.
func checkWindow(from, to time.Time, fromAt, toAt string, max int) error {
	if to.Before(from) {
		return livestock.Invalid("the window ends before it starts", livestock.FieldError{Code: livestock.CodeSchema,
			Source: toAt, Value: to.Format(time.DateOnly), Message: "must not be before " + fromAt})
	}
	if days := int(to.Sub(from).Hours()/24) + 1; days > max {
		return livestock.Invalid("the window is too long", livestock.FieldError{Code: livestock.CodeSchema,
			Source: toAt, Value: to.Format(time.DateOnly), Message: fmt.Sprintf("the window is %d days; at most %d", days, max)})
	}
	return nil
}

func newTraceBody(q tracing.Query, res tracing.Result) traceBody {
	b := traceBody{Query: traceQueryBody{Holding: q.Holding.String(), Animal: q.Animal, From: day(q.From), To: day(q.To),
		Direction: string(q.Direction), Hops: q.Hops, Species: store.SpeciesName(q.Species)},
		Origins: []stayBody{}, Holdings: []reachedBody{}, Animals: []contactBody{}, AnimalsCut: res.AnimalsCut, MovementsRead: res.Read}
	for _, o := range res.Origins {
		b.Origins = append(b.Origins, newStay(o))
	}
	// Paths share their first movements, so each movement's body is made
	// once and its lists shared by every path that takes it.
	moves := map[int64]traceMovementBody{}
	for _, h := range res.Holdings {
		body := func(p []store.Movement) []traceMovementBody {
			out := make([]traceMovementBody, 0, len(p))
			for _, m := range p {
				mb, ok := moves[m.ID]
				if !ok {
					mb = newTraceMovement(m)
					moves[m.ID] = mb
				}
				out = append(out, mb)
			}
			return out
		}
		rb := reachedBody{Holding: h.Holding.String(), Direction: string(h.Direction), Hops: h.Hops, Date: day(h.Date), Path: body(h.Path)}
		if h.DatePath != nil {
			rb.DatePath = body(h.DatePath)
		}
		b.Holdings = append(b.Holdings, rb)
	}
	for _, c := range res.Animals {
		cb := contactBody{Identifier: c.Animal.Identifier.String(), Species: store.SpeciesName(c.Animal.Species), State: c.Animal.State.String(),
			SharedHolding: c.Stay.Holding.String(), From: day(c.Stay.From), To: day(c.Stay.To), MovementID: c.Stay.Movement}
		if !c.Animal.CPH.IsZero() {
			cb.Holding = c.Animal.CPH.String()
		}
		if cb.SharedHolding != "" {
			cb.MovementID = 0
		}
		b.Animals = append(b.Animals, cb)
	}
	return b
}

// writeTraceJSON writes b as writeJSON would, byte for byte, but a holding
// at a time through a buffer: a market's trace reaches a fifth of the
// registry, tens of megabytes that need not be one buffer first.
func writeTraceJSON(w http.ResponseWriter, b traceBody) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	var err error
	put := func(prefix string, v any) {
		bw.WriteString(prefix)
		var enc []byte
		if enc, err = json.Marshal(v); err == nil {
			bw.Write(enc)
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	put(`{"query":`, b.Query)
	put(`,"origins":`, b.Origins)
	sep := `,"holdings":[`
	for i := 0; i < len(b.Holdings) && err == nil; i++ {
		put(sep, b.Holdings[i])
		sep = ","
	}
	if len(b.Holdings) == 0 {
		bw.WriteString(sep)
	}
	if err == nil {
		put(`],"animals":`, b.Animals)
	}
	if err != nil {
		return err
	}
	if b.AnimalsCut {
		bw.WriteString(`,"animalsTruncated":true`)
	}
	bw.WriteString(`,"movementsRead":` + strconv.Itoa(b.MovementsRead) + "}\n")
	return bw.Flush()
}

// traceCSV is a trace as rows: a holding reached per row (its path as
// movement ids and holdings), then an animal per row.
func traceCSV(b traceBody) [][]string {
	rows := [][]string{{"kind", "direction", "holding", "hops", "date", "path_movements", "path_holdings", "identifier", "now_on"}}
	for _, h := range b.Holdings {
		var ids, via []string
		for i, m := range h.Path {
			ids = append(ids, strconv.FormatInt(m.MovementID, 10))
			if i == 0 {
				via = append(via, m.Source)
			}
			via = append(via, m.Destination)
		}
		rows = append(rows, []string{"holding", h.Direction, h.Holding, strconv.Itoa(h.Hops), h.Date, strings.Join(ids, " "), strings.Join(via, ">"), "", ""})
	}
	for _, a := range b.Animals {
		rows = append(rows, []string{"animal", "", a.SharedHolding, "", a.From, "", "", a.Identifier, a.Holding})
	}
	return rows
}

// traceDOT is a trace as a GraphViz digraph: the origins boxed, holdings
// reached forwards red and backwards blue, each path movement an edge
// labelled with its id and date.
func traceDOT(b traceBody) []byte {
	var out bytes.Buffer
	q := strconv.Quote
	out.WriteString("digraph trace {\n  rankdir=LR;\n  node [shape=ellipse];\n")
	for _, o := range b.Origins {
		fmt.Fprintf(&out, "  %s [shape=box, style=bold];\n", q(o.Holding))
	}
	// A holding reached both ways is one node, labelled with both (and
	// drawn purple); each movement is one edge, dashed when it is only on
	// a date path.
	type node struct {
		lines   []string
		colours map[string]bool
	}
	nodes, order := map[string]*node{}, []string{}
	colourOf := func(direction string) string {
		if direction == string(tracing.Backward) {
			return "blue"
		}
		return "red"
	}
	for _, h := range b.Holdings {
		n := nodes[h.Holding]
		if n == nil {
			n = &node{lines: []string{h.Holding}, colours: map[string]bool{}}
			nodes[h.Holding] = n
			order = append(order, h.Holding)
		}
		n.lines = append(n.lines, fmt.Sprintf("%s %d hop(s), %s", h.Direction, h.Hops, h.Date))
		n.colours[colourOf(h.Direction)] = true
	}
	for _, name := range order {
		n, colour := nodes[name], "red"
		switch {
		case len(n.colours) > 1:
			colour = "purple"
		case n.colours["blue"]:
			colour = "blue"
		}
		fmt.Fprintf(&out, "  %s [color=%s, label=%s];\n", q(name), colour, q(strings.Join(n.lines, "\n")))
	}
	seen := map[int64]bool{}
	for _, h := range b.Holdings {
		for _, p := range []struct {
			moves []traceMovementBody
			style string
		}{{h.Path, ""}, {h.DatePath, ", style=dashed"}} {
			for _, m := range p.moves {
				if seen[m.MovementID] {
					continue
				}
				seen[m.MovementID] = true
				fmt.Fprintf(&out, "  %s -> %s [color=%s%s, label=%s];\n", q(m.Source), q(m.Destination), colourOf(h.Direction), p.style,
					q(fmt.Sprintf("%d %s", m.MovementID, m.TransferDate)))
			}
		}
	}
	out.WriteString("}\n")
	return out.Bytes()
}
