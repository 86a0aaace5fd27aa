package auth

import (
	"strings"
	"testing"
)

func TestPKCE(t *testing.T) {
	t.Parallel()
	// The worked example of RFC 7636, appendix B.
	const verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
	const challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
	tests := []struct {
		name                        string
		method, challenge, verifier string
		want                        bool
	}{
		{"S256 RFC 7636 example", pkceS256, challenge, verifier, true},
		{"S256 wrong verifier", pkceS256, challenge, verifier[:42] + "l", false},
		{"S256 verifier sent as challenge", pkceS256, challenge, challenge, false},
		{"plain equal", pkcePlain, verifier, verifier, true},
		{"plain differs", pkcePlain, verifier, challenge, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := pkceMatches(tt.method, tt.challenge, tt.verifier); got != tt.want {
				t.Errorf("pkceMatches(%s, %s, %s) = %v, want %v", tt.method, tt.challenge, tt.verifier, got, tt.want)
			}
		})
	}
	for _, tt := range []struct {
		s    string
		want bool
	}{
		{verifier, true},
		{strings.Repeat("a", 43), true},
		{strings.Repeat("a", 42), false},
		{strings.Repeat("~", 128), true},
		{strings.Repeat("a", 129), false},
		{strings.Repeat("a", 42) + "+", false},
		{strings.Repeat("a", 42) + "=", false},
	} {
		if got := pkceValid(tt.s); got != tt.want {
			t.Errorf("pkceValid(%q) = %v, want %v", tt.s, got, tt.want)
		}
	}
}
