package movements

import (
	"testing"

	"github.com/drover-registry/drover/internal/store"
)

// TestLiveContent: content stored before the live shapes reads back in
// them; content in the live shape, and content that no longer reads, as
// stored.
func TestLiveContent(t *testing.T) {
	t.Parallel()
	s := &Service{vocab: testVocab(t)}
	const holdings = `"species":"Sheep","userHolding":"01/100/0257","sourceHolding":"01/100/0257","destinationHolding":"01/100/0264"`
	for _, tc := range []struct {
		typ           store.RequestType
		stored, shown string
	}{
		{store.RequestTransfer,
			`{"transferDate":"2026-11-03",` + holdings + `,"animalCount":1,"movementGroups":[{"devicesWithDetail":[{"tagNumber":"UK0130181 00001","rfid":"0826013018100001","breed":"TEX","sex":"Male"}]}],"deviceApplication":"2026-11-01","processingFlags":["SLAU"]}`,
			`{"transferDate":"2026-11-03T00:00:00Z",` + holdings + `,"animalCount":1,"movementGroups":[{"devicesWithDetail":[{"device":{"tagNumber":"UK0130181 00001","rfid":"0826013018100001"},"breed":"Texel","gender":"Male"}]}],` +
				`"deviceApplication":{"dateOfApplication":"2026-11-01T00:00:00Z"},"processingFlags":[{"processingFlagId":101,"name":"SLAU"}]}`},
		{store.RequestCorrection,
			`{"requestToBeCorrected_ID":7,"transferDate":"2026-11-03",` + holdings + `,"animalCount":1,"movementGroups":[{"batches":[{"batchNumber":"UK130181","animalTotal":1}]}]}`,
			`{"requestToBeUndone_ID":7,"transferDate":"2026-11-03T00:00:00Z",` + holdings + `,"animalCount":1,"movementGroups":[{"batches":[{"batchNumber":"UK130181","animalTotal":1}]}]}`},
		{store.RequestUndo, `{"requestToBeUndone_ID":7}`, `{"undoRequestId":7}`},
		// Live already: shown as stored, even where a re-encoding would differ.
		{store.RequestTransfer, `{"transferDate":"2026-11-03T00:00:00Z", "species":"Sheep"}`, `{"transferDate":"2026-11-03T00:00:00Z", "species":"Sheep"}`},
		{store.RequestUndo, `{"undoRequestId":7}`, `{"undoRequestId":7}`},
		// A free-text deviceApplication, which Drover once took, no longer reads.
		{store.RequestTransfer, `{"transferDate":"2026-11-03",` + holdings + `,"animalCount":1,"deviceApplication":"by hand"}`,
			`{"transferDate":"2026-11-03",` + holdings + `,"animalCount":1,"deviceApplication":"by hand"}`},
		{store.RequestReview, `{"holding":"01/100/0264"}`, `{"holding":"01/100/0264"}`},
		{store.RequestTransfer, ``, ``},
	} {
		got := s.liveContent(store.Request{Type: tc.typ, Content: []byte(tc.stored)})
		if string(got.Content) != tc.shown {
			t.Errorf("%s %s shown as\n%s\nwant\n%s", tc.typ, tc.stored, got.Content, tc.shown)
		}
	}
}
