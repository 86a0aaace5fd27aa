package movements

import (
	"context"

	"github.com/drover-registry/drover/internal/store"
)

// Approved is an approved movement with what its answer shows beside the
// movement itself: facts of the transfer (or correction) that last made
// it, read from its stored content as the review look-up reads them. A
// string left "" is unknown: the answer shows it as null.
type Approved struct {
	store.ApprovedMovement
	Haulier       string
	Vehicle       string
	DocumentType  string
	DocumentRef   string
	DeviceDetails []DeviceDetail // one for each of Movement.Devices
	BatchDetails  []BatchDetail  // one for each of Movement.Batches
}

// detailApproved adds to each record of list the facts of the request
// that last made its movement, read once for a movement listed twice.
func (s *Service) detailApproved(ctx context.Context, list []store.ApprovedMovement) ([]Approved, error) {
	var ids []int64
	for _, a := range list {
		ids = append(ids, a.RequestID)
	}
	reqs, err := s.store.RequestsByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]Approved, len(list))
	for i, a := range list {
		f := detailReview(a.Movement, reqs[a.RequestID])
		out[i] = Approved{ApprovedMovement: a, Haulier: f.Haulier, Vehicle: f.Vehicle, DocumentType: first(f.DocumentType, DocumentType),
			DocumentRef: first(f.DocumentRef, DocumentRef(a.ID)), DeviceDetails: f.DeviceDetails, BatchDetails: f.BatchDetails}
	}
	return out, nil
}
