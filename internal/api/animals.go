package api

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/drover-registry/drover/internal/auth"
	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/registration"
	"github.com/drover-registry/drover/internal/store"
)

// registerAnimal answers POST /v1/animals: 200 with the identifier in
// sync mode (the default), 202 with a request id in async mode.
func (s *Server) registerAnimal(w http.ResponseWriter, r *http.Request) error {
	u, _ := auth.UserFrom(r.Context())
	async, err := requestMode(r)
	if err != nil {
		return err
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return err
	}
	mode := "sync"
	if async {
		mode = "async"
	}
	sum := sha256.Sum256([]byte(r.Method + " " + r.URL.Path + " " + mode + "\n" + string(body)))
	id, chosen, source := callerCorrelation(r.Context())
	a, err := s.registration.Submit(r.Context(), registration.Posted{
		User: u, Body: body, Async: async, CorrelationID: id, CorrelationSource: source, Replayable: chosen, Hash: hex.EncodeToString(sum[:]),
		StatusURL: func(id string) string { return "/v1/requeststatus/" + id },
	})
	if err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	if a.RequestID != "" {
		h.Set("X-Request-ID", a.RequestID)
		h.Set("LI-Request-Id", a.RequestID)
	}
	if a.Status == http.StatusAccepted {
		secs := strconv.Itoa(int((s.registration.RetryAfter() + time.Second - 1) / time.Second))
		h.Set("Retry-After", secs)
		h.Set("X-Retry-After", secs)
		h.Set("Location", "/v1/requeststatus/"+a.RequestID)
	}
	w.WriteHeader(a.Status)
	_, err = w.Write(a.Body)
	return err
}

// requestMode reads x-Request-Mode (alias LI-Request-Mode), in any letter
// case: async queues; sync or no header processes at once.
func requestMode(r *http.Request) (bool, error) {
	name, v := "x-Request-Mode", r.Header.Get("x-Request-Mode")
	if v == "" {
		name, v = "LI-Request-Mode", r.Header.Get("LI-Request-Mode")
	}
	if all, ok := conflicting(r.Header, name, func(a, b string) bool { return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b)) }); ok {
		return false, livestock.Invalid("the request mode is given twice", livestock.FieldError{Code: livestock.CodeBadEnum,
			Source: "header:" + name, Value: all, Message: "given more than once, with different values: send one"})
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "sync":
		return false, nil
	case "async":
		return true, nil
	}
	return false, livestock.Invalid("the request mode is not known", livestock.FieldError{Code: livestock.CodeBadEnum,
		Source: "header:" + name, Value: v, Message: "must be sync or async (any letter case)"})
}

// requestStatus answers GET /v1/requeststatus/{requestId}.
func (s *Server) requestStatus(w http.ResponseWriter, r *http.Request) error {
	u, _ := auth.UserFrom(r.Context())
	st, wait, err := s.registration.RequestStatus(r.Context(), u, chi.URLParam(r, "requestId"))
	if livestock.ErrorKind(err) == livestock.KindTooMany {
		retryAfter(w, wait)
	}
	if err != nil {
		return err
	}
	retryAfter(w, wait)
	w.Header().Set("X-Retry-After", w.Header().Get("Retry-After"))
	return writeJSON(w, http.StatusOK, st)
}

// getAnimal answers GET /v1/animals/{identifier}.
func (s *Server) getAnimal(w http.ResponseWriter, r *http.Request) error {
	u, _ := auth.UserFrom(r.Context())
	id, err := decodeParam(chi.URLParam(r, "identifier"))
	if err != nil {
		return err
	}
	a, err := s.registration.Animal(r.Context(), u, id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, animalRecord(a))
}

// animalRecord renders a registered animal: its state and place, and the
// registration details as they were received. Details not recorded are
// absent (the OpenAPI Animal schema).
func animalRecord(a store.Animal) map[string]any {
	var received struct {
		Birth struct {
			Site json.RawMessage `json:"site"`
			Mark string          `json:"mark"`
		} `json:"birth"`
		Registration struct {
			Site json.RawMessage `json:"site"`
		} `json:"registration"`
		ImportParents json.RawMessage `json:"importParents"`
	}
	_ = json.Unmarshal(a.Record, &received) // empty for animals that were never registered here
	birth := map[string]any{"date": a.BirthDate.Format(time.DateOnly)}
	rec := map[string]any{
		"identifier": a.Identifier, "species": strings.ToLower(a.Species), "sex": a.Sex, "state": a.State,
		"holding": a.CPH.String(), "onSince": a.OnSince.Format(time.DateOnly),
		"movementRestricted": a.MovementRestricted, "restrictionReason": nullable(a.RestrictionReason),
		"birth": birth, "death": nil,
	}
	set := func(m map[string]any, k string, v any, present bool) {
		if present {
			m[k] = v
		}
	}
	set(birth, "site", received.Birth.Site, len(received.Birth.Site) > 0)
	set(birth, "mark", received.Birth.Mark, received.Birth.Mark != "")
	for k, v := range map[string]string{"birthDam": a.BirthDam, "geneticDam": a.GeneticDam, "sire": a.Sire} {
		set(birth, k, map[string]string{"identifier": v}, v != "")
	}
	set(rec, "name", a.Name, a.Name != "")
	set(rec, "productionType", a.ProductionType, a.ProductionType != "")
	set(rec, "breed", map[string]string{"code": a.Breed}, a.Breed != "")
	set(rec, "OriginalIdentifier", a.OriginalIdentifier, a.OriginalIdentifier != "")
	set(rec, "importParents", received.ImportParents, len(received.ImportParents) > 0)
	set(rec, "receivedDate", instant(a.ReceivedDate), !a.ReceivedDate.IsZero())
	set(rec, "registeredBy", a.RegisteredBy, a.RegisteredBy != "")
	if a.Category != "" && len(received.Registration.Site) > 0 {
		reg := map[string]any{"category": a.Category, "date": a.RegistrationDate.Format(time.DateOnly), "site": received.Registration.Site}
		set(reg, "identificationDate", a.IdentificationDate.Format(time.DateOnly), !a.IdentificationDate.IsZero())
		rec["registration"] = reg
	}
	if !a.DeathDate.IsZero() {
		rec["death"] = map[string]string{"date": a.DeathDate.Format(time.DateOnly)}
	}
	return rec
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}
