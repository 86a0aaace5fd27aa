package api

import (
	"net/http"

	"github.com/go-chi/chi/v5"

	"github.com/drover-registry/drover/internal/auth"
	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// historyBody is an animal's life (GET /v1/animals/{identifier}/history),
// or a batch's movements when the identifier is a batch number.
type historyBody struct {
	Identifier string              `json:"identifier,omitempty"`
	Batch      string              `json:"batch,omitempty"`
	Species    string              `json:"species,omitempty"`
	Sex        string              `json:"sex,omitempty"`
	BirthDate  string              `json:"birthDate,omitempty"`
	State      string              `json:"state,omitempty"`
	DeathDate  string              `json:"deathDate,omitempty"`
	Holding    string              `json:"holding,omitempty"` // where it is now, when the reader may see it
	Stays      []stayBody          `json:"stays"`
	Movements  []traceMovementBody `json:"movements"`
}

// animalHistory answers GET /v1/animals/{identifier}/history: every
// movement of the animal in any state, and each holding it has been on. A
// keeper sees the stays on their holdings and the movements from or to
// them; an animal that never was on one is, to them, not there (404).
func (s *Server) animalHistory(w http.ResponseWriter, r *http.Request) error {
	u, _ := auth.UserFrom(r.Context())
	id, err := decodeParam(chi.URLParam(r, "identifier"))
	if err != nil {
		return err
	}
	if err := onlyParams(r); err != nil {
		return err
	}
	h, err := s.tracing.AnimalHistory(r.Context(), id)
	if err != nil {
		return err
	}
	h, ok := h.Seen(func(c livestock.CPH) bool { return !c.IsZero() && u.CanRead(c) })
	if !ok {
		return livestock.Errorf(livestock.KindNotFound, "no animal or batch %q", id)
	}
	body := historyBody{Batch: h.Batch, Stays: []stayBody{}, Movements: []traceMovementBody{}}
	if a := h.Animal; !a.Identifier.IsZero() {
		body.Identifier, body.Species, body.Sex, body.State = a.Identifier.String(), store.SpeciesName(a.Species), a.Sex.String(), a.State.String()
		body.BirthDate, body.DeathDate = day(a.BirthDate), day(a.DeathDate)
		if u.CanRead(a.CPH) {
			body.Holding = a.CPH.String()
		}
	}
	for _, st := range h.Stays {
		body.Stays = append(body.Stays, newStay(st))
	}
	for _, m := range h.Movements {
		body.Movements = append(body.Movements, newTraceMovement(m))
	}
	return writeJSON(w, http.StatusOK, body)
}
