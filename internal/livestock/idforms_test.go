package livestock

import (
	"slices"
	"testing"
)

func TestIdentifierForms(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"UK0130181 00001", []string{"UK0130181 00001"}},
		{"UK013018100001", []string{"UK013018100001", "UK0130181 00001"}},
		{"UK130183 00020", []string{"UK130183 00020", "UK0130183 00020"}},
		{"0826013018100001", []string{"0826013018100001", "UK0130181 00001"}},
		{"UK442501500101", []string{"UK442501500101"}},
		{"UK130181", []string{"UK130181"}},
		{"HR12", []string{"HR12"}},
	} {
		if got := IdentifierForms(tc.in); !slices.Equal(got, tc.want) {
			t.Errorf("IdentifierForms(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
