package api_test

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/drover-registry/drover/internal/api"
	"github.com/drover-registry/drover/internal/store"
	"github.com/drover-registry/drover/internal/store/storetest"
)

// capsDoc is the part of /v1/$metadata the capability check reads.
type capsDoc struct {
	Types []capsType `xml:"DataServices>Schema>EntityType"`
	Sets  []struct {
		Name        string `xml:"Name,attr"`
		Type        string `xml:"EntityType,attr"`
		Annotations []struct {
			Term  string `xml:"Term,attr"`
			Bool  string `xml:"Bool,attr"`
			Props []struct {
				Property string   `xml:"Property,attr"`
				Bool     string   `xml:"Bool,attr"`
				Int      string   `xml:"Int,attr"`
				Paths    []string `xml:"Collection>PropertyPath"`
			} `xml:"Record>PropertyValue"`
		} `xml:"Annotation"`
	} `xml:"DataServices>Schema>EntityContainer>EntitySet"`
}

type capsType struct {
	Name string `xml:"Name,attr"`
	Key  []struct {
		Name string `xml:"Name,attr"`
	} `xml:"Key>PropertyRef"`
	Properties []struct {
		Name string `xml:"Name,attr"`
		Type string `xml:"Type,attr"`
	} `xml:"Property"`
}

// expandPaths is, for each entity type, a path of $expand as deep as
// MaxLevels may declare: the one thing the check cannot read from the
// document, as Drover's expansions are not navigation properties.
var expandPaths = map[string]string{"MovementRequest": "content/processingFlags", "ApprovedMovement": "movementDocument/documentType"}

// TestMetadataCapabilities reads /v1/$metadata and, for every capability
// it declares of every entity set, asks the service once: what it says
// is honoured must be (true) and what it says is not must be refused
// with a 400 (false), so the document and the handlers cannot drift.
func TestMetadataCapabilities(t *testing.T) {
	t.Parallel()
	storetest.Each(t, func(t *testing.T, s store.Store) {
		b := setup(t, s, api.Config{})
		f := newFixture(b)
		// A second request in every set, for $top and $skip to tell apart,
		// each with a trackingId to filter on.
		review := f.reviewOf(f.toReview.RequestID)
		review["trackingId"] = "caps-review"
		b.submit(f.k1, "ReviewHoldingMovementRequests", review)
		b.submit(f.k1, "UndoRequests", map[string]any{"undoRequestId": f.toUndo.RequestID, "trackingId": "caps-undo"})
		again := transfer(day(0), farm1, farm2, farm1, sheep("130181", 3), nil)
		again["requestToBeCorrected_ID"], again["trackingId"] = f.sent, "caps-correction"
		b.submit(f.k1, "CorrectTransferRequests", again)
		tracked := transfer(day(0), farm1, "01/100/0258", farm1, sheep("130182", 3), nil)
		tracked["trackingId"] = "caps-transfer"
		b.submit(f.k1, "TransferRequests", tracked)
		insp := b.token("inspector")

		var doc capsDoc
		meta := b.do(http.MethodGet, "/v1/$metadata", insp, nil)
		if err := xml.Unmarshal(meta.body, &doc); err != nil || meta.status != http.StatusOK {
			t.Fatalf("$metadata = %d %v", meta.status, err)
		}
		annotated := 0
		for _, set := range doc.Sets {
			if len(set.Annotations) == 0 {
				continue
			}
			annotated++
			typeName := strings.TrimPrefix(set.Type, "Drover.")
			i := slices.IndexFunc(doc.Types, func(x capsType) bool { return x.Name == typeName })
			if i < 0 {
				t.Fatalf("%s: no entity type %s", set.Name, set.Type)
			}
			c := capsCheck{t: t, b: b, token: insp, set: set.Name, types: map[string]string{}}
			for _, k := range doc.Types[i].Key {
				c.key = append(c.key, k.Name)
			}
			for _, p := range doc.Types[i].Properties {
				c.types[p.Name] = p.Type
			}
			c.all = c.items("")
			if len(c.all) < 2 {
				t.Fatalf("%s: %d items; the check needs two", set.Name, len(c.all))
			}
			for _, a := range set.Annotations {
				term := strings.TrimPrefix(a.Term, "Org.OData.Capabilities.V1.")
				values := map[string]string{}
				paths := map[string][]string{}
				for _, p := range a.Props {
					values[p.Property] = p.Bool + p.Int
					paths[p.Property] = p.Paths
				}
				switch term {
				case "TopSupported":
					c.top(a.Bool == "true")
				case "SkipSupported":
					c.skip(a.Bool == "true")
				case "CountRestrictions":
					c.count(values["Countable"] == "true")
				case "FilterRestrictions":
					c.filter(values["Filterable"] == "true", paths["NonFilterableProperties"])
				case "SortRestrictions":
					c.sort(values["Sortable"] == "true", paths["NonSortableProperties"])
				case "SelectSupport":
					c.selects(values["Supported"] == "true")
				case "ExpandRestrictions":
					levels, _ := strconv.Atoi(values["MaxLevels"])
					c.expand(values["Expandable"] == "true", levels, expandPaths[typeName])
				default:
					t.Errorf("%s: $metadata declares %s, which this test has no check for", set.Name, a.Term)
				}
			}
		}
		if annotated != 5 {
			t.Errorf("%d entity sets declare capabilities, want 5 (four request collections and ApprovedMovements)", annotated)
		}
	})
}

