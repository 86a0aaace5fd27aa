// Package standing owns Drover's standing data: the read-only reference
// lists (species, breeds, counties, exemption codes, holding types…) that
// requests name values from and that GET /v1/StandingData serves.
//
// Each list is one JSON file, named after the list:
//
//	{"name": "species", "description": "…",
//	 "value": [{"code": "Sheep", "description": "Sheep"}, …]}
//
// An entry has a code and a description and may carry further string
// properties (breeds name their species). The lists in data/ are built in;
// an operator may point Load at a directory whose files replace built-in
// lists of the same name or add lists, without a new release. Every file is
// checked at load, so a bad file stops the service at start rather than
// surfacing as a wrong answer later.
package standing

import (
	"cmp"
	"embed"
	"fmt"
	"slices"

	"github.com/drover-registry/drover/internal/livestock"
)

//go:embed data/*.json
var builtIn embed.FS

// Lists is a loaded set of standing data lists. It is read-only and safe
// for concurrent use.
type Lists struct {
	lists map[string]*list
	infos []ListInfo
}

type list struct {
	info    ListInfo
	entries []Entry
	codes   map[string]bool
}

// ListInfo names and describes a list. It is served as it is, hence the
// JSON names.
type ListInfo struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// Entry is one value of a list. Extra holds the entry's further
// properties; it is nil when there are none. An Entry marshals as one flat
// JSON object: {"code": …, "description": …, "species": …}.
type Entry struct {
	Code        string
	Description string
	Extra       map[string]string
}

// Names describes every list, sorted by name.
func (l *Lists) Names() []ListInfo { return slices.Clone(l.infos) }

// List returns the entries of the named list in the file's order, or a
// KindNotFound *livestock.Error (code R001) when there is no such list.
// The entries' Extra maps are shared and must not be modified.
func (l *Lists) List(name string) ([]Entry, error) {
	li, ok := l.lists[name]
	if !ok {
		return nil, &livestock.Error{
			Kind:   livestock.KindNotFound,
			Detail: fmt.Sprintf("There is no standing data list named %q.", name),
			Fields: []livestock.FieldError{{Code: livestock.CodeNotFound, Source: "path:list", Message: "no such standing data list", Value: name}},
		}
	}
	return slices.Clone(li.entries), nil
}

// Has reports whether the named list exists and has an entry with code.
// Codes are compared exactly: "Goats" is in species, "goats" is not.
func (l *Lists) Has(list, code string) bool {
	li, ok := l.lists[list]
	return ok && li.codes[code]
}

func newLists(files map[string]*list) *Lists {
	l := &Lists{lists: files}
	for _, li := range files {
		l.infos = append(l.infos, li.info)
	}
	slices.SortFunc(l.infos, func(a, b ListInfo) int { return cmp.Compare(a.Name, b.Name) })
	return l
}
