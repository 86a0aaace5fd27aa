package movements

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/drover-registry/drover/internal/jsonwire"
	"github.com/drover-registry/drover/internal/livestock"
)

// reviewFlag is one processingFlags item of a review: the live
// {processingFlagId, name} object, or, as an alias, the name alone as a
// string. It is stored as the object.
type reviewFlag struct {
	ProcessingFlagID *int64 `json:"processingFlagId,omitempty"`
	Name             string `json:"name"`
}

// UnmarshalJSON reads the object (unknown members refused) or a string.
func (f *reviewFlag) UnmarshalJSON(data []byte) error {
	if bytes.HasPrefix(bytes.TrimSpace(data), []byte(`"`)) {
		*f = reviewFlag{}
		return json.Unmarshal(data, &f.Name)
	}
	type plain reviewFlag // without this method
	var p plain
	if err := jsonwire.Decode(data, &p); err != nil {
		return err
	}
	*f = reviewFlag(p)
	return nil
}

// checkReviewFlags reports each flag that names nothing. Whether a name
// is a known processing flag is the job's to check, against standing data.
func checkReviewFlags(flags []reviewFlag) []livestock.FieldError {
	var errs []livestock.FieldError
	for i, f := range flags {
		if f.Name == "" {
			errs = append(errs, livestock.FieldError{Code: livestock.CodeMissing, Source: fmt.Sprintf("/content/processingFlags/%d/name", i),
				Message: "a processing flag is named by its name"})
		}
	}
	return errs
}

// unknownReviewFlags reports each flag whose name is not a processing
// flag of standing data.
func (s *Service) unknownReviewFlags(flags []reviewFlag) []livestock.FieldError {
	var errs []livestock.FieldError
	for i, f := range flags {
		if !s.vocab.knownFlag(f.Name, 0) {
			errs = append(errs, livestock.FieldError{Code: livestock.CodeFlagUnknown, Source: fmt.Sprintf("/content/processingFlags/%d/name", i),
				Value: f.Name, Message: fmt.Sprintf("%q is not a processing flag (see /v1/StandingData/processingFlags)", f.Name)})
		}
	}
	return errs
}
