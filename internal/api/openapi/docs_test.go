package openapi

import (
	"bytes"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"path"
	"regexp"
	"strings"
	"testing"
)

// TestDocsPagesStayOnOrigin: our pages and script load nothing from another
// origin, so /docs works offline and leaks nothing.
func TestDocsPagesStayOnOrigin(t *testing.T) {
	t.Parallel()
	ref := regexp.MustCompile(`(?:src|href)\s*=\s*["']([^"']*)["']|url\(\s*["']?([^"')]*)|url\s*:\s*["']([^"']*)["']`)
	for _, name := range []string{"index.html", "oauth2-redirect.html", "docs.js"} {
		b, err := docsFS.ReadFile("docs/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if s := string(b); strings.Contains(s, "http://") || strings.Contains(s, "https://") || strings.Contains(s, "//cdn") {
			t.Errorf("%s names another origin", name)
		}
		for _, m := range ref.FindAllStringSubmatch(string(b), -1) {
			u := m[1] + m[2] + m[3]
			if strings.HasPrefix(u, "//") || strings.Contains(u, ":") {
				t.Errorf("%s: %q is not a same-origin URL", name, u)
			}
		}
	}
	index := string(docsFiles()["index.html"].body)
	for _, want := range []string{`src="/docs/swagger-ui-bundle.js?v=`, `src="/docs/docs.js?v=`, `href="/docs/swagger-ui.css?v=`} {
		if !strings.Contains(index, want) {
			t.Errorf("index.html does not contain %s", want)
		}
	}
	if strings.Contains(index, "__VERSION__") {
		t.Error("index.html still holds the version placeholder")
	}
	js := string(docsFiles()["docs.js"].body)
	for _, want := range []string{`url: "/openapi.json"`, "validatorUrl: null", "usePkceWithAuthorizationCodeGrant: true"} {
		if !strings.Contains(js, want) {
			t.Errorf("docs.js does not contain %s", want)
		}
	}
}

func TestDocsHandlerServesEachFile(t *testing.T) {
	t.Parallel()
	h := DocsHandler()
	names, err := fs.Glob(docsFS, "docs/*")
	if err != nil {
		t.Fatal(err)
	}
	wantType := map[string]string{
		".html": "text/html; charset=utf-8",
		".js":   "text/javascript; charset=utf-8",
		".css":  "text/css; charset=utf-8",
		".png":  "image/png",
		".txt":  "text/plain; charset=utf-8",
		"":      "text/plain; charset=utf-8",
	}
	for _, name := range names {
		name = strings.TrimPrefix(name, "docs/")
		t.Run(name, func(t *testing.T) {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, "/docs/"+name, nil))
			if w.Code != http.StatusOK {
				t.Fatalf("status %d", w.Code)
			}
			ext := path.Ext(name)
			if got := w.Header().Get("Content-Type"); got != wantType[ext] {
				t.Errorf("Content-Type %q, want %q", got, wantType[ext])
			}
			long := ext == ".js" || ext == ".css" || ext == ".png"
			if got := w.Header().Get("Cache-Control"); strings.Contains(got, "max-age=31536000") != long {
				t.Errorf("Cache-Control %q for %s", got, name)
			}
			if !bytes.Equal(w.Body.Bytes(), docsFiles()[name].body) {
				t.Errorf("body differs from the embedded file")
			}
		})
	}
}

func TestDocsHandler(t *testing.T) {
	t.Parallel()
	h := DocsHandler()
	get := func(path string, header ...string) *httptest.ResponseRecorder {
		r := httptest.NewRequest(http.MethodGet, path, nil)
		for i := 0; i+1 < len(header); i += 2 {
			r.Header.Set(header[i], header[i+1])
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	index := get("/docs")
	if index.Code != http.StatusOK || !strings.Contains(index.Body.String(), `<div id="swagger-ui">`) {
		t.Fatalf("/docs: %d %.200s", index.Code, index.Body)
	}
	if got := index.Header().Get("Cache-Control"); got != "no-cache" {
		t.Errorf("/docs Cache-Control %q, want no-cache", got)
	}
	if got := index.Header().Get("Content-Security-Policy"); !strings.Contains(got, "script-src 'self'") {
		t.Errorf("/docs CSP %q", got)
	}
	if etag := index.Header().Get("ETag"); get("/docs", "If-None-Match", etag).Code != http.StatusNotModified {
		t.Error("If-None-Match with the current ETag: want 304")
	}
	for _, p := range []string{"/docs/nope.js", "/docs/..%2fdrover.yaml", "/docs/swagger-ui.js.map", "/docs/docs"} {
		w := get(p)
		if w.Code != http.StatusNotFound || w.Header().Get("Content-Type") != "application/problem+json" {
			t.Errorf("%s: %d %s, want a 404 problem", p, w.Code, w.Header().Get("Content-Type"))
		}
		if !strings.Contains(w.Body.String(), `"code":"R001"`) {
			t.Errorf("%s: body %s", p, w.Body)
		}
	}
}
