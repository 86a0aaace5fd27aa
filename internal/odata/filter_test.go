package odata

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/drover-registry/drover/internal/livestock"
)

func TestParseFilter(t *testing.T) {
	t.Parallel()
	nov1 := cmpr("movementDate", Ge, utc(2026, 11, 1, 0, 0, 0))
	sheep := cmpr("species", Eq, "Sheep")
	goats := cmpr("species", Eq, "Goats")
	pending := cmpr("requestStatus", Eq, "Pending")
	tests := []struct {
		name, in string
		want     Expr
	}{
		{"the document's form", "movementDate ge 2026-11-01T00:00:00Z and movementDate le 2026-11-30T23:59:59Z",
			&And{nov1, cmpr("movementDate", Le, utc(2026, 11, 30, 23, 59, 59))}},
		{"eq", "species eq 'Sheep'", sheep},
		{"a holding, in its normal form", "holding eq '01/100/0257'", cmpr("holding", Eq, "01/100/0257")},
		{"a holding, read into its normal form", "holding ne '01%2f100%2f0257'", cmpr("holding", Ne, "01/100/0257")},
		{"ne", "species ne 'Sheep'", cmpr("species", Ne, "Sheep")},
		{"a live status", "requestStatus eq 'CompletedWarning'", cmpr("requestStatus", Eq, "CompletedWarning")},
		{"a status read into its live name", "requestStatus ne 'Failed'", cmpr("requestStatus", Ne, "Fail")},
		{"gt", "requestId gt 42", cmpr("requestId", Gt, int64(42))},
		{"ge", "movementDate ge 2026-11-01T00:00:00Z", nov1},
		{"lt", "requestDate lt 2026-11-01T00:00:00Z", cmpr("requestDate", Lt, utc(2026, 11, 1, 0, 0, 0))},
		{"le", "requestId le -1", cmpr("requestId", Le, int64(-1))},
		{"int with leading zeros", "requestId eq 007", cmpr("requestId", Eq, int64(7))},
		{"eq null", "species eq null", cmpr("species", Eq, Null{})},
		{"ne null, on any kind", "movementDate ne null and requestId ne null", &And{cmpr("movementDate", Ne, Null{}), cmpr("requestId", Ne, Null{})}},
		{"largest int", "requestId eq 9223372036854775807", cmpr("requestId", Eq, int64(9223372036854775807))},
		{"smallest int", "requestId eq -9223372036854775808", cmpr("requestId", Eq, int64(-9223372036854775808))},

		{"a boolean field alone", "isFullUndone", cmpr("isFullUndone", Eq, true)},
		{"contains", "contains(species,'ee')", &Call{"contains", "species", "ee"}},
		{"startswith, spaced, with a quote", "startswith( species , 'O''B' )", &Call{"startswith", "species", "O'B"}},
		{"not endswith, in and", "not endswith(species,'p') and species ne null", &And{&Not{&Call{"endswith", "species", "p"}}, cmpr("species", Ne, Null{})}},
		{"a function of the empty string", "contains(species,'')", &Call{"contains", "species", ""}},
		{"a function eq true", "contains(species,'ee') eq true", &Call{"contains", "species", "ee"}},
		{"a function eq false", "startswith(species,'S') eq false or species eq null",
			&Or{&Not{&Call{"startswith", "species", "S"}}, cmpr("species", Eq, Null{})}},
		{"a function ne false", "not endswith(species,'p') ne false", &Not{&Call{"endswith", "species", "p"}}},
		{"not a boolean field", "not isFullUndone and species eq 'Sheep'", &And{&Not{cmpr("isFullUndone", Eq, true)}, sheep}},
		{"a boolean field in parentheses, then or", "(isFullUndone) or isFullUndone eq false",
			&Or{cmpr("isFullUndone", Eq, true), cmpr("isFullUndone", Eq, false)}},
		{"not", "not species eq 'Sheep'", &Not{sheep}},
		{"not with parentheses", "not (species eq 'Sheep')", &Not{sheep}},
		{"not not", "not not species eq 'Sheep'", &Not{&Not{sheep}}},
		{"not binds tighter than and", "not species eq 'Sheep' and species eq 'Goats'", &And{&Not{sheep}, goats}},
		{"not of a group", "not (species eq 'Sheep' or species eq 'Goats')", &Not{&Or{sheep, goats}}},

		{"and binds tighter than or", "species eq 'Sheep' or species eq 'Goats' and requestStatus eq 'Pending'",
			&Or{sheep, &And{goats, pending}}},
		{"and binds tighter than or, on the left", "species eq 'Sheep' and species eq 'Goats' or requestStatus eq 'Pending'",
			&Or{&And{sheep, goats}, pending}},
		{"parentheses override", "(species eq 'Sheep' or species eq 'Goats') and requestStatus eq 'Pending'",
			&And{&Or{sheep, goats}, pending}},
		{"and groups to the left", "species eq 'Sheep' and species eq 'Goats' and requestStatus eq 'Pending'",
			&And{&And{sheep, goats}, pending}},
		{"or groups to the left", "species eq 'Sheep' or species eq 'Goats' or requestStatus eq 'Pending'",
			&Or{&Or{sheep, goats}, pending}},
		{"right-hand group", "species eq 'Sheep' or (species eq 'Goats' or requestStatus eq 'Pending')",
			&Or{sheep, &Or{goats, pending}}},
		{"redundant parentheses", "((species eq 'Sheep'))", sheep},
		{"spaces inside parentheses", "( species eq 'Sheep' )", sheep},
		{"many spaces", "  species   eq  'Sheep'   and   requestId eq 1  ", &And{sheep, cmpr("requestId", Eq, int64(1))}},

		{"semicolons for colons", "movementDate ge 2026-11-01T00;00;00Z", nov1},
		{"semicolons in the offset", "movementDate ge 2026-11-01T01;00;00+01;00", nov1},
		{"offset +01:00", "movementDate ge 2026-11-01T01:00:00+01:00", nov1},
		{"offset -05:00", "movementDate ge 2026-10-31T19:00:00-05:00", nov1},
		{"offset +00:00", "movementDate ge 2026-11-01T00:00:00+00:00", nov1},
		{"fractional seconds", "movementDate ge 2026-11-01T00:00:00.250Z",
			cmpr("movementDate", Ge, time.Date(2026, 11, 1, 0, 0, 0, 250_000_000, time.UTC))},
		{"offset crossing a year", "movementDate lt 2027-01-01T00:30:00+01:00", cmpr("movementDate", Lt, utc(2026, 12, 31, 23, 30, 0))},

		{"empty string", "species eq ''", cmpr("species", Eq, "")},
		{"escaped quote", "species eq 'O''Brien'", cmpr("species", Eq, "O'Brien")},
		{"only a quote", "species eq ''''", cmpr("species", Eq, "'")},
		{"keywords inside a string", "species eq 'x'' or 1 eq 1 --'", cmpr("species", Eq, "x' or 1 eq 1 --")},
		{"SQL inside a string", "species eq 'x''; DROP TABLE requests; --'", cmpr("species", Eq, "x'; DROP TABLE requests; --")},
		{"parentheses inside a string", "species eq ')('", cmpr("species", Eq, ")(")},
		{"unicode", "species eq 'Chèvre'", cmpr("species", Eq, "Chèvre")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := ParseFilter(tt.in, testFields)
			if err != nil {
				t.Fatalf("ParseFilter(%q): %v", tt.in, err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("ParseFilter(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestParseFilterErrors(t *testing.T) {
	t.Parallel()
	const (
		syntax = livestock.CodeFilterSyntax
		field  = livestock.CodeFilterField
	)
	const needsDateTime = "movementDate needs a date-time with a time and an offset, e.g. 2026-11-01T00:00:00Z"
	tests := []struct {
		name, in string
		want     []livestock.FieldError
	}{
		{"date only", "movementDate ge 2026-11-01",
			filterErr(syntax, "2026-11-01", "at character 17: "+needsDateTime+" (the time is mandatory)")},
		{"no offset", "movementDate ge 2026-11-01T00:00:00",
			filterErr(syntax, "2026-11-01T00:00:00", "at character 17: "+needsDateTime+" (the offset is mandatory)")},
		{"no seconds", "movementDate ge 2026-11-01T00:00Z",
			filterErr(syntax, "2026-11-01T00:00Z", "at character 17: "+needsDateTime+" (the time must be HH:mm:ss)")},
		{"hour out of range", "movementDate ge 2026-11-01T24:00:00Z",
			filterErr(syntax, "2026-11-01T24:00:00Z", "at character 17: "+needsDateTime+" (the hour must be 00 to 23)")},
		{"not a day", "movementDate ge 2026-02-29T00:00:00Z",
			filterErr(syntax, "2026-02-29T00:00:00Z", "at character 17: "+needsDateTime+" (2026-02-29 is not a day of the calendar)")},
		// The stores keep microseconds: a finer literal was cut before
		// it was compared, and eq, ne, lt and ge went wrong between.
		{"finer than a microsecond", "movementDate eq 2026-11-01T00:00:00.0000001Z",
			filterErr(syntax, "2026-11-01T00:00:00.0000001Z", "at character 17: movementDate takes at most 6 digits of a second's fraction (microseconds)")},
		{"space instead of +", "movementDate ge 2026-11-01T00:00:00 01:00",
			filterErr(syntax, "2026-11-01T00:00:00 01:00", "at character 36: movementDate has a space where the offset's sign should be: in a URL query + is read as a space, so write + as %2b, e.g. 2026-11-01T00:00:00%2b01:00")},
		{"space instead of +, with semicolons", "movementDate ge 2026-11-01T00;00;00 01;00",
			filterErr(syntax, "2026-11-01T00;00;00 01;00", "at character 36: movementDate has a space where the offset's sign should be: in a URL query + is read as a space, so write + as %2b, e.g. 2026-11-01T00:00:00%2b01:00")},
		{"semicolon outside a date-time", "species eq 'x';",
			filterErr(syntax, ";", "at character 15: expected a space before ; (a quote inside a string is written twice: 'O''Brien')")},
		{"quoted date-time", "movementDate ge '2026-11-01T00:00:00Z'",
			filterErr(syntax, "'2026-11-01T00:00:00Z'", "at character 17: expected a date-time without quotes for movementDate, e.g. 2026-11-01T00:00:00Z, found the string '2026-11-01T00:00:00Z'")},
		{"out of years after UTC", "movementDate ge 0001-01-01T00:00:00+01:00",
			filterErr(syntax, "0001-01-01T00:00:00+01:00", "at character 17: movementDate needs a date-time whose UTC instant falls in the years 0001 to 9999")},

		{"unknown field", "colour eq 'red'",
			filterErr(field, "colour", "at character 1: colour cannot be filtered on; the fields are "+allowed)},
		{"field in the wrong case", "Species eq 'Sheep'",
			filterErr(field, "Species", "at character 1: Species cannot be filtered on; the fields are "+allowed+" (did you mean species? field names are matched exactly)")},
		{"unknown field after and", "species eq 'Sheep' and herd eq '12/345/6789'",
			filterErr(field, "herd", "at character 24: herd cannot be filtered on; the fields are "+allowed)},

		{"unknown operator", "species equals 'Sheep'",
			filterErr(syntax, "equals", "at character 9: expected an operator (eq, ne, gt, ge, lt, le), found equals")},
		{"operator in upper case", "species EQ 'Sheep'",
			filterErr(syntax, "EQ", "at character 9: expected an operator (eq, ne, gt, ge, lt, le), found EQ (keywords are lower case)")},
		{"has is not supported", "species has 'Sheep'",
			filterErr(syntax, "has", "at character 9: expected an operator (eq, ne, gt, ge, lt, le), found has")},
		{"no operator", "species",
			filterErr(syntax, "", "at character 8: expected an operator (eq, ne, gt, ge, lt, le), found the end of the filter")},
		{"symbolic operator", "requestId = 1",
			filterErr(syntax, "=", "at character 11: expected an operator (eq, ne, gt, ge, lt, le), found =")},
		{"missing literal", "species eq",
			filterErr(syntax, "", "at character 11: expected a string in single quotes for species, found the end of the filter")},
		{"missing literal before and", "movementDate ge and species eq 'Sheep'",
			filterErr(syntax, "and", "at character 17: movementDate needs a date-time with a time and an offset, e.g. 2026-11-01T00:00:00Z (expected a date and a time)")},
		{"missing date-time", "movementDate ge )",
			filterErr(syntax, ")", "at character 17: expected a date-time for movementDate, e.g. 2026-11-01T00:00:00Z, found a closing parenthesis")},
		{"unquoted string", "species eq Sheep",
			filterErr(syntax, "Sheep", "at character 12: expected a string in single quotes for species, found Sheep")},
		{"quoted number", "requestId eq '1'",
			filterErr(syntax, "'1'", "at character 14: expected a whole number without quotes for requestId, found the string '1'")},
		{"decimal number", "requestId eq 1.5",
			filterErr(syntax, "1.5", "at character 14: expected a whole number for requestId, found 1.5")},
		{"a holding has no order", "holding le '01/100/0257'",
			filterErr(syntax, "le", "at character 9: holding has no order: it takes eq or ne, not le")},
		{"not a holding", "holding eq '1/100/257'",
			filterErr(syntax, "'1/100/257'", "at character 12: '1/100/257' is not a holding: a holding is a CPH, NN/NNN/NNNN")},
		{"a status that is none", "requestStatus eq 'Sucess'",
			filterErr(syntax, "'Sucess'", "at character 18: 'Sucess' is not a requestStatus: it is one of Pending, Success, Fail, CompletedWarning (as written)")},
		{"a status in the wrong case", "species eq 'Sheep' or requestStatus ne 'pending'",
			filterErr(syntax, "'pending'", "at character 40: 'pending' is not a requestStatus: it is one of Pending, Success, Fail, CompletedWarning (as written)")},
		{"number out of range", "requestId eq 9223372036854775808",
			filterErr(syntax, "9223372036854775808", "at character 14: 9223372036854775808 is out of range for requestId (a 64-bit whole number)")},

		{"unclosed parenthesis", "(species eq 'Sheep'",
			filterErr(syntax, "", "at character 20: expected and, or, or a closing parenthesis for the one at character 1, found the end of the filter")},
		{"unclosed inner parenthesis", "species eq 'Sheep' and (requestId eq 1 or (requestId eq 2)",
			filterErr(syntax, "", "at character 59: expected and, or, or a closing parenthesis for the one at character 24, found the end of the filter")},
		{"extra closing parenthesis", "species eq 'Sheep')",
			filterErr(syntax, ")", "at character 19: expected and, or, or the end of the filter, found a closing parenthesis")},
		{"empty parentheses", "()",
			filterErr(syntax, ")", "at character 2: expected a comparison (a field, an operator and a value), found a closing parenthesis")},
		{"trailing garbage", "species eq 'Sheep' foo",
			filterErr(syntax, "foo", "at character 20: expected and, or, or the end of the filter, found foo")},
		{"trailing and", "species eq 'Sheep' and",
			filterErr(syntax, "", "at character 23: expected a comparison (a field, an operator and a value), found the end of the filter")},
		{"AND in upper case", "species eq 'Sheep' AND requestId eq 1",
			filterErr(syntax, "AND", "at character 20: expected and, or, or the end of the filter, found AND (keywords are lower case)")},
		{"not alone", "not",
			filterErr(syntax, "", "at character 4: expected a comparison (a field, an operator and a value), found the end of the filter")},
		{"not after a comparison", "species not eq 'Sheep'",
			filterErr(syntax, "not", "at character 9: expected an operator (eq, ne, gt, ge, lt, le), found not")},
		{"empty", "",
			filterErr(syntax, "", "at character 1: expected a comparison (a field, an operator and a value), found the end of the filter")},
		{"spaces only", "   ",
			filterErr(syntax, "", "at character 4: expected a comparison (a field, an operator and a value), found the end of the filter")},
		{"a string where a field belongs", "'Sheep' eq species",
			filterErr(syntax, "'Sheep'", "at character 1: expected a comparison (a field, an operator and a value), found the string 'Sheep'")},
		{"a keyword where a field belongs", "and eq 1",
			filterErr(syntax, "and", "at character 1: expected a comparison (a field, an operator and a value), found and")},
		{"null in an order", "species gt null",
			filterErr(syntax, "null", "at character 12: null has no order: species eq null or species ne null asks whether species has a value")},
		{"a function not offered", "species eq 'Sheep' and year(requestDate) eq 2026",
			filterErr(field, "year", "at character 24: year() is not a function of $filter here; the functions are contains, startswith, endswith, "+
				"each of a free-text field (species) and a string: contains(species,'abc')")},
		{"a function of a closed set", "contains(requestStatus,'ee')",
			filterErr(syntax, "requestStatus", "at character 10: contains() takes a free-text field; requestStatus is not one: the functions are "+
				"contains, startswith, endswith, each of a free-text field (species) and a string: contains(species,'abc')")},
		{"a function of a date", "startswith(requestDate,'2026')",
			filterErr(syntax, "requestDate", "at character 12: startswith() takes a free-text field; requestDate is not one: the functions are "+
				"contains, startswith, endswith, each of a free-text field (species) and a string: contains(species,'abc')")},
		// A field unknown is the error nearest the start, whatever follows it.
		{"an unknown field, then a bad token", "colour'x'", filterErr(field, "colour", "at character 1: colour cannot be filtered on; the fields are "+allowed)},
		{"a function of an unknown field", "contains(colour,'red')",
			filterErr(field, "colour", "at character 10: colour cannot be filtered on; the fields are "+allowed)},
		{"a function with a number", "endswith(species,7)",
			filterErr(syntax, "7", "at character 18: expected a string in single quotes, found 7")},
		{"a function with one argument", "contains(species)",
			filterErr(syntax, ")", "at character 17: expected a comma, found a closing parenthesis")},
		{"a function with three arguments", "contains(species,'a','b')",
			filterErr(syntax, ",", "at character 21: expected a closing parenthesis, found a comma")},
		{"a function compared with a string", "contains(species,'a') eq 'yes'",
			filterErr(syntax, "'yes'", "at character 26: expected true or false (a function is true or false of its field), found the string 'yes'")},
		{"a function given an order", "contains(species,'a') gt true",
			filterErr(syntax, "gt", "at character 23: expected and, or, or the end of the filter, found gt")},
		{"no space after not", "not(species eq 'Sheep')",
			filterErr(syntax, "(", "at character 4: expected a space before an opening parenthesis")},

		{"no space before and", "(species eq 'Sheep')and(requestId eq 1)",
			filterErr(syntax, "and", "at character 21: expected a space before and")},
		{"no space before a string", "species eq'Sheep'",
			filterErr(syntax, "'Sheep'", "at character 11: expected a space before the string 'Sheep'")},
		{"unescaped quote", "species eq 'it's'",
			filterErr(syntax, "s", "at character 16: expected a space before s (a quote inside a string is written twice: 'O''Brien')")},
		{"unclosed string", "species eq 'Sheep",
			filterErr(syntax, "'Sheep", "at character 12: the string that starts here has no closing quote (a quote inside a string is written twice: 'O''Brien')")},
		{"a tab", "species\teq 'Sheep'",
			filterErr(syntax, "", "at character 8: a control character is not allowed; separate words with spaces")},
		{"a newline in a string", "species eq 'Sh\neep'",
			filterErr(syntax, "", "at character 15: a control character is not allowed in a string")},
		{"not UTF-8", "species eq 'Sh\xffeep'",
			filterErr(syntax, "species eq 'Sh\uFFFDeep'", "at character 15: the filter is not valid UTF-8 text")},
		{"position counts characters, not bytes", "species eq 'Chèvre' or colour eq 'x'",
			filterErr(field, "colour", "at character 24: colour cannot be filtered on; the fields are "+allowed)},

		// Attempts to smuggle SQL or a tautology are refused before any
		// value reaches the store.
		{"tautology", "species eq 'x' or 1 eq 1",
			filterErr(field, "1", "at character 19: 1 cannot be filtered on; the fields are "+allowed)},
		{"statement after a string", "species eq 'x'; DROP TABLE requests",
			filterErr(syntax, ";", "at character 15: expected a space before ; (a quote inside a string is written twice: 'O''Brien')")},
		{"bare word", "species eq x",
			filterErr(syntax, "x", "at character 12: expected a string in single quotes for species, found x")},
		{"comment", "species eq 'x' --",
			filterErr(syntax, "--", "at character 16: expected and, or, or the end of the filter, found --")},
		{"a number for a string field", "species eq 1",
			filterErr(syntax, "1", "at character 12: expected a string in single quotes for species, found 1")},
		{"SQL in an int literal", "requestId eq 1;DELETE",
			filterErr(syntax, "1;DELETE", "at character 14: expected a whole number for requestId, found 1;DELETE")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			e, err := ParseFilter(tt.in, testFields)
			if err == nil {
				t.Fatalf("ParseFilter(%q) = %s, want an error", tt.in, Format(e))
			}
			if diff := cmp.Diff(tt.want, fieldErrors(t, err)); diff != "" {
				t.Errorf("ParseFilter(%q) error (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

func TestParseFilterLimits(t *testing.T) {
	t.Parallel()
	const c = "requestId eq 1"
	long := c + strings.Repeat(" ", MaxFilterLength-len(c))
	tests := []struct {
		name, in string
		ok       bool
		message  string
	}{
		{"at the length limit", long, true, ""},
		{"over the length limit", long + " ", false, "at character 1: the filter is 10001 characters long; it can be at most 10000"},
		{"the limit counts characters", "species eq '" + strings.Repeat("é", MaxFilterLength-13) + "'", true, ""},
		{"parentheses at the depth limit", strings.Repeat("(", MaxFilterDepth) + c + strings.Repeat(")", MaxFilterDepth), true, ""},
		{"parentheses over the depth limit", strings.Repeat("(", MaxFilterDepth+1) + c + strings.Repeat(")", MaxFilterDepth+1),
			false, "at character 33: parentheses and nots nest more than 32 deep"},
		{"nots at the depth limit", strings.Repeat("not ", MaxFilterDepth) + c, true, ""},
		{"nots over the depth limit", strings.Repeat("not ", MaxFilterDepth+1) + c, false, "at character 129: parentheses and nots nest more than 32 deep"},
		{"nots and parentheses together", strings.Repeat("not (", MaxFilterDepth/2+1) + c + strings.Repeat(")", MaxFilterDepth/2+1),
			false, "at character 81: parentheses and nots nest more than 32 deep"},
		{"a long chain is not deep", c + strings.Repeat(" and "+c, MaxFilterExpressions-1), true, ""},
		{"100 expressions", c + strings.Repeat(" or "+c, MaxFilterExpressions-1), true, ""},
		{"101 expressions", c + strings.Repeat(" or "+c, MaxFilterExpressions), false,
			fmt.Sprintf("at character %d: the filter has more than 100 expressions (comparisons)", 1+MaxFilterExpressions*(len(c)+4))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := ParseFilter(tt.in, testFields)
			if tt.ok {
				if err != nil {
					t.Fatalf("ParseFilter: %v", err)
				}
				return
			}
			fe := fieldErrors(t, err)
			if len(fe) != 1 || fe[0].Code != livestock.CodeFilterSyntax || fe[0].Message != tt.message {
				t.Errorf("ParseFilter error = %+v, want %s %q", fe, livestock.CodeFilterSyntax, tt.message)
			}
		})
	}
}

func TestParseFilterNoFields(t *testing.T) {
	t.Parallel()
	_, err := ParseFilter("species eq 'Sheep'", nil)
	want := filterErr(livestock.CodeFilterField, "species", "at character 1: species cannot be filtered on; this collection has no fields to filter on")
	if diff := cmp.Diff(want, fieldErrors(t, err)); diff != "" {
		t.Errorf("error (-want +got):\n%s", diff)
	}
}

func TestParseFilterLongValue(t *testing.T) {
	t.Parallel()
	s := "species eq '" + strings.Repeat("x", MaxFilterLength+1000) + "'"
	_, err := ParseFilter(s, testFields)
	fe := fieldErrors(t, err)
	if len(fe) != 1 || fe[0].Value != s[:200]+"…" {
		t.Errorf("error = %+v, want the value cut to 200 characters", fe)
	}
}

// TestFunctionsWithoutTextFields: where no field is free text, a function
// is refused saying so, not with an empty list.
func TestFunctionsWithoutTextFields(t *testing.T) {
	t.Parallel()
	_, err := ParseFilter("contains(requestId,'1')", Fields{"requestId": {Kind: Int}})
	want := filterErr(livestock.CodeFilterSyntax, "requestId",
		"at character 10: contains() takes a free-text field; requestId is not one: this collection has no free-text field, and so no function")
	if diff := cmp.Diff(want, fieldErrors(t, err)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
