package schemaiface

import (
	"encoding/json"
	"strings"

	"github.com/extconf/extconf/harness/jsonptr"
)

// Invalid arguments are derived mechanically from valid ones and the skill's input_schema, so the same specs run
// against any agent: one defect per request.

// inputSchema is the skill's input schema with a root $ref followed (its $defs kept), so that a schema wrapping
// the same input in a top-level reference reads as the input itself.
func inputSchema(doc map[string]any) map[string]any {
	in, _ := doc["input_schema"].(map[string]any)
	res, _ := in["resolution"].(map[string]any)
	m, _ := res["schema"].(map[string]any)
	if m != nil {
		m = deref(m, m)
	}
	return m
}

func cloneArgs(args json.RawMessage) map[string]any {
	m, _ := decodeTree(args).(map[string]any)
	if m == nil {
		m = map[string]any{}
	}
	return m
}

// withoutRequired drops one member input_schema requires that the arguments carry. The draft fixes only one
// ordering (binding before arguments), so an agent may authorize the requested resource, operation or selector
// before it validates: the member dropped is chosen so that what such a decision reads stays in place — a
// member required inside a nested object first, then a root member that does not look like an identifier or a
// selector (…id, …_ref, operation, action, kind, type, the names the schema gives an enum or const), then any.
func withoutRequired(sch map[string]any, args json.RawMessage) (json.RawMessage, string, bool) {
	m := cloneArgs(args)
	type cand struct {
		parent map[string]any
		key    string
		ptr    string
		rank   int
	}
	var cs []cand
	props, _ := sch["properties"].(map[string]any)
	req, _ := sch["required"].([]any)
	for _, r := range req {
		k, _ := r.(string)
		if _, ok := m[k]; !ok {
			continue
		}
		rank := 1
		if keyLike(k, props[k]) {
			rank = 2
		}
		cs = append(cs, cand{m, k, "/" + jsonptr.Escape(k), rank})
	}
	for _, k := range sortedKeys(props) {
		sub, _ := m[k].(map[string]any)
		ps, _ := props[k].(map[string]any)
		if sub == nil || ps == nil {
			continue
		}
		nreq, _ := ps["required"].([]any)
		nprops, _ := ps["properties"].(map[string]any)
		for _, r := range nreq {
			n, _ := r.(string)
			if _, ok := sub[n]; ok && !keyLike(n, nprops[n]) {
				cs = append(cs, cand{sub, n, "/" + jsonptr.Escape(k) + "/" + jsonptr.Escape(n), 0})
			}
		}
	}
	if len(cs) == 0 {
		return nil, "", false
	}
	best := cs[0]
	for _, c := range cs[1:] {
		if c.rank < best.rank {
			best = c
		}
	}
	delete(best.parent, best.key)
	return mustJSON(m), best.ptr, true
}

// keyLike reports whether a member looks like what an authorization decision or an operation selector reads.
func keyLike(name string, schema any) bool {
	n := strings.ToLower(name)
	if n == "id" || strings.HasSuffix(n, "_id") || strings.HasSuffix(n, "id") && len(n) > 2 && n[len(n)-3] == '-' ||
		strings.HasSuffix(n, "_ref") || strings.HasSuffix(n, "_uri") {
		return true
	}
	switch n {
	case "operation", "op", "action", "kind", "type", "mode", "method", "resource", "target", "scope":
		return true
	}
	ps, _ := schema.(map[string]any)
	_, hasEnum := ps["enum"]
	_, hasConst := ps["const"]
	return hasEnum || hasConst
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
