package api

import (
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/tracing"
)

// Wire types of the tracing endpoints (Drover's own, not the live
// service's): an animal's history, a holding's register and movements,
// and traces. Dates are YYYY-MM-DD; a member with no value is left out.

// traceMovementBody is one movement as tracing shows it: a hop of a path,
// a line of a holding's movements, a step of an animal's history.
type traceMovementBody struct {
	MovementID   int64           `json:"movementId"`
	RequestID    int64           `json:"requestId"` // the request whose version stands: the transfer, or its latest correction
	ReviewID     int64           `json:"reviewRequestId,omitempty"`
	Direction    string          `json:"direction,omitempty"` // on a holding's list: in or out
	State        string          `json:"state"`
	Species      string          `json:"species"`
	Source       string          `json:"source"`
	Destination  string          `json:"destination"`
	TransferDate string          `json:"transferDate"`
	ArrivalDate  string          `json:"arrivalDate,omitempty"`
	AnimalCount  int             `json:"animalCount"`
	Unnamed      int             `json:"unnamedAnimals,omitempty"` // deer known by a freeze brand alone
	Animals      []deviceBody    `json:"animals"`
	Batches      []batchLineBody `json:"batches"`
}

type deviceBody struct {
	Identifier string `json:"identifier"`
	Outcome    string `json:"outcome,omitempty"` // accepted, rejected; none before review
}

type batchLineBody struct {
	BatchNumber string `json:"batchNumber"`
	AnimalTotal int    `json:"animalTotal"`
	Accepted    int    `json:"accepted"`
}

type stayBody struct {
	Holding    string `json:"holding"`
	From       string `json:"from"`
	To         string `json:"to,omitempty"`
	MovementID int64  `json:"movementId,omitempty"`
}

func day(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.DateOnly)
}

func newTraceMovement(m store.Movement) traceMovementBody {
	b := traceMovementBody{MovementID: m.ID, RequestID: m.RequestID, ReviewID: m.ReviewID, State: string(m.State), Species: store.SpeciesName(m.Species),
		Source: m.Source.String(), Destination: m.Destination.String(), TransferDate: day(m.TransferDate), ArrivalDate: day(m.ArrivalDate),
		AnimalCount: m.AnimalCount, Animals: []deviceBody{}, Batches: []batchLineBody{}}
	if m.State == store.MovementRejected {
		b.ArrivalDate = "" // nothing arrived: the date its review gave is not an arrival
	}
	for _, d := range m.Devices {
		b.Animals = append(b.Animals, deviceBody{Identifier: d.Identifier.String(), Outcome: d.Outcome})
	}
	for _, l := range m.Batches {
		b.Batches = append(b.Batches, batchLineBody{BatchNumber: l.BatchNumber.String(), AnimalTotal: l.AnimalTotal, Accepted: l.Accepted})
	}
	b.Unnamed = m.Unnamed()
	return b
}

func newStay(s tracing.Stay) stayBody {
	return stayBody{Holding: s.Holding.String(), From: day(s.From), To: day(s.To), MovementID: s.Movement}
}

// Media types an endpoint of tracing may answer in, besides JSON.
const (
	mediaCSV = "text/csv"
	mediaDOT = "text/vnd.graphviz"
)

// holdingParam reads a holding from the path: a CPH whose slashes may be
// written %2F.
func holdingParam(v string) (livestock.CPH, error) {
	v = strings.NewReplacer("%2F", "/", "%2f", "/").Replace(v)
	c, err := livestock.ParseCPH(v)
	if err != nil {
		return livestock.CPH{}, livestock.Invalid("the holding is not a CPH", livestock.FieldError{Code: livestock.CodeBadFormat,
			Source: "path:holding", Value: v, Message: "must be a CPH, CC/PPP/HHHH (slashes written %2F)"})
	}
	return c, nil
}

// onlyParams refuses a query parameter that none of names is: tracing's
// endpoints are Drover's own, and a misspelt date (dat=, form=) would
// otherwise answer for today or the default window without a word. (The
// document's check already refuses a parameter given twice.)
func onlyParams(r *http.Request, names ...string) error {
	var unknown []string
	for k := range r.URL.Query() {
		if !slices.Contains(names, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	slices.Sort(unknown) // the same request names the same one
	takes := "takes none"
	if len(names) > 0 {
		takes = "takes " + strings.Join(names, ", ")
	}
	return livestock.Invalid("a query parameter is not known", livestock.FieldError{Code: livestock.CodeBadQuery,
		Source: "query:" + truncate(unknown[0], 100), Value: truncate(strings.Join(unknown, ", "), 200),
		Message: "is not a parameter of this endpoint, which " + takes})
}

// dateParam reads a YYYY-MM-DD query parameter; def when it is absent.
func dateParam(r *http.Request, name string, def time.Time, required bool) (time.Time, error) {
	v := r.URL.Query().Get(name)
	if v == "" {
		if required {
			return time.Time{}, livestock.Invalid("a date is missing", livestock.FieldError{Code: livestock.CodeMissing,
				Source: "query:" + name, Message: "required: a date, YYYY-MM-DD"})
		}
		return def, nil
	}
	d, rule := recordDate(v)
	if rule != "" {
		return time.Time{}, livestock.Invalid("a date is not valid", livestock.FieldError{Code: livestock.CodeBadFormat,
			Source: "query:" + name, Value: v, Message: rule})
	}
	return d.Time(), nil
}

// recordDate reads a date a register or trace is asked about, or says
// which rule v breaks (livestock.ParseRecordDate: a date before the
// register's first is refused, since 0001-01-01 is Go's zero time, which
// an answer would echo as no date).
func recordDate(v string) (livestock.Date, string) {
	d, err := livestock.ParseRecordDate(v)
	if e := (*livestock.Error)(nil); errors.As(err, &e) && len(e.Fields) > 0 {
		return livestock.Date{}, e.Fields[0].Message
	} else if err != nil {
		return livestock.Date{}, err.Error()
	}
	return d, ""
}
