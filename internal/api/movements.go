package api

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strconv"

	"github.com/go-chi/chi/v5"

	"github.com/drover-registry/drover/internal/auth"
	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/movements"
	"github.com/drover-registry/drover/internal/odata"
	"github.com/drover-registry/drover/internal/store"
)

// collectionNames maps request types to their collection in the path.
var collectionNames = map[store.RequestType]string{
	store.RequestTransfer:   "TransferRequests",
	store.RequestCorrection: "CorrectTransferRequests",
	store.RequestReview:     "ReviewHoldingMovementRequests",
	store.RequestUndo:       "UndoRequests",
}

// reviewSet is the entity set of movements awaiting review.
const reviewSet = "HoldingMovementForReviews"

// submitRequest answers POST to a request collection: 201 with the
// request record, Pending; the job decides it.
func (s *Server) submitRequest(typ store.RequestType) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		u, _ := auth.UserFrom(r.Context())
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return err
		}
		sum := sha256.Sum256([]byte(r.Method + " " + r.URL.Path + "\n" + string(body)))
		id, chosen, source := callerCorrelation(r.Context())
		ctxURL := s.baseURL(r) + "/v1/$metadata#" + collectionNames[typ] + "/$entity"
		a, err := s.movements.Submit(r.Context(), typ, movements.Posted{
			User: u, Body: body, CorrelationID: id, CorrelationSource: source, Replayable: chosen, Hash: hex.EncodeToString(sum[:]),
			Render: func(req store.Request) (int, []byte, error) {
				b, err := json.Marshal(record(req, ctxURL, true))
				return http.StatusCreated, b, err
			},
		})
		if err != nil {
			return err
		}
		w.Header().Set("Content-Type", "application/json")
		rid := strconv.FormatInt(a.RequestID, 10)
		if a.RequestID == 0 { // a reply kept before migration 00008
			rid = requestIDOf(a.Body)
		}
		w.Header().Set("Location", s.baseURL(r)+"/v1/"+collectionNames[typ]+"("+rid+")")
		markReplayed(w.Header(), a.Replayed)
		w.WriteHeader(a.Status)
		_, err = w.Write(a.Body)
		return err
	}
}

// getRequest answers GET Collection({requestId}).
func (s *Server) getRequest(typ store.RequestType) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		u, _ := auth.UserFrom(r.Context())
		id, err := strconv.ParseInt(chi.URLParam(r, "requestId"), 10, 64)
		if err != nil || id < 1 {
			return livestock.Invalid("the request id is not valid", livestock.FieldError{Code: livestock.CodeBadFormat,
				Source: "path:requestId", Value: chi.URLParam(r, "requestId"), Message: "must be a positive integer"})
		}
		q, err := odata.Parse(r.URL.Query(), s.requestEntity(typ))
		if err != nil {
			return err
		}
		req, err := s.movements.Request(r.Context(), u, typ, id)
		if err != nil {
			return err
		}
		b, err := appendRecord(nil, record(req, contextURL(s.baseURL(r), collectionNames[typ], q)+"/$entity", q.Shows("content")), q)
		if err != nil {
			return err
		}
		return writeBody(w, http.StatusOK, append(b, '\n'))
	}
}

// listRequests answers GET Collection with OData paging, in id order or
// the caller's $orderby.
func (s *Server) listRequests(typ store.RequestType) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		u, _ := auth.UserFrom(r.Context())
		q, err := odata.Parse(r.URL.Query(), s.requestCollection(typ))
		if err != nil {
			return err
		}
		list, more, err := s.movements.Requests(r.Context(), u, typ, q, s.cfg.MaxPage)
		if err != nil {
			return err
		}
		var count *int64
		if q.Count {
			n, err := s.movements.CountRequests(r.Context(), u, typ, q)
			if err != nil {
				return err
			}
			count = &n
		}
		p := newPage(contextURL(s.baseURL(r), collectionNames[typ], q), count, s.cfg.MaxPageBytes)
		defer p.free()
		content := q.Shows("content")
		for _, req := range list {
			mark := p.open()
			if p.b, err = appendRecord(p.b, record(req, "", content), q); err != nil {
				return err
			}
			// A page asked for with $top is sent whole, in parts: it has no
			// next link (livestock-movements.md, result sets 4 and 5).
			if q.HasTop {
				if err := p.keep(w); err != nil {
					return err
				}
			} else if !p.close(mark) {
				break
			}
		}
		// Without $top the page ends early when its items outgrow the
		// byte budget; the next link goes on after the last item written.
		list = list[:p.items]
		next := ""
		if more && !q.HasTop || p.cut {
			last := list[len(list)-1]
			var fields []string
			for _, o := range q.Order(store.RequestKey) {
				fields = append(fields, o.Field)
			}
			next = s.nextLink(r, q, []string{store.RequestKey}, last.ID, last.Values(fields))
		}
		return p.send(w, http.StatusOK, p.end(next))
	}
}

// countRequests answers GET Collection/$count: how many requests the
// listing with the same $filter pages through, as text/plain.
func (s *Server) countRequests(typ store.RequestType) handlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		u, _ := auth.UserFrom(r.Context())
		q, err := odata.Parse(r.URL.Query(), odata.Collection{Fields: store.RequestFilterFieldsOf(typ), Format: true, MaxPage: s.cfg.MaxPage, Single: true})
		if err != nil {
			return err
		}
		n, err := s.movements.CountRequests(r.Context(), u, typ, q)
		if err != nil {
			return err
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusOK)
		_, err = io.WriteString(w, strconv.FormatInt(n, 10))
		return err
	}
}

// validHoldings answers POST /v1/Holdings/ValidHoldings.
func (s *Server) validHoldings(w http.ResponseWriter, r *http.Request) error {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return err
	}
	results, err := s.movements.ValidHoldings(r.Context(), body)
	if err != nil {
		return err
	}
	live := make([]validHolding, len(results))
	named := make([]validHolding, len(results))
	for i, res := range results {
		live[i] = validHolding{Holding: res.Holding, State: int(res.State), PropertyName: orNull(res.PropertyName)}
		named[i] = live[i]
		named[i].State = holdingStateNames[res.State]
	}
	return writeJSON(w, http.StatusOK, validHoldingsAnswer{ValidateResults: live, Content: validHoldingsContent{named}})
}

// validHoldingsAnswer is the answer of Holdings/ValidHoldings: the live
// definition's ValidHoldingsResponse (state 1 or 2), and beside it the
// same results wrapped in content with the state by name, as the live
// definition's example and Drover before it wrote them.
type validHoldingsAnswer struct {
	ValidateResults []validHolding       `json:"validateResults"`
	Content         validHoldingsContent `json:"content"`
}

type validHoldingsContent struct {
	ValidateResults []validHolding `json:"validateResults"`
}

type validHolding struct {
	Holding      string  `json:"holding"`
	State        any     `json:"state"` // 1 or 2; "Valid" or "Invalid" in content
	PropertyName *string `json:"propertyName"`
}

var holdingStateNames = map[movements.HoldingState]string{movements.HoldingValid: "Valid", movements.HoldingInvalid: "Invalid"}

// requestIDOf reads requestId back from a rendered record.
func requestIDOf(body []byte) string {
	var rec struct {
		RequestID int64 `json:"requestId"`
	}
	_ = json.Unmarshal(body, &rec)
	return strconv.FormatInt(rec.RequestID, 10)
}
