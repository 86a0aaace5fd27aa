package auth

import (
	"bytes"
	"fmt"
	"html/template"
	"net/http"
)

// loginPage is what the login template shows.
type loginPage struct {
	Request  authRequest
	UserName string
	Error    string
}

// loginTemplate is self-contained: no scripts, no external resources, and
// html/template escapes every value, including the hidden fields.
var loginTemplate = template.Must(template.New("login").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in to the Drover sandbox</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 24rem; margin: 4rem auto; padding: 0 1rem; }
label, input, button { display: block; width: 100%; box-sizing: border-box; }
input { margin: .25rem 0 1rem; padding: .5rem; }
button { padding: .6rem; margin-bottom: .5rem; }
.error { color: #b00020; border-left: 4px solid #b00020; padding-left: .5rem; }
</style>
</head>
<body>
<h1>Sign in</h1>
<p>Drover sandbox: sign in to let <strong>{{.Request.ClientID}}</strong> act for you.</p>
{{if .Error}}<p class="error" role="alert">{{.Error}}</p>{{end}}
<form method="post">
<input type="hidden" name="response_type" value="{{.Request.ResponseType}}">
<input type="hidden" name="client_id" value="{{.Request.ClientID}}">
<input type="hidden" name="redirect_uri" value="{{.Request.RedirectURI}}">
<input type="hidden" name="code_challenge" value="{{.Request.CodeChallenge}}">
<input type="hidden" name="code_challenge_method" value="{{.Request.CodeChallengeMethod}}">
<input type="hidden" name="state" value="{{.Request.State}}">
<input type="hidden" name="scope" value="{{.Request.Scope}}">
<label for="username">User name</label>
<input id="username" name="username" autocomplete="username" required value="{{.UserName}}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
<button type="submit" name="cancel" value="1" formnovalidate>Cancel</button>
</form>
</body>
</html>
`))

// renderLogin writes the login page (200). It is rendered to a buffer
// first so that a template fault is an error, not half a page.
func renderLogin(w http.ResponseWriter, p loginPage) error {
	var b bytes.Buffer
	if err := loginTemplate.Execute(&b, p); err != nil {
		return fmt.Errorf("auth: login page: %w", err)
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Referrer-Policy", "no-referrer")
	w.WriteHeader(http.StatusOK)
	_, err := w.Write(b.Bytes())
	return err
}
