package standing

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"strings"
)

// Load reads the standing data lists. With dir empty it reads the built-in
// lists. Otherwise every *.json file in dir (other files are ignored) is a
// list that replaces the built-in list of the same name, or adds one.
// Every problem in every file is reported, each naming its file and entry.
func Load(dir string) (*Lists, error) {
	lists, err := readDir(builtIn, "data")
	if err != nil {
		return nil, fmt.Errorf("standing: built-in lists: %w", err)
	}
	if dir != "" {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("standing: %s is not a directory", dir)
		}
		ops, err := readDir(os.DirFS(dir), ".")
		if err != nil {
			return nil, fmt.Errorf("standing: %s: %w", dir, err)
		}
		for name, li := range ops {
			lists[name] = li
		}
	}
	return newLists(lists), nil
}

// readDir parses every *.json file in dir of fsys, by list name.
func readDir(fsys fs.FS, dir string) (map[string]*list, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	lists := make(map[string]*list)
	var errs []error
	for _, e := range entries {
		if e.IsDir() || path.Ext(e.Name()) != ".json" {
			continue
		}
		data, err := fs.ReadFile(fsys, path.Join(dir, e.Name()))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		li, err := parseFile(e.Name(), data)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		lists[li.info.Name] = li
	}
	return lists, errors.Join(errs...)
}

// listName is the form of a list's name: it is a URL path segment and an
// OpenAPI path parameter (see drover.yaml).
var listName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9]{0,63}$`)

// file is the layout of a list file.
type file struct {
	Name        string            `json:"name"`
	Description string            `json:"description"`
	Value       []json.RawMessage `json:"value"`
}

// parseFile parses and checks the list in the file named filename.
func parseFile(filename string, data []byte) (*list, error) {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("standing data file %s: %s", filename, fmt.Sprintf(format, args...))
	}
	var f file
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fail("%v", err)
	}
	if dec.More() {
		return nil, fail("more than one JSON value")
	}
	want := strings.TrimSuffix(filename, ".json")
	switch {
	case f.Name != want:
		return nil, fail("the list is named %q; a list's name must be its file's name, %q", f.Name, want)
	case !listName.MatchString(f.Name):
		return nil, fail("the name %q is not a letter followed by up to 63 letters and digits", f.Name)
	case strings.TrimSpace(f.Description) == "":
		return nil, fail("the list has no description")
	case f.Value == nil:
		return nil, fail(`the list has no "value" array of entries`)
	}
	li := &list{
		info:    ListInfo{Name: f.Name, Description: f.Description},
		entries: make([]Entry, 0, len(f.Value)),
		codes:   make(map[string]bool, len(f.Value)),
	}
	var errs []error
	for i, raw := range f.Value {
		var e Entry
		err := json.Unmarshal(raw, &e)
		switch {
		case err != nil:
			errs = append(errs, fail("entry %d: %v", i+1, err))
		case li.codes[e.Code]:
			errs = append(errs, fail("entry %d: the code %q is already used by an earlier entry", i+1, e.Code))
		default:
			li.codes[e.Code] = true
			li.entries = append(li.entries, e)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return li, nil
}
