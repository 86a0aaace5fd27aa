package openapi

import (
	"encoding/json"
	"strconv"
	"strings"
)

// The phrases below complete a message whose subject is the Source: they
// say the rule in plain words, for a person fixing the request.

// typePhrase says which JSON types are allowed: "must be an integer".
func typePhrase(types []string) string {
	if len(types) == 0 {
		return "has the wrong type"
	}
	named := make([]string, len(types))
	for i, t := range types {
		switch t {
		case "integer", "object", "array":
			named[i] = "an " + t
		case "null":
			named[i] = "null"
		case "boolean":
			named[i] = "true or false"
		default:
			named[i] = "a " + t
		}
	}
	return "must be " + strings.Join(named, " or ")
}

// enumPhrase lists the allowed values: "must be one of: Sheep, Goats, Deer".
func enumPhrase(values []any) string {
	texts := make([]string, len(values))
	for i, v := range values {
		if s, ok := v.(string); ok {
			texts[i] = s
			continue
		}
		b, _ := json.Marshal(v)
		texts[i] = string(b)
	}
	if len(texts) == 1 {
		return "must be " + texts[0]
	}
	return "must be one of: " + strings.Join(texts, ", ")
}

// formatPhrase says what a format means.
func formatPhrase(format string) string {
	switch format {
	case "date":
		return "must be a date, YYYY-MM-DD"
	case "date-time":
		return "must be a date and time with an offset, such as 2024-05-01T09:30:00Z"
	case "int32", "int64":
		return "is out of range for " + format
	}
	return "must be a valid " + format
}

func combinatorPhrase(keyword string) string {
	switch keyword {
	case "oneOf":
		return "must match exactly one of the allowed forms"
	case "anyOf":
		return "must match one of the allowed forms"
	}
	return "is in a form that is not allowed"
}

func rulePhrase(keyword string) string {
	if keyword == "" {
		return "does not conform to the OpenAPI document"
	}
	return "breaks the " + strconv.Quote(keyword) + " rule of the OpenAPI document"
}

func uintText(p *uint64) string {
	if p == nil {
		return "?"
	}
	return strconv.FormatUint(*p, 10)
}

func floatText(p *float64) string {
	if p == nil {
		return "?"
	}
	return strconv.FormatFloat(*p, 'g', -1, 64)
}
