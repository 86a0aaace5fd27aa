package auth

import (
	"fmt"
	"net"
	"net/url"
	"slices"
	"strings"

	"github.com/drover-registry/drover/internal/livestock"
)

// Client is an OAuth client the sandbox issuer knows: its id and the
// redirect URIs it may receive codes at, compared exactly.
type Client struct {
	ID           string
	RedirectURIs []string
}

// DocsClient is the client id of the "Authorize" button of /docs; it is
// always registered, with the issuer's own /docs/oauth2-redirect.html.
const DocsClient = "drover-docs"

// WithClients registers clients beside DocsClient. A client registered
// twice has the redirect URIs of both.
func WithClients(clients ...Client) SandboxOption {
	return func(s *Sandbox) {
		for _, c := range clients {
			s.clients[c.ID] = append(s.clients[c.ID], c.RedirectURIs...)
		}
	}
}

// ParseClients reads a list of clients as --sandbox-clients gives it:
// id=redirect_uri pairs separated by commas, an id given once per URI.
func ParseClients(list string) ([]Client, error) {
	var out []Client
	for pair := range strings.SplitSeq(list, ",") {
		pair = strings.TrimSpace(pair)
		if pair == "" {
			continue
		}
		id, uri, ok := strings.Cut(pair, "=")
		if !ok || id == "" || !redirectAllowed(uri) {
			return nil, fmt.Errorf("auth: client %q is not id=redirect_uri with an absolute http(s) URI", pair)
		}
		out = append(out, Client{ID: id, RedirectURIs: []string{uri}})
	}
	return out, nil
}

// checkClient refuses an authorization request from a client that is not
// registered, or to a redirect URI the client did not register. A loopback
// redirect URI (http to 127.0.0.1, [::1] or localhost, any port and path)
// is always allowed a registered client, as RFC 8252 §7.3 asks for native
// apps and developers' own machines: no other host can receive it.
func (s *Sandbox) checkClient(ar authRequest, prefix string) error {
	uris, ok := s.clients[ar.ClientID]
	if !ok {
		return livestock.Invalid("The client is not registered.", livestock.FieldError{Code: livestock.CodeBadEnum,
			Source: prefix + "client_id", Value: ar.ClientID, Message: "client_id is not a client registered with this issuer"})
	}
	if slices.Contains(uris, ar.RedirectURI) || loopback(ar.RedirectURI) {
		return nil
	}
	return livestock.Invalid("The redirect URI is not registered.", livestock.FieldError{Code: livestock.CodeBadFormat,
		Source: prefix + "redirect_uri", Value: ar.RedirectURI,
		Message: "redirect_uri is neither registered for this client nor a loopback http URI"})
}

// loopback reports whether uri is an http URI of the local machine.
func loopback(uri string) bool {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "http" {
		return false
	}
	h := u.Hostname()
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}
