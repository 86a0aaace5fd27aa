package movements

import (
	"bytes"

	"github.com/drover-registry/drover/internal/store"
)

// liveContent returns r with its content in the live shape, as
// $expand=content shows it. Content stored before Drover took the live
// shapes (a transfer's plain-date transferDate, flags as names, an undo's
// requestToBeUndone_ID) is read with the aliases and written again when
// it is read; content that no longer reads is shown as it was stored.
// Content stored in the live shape is left alone, unread.
func (s *Service) liveContent(r store.Request) store.Request {
	switch r.Type {
	case store.RequestTransfer, store.RequestCorrection:
		if !plainTransferDate(r.Content) {
			return r
		}
		if d, err := s.vocab.decodeTransfer(r.Content); err == nil {
			r.Content = normalised(d.model)
		}
	case store.RequestUndo:
		if !bytes.Contains(r.Content, []byte(`"requestToBeUndone_ID"`)) {
			return r
		}
		if m, _, err := s.vocab.decodeUndo(r.Content); err == nil {
			r.Content = normalised(m)
		}
	}
	return r
}

// plainTransferDate reports whether stored content dates the transfer by
// a plain date, as every transfer stored before the live shapes did; the
// live shape's transferDate is always a date-time.
func plainTransferDate(content []byte) bool {
	key := []byte(`"transferDate":"`)
	i := bytes.Index(content, key)
	if i < 0 {
		return false
	}
	rest := content[i+len(key):]
	return len(rest) > 10 && rest[10] == '"'
}
