package api

import (
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/drover-registry/drover/internal/auth"
	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/movements"
	"github.com/drover-registry/drover/internal/odata"
	"github.com/drover-registry/drover/internal/store"
)

// reviewItem is a movement awaiting review, as the review look-up shows
// it: the live HoldingMovementForReview. A member Drover does not know is
// null.
type reviewItem struct {
	RequestID                      int64         `json:"requestId"`
	MovementDate                   string        `json:"movementDate"`
	Species                        *string       `json:"species"`
	SourceHolding                  *string       `json:"sourceHolding"`
	DestinationHolding             *string       `json:"destinationHolding"`
	UserHolding                    *string       `json:"userHolding"`
	AnimalTotal                    int           `json:"animalTotal"`
	IsAccepted                     *bool         `json:"isAccepted"` // null: not yet decided, which every item awaiting review is
	IsDuplicate                    bool          `json:"isDuplicate"`
	DuplicateRequestIDs            []int64       `json:"duplicateRequestIds"`
	DocumentType                   *string       `json:"documentType"`
	DocumentRef                    *string       `json:"documentRef"`
	TransportHaulierName           *string       `json:"transportHaulierName"`
	TransportVehicleRegistrationNo *string       `json:"transportVehicleRegistrationNo"`
	ReviewDevices                  []reviewTag   `json:"reviewDevices"`
	ReviewBatches                  []reviewBatch `json:"reviewBatches"`
}

// reviewTag is a device of a movement awaiting review (live ReviewDevice).
type reviewTag struct {
	TagNumber        *string `json:"tagNumber"`
	RFID             *string `json:"rfid"`
	Freezebrand      *string `json:"freezebrand"`
	Breed            *string `json:"breed"`
	BeginBirthPeriod *string `json:"beginBirthPeriod"`
	EndBirthPeriod   *string `json:"endBirthPeriod"`
}

// reviewBatch is a batch line of a movement awaiting review (live
// ReviewBatch): a review names it by its batchMovementId.
type reviewBatch struct {
	BatchMovementID int64   `json:"batchMovementId"`
	BatchNumber     *string `json:"batchNumber"`
	IDMark          *string `json:"idMark"`
	StockType       *string `json:"stockType"`
	AnimalTotal     int     `json:"animalTotal"`
}

// awaitingReview answers both forms of the review look-up.
func (s *Server) awaitingReview(w http.ResponseWriter, r *http.Request) error {
	u, _ := auth.UserFrom(r.Context())
	// $select and $expand as the live definition declares them for the
	// look-up. An item's devices and batches are always written, so
	// expanding them changes nothing; nor does content, accepted for
	// clients that expand it on every collection: an item has none.
	q, err := odata.Parse(r.URL.Query(), odata.Collection{Fields: store.ReviewFilterFields, Members: jsonMembers(reviewItem{}),
		Expand: []odata.Expansion{{Name: "content"}, {Name: "reviewDevices"}, {Name: "reviewBatches"}}, MaxPage: s.cfg.MaxPage})
	if err != nil {
		return err
	}
	species, err := decodeParam(chi.URLParam(r, "species"))
	if err != nil {
		return err
	}
	// The holding is not percent-decoded here: after canonicalPath its
	// only escapes are %2F (a CPH's slashes), which the CPH parser reads,
	// and %25, which no holding holds. Decoding it would read
	// 01%252f100%252f0264 as a CPH, decoded twice.
	holding := chi.URLParam(r, "holding")
	list, more, err := s.movements.AwaitingReview(r.Context(), u, species, holding, q, s.cfg.MaxPage)
	if err != nil {
		return err
	}
	page := collection{Context: contextURL(s.baseURL(r), reviewSet, q), Value: make([]any, 0, len(list))}
	keyed := withKey(q, "requestId") // the key a review names the movement by
	for _, m := range list {
		item, err := selectMembers(newReviewItem(m), keyed)
		if err != nil {
			return err
		}
		page.Value = append(page.Value, item)
	}
	if more && !q.HasTop {
		page.NextLink = s.nextLink(r, q, nil, list[len(list)-1].ID, nil)
	}
	return writeJSON(w, http.StatusOK, page)
}

