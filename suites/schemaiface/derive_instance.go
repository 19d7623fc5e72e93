package schemaiface

import (
	"sort"
)

// instanceOf builds a value for a JSON Schema from what the schema states (const, enum, default, examples, type
// with its required members and bounds); ok false when it cannot (a $ref, a pattern). The caller validates it.
func instanceOf(s any, depth int) (any, bool) {
	m, ok := s.(map[string]any)
	if !ok || depth > 16 {
		return nil, s == true
	}
	if v, ok := m["const"]; ok {
		return v, true
	}
	if e, ok := m["enum"].([]any); ok && len(e) > 0 {
		return e[0], true
	}
	if v, ok := m["default"]; ok {
		return v, true
	}
	if e, ok := m["examples"].([]any); ok && len(e) > 0 {
		return e[0], true
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		if alts, ok := m[k].([]any); ok && len(alts) > 0 {
			return instanceOf(alts[0], depth+1)
		}
	}
	if _, ok := m["$ref"]; ok {
		return nil, false
	}
	typ := m["type"]
	if ts, ok := typ.([]any); ok && len(ts) > 0 {
		typ = ts[0]
	}
	switch typ {
	case "object", nil:
		if typ == nil && m["properties"] == nil {
			return nil, false
		}
		props, _ := m["properties"].(map[string]any)
		out := map[string]any{}
		req, _ := m["required"].([]any)
		names := make([]string, 0, len(req))
		for _, r := range req {
			if n, ok := r.(string); ok {
				names = append(names, n)
			}
		}
		sort.Strings(names)
		for _, n := range names {
			v, ok := instanceOf(props[n], depth+1)
			if !ok {
				return nil, false
			}
			out[n] = v
		}
		return out, true
	case "string":
		if _, ok := m["pattern"]; ok {
			return nil, false
		}
		s := "x"
		if f, ok := m["format"].(string); ok {
			switch f {
			case "date-time":
				s = "2026-01-01T00:00:00Z"
			case "date":
				s = "2026-01-01"
			case "uri":
				s = "https://example.com/"
			case "email":
				s = "x@example.com"
			default:
				return nil, false
			}
		}
		if n, ok := m["minLength"].(float64); ok {
			for len(s) < int(n) {
				s += "x"
			}
		}
		return s, true
	case "integer", "number":
		if n, ok := m["minimum"].(float64); ok {
			return n, true
		}
		if n, ok := m["exclusiveMinimum"].(float64); ok {
			return n + 1, true
		}
		if n, ok := m["maximum"].(float64); ok && n < 1 {
			return n, true
		}
		return 1, true
	case "boolean":
		return true, true
	case "array":
		n, _ := m["minItems"].(float64)
		out := []any{}
		for i := 0; i < int(n); i++ {
			v, ok := instanceOf(m["items"], depth+1)
			if !ok {
				return nil, false
			}
			out = append(out, v)
		}
		return out, true
	case "null":
		return nil, true
	}
	return nil, false
}
