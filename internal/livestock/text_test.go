package livestock

import "testing"

func TestPlainText(t *testing.T) {
	t.Parallel()
	for s, want := range map[string]bool{
		"keeper1": true, "": true, "Siân Jones": true, "auth0|5f7c8ec7c33c6c004bbafe82": true,
		"kee\x00per1": false, "kee\xffper1": false, "\xc3(": false, "a\tb": false, "a\nb": false, "a\x7fb": false,
	} {
		if got := PlainText(s); got != want {
			t.Errorf("PlainText(%q) = %v, want %v", s, got, want)
		}
	}
}
