package main

import (
	"context"
	"encoding/json"
	"sort"

	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/harness/verify/skiface"
)

// deriveSchemaInterface asks the agent for each advertised skill's interface (describe_skill, as principal A when
// the section names one) and fills in: arguments generated from each input schema that validate against it, and the
// skills the agent itself reports unavailable (interface_unavailable) or invalid (interface_invalid).
func deriveSchemaInterface(ctx context.Context, p *probe, cfg target.Config, sec map[string]any) {
	card := p.cards["schema-interface"]
	if card == nil {
		return
	}
	x, ok := card.Extension(skiface.ExtensionURI)
	if !ok {
		return
	}
	var params struct {
		Skills []struct {
			SkillID string `json:"skill_id"`
		} `json:"skills"`
	}
	if json.Unmarshal(x.Params, &params) != nil {
		return
	}
	cl := p.client
	if pr, ok := principalA(cfg, sec); ok {
		cl = cl.WithHeader(pr.Header, pr.Value)
	}
	sc := &skiface.Client{A2A: cl}
	args := map[string]json.RawMessage{}
	if a, ok := sec["arguments"].(map[string]json.RawMessage); ok {
		args = a
	}
	for _, s := range params.Skills {
		iface, res, err := sc.Describe(ctx, p.urls["schema-interface"], s.SkillID)
		switch {
		case err != nil && res != nil && res.RemoteCode == skiface.InterfaceUnavailable:
			if _, given := sec["unavailableSkill"]; !given {
				sec["unavailableSkill"] = s.SkillID
			}
		case err != nil && res != nil && res.RemoteCode == skiface.InterfaceInvalid:
			if _, given := sec["corruptSkill"]; !given {
				sec["corruptSkill"] = map[string]any{"skill": s.SkillID, "arguments": map[string]any{}}
			}
		case err == nil && iface != nil && iface.Verified != nil && iface.Verified.Input != nil:
			var schema any
			if json.Unmarshal(iface.Verified.Doc.InputSchema.Resolution.Schema, &schema) != nil {
				continue
			}
			if v, ok := instance(schema, 0); ok && len(iface.Verified.Input.Validate(v)) == 0 {
				b, _ := json.Marshal(v)
				if _, given := args[s.SkillID]; !given {
					args[s.SkillID] = b
				}
			}
		}
	}
	if len(args) > 0 {
		sec["arguments"] = args
	}
}

func principalA(cfg target.Config, sec map[string]any) (target.Principal, bool) {
	ps, _ := sec["principals"].(map[string]any)
	name, _ := ps["A"].(string)
	if name == "" {
		return target.Principal{}, false
	}
	pr, err := cfg.Credential(name, "")
	return pr, err == nil
}

// instance builds a value for a JSON Schema from what the schema states (const, enum, default, examples, type with
// its required members and bounds); ok false when it cannot (a $ref, a pattern). The caller validates the result.
func instance(s any, depth int) (any, bool) {
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
			return instance(alts[0], depth+1)
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
			v, ok := instance(props[n], depth+1)
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
			v, ok := instance(m["items"], depth+1)
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
