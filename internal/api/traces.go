package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/drover-registry/drover/internal/auth"
	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/tracing"
)

// Bounds of a trace: enough for any outbreak's risk window and for the
// hops a contact tracer follows, small enough that one trace cannot read
// the whole registry many times over.
const (
	maxTraceHops = 6
	maxTraceDays = 366
)

// traceRequest is the body of POST /v1/traces.
type traceRequest struct {
	Holding   *string `json:"holding"`
	Animal    *string `json:"animal"`
	From      *string `json:"from"`
	To        *string `json:"to"`
	Direction *string `json:"direction"`
	Hops      *int    `json:"hops"`
	Species   *string `json:"species"`
}

// traceBody is a trace's answer. writeTraceJSON writes its members one by
// one, in this order: a member added here must be added there too
// (TestWriteTraceJSON compares the two).
type traceBody struct {
	Query         traceQueryBody `json:"query"`
	Origins       []stayBody     `json:"origins"`
	Holdings      []reachedBody  `json:"holdings"`
	Animals       []contactBody  `json:"animals"`
	AnimalsCut    bool           `json:"animalsTruncated,omitempty"` // more than tracing.MaxContacts: the first of them
	MovementsRead int            `json:"movementsRead"`
}

type traceQueryBody struct {
	Holding   string `json:"holding,omitempty"`
	Animal    string `json:"animal,omitempty"`
	From      string `json:"from"`
	To        string `json:"to"`
	Direction string `json:"direction"`
	Hops      int    `json:"hops"`
	Species   string `json:"species,omitempty"`
}

type reachedBody struct {
	Holding   string              `json:"holding"`
	Direction string              `json:"direction"`
	Hops      int                 `json:"hops"`
	Date      string              `json:"date"`
	Path      []traceMovementBody `json:"path"`
	// DatePath is the path that gives Date when Path does not.
	DatePath []traceMovementBody `json:"datePath,omitempty"`
}

// contactBody is an animal a trace found: where it is now, and the stay it
// shared with the traced animal or the movement that carried it.
type contactBody struct {
	Identifier    string `json:"identifier"`
	Species       string `json:"species,omitempty"`
	State         string `json:"state,omitempty"`
	Holding       string `json:"holding,omitempty"` // where it is now
	SharedHolding string `json:"sharedHolding,omitempty"`
	From          string `json:"from,omitempty"`
	To            string `json:"to,omitempty"`
	MovementID    int64  `json:"movementId,omitempty"`
}

// createTrace answers POST /v1/traces, for an inspector: every holding a
// disease could have reached from a holding or an animal over a window,
// hop by hop, as JSON, CSV (Accept: text/csv) or a GraphViz graph (Accept:
// text/vnd.graphviz). Each trace is written to the audit log first.
func (s *Server) createTrace(w http.ResponseWriter, r *http.Request) error {
	u, _ := auth.UserFrom(r.Context())
	if u.Role != livestock.RoleInspector {
		return &livestock.Error{Kind: livestock.KindForbidden, Detail: "only an inspector may trace",
			Fields: []livestock.FieldError{{Code: livestock.CodeForbidden, Source: "role", Value: string(u.Role), Message: "tracing is for the inspector role"}}}
	}
	q, err := readTrace(r.Body)
	if err != nil {
		return err
	}
	started := time.Now()
	res, err := s.tracing.Trace(r.Context(), q)
	if err != nil {
		return err
	}
	if err := s.knownOrReached(r.Context(), q, res); err != nil {
		return err
	}
	if res.Animal != "" {
		q.Animal = res.Animal // the echo and the audit name it as the register does
	}
	body := newTraceBody(q, res)
	if err := s.auditTrace(r, u, body, time.Since(started)); err != nil {
		return err
	}
	w, finish := compressed(w, r)
	switch accepts(r, mediaCSV, mediaDOT) {
	case mediaCSV:
		err = writeCSV(w, traceCSV(body))
	case mediaDOT:
		w.Header().Set("Content-Type", mediaDOT+"; charset=utf-8")
		w.WriteHeader(http.StatusOK)
		_, err = w.Write(traceDOT(body))
	default:
		err = writeTraceJSON(w, body)
	}
	if ferr := finish(); err == nil {
		err = ferr
	}
	return err
}

// auditTrace writes who traced what, and what it found, to the audit log.
func (s *Server) auditTrace(r *http.Request, u livestock.User, b traceBody, took time.Duration) error {
	subject := "Holdings(" + b.Query.Holding + ")"
	if b.Query.Animal != "" {
		subject = "Animals(" + b.Query.Animal + ")"
	}
	detail, err := json.Marshal(map[string]any{"query": b.Query, "holdings": len(b.Holdings), "animals": len(b.Animals),
		"movementsRead": b.MovementsRead, "ms": took.Milliseconds()})
	if err != nil {
		return err
	}
	return s.store.InTx(r.Context(), func(ctx context.Context, tx store.Tx) error {
		return tx.Audit(ctx, store.AuditEntry{At: time.Now(), UserName: u.Name, Action: "trace", Subject: subject,
			CorrelationID: correlationID(r.Context()), Detail: string(detail)})
	})
}

// knownOrReached refuses a trace from a holding the register does not
// know and no movement names: to an officer an empty answer there reads
// as "no contacts" when the CPH was mistyped. A holding known only from
// movements (data loaded for tracing) is traced, whatever the window.
func (s *Server) knownOrReached(ctx context.Context, q tracing.Query, res tracing.Result) error {
	if q.Holding.IsZero() || len(res.Holdings) > 0 {
		return nil
	}
	_, err := s.store.Holding(ctx, q.Holding)
	if !livestock.IsNotFound(err) {
		return err
	}
	if named, err := s.tracing.Named(ctx, q.Holding); named || err != nil {
		return err
	}
	detail := fmt.Sprintf("no holding %s is registered, and no movement names it", q.Holding)
	return &livestock.Error{Kind: livestock.KindNotFound, Detail: detail,
		Fields: []livestock.FieldError{{Code: livestock.CodeNotFound, Source: "/holding", Value: q.Holding.String(), Message: detail}}}
}
