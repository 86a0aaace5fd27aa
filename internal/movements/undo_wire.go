package movements

import (
	"encoding/json"
	"strconv"

	"github.com/drover-registry/drover/internal/livestock"
)

// undoModel is an undo as it is stored and shown under $expand=content:
// the live service's UndoRequestModel.
type undoModel struct {
	UndoRequestID   int64       `json:"undoRequestId"`
	TrackingID      *string     `json:"trackingId,omitempty"`
	ProcessingFlags []flagModel `json:"processingFlags,omitempty"`
}

// undoIn is an undo as a client may post it: the live undoRequestId, or
// requestToBeUndone_ID, the name Drover took first.
type undoIn struct {
	ID                *int64            `json:"id"` // the live model's; Drover's id is the requestId
	UndoRequestID     *int64            `json:"undoRequestId"`
	RequestToBeUndone *int64            `json:"requestToBeUndone_ID"`
	TrackingID        *string           `json:"trackingId"`
	ProcessingFlags   []json.RawMessage `json:"processingFlags"`
}

// undoTarget is where a problem with the request an undo names is shown.
const undoTarget = "/content/undoRequestId"

// decodeUndo reads an undo payload, in the live shape or Drover's earlier
// one, and returns it in the live shape, with the flags' names.
func (v *vocab) decodeUndo(content []byte) (undoModel, []string, error) {
	var in undoIn
	if err := decodeStrict(content, &in); err != nil {
		return undoModel{}, nil, err
	}
	var errs fieldErrs
	var m undoModel
	var named string
	m.UndoRequestID, named = target(&errs, "/content/", member{"undoRequestId", in.UndoRequestID}, member{"requestToBeUndone_ID", in.RequestToBeUndone})
	if m.UndoRequestID < 1 && len(errs) == 0 {
		at := undoTarget
		if named != "" {
			at = "/content/" + named
		}
		errs.bad(livestock.CodeMissing, at, "", "the id of the request to undo is required")
	}
	readTrackingID(&in.TrackingID, &errs)
	m.TrackingID = in.TrackingID
	var names []string
	m.ProcessingFlags, names = v.readFlags(in.ProcessingFlags, "/content/processingFlags", &errs)
	return m, names, errs.err()
}

// unknownFlags fails a request that names a processing flag standing data
// does not have (for species, when it is known).
func (s *Service) unknownFlags(names []string, species livestock.Species) (outcome, bool) {
	var errs []livestock.FieldError
	for i, n := range names {
		if !s.vocab.knownFlag(n, species) {
			errs = append(errs, livestock.FieldError{Code: livestock.CodeFlagUnknown, Source: "/content/processingFlags/" + strconv.Itoa(i) + "/name", Value: n,
				Message: n + " is not a processing flag (see /v1/StandingData/processingFlags)"})
		}
	}
	return outcome{errs: errs}, len(errs) > 0
}
