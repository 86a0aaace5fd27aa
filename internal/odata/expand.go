package odata

import (
	"strings"

	"github.com/drover-registry/drover/internal/livestock"
)

// parseExpandTree reads $expand against the members allowed: items
// separated by commas, each "*" (every member at the top), a path of
// members (content/movementGroups), or a member with a nested $expand in
// parentheses (content($expand=movementGroups)), reaching at most
// MaxExpandDepth deep. It returns the top-level members named, each once.
func parseExpandTree(s string, allowed []Expansion) ([]string, error) {
	var top []string
	err := expandItems(s, s, allowed, MaxExpandDepth, func(name string) {
		for _, t := range top {
			if t == name {
				return
			}
		}
		top = append(top, name)
	})
	if err != nil {
		return nil, err
	}
	return top, nil
}

// expandItems reads the items of s, names of level, with budget levels
// left; named is told each member of level that an item names.
func expandItems(whole, s string, level []Expansion, budget int, named func(string)) error {
	bad := func(value, format string, args ...any) error {
		return invalid(optionError(livestock.CodeBadQuery, "$expand", value, format, args...))
	}
	items, ok := splitTop(s, ',')
	if !ok {
		return bad(whole, "$expand has a parenthesis that is not closed, or closed twice")
	}
	for _, item := range items {
		item = strings.TrimSpace(item)
		path, options, nested := strings.Cut(item, "(")
		switch {
		case item == "":
			return bad(whole, "$expand has an empty name; give names separated by commas, from: %s", names(level))
		case item == "*":
			for _, e := range level {
				named(e.Name)
			}
			continue
		case nested && !strings.HasSuffix(options, ")"):
			return bad(item, "%s: the options in parentheses must end the item", clip(item))
		}
		here := level
		var last Expansion
		for i, seg := range strings.Split(path, "/") {
			if i >= budget {
				return bad(item, "%s reaches deeper than $expand may: the maximum depth is %d", clip(item), MaxExpandDepth)
			}
			e, ok := find(here, strings.TrimSpace(seg))
			if !ok {
				return bad(strings.TrimSpace(seg), "%s cannot be expanded; the expansions are: %s", clip(strings.TrimSpace(seg)), names(here))
			}
			if i == 0 {
				named(e.Name)
			}
			last, here = e, e.Nested
		}
		if !nested {
			continue
		}
		depth := len(strings.Split(path, "/"))
		opts, _ := splitTop(strings.TrimSuffix(options, ")"), ';')
		for _, opt := range opts {
			name, value, _ := strings.Cut(opt, "=")
			if canonical, _ := optionName(strings.TrimSpace(name)); canonical != "$expand" {
				return bad(item, "%s: only $expand may be given inside the parentheses of $expand", clip(item))
			}
			if err := expandItems(whole, value, last.Nested, budget-depth, func(string) {}); err != nil {
				return err
			}
		}
	}
	return nil
}

// splitTop splits s at sep outside parentheses; false when they do not
// balance.
func splitTop(s string, sep byte) ([]string, bool) {
	var parts []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			if depth--; depth < 0 {
				return nil, false
			}
		case sep:
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, s[start:]), depth == 0
}

func find(level []Expansion, name string) (Expansion, bool) {
	for _, e := range level {
		if e.Name == name {
			return e, true
		}
	}
	return Expansion{}, false
}

// names lists the members of level, for messages.
func names(level []Expansion) string {
	if len(level) == 0 {
		return "none here"
	}
	list := make([]string, len(level))
	for i, e := range level {
		list[i] = e.Name
	}
	return strings.Join(list, ", ")
}
