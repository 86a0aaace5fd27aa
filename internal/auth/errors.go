package auth

import (
	"errors"
	"fmt"
	"strings"

	"github.com/drover-registry/drover/internal/livestock"
)

// Reasons a bearer token is refused. They are the message of the error's
// field and the error_description of the WWW-Authenticate challenge, so
// they are short, plain and safe to show.
const (
	reasonMissing        = "no Authorization header"
	reasonNotBearer      = "the Authorization header is not a Bearer token"
	reasonRepeated       = "more than one Authorization header"
	reasonMalformed      = "token malformed"
	reasonAlgNone        = "token unsigned (alg none)"
	reasonAlgorithm      = "token algorithm not supported"
	reasonSignature      = "token signature invalid or signing key unknown"
	reasonExpired        = "token expired"
	reasonNoExpiry       = "token has no exp (expiry); every access token must carry one"
	reasonNotYetValid    = "token not yet valid"
	reasonIssuedInFuture = "token issued in the future (iat)"
	reasonTooLong        = "token lifetime (exp) exceeds the maximum this service accepts"
	reasonNotAccess      = "token is not an access token (typ)"
	reasonIssuer         = "token issued by another issuer"
	reasonAudience       = "token intended for another audience"
	reasonNoSubject      = "token has no subject"
	reasonUnknownUser    = "token subject is not a registered user"
	reasonUnrecognised   = "token rejected"
)

// sourceAuthorization is where every verification failure points.
const sourceAuthorization = "header:Authorization"

// errNoCredentials marks a request that carried no bearer token at all:
// RFC 6750 §3.1 says its challenge has no error attribute.
var errNoCredentials = errors.New("auth: no bearer credentials")

// unauthenticated makes the error for a refused token; cause is kept for
// the log only.
func unauthenticated(code livestock.Code, reason string, cause error) *livestock.Error {
	return &livestock.Error{
		Kind:   livestock.KindUnauthenticated,
		Detail: "The request needs a valid bearer token.",
		Fields: []livestock.FieldError{{Code: code, Message: reason, Source: sourceAuthorization}},
		Err:    cause,
	}
}

// WWWAuthenticate gives the WWW-Authenticate header value for err, per
// RFC 6750: a bare challenge when the request carried no bearer token,
// error="invalid_token" with the reason otherwise. It returns "" for an
// error that is not an authentication failure and needs no challenge.
func WWWAuthenticate(err error) string {
	var e *livestock.Error
	if !errors.As(err, &e) || e.Kind != livestock.KindUnauthenticated {
		return ""
	}
	const challenge = `Bearer realm="drover"`
	if errors.Is(e, errNoCredentials) {
		return challenge
	}
	reason := reasonUnrecognised
	if len(e.Fields) > 0 && e.Fields[0].Message != "" {
		reason = e.Fields[0].Message
	}
	return fmt.Sprintf(`%s, error="invalid_token", error_description="%s"`, challenge, quotable(reason))
}

// quotable keeps only the characters RFC 6750 allows in error_description.
func quotable(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e || r == '"' || r == '\\' {
			return '\''
		}
		return r
	}, s)
}
