package odata

import (
	"testing"
	"time"
)

// TestKeysetTokenRefusesWhatNoRecordHolds: a token is refused when it holds
// a value no page of records could have ended on (text with U+0000, an
// instant in year 0), which a client can forge since tokens are not signed;
// PostgreSQL would fail on either rather than find nothing.
func TestKeysetTokenRefusesWhatNoRecordHolds(t *testing.T) {
	fields := Fields{"trackingId": {Kind: String}, "transferDate": {Kind: DateTime}, "id": {Kind: Int}}
	for _, tc := range []struct {
		name  string
		order []OrderItem
		keys  []any
		ok    bool
	}{
		{"text", []OrderItem{{Field: "trackingId"}, {Field: "id"}}, []any{"a-b", int64(1)}, true},
		{"text with U+0000", []OrderItem{{Field: "trackingId"}, {Field: "id"}}, []any{"a\x00b", int64(1)}, false},
		{"an instant", []OrderItem{{Field: "transferDate"}, {Field: "id"}}, []any{time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), int64(1)}, true},
		{"an instant in year 0", []OrderItem{{Field: "transferDate"}, {Field: "id"}}, []any{time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC), int64(1)}, false},
	} {
		tok := keysetToken(tc.order, tc.keys)
		_, err := parseKeysetToken(tok, tc.order, fields)
		if (err == nil) != tc.ok {
			t.Errorf("%s: parseKeysetToken = %v, want ok %v", tc.name, err, tc.ok)
		}
	}
}
