package api

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/drover-registry/drover/internal/auth"
	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/registration"
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
		h.Set("Location", s.baseURL(r)+"/v1"+registration.StatusPath(a.RequestID))
	}
	markReplayed(h, a.Replayed)
	w.WriteHeader(a.Status)
	answer := a.Body
	if !bytes.HasSuffix(answer, []byte("\n")) {
		// Every other JSON answer ends its line (writeJSON); a registration's
		// body is kept for replays as it was first encoded, without one.
		answer = append(slices.Clip(answer), '\n')
	}
	_, err = w.Write(answer)
	return err
}

// requestMode reads x-Request-Mode (alias LI-Request-Mode), in any letter
// case: async queues; sync or no header processes at once. The two names
// given with different values are refused, as one name given twice is:
// neither can be chosen without the client knowing.
func requestMode(r *http.Request) (bool, error) {
	same := func(a, b string) bool { return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b)) }
	name, v := "x-Request-Mode", r.Header.Get("x-Request-Mode")
	if li := r.Header.Get("LI-Request-Mode"); v == "" {
		name, v = "LI-Request-Mode", li
	} else if li != "" && !same(v, li) {
		return false, livestock.Invalid("the request mode is given twice", livestock.FieldError{Code: livestock.CodeBadEnum,
			Source: "header:LI-Request-Mode", Value: li, Message: "differs from x-Request-Mode (" + v + "), its other name: send one, or both alike"})
	}
	if all, ok := conflicting(r.Header, name, same); ok {
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
	// The wait goes under both names the registration document gives it,
	// on a poll too soon as on a status.
	if err == nil || livestock.ErrorKind(err) == livestock.KindTooMany {
		retryAfter(w, wait)
		w.Header().Set("X-Retry-After", w.Header().Get("Retry-After"))
	}
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, st)
}

// getAnimal answers GET /v1/animals/{identifier} with the live Animal.
func (s *Server) getAnimal(w http.ResponseWriter, r *http.Request) error {
	u, _ := auth.UserFrom(r.Context())
	id, err := decodeParam(chi.URLParam(r, "identifier"))
	if err != nil {
		return err
	}
	rec, err := s.registration.AnimalRecord(r.Context(), u, id)
	if err != nil {
		return err
	}
	return writeJSON(w, http.StatusOK, rec)
}
