package api

import (
	"encoding/json"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
)

// requestRecord is a movement request on the wire: the live service's
// request record (CLAOData.Models.Transfer.Transfer and its three
// siblings), plus the members the interface document names as fields of
// the resources and $filter compares: movementDate, species, trackingId.
type requestRecord struct {
	Context         string          `json:"@odata.context,omitempty"`
	RequestID       int64           `json:"requestId"`
	RequestDate     string          `json:"requestDate"`
	UpdatedDate     string          `json:"updatedDate"`
	RequestStatus   string          `json:"requestStatus"`
	UserName        string          `json:"userName"`
	Errors          []singleError   `json:"errors"`
	Warnings        []singleError   `json:"warnings"`
	UndoSupported   bool            `json:"undoSupported"`
	IsContentPurged bool            `json:"isContentPurged"`
	IsFullUndone    bool            `json:"isFullUndone"`
	Content         json.RawMessage `json:"content,omitempty"`
	MovementDate    *string         `json:"movementDate"`
	Species         *string         `json:"species"`
	TrackingID      *string         `json:"trackingId"`
}

// singleError is one error or warning of a request record, as the live
// service writes it (CLAOData.Models.SingleError): its code, the live
// catalogue's for the rule where it has one, and where in the content it
// is, as a property path.
type singleError struct {
	Message string `json:"message"`
	Code    string `json:"code"`
	Target  string `json:"target,omitempty"`
}

// movementDoc names the movement document Drover issues for a movement,
// as the review look-up shows it.
type movementDoc struct {
	DocumentType        string `json:"documentType"`
	MovementDocumentRef string `json:"movementDocumentRef"`
}

// endpoints are the live error catalogues of the four request types.
var endpoints = map[store.RequestType]livestock.Endpoint{
	store.RequestTransfer:   livestock.EndpointTransfer,
	store.RequestCorrection: livestock.EndpointCorrection,
	store.RequestReview:     livestock.EndpointReview,
	store.RequestUndo:       livestock.EndpointUndo,
}

// record renders r; content is included for $expand=content.
func record(r store.Request, context string, content bool) requestRecord {
	ep := endpoints[r.Type]
	rec := requestRecord{
		Context: context, RequestID: r.ID, RequestStatus: string(r.Status),
		RequestDate: instant(r.RequestDate), UpdatedDate: instant(r.UpdatedDate), UserName: r.UserName,
		IsFullUndone: r.IsFullUndone, UndoSupported: r.UndoSupported,
		MovementDate: optionalInstant(r.MovementDate), Species: orNull(store.SpeciesName(r.Species)), TrackingID: orNull(r.TrackingID),
		Errors: singleErrors(ep, r.Errors), Warnings: singleErrors(ep, r.Warnings),
	}
	if content {
		rec.Content = r.Content
	}
	return rec
}

func singleErrors(ep livestock.Endpoint, errs []livestock.FieldError) []singleError {
	out := make([]singleError, 0, len(errs))
	for _, e := range errs {
		out = append(out, singleError{Code: e.LiveCode(ep), Message: e.Message, Target: livestock.Target(e.Source)})
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
