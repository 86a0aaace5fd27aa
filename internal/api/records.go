package api

import (
	"encoding/json"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/movements"
	"github.com/drover-registry/drover/internal/store"
)

// requestRecord is a movement request on the wire: the live service's
// request record (domain-notes §1), plus movementDate, which $filter
// compares.
type requestRecord struct {
	Context          string          `json:"@odata.context,omitempty"`
	RequestID        int64           `json:"requestId"`
	RequestType      string          `json:"requestType"`
	RequestStatus    string          `json:"requestStatus"`
	RequestDate      string          `json:"requestDate"`
	UpdatedDate      string          `json:"updatedDate"`
	MovementDate     *string         `json:"movementDate"`
	Species          *string         `json:"species"`
	TrackingID       *string         `json:"trackingId"`
	UserName         string          `json:"userName"`
	IsFullUndone     bool            `json:"isFullUndone"`
	UndoSupported    bool            `json:"undoSupported"`
	IsContentPurged  bool            `json:"isContentPurged"`
	Errors           []problemError  `json:"errors"`
	Warnings         []problemError  `json:"warnings"`
	ValidationErrors []problemError  `json:"validationErrors"`
	MovementDocument *movementDoc    `json:"movementDocument"`
	Corrected        *int64          `json:"requestToBeCorrected_ID,omitempty"`
	Undone           *int64          `json:"requestToBeUndone_ID,omitempty"`
	Reviewed         *int64          `json:"reviewedRequestId,omitempty"`
	Content          json.RawMessage `json:"content,omitempty"`
}

type movementDoc struct {
	DocumentType        string `json:"documentType"`
	MovementDocumentRef string `json:"movementDocumentRef"`
}

// record renders r; content is included for $expand=content.
func record(r store.Request, context string, content bool) requestRecord {
	rec := requestRecord{
		Context: context, RequestID: r.ID, RequestType: string(r.Type), RequestStatus: string(r.Status),
		RequestDate: instant(r.RequestDate), UpdatedDate: instant(r.UpdatedDate), UserName: r.UserName,
		IsFullUndone: r.IsFullUndone, UndoSupported: r.UndoSupported,
		MovementDate: optionalInstant(r.MovementDate), Species: optionalString(r.Species), TrackingID: optionalString(r.TrackingID),
		Errors: wireErrors(r.Errors), Warnings: wireErrors(r.Warnings),
	}
	if r.DocumentRef != "" {
		rec.MovementDocument = &movementDoc{DocumentType: movements.DocumentType, MovementDocumentRef: r.DocumentRef}
	}
	if r.TargetID != 0 {
		id := r.TargetID
		switch r.Type {
		case store.RequestCorrection:
			rec.Corrected = &id
		case store.RequestUndo:
			rec.Undone = &id
		case store.RequestReview:
			rec.Reviewed = &id
		}
	}
	if content {
		rec.Content = r.Content
	}
	return rec
}

func wireErrors(errs []livestock.FieldError) []problemError {
	out := make([]problemError, 0, len(errs))
	for _, e := range errs {
		out = append(out, problemError{Code: e.Code, Message: e.Message, Source: e.Source, Value: e.Value})
	}
	return out
}

func instant(t time.Time) string { return t.UTC().Format(time.RFC3339) }

func optionalInstant(t time.Time) *string {
	if t.IsZero() {
		return nil
	}
	s := instant(t)
	return &s
}

func optionalString(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