// capsCheck asks one entity set what its declared capabilities promise.
type capsCheck struct {
	t     *testing.T
	b     *bundle
	token string
	set   string
	key   []string
	types map[string]string // property → Edm type
	all   []map[string]json.RawMessage
}

type capsPage struct {
	Value []map[string]json.RawMessage `json:"value"`
	Count *int64                       `json:"@odata.count"`
}

// get asks for the set with query; want says whether a 200 is expected
// (else a 400 naming option).
func (c *capsCheck) get(query, option string, want bool) (capsPage, bool) {
	c.t.Helper()
	res := c.b.do(http.MethodGet, "/v1/"+c.set+"?"+query, c.token, nil)
	var p capsPage
	switch {
	case want && res.status != http.StatusOK:
		c.t.Errorf("%s?%s = %d %s; $metadata says %s is honoured", c.set, query, res.status, res.body, option)
	case !want && (res.status != http.StatusBadRequest || !strings.Contains(string(res.body), option)):
		c.t.Errorf("%s?%s = %d %.300s; $metadata says %s is not honoured, so a 400 naming it", c.set, query, res.status, res.body, option)
	case want:
		res.decode(&p)
		return p, true
	}
	return p, false
}

func (c *capsCheck) items(query string) []map[string]json.RawMessage {
	p, _ := c.get(query, "the listing", true)
	return p.Value
}

// id is an item's key, as text.
func (c *capsCheck) id(item map[string]json.RawMessage) string {
	var parts []string
	for _, k := range c.key {
		parts = append(parts, string(item[k]))
	}
	return strings.Join(parts, ",")
}

func (c *capsCheck) ids(items []map[string]json.RawMessage) []string {
	var out []string
	for _, item := range items {
		out = append(out, c.id(item))
	}
	return out
}

func (c *capsCheck) top(yes bool) {
	if p, ok := c.get("$top=1", "$top", yes); ok && !slices.Equal(c.ids(p.Value), c.ids(c.all[:1])) {
		c.t.Errorf("%s?$top=1 gave %v, want %v", c.set, c.ids(p.Value), c.ids(c.all[:1]))
	}
}

func (c *capsCheck) skip(yes bool) {
	if p, ok := c.get("$skip=1", "$skip", yes); ok && !slices.Equal(c.ids(p.Value), c.ids(c.all[1:])) {
		c.t.Errorf("%s?$skip=1 gave %v, want %v", c.set, c.ids(p.Value), c.ids(c.all[1:]))
	}
}

func (c *capsCheck) count(yes bool) {
	if p, ok := c.get("$count=true", "$count", yes); ok && (p.Count == nil || *p.Count != int64(len(c.all))) {
		c.t.Errorf("%s?$count=true: @odata.count %v, want %d", c.set, p.Count, len(c.all))
	}
}

