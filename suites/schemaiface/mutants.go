package schemaiface

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/extconf/extconf/harness/jsonptr"
	"github.com/extconf/extconf/refclients/skiface"
)

// Invalid inputs from the whole schema (#36): the walker follows local $ref/$defs, allOf/anyOf/oneOf branches,
// nested objects and arrays along the valid arguments, and breaks each keyword the schema states there, one defect
// per instance. Every mutant is checked invalid by the harness's own validator before it is sent: a keyword the
// walker misreads (a branch the instance does not take) yields no request, never a false failure.

// mutant is one invalid instance: what it breaks, where, and the arguments.
type mutant struct {
	class string // the keyword broken: "enum", "minimum", "nested additionalProperties", …
	ptr   string
	args  json.RawMessage
}

func (m mutant) what() string {
	at := m.ptr
	if at == "" {
		at = "the root"
	}
	return m.class + " broken at " + at
}

// mutants returns the instances that break one keyword of sch along args, each invalid per c (when c is nil, none:
// an instance the harness cannot check is never sent), at most one per class, in class order.
func mutants(sch map[string]any, args json.RawMessage, c *skiface.Compiled) []mutant {
	if c == nil {
		return nil
	}
	var all []mutant
	inst := decodeTree(args)
	walkMutants(sch, sch, inst, "", 0, func(class, ptr string, v any, drop bool) {
		m, _ := decodeTree(args).(map[string]any)
		if m == nil {
			return
		}
		var bad any = m
		if ptr == "" {
			if drop {
				return
			}
			bad = v
		} else if !setAt(m, ptr, v, drop) {
			return
		}
		b := mustJSON(bad)
		if len(c.Validate(json.RawMessage(b))) == 0 {
			return // not invalid after all: never sent
		}
		all = append(all, mutant{class: class, ptr: ptr, args: b})
	})
	seen := map[string]bool{}
	var out []mutant
	for _, m := range all {
		if !seen[m.class] {
			seen[m.class] = true
			out = append(out, m)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].class < out[j].class })
	return out
}

// walkMutants visits sch at the instance value inst (at ptr), reporting each keyword broken: emit(class, ptr, the
// replacement value, or drop to delete the member at ptr).
func walkMutants(root, sch map[string]any, inst any, ptr string, depth int, emit func(class, ptr string, v any, drop bool)) {
	if depth > 24 {
		return
	}
	s := deref(root, sch)
	if s == nil {
		return
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		for _, b := range branches(s, k) {
			walkMutants(root, b, inst, ptr, depth+1, emit)
		}
	}
	if e, ok := s["enum"].([]any); ok && len(e) > 0 {
		emit("enum", ptr, "extconf-not-in-enum", false)
	}
	if _, ok := s["const"]; ok {
		emit("const", ptr, "extconf-not-the-const", false)
	}
	if _, isNum := inst.(json.Number); isNum || isNumber(inst) {
		if v, ok := num(s["minimum"]); ok {
			emit("minimum", ptr, jsonNum(v-1), false)
		}
		if v, ok := num(s["exclusiveMinimum"]); ok {
			emit("exclusiveMinimum", ptr, jsonNum(v), false)
		}
		if v, ok := num(s["maximum"]); ok {
			emit("maximum", ptr, jsonNum(v+1), false)
		}
		if v, ok := num(s["exclusiveMaximum"]); ok {
			emit("exclusiveMaximum", ptr, jsonNum(v), false)
		}
		if v, ok := num(s["multipleOf"]); ok && v > 0 {
			emit("multipleOf", ptr, jsonNum(v*1.5), false)
		}
	}
	if str, ok := inst.(string); ok {
		if p, ok := s["pattern"].(string); ok && p != "" {
			emit("pattern", ptr, "\u0000 extconf "+str+" \u0000", false)
		}
		if v, ok := num(s["minLength"]); ok && v > 0 {
			emit("minLength", ptr, "", false)
		}
		if v, ok := num(s["maxLength"]); ok && v < 4096 {
			emit("maxLength", ptr, strings.Repeat("x", int(v)+1), false)
		}
	}
	if arr, ok := inst.([]any); ok {
		if v, ok := num(s["minItems"]); ok && v > 0 {
			emit("minItems", ptr, []any{}, false)
		}
		if v, ok := num(s["maxItems"]); ok && v < 256 && len(arr) > 0 {
			long := make([]any, int(v)+1)
			for i := range long {
				long[i] = arr[0]
			}
			emit("maxItems", ptr, long, false)
		}
		if it, ok := s["items"].(map[string]any); ok && len(arr) > 0 {
			walkMutants(root, it, arr[0], ptr+"/0", depth+1, emit)
		}
	}
	obj, ok := inst.(map[string]any)
	if !ok {
		return
	}
	if ptr != "" { // the root's own are the existing classes (withoutRequired, withExtraMember)
		if ap, ok := s["additionalProperties"].(bool); ok && !ap {
			emit("nested additionalProperties", ptr+"/extconf_unexpected_member", true, false)
		}
		req, _ := s["required"].([]any)
		for _, r := range req {
			if n, _ := r.(string); n != "" {
				if _, has := obj[n]; has {
					emit("nested required", ptr+"/"+jsonptr.Escape(n), nil, true)
					break
				}
			}
		}
	}
	props, _ := s["properties"].(map[string]any)
	for _, k := range sortedKeys(props) {
		v, has := obj[k]
		ps, _ := props[k].(map[string]any)
		if !has || ps == nil {
			continue
		}
		walkMutants(root, ps, v, ptr+"/"+jsonptr.Escape(k), depth+1, emit)
	}
}

// setAt sets (or with drop deletes) the member at the JSON Pointer p inside m; the parent must exist.
func setAt(m map[string]any, p string, v any, drop bool) bool {
	toks := strings.Split(strings.TrimPrefix(p, "/"), "/")
	var cur any = m
	for i, t := range toks {
		t = jsonptr.Unescape(t)
		last := i == len(toks)-1
		switch x := cur.(type) {
		case map[string]any:
			if last {
				if drop {
					delete(x, t)
				} else {
					x[t] = v
				}
				return true
			}
			cur = x[t]
		case []any:
			var n int
			if _, err := fmt.Sscanf(t, "%d", &n); err != nil || n < 0 || n >= len(x) {
				return false
			}
			if last {
				if drop {
					return false
				}
				x[n] = v
				return true
			}
			cur = x[n]
		default:
			return false
		}
	}
	return false
}

func num(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case int:
		return float64(x), true
	}
	return 0, false
}

func isNumber(v any) bool { _, ok := num(v); return ok }

func jsonNum(f float64) json.Number { return json.Number(fmt.Sprint(f)) }
