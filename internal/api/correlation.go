package api

import (
	"context"
	"net/http"

	"github.com/google/uuid"

	"github.com/drover-registry/drover/internal/livestock"
)

const (
	headerCorrelation   = "X-Correlation-ID"
	headerCorrelationLI = "LI-Correlation-Id" // the live registration service's name
	maxCorrelationLen   = 128
)

type correlationKey struct{}

type correlation struct {
	id     string
	chosen bool   // the caller sent it (rather than the service allocating it)
	source string // where it was sent, "header:X-Correlation-ID" or "header:LI-Correlation-Id", for errors to name
}

// correlationID returns the request's correlation id.
func correlationID(ctx context.Context) string {
	c, _ := ctx.Value(correlationKey{}).(correlation)
	return c.id
}

// callerCorrelation returns the correlation id as it marks a retry
// (replayKey), whether the caller chose it (only then can it mark a retry
// of the same request) and the header it came in, as an error's source
// names it.
func callerCorrelation(ctx context.Context) (id string, chosen bool, source string) {
	c, _ := ctx.Value(correlationKey{}).(correlation)
	return replayKey(c.id), c.chosen, c.source
}

// replayKey is the form of a correlation id that marks a retry. A UUID may
// come in any form uuid.Parse reads (either case, braces, urn:uuid:, no
// dashes), and LI-Correlation-Id answers every one of them in its lower-case
// dashed form (liCorrelation): a retry sending it back as answered is the
// same request, so every form is keyed as that one. Any other id is
// compared as sent, not as the UUID liCorrelation derives: ids that come
// in order (a counter, a UUIDv7) then keep the replies' unique index
// writing to a few pages (docs/performance.md).
func replayKey(id string) string {
	if u, err := uuid.Parse(id); err == nil {
		return u.String()
	}
	return id
}

// correlate echoes the caller's correlation id (X-Correlation-ID, or its
// alias LI-Correlation-Id) or allocates a UUID, and puts it on every
// response under both names (LI-Correlation-Id as liCorrelation gives it).
// An id that is too long or carries characters other than printable ASCII
// is a 400, since replacing it would defeat the caller's duplicate
// detection; a printable one is still echoed on that 400, as the movements
// document says every response echoes the caller's value, and any other is
// replaced, as echoing it would be unsafe.
func correlate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		dropEmpty(r.Header, headerCorrelation, headerCorrelationLI) // the service allocates one
		id, source, li := r.Header.Get(headerCorrelation), "header:"+headerCorrelation, r.Header.Get(headerCorrelationLI)
		if id == "" {
			id, source = li, "header:"+headerCorrelationLI
		}
		bad, sent := "", id
		for _, h := range []string{headerCorrelation, headerCorrelationLI} {
			if all, ok := conflicting(r.Header, h, sameCorrelation); ok { // which would mark the retry?
				bad, source, sent = "is given more than once, with different values; give it once", "header:"+h, all
			}
		}
		switch {
		case bad != "":
		case id != "" && !printableASCII(id):
			bad = "must be printable ASCII (spaces allowed between other characters)"
		case len(id) > maxCorrelationLen: // printable ASCII: a byte is a character
			bad = "must be at most 128 characters"
		case li != "" && !sameCorrelation(li, id) && li != liCorrelation(id):
			// Both names, with different ids: which would mark the retry?
			// (LI-Correlation-Id as Drover answered it is the same id.)
			bad, source, sent = "differs from "+headerCorrelation+", its other name: send one, or both alike", "header:"+headerCorrelationLI, li
		}
		chosen := bad == "" && id != ""
		// A refused id is still echoed when it was the one value sent and
		// is printable (too long, say); otherwise the service allocates one.
		if echo := bad != "" && sent == id && printableASCII(id); !chosen && !echo {
			id = uuid.NewString()
		}
		w.Header().Set(headerCorrelation, id)
		w.Header().Set(headerCorrelationLI, liCorrelation(id))
		if bad != "" {
			writeProblemFor(w, r, livestock.Invalid("the correlation id cannot be used",
				livestock.FieldError{Code: livestock.CodeBadFormat, Message: bad, Source: source, Value: truncate(sent, 64)}))
			return
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), correlationKey{}, correlation{id, chosen, source})))
	})
}

// sameCorrelation reports whether a and b are one correlation id: the
// same as a retry is keyed (replayKey), so a UUID in any of its forms.
func sameCorrelation(a, b string) bool { return replayKey(a) == replayKey(b) }

// printableASCII reports whether s is printable ASCII with no space at
// either end (HTTP trims those): "batch 42/request 7" is an id, as the live
// service takes "any value that makes the request globally unique".
func printableASCII(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] > '~' {
			return false
		}
	}
	return true
}

// correlationSpace is the namespace of the UUIDs liCorrelation derives.
var correlationSpace = uuid.NewSHA1(uuid.NameSpaceURL, []byte("urn:drover:correlation-id"))

// liCorrelation is the LI-Correlation-Id answered for correlation id id.
// The live registration service declares it a UUID (lower-case hex), so
// an id that is a UUID is sent in that form, and any other id as a UUID
// derived from it (version 5): the same id always gives the same UUID, so
// a log still correlates, while X-Correlation-ID echoes the id as sent. A
// retry sends the id as it was sent: the derived UUID is another id.
func liCorrelation(id string) string {
	if u, err := uuid.Parse(id); err == nil {
		return u.String()
	}
	return uuid.NewSHA1(correlationSpace, []byte(id)).String()
}
