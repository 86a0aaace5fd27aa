package odata

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
)

// FuzzParseFilter checks that ParseFilter never panics, that every error is
// a $filter error of ours, and that a filter it accepts reads back from its
// canonical text as the same tree (so @odata.nextLink always works).
func FuzzParseFilter(f *testing.F) {
	for _, s := range []string{
		"movementDate ge 2026-11-01T00:00:00Z and movementDate le 2026-11-30T23:59:59Z",
		"movementDate ge 2026-11-01T00;00;00+01;00",
		"movementDate lt 2026-11-01T00:00:00.123456789-05:00",
		"movementDate ge 2026-11-01T00:00:00 01:00",
		"movementDate ge 2026-11-01",
		"species eq 'O''Brien' or not (requestId gt -7 and requestStatus ne '')",
		"not not species eq 'x'",
		"contains(species,'a') or not startswith( species , 'O''B' ) and endswith(species,'')",
		"contains(species,'a',) or year(requestDate) eq 1 or contains(requestId,'1')",
		"((species eq 'x')) or species eq 'y' and (requestId le 0012 or requestId eq 1)",
		"species eq 'x' or 1 eq 1",
		"species eq 'x'; DROP TABLE requests",
		"species eq x",
		"species eq 'it's'",
		"(species eq 'x'",
		"contains(species,'x')",
		"",
		"species eq 'Chèvre'",
		strings.Repeat("(", 40) + "requestId eq 1" + strings.Repeat(")", 40),
		strings.Repeat("not ", 40) + "requestId eq 1",
		"species eq '\xff'",
		"movementDate ge 0001-01-01T00:30:00+01:00",
		"movementDate ge 9999-12-31T23:59:59-01:00",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e, err := ParseFilter(s, testFields)
		if err != nil {
			var le *livestock.Error
			if !errors.As(err, &le) || le.Kind != livestock.KindInvalid || len(le.Fields) != 1 {
				t.Fatalf("ParseFilter(%q): error %#v is not one $filter error", s, err)
			}
			fe := le.Fields[0]
			if (fe.Code != livestock.CodeFilterSyntax && fe.Code != livestock.CodeFilterField) ||
				fe.Source != "query:$filter" || !strings.HasPrefix(fe.Message, "at character ") {
				t.Fatalf("ParseFilter(%q): error %+v", s, fe)
			}
			return
		}
		if e == nil {
			t.Fatalf("ParseFilter(%q) = nil, nil", s)
		}
		text := Format(e)
		back, err := ParseFilter(text, testFields)
		if err != nil {
			t.Fatalf("ParseFilter(%q) gave %q, which does not parse: %v", s, text, err)
		}
		if diff := cmp.Diff(e, back); diff != "" {
			t.Fatalf("ParseFilter(%q): Format gave %q, which reads back differently (-first +second):\n%s", s, text, diff)
		}
		if n, m := len([]rune(text)), len([]rune(s)); n > m {
			t.Fatalf("ParseFilter(%q): canonical text %q is longer than the input", s, text)
		}
	})
}
