package api

import (
	"net/http"
	"time"

	"github.com/go-chi/chi/v5"

	"github.com/drover-registry/drover/internal/auth"
	"github.com/drover-registry/drover/internal/movements"
	"github.com/drover-registry/drover/internal/odata"
	"github.com/drover-registry/drover/internal/store"
)

// reviewItem is a movement awaiting review, as the review look-up shows it.
type reviewItem struct {
	RequestID          int64        `json:"requestId"`
	MovementDate       string       `json:"movementDate"`
	TransferDate       string       `json:"transferDate"`
	Species            string       `json:"species"`
	SourceHolding      string       `json:"sourceHolding"`
	DestinationHolding string       `json:"destinationHolding"`
	UserName           string       `json:"userName"`
	AnimalCount        int          `json:"animalCount"`
	Devices            []reviewTag  `json:"devices"`
	Batches            []reviewLot  `json:"batches"`
	ProcessingFlags    []string     `json:"processingFlags"`
	MovementDocument   *movementDoc `json:"movementDocument"`
}

type reviewTag struct {
	TagNumber string `json:"tagNumber"`
	RFID      string `json:"rfid,omitempty"`
}

type reviewLot struct {
	BatchNumber string `json:"batchNumber"`
	AnimalTotal int    `json:"animalTotal"`
}

// awaitingReview answers both forms of the review look-up.
func (s *Server) awaitingReview(w http.ResponseWriter, r *http.Request) error {
	u, _ := auth.UserFrom(r.Context())
	q, err := odata.ParseQuery(r.URL.Query(), store.ReviewFilterFields, s.cfg.MaxPage)
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
	page := collection{Context: s.baseURL(r) + "/v1/$metadata#" + reviewSet, Value: make([]any, 0, len(list))}
	for _, m := range list {
		item := reviewItem{RequestID: m.RequestID, MovementDate: instant(m.TransferDate), TransferDate: m.TransferDate.Format(time.DateOnly),
			Species: m.Species, SourceHolding: m.Source, DestinationHolding: m.Destination, UserName: m.UserName,
			AnimalCount: m.AnimalCount, Devices: []reviewTag{}, Batches: []reviewLot{}, ProcessingFlags: m.Flags,
			MovementDocument: &movementDoc{DocumentType: movements.DocumentType, MovementDocumentRef: movements.DocumentRef(m.ID)}}
		if item.ProcessingFlags == nil {
			item.ProcessingFlags = []string{}
		}
		for _, d := range m.Devices {
			item.Devices = append(item.Devices, reviewTag{TagNumber: d.Identifier, RFID: d.RFID})
		}
		for _, b := range m.Batches {
			item.Batches = append(item.Batches, reviewLot{BatchNumber: b.BatchNumber, AnimalTotal: b.AnimalTotal})
		}
		page.Value = append(page.Value, item)
	}
	if more && !q.HasTop {
		page.NextLink = s.nextLink(r, q, "", list[len(list)-1].ID, nil)
	}
	return writeJSON(w, http.StatusOK, page)
}
