package api

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/drover-registry/drover/internal/odata"
)

// appendRecord appends rec as JSON, byte for byte as encoding/json
// writes it and selectMembers then cuts it under q: only the members
// $select names (all with no $select), its annotations, and the members
// $expand names. A listing writes a hundred records a page; written by
// hand, each is encoded once, without reflection and without being read
// back to apply $select.
func appendRecord(b []byte, rec requestRecord, q odata.Query) ([]byte, error) {
	keep := func(name string) bool { return q.Select == nil || q.Shows(name) }
	w := memberWriter{b: append(b, '{')}
	if rec.Context != "" {
		w.name("@odata.context")
		w.b = appendString(w.b, rec.Context)
	}
	if keep("requestId") {
		w.name("requestId")
		w.b = strconv.AppendInt(w.b, rec.RequestID, 10)
	}
	w.str(keep, "requestDate", rec.RequestDate)
	w.str(keep, "updatedDate", rec.UpdatedDate)
	w.str(keep, "requestStatus", rec.RequestStatus)
	w.str(keep, "userName", rec.UserName)
	for _, m := range []struct {
		name string
		errs []singleError
	}{{"errors", rec.Errors}, {"warnings", rec.Warnings}} {
		if !keep(m.name) {
			continue
		}
		w.name(m.name)
		if err := w.errors(m.errs); err != nil {
			return nil, err
		}
	}
	w.boolean(keep, "undoSupported", rec.UndoSupported)
	w.boolean(keep, "isContentPurged", rec.IsContentPurged)
	w.boolean(keep, "isFullUndone", rec.IsFullUndone)
	if len(rec.Content) > 0 && keep("content") {
		// Stored content is written as encoding/json writes a RawMessage:
		// compacted, with <, > and & escaped.
		c, err := json.Marshal(rec.Content)
		if err != nil {
			return nil, err
		}
		w.name("content")
		w.b = append(w.b, c...)
	}
	w.optional(keep, "movementDate", rec.MovementDate)
	w.optional(keep, "species", rec.Species)
	w.optional(keep, "trackingId", rec.TrackingID)
	return append(w.b, '}'), nil
}

// memberWriter appends the members of one JSON object, with the commas
// between them.
type memberWriter struct {
	b    []byte
	some bool
}

func (w *memberWriter) name(n string) {
	if w.some {
		w.b = append(w.b, ',')
	}
	w.some = true
	w.b = append(append(append(w.b, '"'), n...), '"', ':')
}

func (w *memberWriter) str(keep func(string) bool, n, v string) {
	if keep(n) {
		w.name(n)
		w.b = appendString(w.b, v)
	}
}

func (w *memberWriter) optional(keep func(string) bool, n string, v *string) {
	if !keep(n) {
		return
	}
	w.name(n)
	if v == nil {
		w.b = append(w.b, "null"...)
		return
	}
	w.b = appendString(w.b, *v)
}

func (w *memberWriter) boolean(keep func(string) bool, n string, v bool) {
	if keep(n) {
		w.name(n)
		w.b = strconv.AppendBool(w.b, v)
	}
}

// errors appends a record's errors or warnings: most records have none,
// and the few that have are left to encoding/json.
func (w *memberWriter) errors(errs []singleError) error {
	if errs == nil {
		w.b = append(w.b, "null"...)
		return nil
	}
	if len(errs) == 0 {
		w.b = append(w.b, '[', ']')
		return nil
	}
	e, err := json.Marshal(errs)
	w.b = append(w.b, e...)
	return err
}

// appendString appends s as a JSON string as encoding/json writes it. A
// string of printable ASCII without quote, backslash or HTML's <, > and &
// (ids, dates, statuses, user names) is copied; any other is left to
// encoding/json, so that the escaping is always its own.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= utf8.RuneSelf || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s) // a string always encodes
			return append(b, q...)
		}
	}
	return append(append(append(b, '"'), s...), '"')
}