func newReviewItem(m movements.ForReview) reviewItem {
	item := reviewItem{RequestID: m.RequestID, MovementDate: instant(m.MovementAt), Species: orNull(store.SpeciesName(m.Species)),
		SourceHolding: orNull(m.Source.String()), DestinationHolding: orNull(m.Destination.String()), UserHolding: orNull(m.UserHolding),
		IsDuplicate: len(m.Duplicates) > 0, DuplicateRequestIDs: append([]int64{}, m.Duplicates...),
		DocumentType: orNull(m.DocumentType), DocumentRef: orNull(m.DocumentRef),
		TransportHaulierName: orNull(m.Haulier), TransportVehicleRegistrationNo: orNull(m.Vehicle),
		ReviewDevices: make([]reviewTag, 0, len(m.Devices)), ReviewBatches: make([]reviewBatch, 0, len(m.Batches))}
	for i, d := range m.Devices {
		x := m.DeviceDetails[i]
		item.ReviewDevices = append(item.ReviewDevices, reviewTag{TagNumber: orNull(d.Identifier.String()), RFID: orNull(d.RFID.String()),
			Freezebrand: orNull(x.Freezebrand), Breed: orNull(x.Breed),
			BeginBirthPeriod: orNull(asDateTime(x.BeginBirthPeriod)), EndBirthPeriod: orNull(asDateTime(x.EndBirthPeriod))})
	}
	for _, x := range m.Branded {
		item.ReviewDevices = append(item.ReviewDevices, reviewTag{Freezebrand: orNull(x.Freezebrand), Breed: orNull(x.Breed),
			BeginBirthPeriod: orNull(asDateTime(x.BeginBirthPeriod)), EndBirthPeriod: orNull(asDateTime(x.EndBirthPeriod))})
	}
	item.AnimalTotal = len(item.ReviewDevices)
	for i, b := range m.Batches {
		x := m.BatchDetails[i]
		item.ReviewBatches = append(item.ReviewBatches, reviewBatch{BatchMovementID: b.ID, BatchNumber: orNull(b.BatchNumber.String()),
			IDMark: orNull(x.IDMark), StockType: orNull(x.StockType), AnimalTotal: b.AnimalTotal})
		item.AnimalTotal += b.AnimalTotal
	}
	return item
}

// orNull is s, or null when s is "".
func orNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// asDateTime writes a plain date as the date-time its day starts; any
// other text is left as it is.
func asDateTime(s string) string {
	if len(s) == len("2006-01-02") {
		return s + "T00:00:00Z"
	}
	return s
}

// unquoteKeys lets the review look-up take its key values quoted, as
// OData and the interface document write them (species='Sheep'), or bare,
// as the live path template does (species=Sheep): one pair of single
// quotes around a value is taken off before the request is checked. A
// quote left open is a 400 naming the parameter.
func (s *Server) unquoteKeys(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := chi.RouteContext(r.Context())
		for i, k := range rc.URLParams.Keys {
			v := rc.URLParams.Values[i]
			quoted := len(v) >= 2 && strings.HasPrefix(v, "'") && strings.HasSuffix(v, "'")
			if quoted {
				v = v[1 : len(v)-1]
			}
			if strings.Contains(v, "'") {
				s.fail(w, r, livestock.Invalid("a key value of the path cannot be read", livestock.FieldError{Code: livestock.CodeBadPath,
					Source: "path:" + k, Value: rc.URLParams.Values[i],
					Message: "write the value bare (species=Sheep) or in single quotes (species='Sheep')"}))
				return
			}
			rc.URLParams.Values[i] = v
		}
		next.ServeHTTP(w, r)
	})
}
