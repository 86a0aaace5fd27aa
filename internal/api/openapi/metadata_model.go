package openapi

import (
	"slices"
	"strconv"
)

// Model is what $metadata declares: the entity sets served, with what
// each honours of OData's query options, and the functions bound to them
// (the review look-up, the approved movements by transfer date).
type Model struct {
	Sets      []EntitySet
	Functions []Function
}

// EntitySet is a collection served at /v1/{Name}, of items of the
// document's schema Type, keyed by Key (requestId when empty).
type EntitySet struct {
	Name, Type   string
	Key          []string
	Capabilities Capabilities
}

// Capabilities say which query options an entity set honours, as the
// Org.OData.Capabilities.V1 vocabulary writes them. Zero means none.
type Capabilities struct {
	// Count: $count=true, and /$count where the set has it.
	Top, Skip, Count, Select bool
	// Filterable are the properties $filter may name; none means the set
	// takes no $filter. The entity's other properties are declared not
	// filterable. Sortable is the same for $orderby.
	Filterable, Sortable []string
	// ExpandLevels is how deep $expand may reach; 0 means no $expand.
	ExpandLevels int
	// Annotate says whether to write these annotations at all.
	Annotate bool
}

// Function is a function bound to the collection of an entity type,
// called as /v1/{set}/{Name}(…).
type Function struct {
	Name    string
	Binding string // the entity type of the collection it is bound to
	Params  []Param
}

// Param is a function parameter of an Edm primitive type.
type Param struct {
	Name, Type string
	Nullable   bool
}

const (
	capabilities    = "Org.OData.Capabilities.V1"
	capabilitiesURI = "https://oasis-tcs.github.io/odata-vocabularies/vocabularies/Org.OData.Capabilities.V1.xml"
)

// csdl is the set as the entity container declares it; t is its type.
func (set EntitySet) csdl(t *csdlType) csdlSet {
	return csdlSet{Name: set.Name, Type: MetadataNamespace + "." + set.Type, Annotations: set.Capabilities.annotations(t)}
}

// annotations are c as CSDL annotations of an entity set of type t.
func (c Capabilities) annotations(t *csdlType) []csdlAnnotation {
	if !c.Annotate {
		return nil
	}
	yes := func(b bool) string { return strconv.FormatBool(b) }
	record := func(term string, props ...csdlPropertyValue) csdlAnnotation {
		return csdlAnnotation{Term: capabilities + "." + term, Record: &csdlRecord{Props: props}}
	}
	// others are t's properties not in names, as a collection of paths.
	others := func(names []string) *csdlCollection {
		var paths []string
		for _, p := range t.Properties {
			if !slices.Contains(names, p.Name) {
				paths = append(paths, p.Name)
			}
		}
		slices.Sort(paths)
		return &csdlCollection{Paths: paths}
	}
	expand := []csdlPropertyValue{{Property: "Expandable", Bool: yes(c.ExpandLevels > 0)}}
	if c.ExpandLevels > 0 {
		expand = append(expand, csdlPropertyValue{Property: "MaxLevels", Int: strconv.Itoa(c.ExpandLevels)})
	}
	return []csdlAnnotation{
		{Term: capabilities + ".TopSupported", Bool: yes(c.Top)},
		{Term: capabilities + ".SkipSupported", Bool: yes(c.Skip)},
		record("CountRestrictions", csdlPropertyValue{Property: "Countable", Bool: yes(c.Count)}),
		record("FilterRestrictions", csdlPropertyValue{Property: "Filterable", Bool: yes(len(c.Filterable) > 0)},
			csdlPropertyValue{Property: "NonFilterableProperties", Collection: others(c.Filterable)}),
		record("SortRestrictions", csdlPropertyValue{Property: "Sortable", Bool: yes(len(c.Sortable) > 0)},
			csdlPropertyValue{Property: "NonSortableProperties", Collection: others(c.Sortable)}),
		record("SelectSupport", csdlPropertyValue{Property: "Supported", Bool: yes(c.Select)}),
		record("ExpandRestrictions", expand...),
	}
}

// The CSDL elements of functions and annotations.
type (
	csdlReference struct {
		URI     string      `xml:"Uri,attr"`
		Include csdlInclude `xml:"edmx:Include"`
	}
	csdlInclude struct {
		Namespace string `xml:"Namespace,attr"`
		Alias     string `xml:"Alias,attr"`
	}
	csdlFunction struct {
		Name    string      `xml:"Name,attr"`
		IsBound string      `xml:"IsBound,attr"`
		Params  []csdlParam `xml:"Parameter"`
		Return  csdlReturn  `xml:"ReturnType"`
	}
	csdlParam struct {
		Name     string `xml:"Name,attr"`
		Type     string `xml:"Type,attr"`
		Nullable string `xml:"Nullable,attr,omitempty"`
	}
	csdlReturn struct {
		Type string `xml:"Type,attr"`
	}
	csdlAnnotation struct {
		Term   string      `xml:"Term,attr"`
		Bool   string      `xml:"Bool,attr,omitempty"`
		Record *csdlRecord `xml:"Record,omitempty"`
	}
	csdlRecord struct {
		Props []csdlPropertyValue `xml:"PropertyValue"`
	}
	csdlPropertyValue struct {
		Property   string          `xml:"Property,attr"`
		Bool       string          `xml:"Bool,attr,omitempty"`
		Int        string          `xml:"Int,attr,omitempty"`
		Collection *csdlCollection `xml:"Collection,omitempty"`
	}
	csdlCollection struct {
		Paths []string `xml:"PropertyPath"`
	}
)
