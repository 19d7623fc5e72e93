package schemaiface

import (
	"sort"
	"strings"

	"github.com/extconf/extconf/harness/jsonptr"
)

// Schema walking for the gated rows that read a domain schema: a member may be declared at the root, inside
// allOf / anyOf / oneOf / if-then-else branches, behind a local $ref, or nested under properties. Only what the
// schema itself says is read; nothing is retrieved.

// deref follows local "#…" references (JSON Pointer fragments) inside root, bounded.
func deref(root, s map[string]any) map[string]any {
	for i := 0; i < 16 && s != nil; i++ {
		r, ok := s["$ref"].(string)
		if !ok || !strings.HasPrefix(r, "#") {
			return s
		}
		v, ok := resolve(root, strings.TrimPrefix(r, "#"))
		if !ok {
			return s
		}
		next, _ := v.(map[string]any)
		if next == nil {
			return s
		}
		// A $ref beside other keywords applies both; keep the siblings' properties visible.
		merged := map[string]any{}
		for k, x := range next {
			merged[k] = x
		}
		for k, x := range s {
			if k != "$ref" {
				merged[k] = x
			}
		}
		s = merged
	}
	return s
}

// branches returns the in-place subschemas of s, by kind.
func branches(s map[string]any, kind string) []map[string]any {
	var out []map[string]any
	switch kind {
	case "allOf", "anyOf", "oneOf":
		list, _ := s[kind].([]any)
		for _, b := range list {
			if m, ok := b.(map[string]any); ok {
				out = append(out, m)
			}
		}
	default:
		if m, ok := s[kind].(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// requires reports whether every instance valid against s must carry member name: s requires it, or an allOf
// branch does, or every oneOf/anyOf branch does, or both then and else do.
func requires(root, s map[string]any, name string, depth int) bool {
	s = deref(root, s)
	if s == nil || depth > 16 {
		return false
	}
	req, _ := s["required"].([]any)
	if containsAny(req, name) {
		return true
	}
	for _, b := range branches(s, "allOf") {
		if requires(root, b, name, depth+1) {
			return true
		}
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		bs := branches(s, k)
		all := len(bs) > 0
		for _, b := range bs {
			all = all && requires(root, b, name, depth+1)
		}
		if all {
			return true
		}
	}
	th, el := branches(s, "then"), branches(s, "else")
	return len(th) == 1 && len(el) == 1 && requires(root, th[0], name, depth+1) && requires(root, el[0], name, depth+1)
}

// memberSchemas returns every subschema s declares for member name (properties, through in-place branches).
func memberSchemas(root, s map[string]any, name string, depth int) []map[string]any {
	s = deref(root, s)
	if s == nil || depth > 16 {
		return nil
	}
	var out []map[string]any
	if props, ok := s["properties"].(map[string]any); ok {
		if m, ok := props[name].(map[string]any); ok {
			out = append(out, deref(root, m))
		}
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf", "if", "then", "else"} {
		for _, b := range branches(s, k) {
			out = append(out, memberSchemas(root, b, name, depth+1)...)
		}
	}
	return out
}

// enumeratedIn returns the values the schema permits for member name: its enum/const where it is declared, or,
// when the root declaration does not enumerate it, the union of the values the oneOf/anyOf branches fix (a
// discriminated union), sorted and deduplicated.
func enumeratedIn(root map[string]any, name string) []string {
	set := map[string]bool{}
	s := deref(root, root)
	if props, ok := s["properties"].(map[string]any); ok {
		if m, ok := props[name].(map[string]any); ok {
			for _, v := range enumerated(deref(root, m)) {
				set[v] = true
			}
		}
	}
	if len(set) == 0 {
		for _, k := range []string{"oneOf", "anyOf", "allOf"} {
			for _, b := range branches(s, k) {
				for _, ms := range memberSchemas(root, b, name, 0) {
					for _, v := range enumerated(ms) {
						set[v] = true
					}
				}
			}
		}
	}
	out := make([]string, 0, len(set))
	for v := range set {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

// declares reports whether the schema declares the instance location p (an RFC 6901 pointer into the instance):
// each token is found as a member through properties (nested), following in-place branches and local $refs.
func declares(root map[string]any, p string) bool {
	if p == "" {
		return true
	}
	cur := []map[string]any{root}
	for _, tok := range strings.Split(strings.TrimPrefix(p, "/"), "/") {
		tok = jsonptr.Unescape(tok)
		var next []map[string]any
		for _, s := range cur {
			next = append(next, memberSchemas(root, s, tok, 0)...)
		}
		if len(next) == 0 {
			return false
		}
		cur = next
	}
	return true
}
