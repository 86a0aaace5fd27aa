package api

import (
	"encoding/csv"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/drover-registry/drover/internal/auth"
	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// maxRegisterDays bounds the window of a holding's movements: a year, the
// span of a register a keeper is asked to show.
const maxRegisterDays = 366

type registerBody struct {
	Holding string             `json:"holding"`
	Date    string             `json:"date"`
	Animals []registerAnimal   `json:"animals"`
	Batches []registerBatchSum `json:"batches"`
}

type registerAnimal struct {
	Identifier string `json:"identifier"`
	Species    string `json:"species"`
	Since      string `json:"since"`
	Until      string `json:"until,omitempty"` // the day it left or died, when it has
}

type registerBatchSum struct {
	Species string `json:"species"`
	Count   int    `json:"count"`
}

type holdingMovementsBody struct {
	Holding   string              `json:"holding"`
	From      string              `json:"from"`
	To        string              `json:"to"`
	Movements []traceMovementBody `json:"movements"`
}

// readableHolding is the holding of the path when u may read it; another
// keeper's holding is as absent as one that does not exist.
func (s *Server) readableHolding(r *http.Request, u livestock.User) (livestock.CPH, error) {
	c, err := holdingParam(chi.URLParam(r, "holding"))
	if err != nil {
		return c, err
	}
	if !u.CanRead(c) {
		return c, livestock.Errorf(livestock.KindNotFound, "no holding %s", c)
	}
	_, err = s.store.Holding(r.Context(), c)
	return c, err
}

// holdingAnimals answers GET /v1/holdings/{holding}/animals?date=: the
// register of the holding on that day (today by default).
func (s *Server) holdingAnimals(w http.ResponseWriter, r *http.Request) error {
	u, _ := auth.UserFrom(r.Context())
	c, err := s.readableHolding(r, u)
	if err != nil {
		return err
	}
	if err := onlyParams(r, "date"); err != nil {
		return err
	}
	on, err := dateParam(r, "date", s.tracing.Today(), false)
	if err != nil {
		return err
	}
	reg, err := s.tracing.RegisterOn(r.Context(), c, on)
	if err != nil {
		return err
	}
	body := registerBody{Holding: c.String(), Date: day(on), Animals: []registerAnimal{}, Batches: []registerBatchSum{}}
	for _, a := range reg.Animals {
		body.Animals = append(body.Animals, registerAnimal{Identifier: a.Animal.Identifier.String(), Species: store.SpeciesName(a.Animal.Species),
			Since: day(a.Stay.From), Until: day(a.Stay.To)})
	}
	for sp, n := range reg.Batches {
		body.Batches = append(body.Batches, registerBatchSum{Species: store.SpeciesName(sp), Count: n})
	}
	slices.SortFunc(body.Batches, func(a, b registerBatchSum) int { return strings.Compare(a.Species, b.Species) })
	if accepts(r, mediaCSV) != mediaCSV {
		return writeJSON(w, http.StatusOK, body)
	}
	rows := [][]string{{"kind", "identifier", "species", "count", "since", "until"}}
	for _, a := range body.Animals {
		rows = append(rows, []string{"animal", a.Identifier, a.Species, "1", a.Since, a.Until})
	}
	for _, b := range body.Batches {
		rows = append(rows, []string{"batch", "", b.Species, strconv.Itoa(b.Count), "", ""})
	}
	return writeCSV(w, rows)
}

// holdingMovements answers GET /v1/holdings/{holding}/movements?from=&to=:
// the standing movements that left the holding (by transfer date) or
// reached it (by arrival date) in the window, by date.
func (s *Server) holdingMovements(w http.ResponseWriter, r *http.Request) error {
	u, _ := auth.UserFrom(r.Context())
	c, err := s.readableHolding(r, u)
	if err != nil {
		return err
	}
	if err := onlyParams(r, "from", "to"); err != nil {
		return err
	}
	from, err := dateParam(r, "from", s.tracing.Today(), true)
	if err != nil {
		return err
	}
	to, err := dateParam(r, "to", s.tracing.Today(), true)
	if err != nil {
		return err
	}
	if err := checkWindow(from, to, "query:from", "query:to", maxRegisterDays); err != nil {
		return err
	}
	list, err := s.tracing.HoldingMovements(r.Context(), c, from, to)
	if err != nil {
		return err
	}
	body := holdingMovementsBody{Holding: c.String(), From: day(from), To: day(to), Movements: []traceMovementBody{}}
	for _, m := range list {
		b := newTraceMovement(m)
		b.Direction = "in"
		if m.Source == c {
			b.Direction = "out"
		}
		body.Movements = append(body.Movements, b)
	}
	if accepts(r, mediaCSV) != mediaCSV {
		return writeJSON(w, http.StatusOK, body)
	}
	rows := [][]string{{"movement_id", "request_id", "direction", "state", "species", "source", "destination",
		"transfer_date", "arrival_date", "animal_count", "animals", "batches"}}
	for _, m := range body.Movements {
		rows = append(rows, movementCSVRow(m))
	}
	return writeCSV(w, rows)
}

// movementCSVRow is one movement of a holding's list as CSV: the animals
// and batch animals that moved, as the register counts them. Before a
// review decides, that is every one named; after it, the accepted ones
// (a rejected tag, a batch line accepted in part or not at all).
func movementCSVRow(m traceMovementBody) []string {
	var animals, batches []string
	for _, d := range m.Animals {
		if d.Outcome != "rejected" {
			animals = append(animals, d.Identifier)
		}
	}
	for _, b := range m.Batches {
		n := b.Accepted
		if m.State == string(store.MovementPendingReview) {
			n = b.AnimalTotal
		}
		if n > 0 {
			batches = append(batches, b.BatchNumber+"x"+strconv.Itoa(n))
		}
	}
	if m.Unnamed > 0 && m.State != string(store.MovementRejected) {
		batches = append(batches, "freezebrand x"+strconv.Itoa(m.Unnamed))
	}
	return []string{strconv.FormatInt(m.MovementID, 10), strconv.FormatInt(m.RequestID, 10), m.Direction, m.State,
		m.Species, m.Source, m.Destination, m.TransferDate, m.ArrivalDate, strconv.Itoa(m.AnimalCount),
		strings.Join(animals, ";"), strings.Join(batches, ";")}
}

// writeCSV writes rows as text/csv (RFC 4180), the header row first.
func writeCSV(w http.ResponseWriter, rows [][]string) error {
	w.Header().Set("Content-Type", mediaCSV+"; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	cw := csv.NewWriter(w)
	cw.UseCRLF = true
	if err := cw.WriteAll(rows); err != nil {
		return err
	}
	return cw.Error()
}