// filter: each property declared filterable keeps an item whose value it
// compares with; each declared not filterable is refused.
func (c *capsCheck) filter(yes bool, non []string) {
	for name, typ := range c.types {
		if !yes || slices.Contains(non, name) {
			c.get("$filter="+url.QueryEscape(name+" eq 1"), "$filter", false)
			continue
		}
		item, lit := c.literal(name, typ)
		if item == nil {
			c.t.Errorf("%s: no item has a value of %s (%s) to filter on", c.set, name, typ)
			continue
		}
		op := " eq "
		if typ == "Edm.DateTimeOffset" { // shown to the second; the store may keep more
			op = " ge "
		}
		if p, ok := c.get("$filter="+url.QueryEscape(name+op+lit), "$filter", true); ok && !slices.Contains(c.ids(p.Value), c.id(item)) {
			c.t.Errorf("%s?$filter=%s%s%s left out %s", c.set, name, op, lit, c.id(item))
		}
	}
}

// literal is an item with a value of property name and that value as a
// $filter literal, or nil when no item has one.
func (c *capsCheck) literal(name, typ string) (map[string]json.RawMessage, string) {
	for _, item := range c.all {
		raw := item[name]
		if raw == nil || string(raw) == "null" {
			continue
		}
		switch typ {
		case "Edm.String":
			var s string
			_ = json.Unmarshal(raw, &s)
			return item, "'" + strings.ReplaceAll(s, "'", "''") + "'"
		case "Edm.DateTimeOffset":
			var s string
			_ = json.Unmarshal(raw, &s)
			return item, s
		case "Edm.Int32", "Edm.Int64", "Edm.Boolean":
			return item, string(raw)
		}
		c.t.Errorf("%s: %s is declared filterable but is of type %s", c.set, name, typ)
		return nil, ""
	}
	return nil, ""
}

// sort: each property declared sortable orders the items (numbers and
// date-times checked value by value); each declared not sortable is
// refused.
func (c *capsCheck) sort(yes bool, non []string) {
	for name, typ := range c.types {
		if !yes || slices.Contains(non, name) {
			c.get("$orderby="+url.QueryEscape(name), "$orderby", false)
			continue
		}
		p, ok := c.get("$orderby="+url.QueryEscape(name+" desc"), "$orderby", true)
		if !ok {
			continue
		}
		if len(p.Value) != len(c.all) {
			c.t.Errorf("%s?$orderby=%s desc: %d items, want %d", c.set, name, len(p.Value), len(c.all))
		}
		var last *float64
		for _, item := range p.Value {
			v, ok := sortValue(item[name], typ)
			if !ok {
				continue
			}
			if last != nil && v > *last {
				c.t.Errorf("%s?$orderby=%s desc: %s after %v", c.set, name, item[name], *last)
			}
			last = &v
		}
	}
}

// sortValue is a number or date-time as a number, or false for a value
// of another type or none.
func sortValue(raw json.RawMessage, typ string) (float64, bool) {
	switch typ {
	case "Edm.Int32", "Edm.Int64":
		n, err := strconv.ParseFloat(string(raw), 64)
		return n, err == nil
	case "Edm.DateTimeOffset":
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return 0, false
		}
		at, err := time.Parse(time.RFC3339Nano, s)
		return float64(at.UnixNano()), err == nil
	}
	return 0, false
}

func (c *capsCheck) selects(yes bool) {
	p, ok := c.get("$select="+strings.Join(c.key, ","), "$select", yes)
	for _, item := range p.Value {
		var names []string
		for name := range item {
			if !strings.HasPrefix(name, "@") {
				names = append(names, name)
			}
		}
		if slices.Sort(names); ok && !slices.Equal(names, slices.Sorted(slices.Values(c.key))) {
			c.t.Errorf("%s?$select=%s gave the members %v", c.set, strings.Join(c.key, ","), names)
		}
	}
}

// expand: a path as deep as MaxLevels is taken, one deeper refused.
func (c *capsCheck) expand(yes bool, levels int, path string) {
	if !yes {
		c.get("$expand=*", "$expand", false)
		return
	}
	if path == "" || strings.Count(path, "/")+1 != levels {
		c.t.Errorf("%s: MaxLevels %d, but the test's path %q is not that deep", c.set, levels, path)
		return
	}
	c.get("$expand="+url.QueryEscape(path), "$expand", true)
	res := c.b.do(http.MethodGet, "/v1/"+c.set+"?$expand="+url.QueryEscape(path+"/x"), c.token, nil)
	if res.status != http.StatusBadRequest || !strings.Contains(string(res.body), fmt.Sprintf("maximum depth is %d", levels)) {
		c.t.Errorf("%s?$expand=%s/x = %d %.300s; want a 400 saying the maximum depth is %d", c.set, path, res.status, res.body, levels)
	}
}
