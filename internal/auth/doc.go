// Package auth owns user-restricted access to Drover: who is calling.
//
// It owns three things:
//
//   - the principal in the request context (WithUser, UserFrom);
//   - token verification (Verifier): a bearer JWT is checked for its
//     signature, algorithm, issuer, audience and lifetime, and its subject
//     is mapped to a user record;
//   - the sandbox issuer (Sandbox): a small OpenID provider that signs ES256
//     access tokens for the sandbox users, with keys kept in the store so
//     that every replica and every restart shares them.
//
// There is one verification path for both modes. In production the keys
// come from an external issuer by OpenID discovery (NewRemoteKeys); in the
// sandbox they come from the store (Sandbox.Keys). Either key set is handed
// to the same NewVerifier, so what the sandbox accepts is what production
// accepts.
//
// Failures are *livestock.Error values of KindUnauthenticated (a token that
// cannot be trusted) or KindInvalid (a refused grant at the token endpoint);
// the HTTP layer turns them into responses. Handlers here are plain
// func(http.ResponseWriter, *http.Request) error and are registered by the
// api package, which owns every route.
package auth
