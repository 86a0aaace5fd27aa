package replay

import "github.com/google/uuid"

// correlationSpace is the namespace of the UUIDs Key derives.
var correlationSpace = uuid.NewSHA1(uuid.NameSpaceURL, []byte("urn:drover:correlation-id"))

// Key is the form of a correlation id that marks a retry, and under which
// its answer is kept: a UUID, as LI-Correlation-Id answers it. An id that
// is a UUID is written in lower case; any other id becomes the UUID derived
// from it (version 5), the same for the same id. So a retry sending back
// the id as sent or as answered is the same request.
func Key(id string) string {
	if u, err := uuid.Parse(id); err == nil {
		return u.String()
	}
	return uuid.NewSHA1(correlationSpace, []byte(id)).String()
}
