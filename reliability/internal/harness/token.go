package harness

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"testing"
	"time"
)

// tokenClient's timeout is a guard against a hung server.
var tokenClient = &http.Client{Timeout: 30 * time.Second}

// Token signs user in through the sandbox's password grant (the password
// is the user's name) and returns the access token. It asks again while
// the server answers 5xx, too busy to answer within its request timeout,
// for up to two minutes (a guard against a hang).
func Token(t testing.TB, base, user string) string {
	t.Helper()
	form := url.Values{"grant_type": {"password"}, "username": {user}, "password": {user}}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		status, body, err := postForm(base+"/oauth2/token", form)
		if err != nil {
			t.Fatalf("token for %s: %v", user, err)
		}
		if status < 500 || time.Now().After(deadline) {
			var tok struct {
				AccessToken string `json:"access_token"`
			}
			if err := json.Unmarshal(body, &tok); status != http.StatusOK || err != nil || tok.AccessToken == "" {
				t.Fatalf("token for %s: %d %.300s", user, status, body)
			}
			return tok.AccessToken
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func postForm(u string, form url.Values) (int, []byte, error) {
	res, err := tokenClient.PostForm(u, form)
	if err != nil {
		return 0, nil, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return res.StatusCode, b, err
}
