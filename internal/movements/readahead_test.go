package movements

import (
	"slices"
	"testing"
)

// TestAppendTags: what readAhead reads of a stored transfer is what its
// job will ask for: every tag number, plain or with detail.
func TestAppendTags(t *testing.T) {
	t.Parallel()
	v := testVocab(t)
	content := `{"transferDate":"2026-11-03","species":"Sheep","userHolding":"01/100/0257","sourceHolding":"01/100/0257",` +
		`"destinationHolding":"01/100/0264","animalCount":3,"movementGroups":[{"devices":[{"tagNumber":"UK0130181 00001"},` +
		`{"tagNumber":"UK013018100002"}]},{"devicesWithDetail":[{"device":{"tagNumber":"UK0130181 00003"},"breed":"TEX"}]}]}`
	d, err := v.decodeTransfer([]byte(content))
	if err != nil {
		t.Fatal(err)
	}
	got, want := appendTags(nil, normalised(d.model)), jobTags(d)
	if len(want) != 3 || !slices.Equal(got, want) {
		t.Errorf("read ahead %q; the job asks for %q", got, want)
	}
	for _, seed := range transferSeeds {
		d, err := v.decodeTransfer([]byte(seed))
		if err != nil {
			continue
		}
		for _, tag := range appendTags(nil, normalised(d.model)) {
			if !slices.Contains(jobTags(d), tag) {
				t.Errorf("%s: read ahead %q, which its job does not ask for (%q)", seed, tag, jobTags(d))
			}
		}
	}
}

// jobTags are the identifiers transferFacts asks the store for.
func jobTags(d decoded) []string {
	var tags []string
	for _, dv := range d.t.Devices() {
		if !dv.Value.Tag.IsZero() {
			tags = append(tags, dv.Value.Tag.String())
		}
	}
	return tags
}
