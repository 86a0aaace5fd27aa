package odata

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestFormat(t *testing.T) {
	t.Parallel()
	a := cmpr("species", Eq, "Sheep")
	b := cmpr("requestId", Gt, int64(7))
	c := cmpr("movementDate", Ge, utc(2026, 11, 1, 0, 0, 0))
	tests := []struct {
		name string
		e    Expr
		want string
	}{
		{"nil", nil, ""},
		{"string", a, "species eq 'Sheep'"},
		{"quote in a string", cmpr("species", Eq, "O'Brien"), "species eq 'O''Brien'"},
		{"int", b, "requestId gt 7"},
		{"negative int", cmpr("requestId", Le, int64(-3)), "requestId le -3"},
		{"date-time in UTC", c, "movementDate ge 2026-11-01T00:00:00Z"},
		{"date-time in another zone", cmpr("movementDate", Lt, time.Date(2026, 11, 1, 1, 0, 0, 0, time.FixedZone("", 3600))),
			"movementDate lt 2026-11-01T00:00:00Z"},
		{"fraction without trailing zeros", cmpr("movementDate", Lt, time.Date(2026, 11, 1, 0, 0, 0, 250_000_000, time.UTC)),
			"movementDate lt 2026-11-01T00:00:00.25Z"},
		{"and", &And{a, b}, "species eq 'Sheep' and requestId gt 7"},
		{"or", &Or{a, b}, "species eq 'Sheep' or requestId gt 7"},
		{"and in or needs no parentheses", &Or{&And{a, b}, &And{b, c}},
			"species eq 'Sheep' and requestId gt 7 or requestId gt 7 and movementDate ge 2026-11-01T00:00:00Z"},
		{"or in and needs them", &And{&Or{a, b}, c}, "(species eq 'Sheep' or requestId gt 7) and movementDate ge 2026-11-01T00:00:00Z"},
		{"left-hand chains need none", &And{&And{a, b}, c},
			"species eq 'Sheep' and requestId gt 7 and movementDate ge 2026-11-01T00:00:00Z"},
		{"right-hand and in and", &And{a, &And{b, c}},
			"species eq 'Sheep' and (requestId gt 7 and movementDate ge 2026-11-01T00:00:00Z)"},
		{"right-hand or in or", &Or{a, &Or{b, c}},
			"species eq 'Sheep' or (requestId gt 7 or movementDate ge 2026-11-01T00:00:00Z)"},
		{"not of a comparison", &Not{a}, "not species eq 'Sheep'"},
		{"not of not", &Not{&Not{a}}, "not not species eq 'Sheep'"},
		{"not of and", &Not{&And{a, b}}, "not (species eq 'Sheep' and requestId gt 7)"},
		{"not in and", &And{&Not{a}, &Not{b}}, "not species eq 'Sheep' and not requestId gt 7"},
		{"a function", &Call{"contains", "species", "O'B"}, "contains(species,'O''B')"},
		{"not a function, or", &Or{&Not{&Call{"startswith", "species", "S"}}, b}, "not startswith(species,'S') or requestId gt 7"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := Format(tt.e)
			if got != tt.want {
				t.Errorf("Format = %q, want %q", got, tt.want)
			}
			if tt.e == nil {
				return
			}
			back, err := ParseFilter(got, testFields)
			if err != nil {
				t.Fatalf("ParseFilter(Format(e)): %v", err)
			}
			if diff := cmp.Diff(tt.e, back); diff != "" {
				t.Errorf("ParseFilter(Format(e)) (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFormatCanonical checks that the canonical text of a parsed filter is
// the shortest way to write it: what the caller wrote, less the spare.
func TestFormatCanonical(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"movementDate ge 2026-11-01T00:00:00Z and movementDate le 2026-11-30T23:59:59Z",
			"movementDate ge 2026-11-01T00:00:00Z and movementDate le 2026-11-30T23:59:59Z"},
		{"movementDate ge 2026-11-01T00;00;00+01;00", "movementDate ge 2026-10-31T23:00:00Z"},
		{"movementDate ge 2026-11-01T00:00:00.500-05:00", "movementDate ge 2026-11-01T05:00:00.5Z"},
		{"( ( species eq 'Sheep' ) )", "species eq 'Sheep'"},
		{"not (species eq 'Sheep')", "not species eq 'Sheep'"},
		{"(species eq 'a' and species eq 'b') or species eq 'c'", "species eq 'a' and species eq 'b' or species eq 'c'"},
		{"requestId eq -0", "requestId eq 0"},
		{"requestId   eq   0012", "requestId eq 12"},
	}
	for _, tt := range tests {
		e, err := ParseFilter(tt.in, testFields)
		if err != nil {
			t.Fatalf("ParseFilter(%q): %v", tt.in, err)
		}
		if got := Format(e); got != tt.want {
			t.Errorf("Format(ParseFilter(%q)) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestNodeString(t *testing.T) {
	t.Parallel()
	e := &Or{&Not{cmpr("species", Eq, "Sheep")}, &And{cmpr("requestId", Eq, int64(1)), cmpr("requestId", Eq, int64(2))}}
	if got, want := e.String(), Format(e); got != want {
		t.Errorf("String() = %q, want Format's %q", got, want)
	}
}
