package api

import (
	"net/url"

	"github.com/drover-registry/drover/internal/livestock"
)

// decodeParam percent-decodes a path parameter as the router captured it:
// canonicalPath leaves a slash inside a value escaped (%2F), so a CPH
// arrives as 01%2F100%2F0264 and leaves here as 01/100/0264.
func decodeParam(v string) (string, error) {
	d, err := url.PathUnescape(v)
	if err != nil {
		return "", livestock.Invalid("a path parameter cannot be decoded",
			livestock.FieldError{Code: livestock.CodeBadPath, Message: "cannot be percent-decoded", Value: v})
	}
	return d, nil
}
