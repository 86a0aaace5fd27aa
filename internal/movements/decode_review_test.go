package movements

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/drover-registry/drover/internal/livestock"
)

// liveReview is a review as a client generated from the live definition
// posts it: every integer it does not know is 0 (the batch lines'
// batchMovementId, the model's id, the flag's processingFlagId), and the
// flag's name is a placeholder of any length.
func liveReview(batch string) []byte {
	return []byte(`{"holding":"01/100/0264","id":0,"trackingId":"t-1",` +
		`"processingFlags":[{"processingFlagId":0,"name":"` + strings.Repeat("a placeholder name ", 5) + `"}],` +
		`"reviewMovement":{"requestId":7,"isAccepted":true,"arrivalDate":"2026-11-03T09:00:00+00:00","animalTotal":3,` +
		`"acceptedDevices":[{"tagNumber":"UK0130181 00001"}],"acceptedBatches":[` + batch + `]}}`)
}

// TestDecodeReviewGeneratedClient: what the live schema accepts is read
// with its meaning. batchMovementId 0 is one not given (the batch is named
// by its number, and the stored content drops the 0); a flag's name is not
// bounded here (an unknown one is the job's V023). A negative id, or a
// batch named by nothing, is still refused at the member.
func TestDecodeReviewGeneratedClient(t *testing.T) {
	t.Parallel()
	r, w, err := decodeReview(liveReview(`{"batchMovementId":0,"batchNumber":"UK130181","idMark":"x","stockType":"Ewes","animalTotal":2}`))
	if err != nil {
		t.Fatalf("decodeReview: %v", err)
	}
	if len(r.AcceptedBatches) != 1 || r.AcceptedBatches[0].ID != 0 || !r.AcceptedBatches[0].HasNumber ||
		r.AcceptedBatches[0].Number.String() != "UK130181" || r.AcceptedBatches[0].Total != 2 {
		t.Errorf("batch %+v, want UK130181 by number, 2 animals", r.AcceptedBatches)
	}
	stored, _ := json.Marshal(w)
	if strings.Contains(string(stored), "batchMovementId") {
		t.Errorf("the stored content keeps the 0 id: %s", stored)
	}
	if len(w.ProcessingFlags) != 1 || len(w.ProcessingFlags[0].Name) < 90 {
		t.Errorf("flags %+v, want the long name kept", w.ProcessingFlags)
	}

	for _, tt := range []struct{ batch, source string }{
		{`{"batchMovementId":-1,"batchNumber":"UK130181"}`, "/content/reviewMovement/acceptedBatches/0/batchMovementId"},
		{`{"batchMovementId":0,"animalTotal":2}`, "/content/reviewMovement/acceptedBatches/0/batchMovementId"},
		{`{"batchMovementId":0,"batchNumber":"","animalTotal":2}`, "/content/reviewMovement/acceptedBatches/0/batchNumber"},
	} {
		_, _, err := decodeReview(liveReview(tt.batch))
		var e *livestock.Error
		if !errors.As(err, &e) || len(e.Fields) != 1 || e.Fields[0].Source != tt.source {
			t.Errorf("%s: %v, want one error at %s", tt.batch, err, tt.source)
		}
	}
}
