package openapi

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/drover-registry/drover/internal/livestock"
)

// The documentation page is Swagger UI 5.32.0 from the npm package
// swagger-ui-dist (Apache-2.0; LICENSE, NOTICE and the bundle's third-party
// notices are served beside it). Only swagger-ui-bundle.js, swagger-ui.css,
// oauth2-redirect.js and the two favicons are taken from the package, byte
// for byte; index.html, docs.js and oauth2-redirect.html are ours. To
// upgrade: npm pack swagger-ui-dist@<version>, copy those files over, and
// update the version above.
//
//go:embed docs/*.html docs/*.js docs/*.css docs/*.png docs/*.txt docs/LICENSE docs/NOTICE
var docsFS embed.FS

// docsFile is one file of the documentation page, ready to serve.
type docsFile struct {
	body        []byte
	contentType string
	cache       string
	etag        string
}

// docsCSP keeps the page to its own origin: scripts, styles, the document
// and the sandbox's token endpoint are all here. %s is the further origins
// the page may fetch from: a production issuer's, for its discovery
// document and token endpoint.
const docsCSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; " +
	"script-src 'self'; connect-src 'self'%s; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// docsFiles reads the embedded files once. The pages name every asset with
// ?v=<hash of all the files>, so assets may be cached for a year and an
// upgrade is still seen at once; the pages themselves are revalidated.
var docsFiles = sync.OnceValue(func() map[string]docsFile {
	entries, err := fs.ReadDir(docsFS, "docs")
	if err != nil {
		panic(err) // embedded at build time: cannot fail
	}
	raw := make(map[string][]byte, len(entries))
	all := sha256.New()
	for _, e := range entries {
		b, err := docsFS.ReadFile("docs/" + e.Name())
		if err != nil {
			panic(err)
		}
		raw[e.Name()] = b
		all.Write([]byte(e.Name()))
		all.Write(b)
	}
	version := hex.EncodeToString(all.Sum(nil))[:12]
	files := make(map[string]docsFile, len(raw))
	for name, b := range raw {
		f := docsFile{body: b, contentType: "text/plain; charset=utf-8", cache: "no-cache"}
		switch path.Ext(name) {
		case ".html":
			f.body = bytes.ReplaceAll(b, []byte("__VERSION__"), []byte(version))
			f.contentType = "text/html; charset=utf-8"
		case ".js":
			f.contentType, f.cache = "text/javascript; charset=utf-8", "public, max-age=31536000, immutable"
		case ".css":
			f.contentType, f.cache = "text/css; charset=utf-8", "public, max-age=31536000, immutable"
		case ".png":
			f.contentType, f.cache = "image/png", "public, max-age=31536000, immutable"
		}
		sum := sha256.Sum256(f.body)
		f.etag = `"` + hex.EncodeToString(sum[:8]) + `"`
		files[name] = f
	}
	return files
})

// DocsHandler serves the documentation page: /docs is the page itself and
// /docs/{file} its assets. It takes the file name from the last segment of
// the URL path, so it works whatever router mounts it. An unknown file is a
// 404 problem. The page may also fetch from the origins in connect
// (scheme://host[:port], as an issuer's).
func DocsHandler(connect ...string) http.Handler {
	files := docsFiles()
	extra := ""
	for _, o := range connect {
		extra += " " + o
	}
	csp := fmt.Sprintf(docsCSP, extra)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(strings.TrimPrefix(r.URL.Path, "/docs"), "/")
		if name == "" {
			name = "index.html"
		}
		f, ok := files[name]
		if !ok {
			notFound(w, name)
			return
		}
		h := w.Header()
		h.Set("Content-Type", f.contentType)
		h.Set("Cache-Control", f.cache)
		h.Set("ETag", f.etag)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Security-Policy", csp)
		http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(f.body))
	})
}

// notFound answers the NotFound response of the document.
func notFound(w http.ResponseWriter, name string) {
	type fieldError struct {
		Code    string `json:"code"`
		Message string `json:"message"`
		Source  string `json:"source"`
		Value   string `json:"value"`
	}
	body, _ := json.Marshal(struct {
		Type   string       `json:"type"`
		Title  string       `json:"title"`
		Status int          `json:"status"`
		Detail string       `json:"detail"`
		Errors []fieldError `json:"errors"`
	}{
		Type: "about:blank", Title: "Not Found", Status: http.StatusNotFound,
		Detail: "The documentation page has no such file.",
		Errors: []fieldError{{Code: string(livestock.CodeNotFound), Message: "no such file", Source: "path:file", Value: valueText(name)}},
	})
	w.Header().Set("Content-Type", "application/problem+json")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusNotFound)
	w.Write(body)
}
