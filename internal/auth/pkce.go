package auth

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
)

// PKCE (RFC 7636) code challenge methods.
const (
	pkceS256  = "S256"
	pkcePlain = "plain"
)

// pkceValid reports whether s is a well-formed code_verifier or plain
// challenge: 43 to 128 unreserved characters. An S256 challenge is the
// base64url of a SHA-256 sum, 43 characters of the same alphabet.
func pkceValid(s string) bool {
	if len(s) < 43 || len(s) > 128 {
		return false
	}
	for _, c := range []byte(s) {
		switch {
		case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', '0' <= c && c <= '9':
		case c == '-', c == '.', c == '_', c == '~':
		default:
			return false
		}
	}
	return true
}

// pkceMatches reports whether verifier answers the stored challenge.
func pkceMatches(method, challenge, verifier string) bool {
	want := verifier
	if method == pkceS256 {
		sum := sha256.Sum256([]byte(verifier))
		want = base64.RawURLEncoding.EncodeToString(sum[:])
	}
	return subtle.ConstantTimeCompare([]byte(want), []byte(challenge)) == 1
}

// hashSecret is how codes and refresh tokens are stored: the hex SHA-256.
// They are random and long, so a plain hash is enough.
func hashSecret(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}
