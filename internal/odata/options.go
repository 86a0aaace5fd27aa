package odata

import (
	"slices"
	"strings"

	"github.com/drover-registry/drover/internal/livestock"
)

// MaxOrderBy is how many expressions $orderby may hold, as the live
// service's definition states.
const MaxOrderBy = 5

// parseSelect reads $select: members separated by commas, each one of
// members, or "*" for every member (nil). A member given twice counts once.
func parseSelect(s string, members []string) ([]string, error) {
	var names []string
	all := false
	for name := range strings.SplitSeq(s, ",") {
		name = strings.TrimSpace(name)
		switch {
		case name == "":
			return nil, invalid(optionError(livestock.CodeBadQuery, "$select", s,
				"$select has an empty member; give members separated by commas, from: %s", strings.Join(members, ", ")))
		case name == "*":
			all = true
		case !slices.Contains(members, name):
			return nil, invalid(optionError(livestock.CodeBadQuery, "$select", name,
				"%s is not a member that can be selected; the members are: %s", clip(name), strings.Join(members, ", ")))
		case !slices.Contains(names, name):
			names = append(names, name)
		}
	}
	if all {
		return nil, nil
	}
	return names, nil
}

// parseOrderBy reads $orderby: at most MaxOrderBy expressions separated
// by commas, each a field of c that has an order, then perhaps asc or
// desc after a space. The key ascending (all of it, or its first fields)
// is the default order (nil).
func parseOrderBy(s string, c Collection) ([]OrderItem, error) {
	bad := func(value, format string, args ...any) ([]OrderItem, error) {
		return nil, invalid(optionError(livestock.CodeBadQuery, "$orderby", value, format, args...))
	}
	items := strings.Split(s, ",")
	if len(items) > MaxOrderBy {
		return bad(s, "$orderby has %d expressions; it may have at most %d", len(items), MaxOrderBy)
	}
	var order []OrderItem
	for _, item := range items {
		words := strings.Fields(item)
		if len(words) == 0 || len(words) > 2 {
			return bad(item, "each expression of $orderby is a field, then perhaps asc or desc, e.g. requestDate desc,requestId")
		}
		f, ok := c.Fields[words[0]]
		if !ok || f.Unordered {
			return bad(words[0], "%s cannot be sorted by; the fields are %s", clip(words[0]), listOrdered(c.Fields))
		}
		o := OrderItem{Field: words[0]}
		if len(words) == 2 {
			switch strings.ToLower(words[1]) {
			case "asc":
			case "desc":
				o.Desc = true
			default:
				return bad(words[1], "%s is not a direction; write asc or desc after the field", clip(words[1]))
			}
		}
		if slices.ContainsFunc(order, func(p OrderItem) bool { return p.Field == o.Field }) {
			return bad(o.Field, "%s is named twice in $orderby", o.Field)
		}
		order = append(order, o)
	}
	if len(c.Key) > 0 && slices.Equal(withKey(order, c.Key), withKey(nil, c.Key)) {
		return nil, nil // the key ascending: the default order
	}
	return order, nil
}

// FormatOrderBy writes an order as $orderby text: "requestDate desc,requestId".
func FormatOrderBy(order []OrderItem) string {
	parts := make([]string, len(order))
	for i, o := range order {
		parts[i] = o.Field
		if o.Desc {
			parts[i] += " desc"
		}
	}
	return strings.Join(parts, ",")
}

// listOrdered names the fields that have an order, for messages.
func listOrdered(fields Fields) string {
	ordered := Fields{}
	for name, f := range fields {
		if !f.Unordered {
			ordered[name] = f
		}
	}
	return listFields(ordered)
}

// parseCount reads $count: true or false.
func parseCount(s string) (bool, error) {
	switch strings.ToLower(s) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, invalid(optionError(livestock.CodeBadQuery, "$count", s, "$count must be true or false"))
}

// checkFormat reads $format, which may only ask for what Drover writes:
// json, or application/json with parameters.
func checkFormat(s string) error {
	media, _, _ := strings.Cut(strings.ToLower(s), ";")
	if media = strings.TrimSpace(media); media == "json" || media == "application/json" {
		return nil
	}
	return invalid(optionError(livestock.CodeBadQuery, "$format", s, "$format must be json: every answer is JSON"))
}
