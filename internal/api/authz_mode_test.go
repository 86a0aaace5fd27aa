package api_test

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
	jose "github.com/go-jose/go-jose/v4"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/auth"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// databaseModeMatrix: the same database served by a sandbox server and by
// a production one (--issuer), as the HTTP layer sees them (issue 20). The
// sandbox serves its users' password sign-in and tokens and refuses an
// external issuer's; production routes no sandbox issuer (404) and takes
// only the configured issuer's tokens. That a server refuses to start on
// the other mode's database is cmd/drover's: TestServeModeIsTheDatabases.
var databaseModeMatrix = []struct {
	server                            string
	signIn, sandboxToken, issuerToken int
}{
	{"sandbox", st200, st200, http.StatusUnauthorized},
	{"production", st404, http.StatusUnauthorized, st200},
}

func TestDatabaseModeMatrix(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		const issuer = "https://login.example.gov/realms/livestock"
		key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		k1, err := s.UserByName(t.Context(), "keeper1")
		if err != nil {
			t.Fatal(err)
		}
		servers := map[string]*bundle{"sandbox": b, "production": b.production(issuer, &oidc.StaticKeySet{PublicKeys: []crypto.PublicKey{&key.PublicKey}})}
		tokens := map[string]string{"sandbox": b.token("keeper1"), "issuer": issuerToken(t, key, issuer, k1.Subject)}
		signIn := url.Values{"grant_type": {"password"}, "username": {"keeper1"}, "password": {"keeper1"}}.Encode()
		for _, row := range databaseModeMatrix {
			srv := servers[row.server]
			// Sent past srv.do: production's document has no /oauth2/token.
			res, err := http.Post(srv.url+"/oauth2/token", "application/x-www-form-urlencoded", strings.NewReader(signIn))
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != row.signIn {
				t.Errorf("%s server: keeper1's password sign-in = %d, want %d", row.server, res.StatusCode, row.signIn)
			}
			for name, want := range map[string]int{"sandbox": row.sandboxToken, "issuer": row.issuerToken} {
				if res := srv.do(http.MethodGet, "/v1/me", tokens[name], nil); res.status != want {
					t.Errorf("%s server: keeper1's %s token on /v1/me = %d, want %d: %s", row.server, name, res.status, want, res.body)
				}
			}
		}
	})
}

// production is a second server over b's store as drover serve --issuer
// builds it: no sandbox issuer, tokens verified against keys alone.
func (b *bundle) production(issuer string, keys oidc.KeySet) *bundle {
	b.t.Helper()
	lists, mv, reg := services(b.t, b.store)
	srv, err := api.New(api.Config{Issuer: issuer}, api.Deps{Store: b.store, Doc: b.doc, Standing: lists, Movement: mv, Register: reg,
		Auth: auth.NewVerifier(issuer, "drover", keys, b.store)})
	if err != nil {
		b.t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	b.t.Cleanup(ts.Close)
	p := *b
	p.url = ts.URL
	return &p
}

// issuerToken is an access token of issuer's for subject, signed by key.
func issuerToken(t *testing.T, key *ecdsa.PrivateKey, issuer, subject string) string {
	t.Helper()
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: key}, (&jose.SignerOptions{}).WithType("at+jwt"))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().Unix()
	claims, _ := json.Marshal(map[string]any{"iss": issuer, "sub": subject, "aud": "drover", "iat": now, "exp": now + 3600})
	jws, err := signer.Sign(claims)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := jws.CompactSerialize()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}
