package schemaiface

import (
	"encoding/json"
	"strings"

	"github.com/extconf/extconf/harness/jsonptr"
)

// Invalid arguments are derived mechanically from valid ones and the skill's input_schema, so the same specs run
// against any agent: one defect per request.

func inputSchema(doc map[string]any) map[string]any {
	in, _ := doc["input_schema"].(map[string]any)
	res, _ := in["resolution"].(map[string]any)
	m, _ := res["schema"].(map[string]any)
	return m
}

func cloneArgs(args json.RawMessage) map[string]any {
	m, _ := decodeTree(args).(map[string]any)
	if m == nil {
		m = map[string]any{}
	}
	return m
}

// withoutRequired drops the first root member input_schema requires that the arguments carry.
func withoutRequired(sch map[string]any, args json.RawMessage) (json.RawMessage, string, bool) {
	m := cloneArgs(args)
	req, _ := sch["required"].([]any)
	for _, r := range req {
		k, _ := r.(string)
		if _, ok := m[k]; ok {
			delete(m, k)
			return mustJSON(m), "/" + jsonptr.Escape(k), true
		}
	}
	return nil, "", false
}

// withExtraMember adds a member input_schema does not allow (root additionalProperties false).
func withExtraMember(sch map[string]any, args json.RawMessage) (json.RawMessage, string, bool) {
	if ap, ok := sch["additionalProperties"].(bool); !ok || ap {
		return nil, "", false
	}
	m := cloneArgs(args)
	m["extconf_unexpected_member"] = true
	return mustJSON(m), "", true
}

// withWrongType replaces one leaf the arguments carry by a value of another JSON type: a number leaf first
// (a string in its place), else a string leaf (a number in its place).
func withWrongType(sch map[string]any, args json.RawMessage) (json.RawMessage, string, bool) {
	m := cloneArgs(args)
	for _, want := range []string{"number", "integer", "string"} {
		if p, ok := findLeaf(sch, m, "", want); ok {
			setPtr(m, p, map[bool]any{true: "not-a-number", false: json.Number("12345")}[want != "string"])
			return mustJSON(m), p, true
		}
	}
	return nil, "", false
}

func findLeaf(sch map[string]any, inst map[string]any, at, want string) (string, bool) {
	props, _ := sch["properties"].(map[string]any)
	for _, k := range sortedKeys(props) {
		v, present := inst[k]
		if !present {
			continue
		}
		ps, _ := props[k].(map[string]any)
		p := at + "/" + jsonptr.Escape(k)
		if sub, ok := v.(map[string]any); ok {
			if q, ok := findLeaf(ps, sub, p, want); ok {
				return q, true
			}
			continue
		}
		if t, _ := ps["type"].(string); t == want {
			return p, true
		}
	}
	return "", false
}

func setPtr(m map[string]any, p string, v any) {
	toks := strings.Split(strings.TrimPrefix(p, "/"), "/")
	cur := m
	for i, t := range toks {
		t = jsonptr.Unescape(t)
		if i == len(toks)-1 {
			cur[t] = v
			return
		}
		next, _ := cur[t].(map[string]any)
		if next == nil {
			return
		}
		cur = next
	}
}

func withMember(args json.RawMessage, k string, v any) json.RawMessage {
	m := cloneArgs(args)
	m[k] = v
	return mustJSON(m)
}

func withoutMember(args json.RawMessage, k string) json.RawMessage {
	m := cloneArgs(args)
	delete(m, k)
	return mustJSON(m)
}

// formatSamples: a valid and an invalid value per JSON Schema Validation format the specs can exercise.
var formatSamples = map[string][2]string{
	"date-time": {"2026-08-11T11:59:00Z", "yesterday"},
	"date":      {"2026-08-11", "yesterday"},
	"time":      {"11:59:00Z", "noon"},
	"email":     {"noc@example.net", "not-an-email"},
	"ipv4":      {"192.0.2.10", "999.0.2.10"},
	"uuid":      {"6f1c1f8e-3b43-4d55-9a1e-1c2b3d4e5f60", "not-a-uuid"},
}

// formatMember finds a root member of input_schema with a format the specs can exercise (only, when given).
func formatMember(sch map[string]any, only string) (member, format string, ok bool) {
	props, _ := sch["properties"].(map[string]any)
	for _, k := range sortedKeys(props) {
		ps, _ := props[k].(map[string]any)
		f, _ := ps["format"].(string)
		if _, known := formatSamples[f]; known && (only == "" || f == only) {
			return k, f, true
		}
	}
	return "", "", false
}
