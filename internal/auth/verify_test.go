package auth

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/drover-registry/drover/internal/livestock"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

func TestVerifySandboxTokens(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		keeper := seedKeeper(t, s)
		now := time.Now()
		sb := newSandbox(t, s, testIssuer, nil)
		_, signing := sb.ring.current()
		mint := func(sb *Sandbox, name string, at time.Time) string {
			tok, err := sb.accessToken(livestock.User{Name: name}, at)
			if err != nil {
				t.Fatal(err)
			}
			return tok
		}
		claims := jwt.Claims{
			Issuer: testIssuer, Subject: "keeper1", Audience: jwt.Audience{DefaultAudience},
			Expiry: jwt.NewNumericDate(now.Add(time.Hour)), IssuedAt: jwt.NewNumericDate(now),
		}
		good := passwordToken(t, sb).AccessToken
		signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: signing}, (&jose.SignerOptions{}).WithType("JWT"))
		if err != nil {
			t.Fatal(err)
		}
		timeless := claims
		timeless.Expiry = nil
		noExpiry, err := jwt.Signed(signer).Claims(timeless).Serialize()
		if err != nil {
			t.Fatal(err)
		}
		noneToken := b64(`{"alg":"none","typ":"JWT"}`) + "." + segmentRaw(good, 1) + "."

		tests := []struct {
			name  string
			token string
			want  authFailure // zero: accepted as keeper1
		}{
			{"good", good, authFailure{}},
			{"expired", mint(newSandbox(t, s, testIssuer, fixed(now.Add(-2*time.Hour))), "keeper1", now.Add(-2*time.Hour)),
				refused(livestock.CodeUnauthenticated, reasonExpired)},
			{"not yet valid", mint(sb, "keeper1", now.Add(time.Hour)), refused(livestock.CodeUnauthenticated, reasonNotYetValid)},
			{"no expiry", noExpiry, refused(livestock.CodeUnauthenticated, reasonNoExpiry)},
			{"wrongly signed, same kid", forge(t, signing.KeyID, claims), refused(livestock.CodeUnauthenticated, reasonSignature)},
			{"unknown kid", forge(t, "not-a-stored-kid", claims), refused(livestock.CodeUnauthenticated, reasonSignature)},
			{"alg none", noneToken, refused(livestock.CodeUnauthenticated, reasonAlgNone)},
			{"wrong audience", mint(newSandbox(t, s, testIssuer, nil, WithAudience("other-api")), "keeper1", now),
				refused(livestock.CodeUnauthenticated, reasonAudience)},
			{"wrong issuer", mint(newSandbox(t, s, "https://elsewhere.test", nil), "keeper1", now),
				refused(livestock.CodeUnauthenticated, reasonIssuer)},
			{"garbage", "garbage", refused(livestock.CodeUnauthenticated, reasonMalformed)},
			{"two segments", segmentRaw(good, 0) + "." + segmentRaw(good, 1), refused(livestock.CodeUnauthenticated, reasonMalformed)},
			{"bad base64", segmentRaw(good, 0) + ".!!!." + segmentRaw(good, 2), refused(livestock.CodeUnauthenticated, reasonMalformed)},
			{"tampered claims", segmentRaw(good, 0) + "." + b64(`{"sub":"inspector1"}`) + "." + segmentRaw(good, 2),
				refused(livestock.CodeUnauthenticated, reasonSignature)},
			{"unknown subject", mint(sb, "nobody", now), refused(livestock.CodeUnknownUser, reasonUnknownUser)},
		}
		v := sb.Verifier(s)
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				t.Parallel()
				u, err := v.Verify(t.Context(), tt.token)
				if tt.want.Kind == 0 && tt.want.Fields == nil {
					if err != nil {
						t.Fatalf("Verify: %v", err)
					}
					if diff := cmp.Diff(keeper, u, equateIDs); diff != "" {
						t.Errorf("Verify user mismatch (-want +got):\n%s", diff)
					}
					return
				}
				if diff := cmp.Diff(tt.want, failureOf(err)); diff != "" {
					t.Errorf("Verify refusal mismatch (-want +got):\n%s", diff)
				}
			})
		}

		t.Run("Authenticate", func(t *testing.T) {
			t.Parallel()
			r := httptest.NewRequest("GET", "/v1/Holdings", nil)
			r.Header.Set("Authorization", "bearer "+good)
			u, err := v.Authenticate(r)
			if err != nil || u.Name != "keeper1" {
				t.Errorf("Authenticate(bearer good) = %q, %v; want keeper1", u.Name, err)
			}
		})
	})
}

// segmentRaw returns part i of a JWT as it is.
func segmentRaw(token string, i int) string {
	return strings.Split(token, ".")[i]
}

// equateIDs compares identifier value types by their value.
var equateIDs = cmpopts.EquateComparable(livestock.CPH{}, livestock.MHS{})
