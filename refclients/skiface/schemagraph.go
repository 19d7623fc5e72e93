package skiface

import (
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strings"

	"github.com/extconf/extconf/harness/jsonptr"
)

// Applicator keywords of 2020-12 whose subschemas apply to the same instance location (in place) or to a child.
var (
	inPlaceOne  = []string{"not", "if", "then", "else"}
	inPlaceMany = []string{"allOf", "anyOf", "oneOf"}
	inPlaceMap  = []string{"dependentSchemas"}
	childOne    = []string{"additionalProperties", "propertyNames", "items", "contains", "unevaluatedItems", "unevaluatedProperties", "contentSchema", "additionalItems"}
	childMany   = []string{"prefixItems"}
	childMap    = []string{"properties", "patternProperties"}
	definitions = []string{"$defs", "definitions"}
	refKeywords = []string{"$ref", "$dynamicRef"}
)

type edge struct {
	to    string
	isRef bool
}

type reference struct {
	from, keyword, value, base string
}

type graph struct {
	nodes     map[string]bool   // pointer of every subschema
	resources map[string]string // absolute URI (no fragment) → pointer
	anchors   map[string]string // absolute URI#name → pointer
	inPlace   map[string][]edge // in-place applicator edges, references included after resolve
	refs      []reference
	doc       any
}

func analyse(doc any, dialect string, o compileOpts) (*graph, *Error) {
	g := &graph{nodes: map[string]bool{}, resources: map[string]string{}, anchors: map[string]string{},
		inPlace: map[string][]edge{}, doc: doc}
	if err := g.walk(doc, "", rootURL, true, dialect, o); err != nil {
		return nil, err
	}
	for _, r := range g.refs {
		to, err := g.resolve(r)
		if err != nil {
			if o.unresolvedAsTrue || o.fetch != nil {
				continue
			}
			return nil, errf(InterfaceInvalid, "", "/resolution/schema"+r.from+"/"+r.keyword,
				"%s %q does not resolve inside resolution.schema: %v", r.keyword, r.value, err)
		}
		g.inPlace[r.from] = append(g.inPlace[r.from], edge{to: to, isRef: true})
	}
	if o.unresolvedAsTrue {
		// The broken client drops what it cannot resolve, so the compiler never sees it.
		g.dropUnresolved()
	}
	return g, nil
}

func (g *graph) walk(v any, ptr, base string, root bool, dialect string, o compileOpts) *Error {
	obj, ok := v.(map[string]any)
	if !ok {
		if _, isBool := v.(bool); isBool {
			g.nodes[ptr] = true
		}
		return nil
	}
	g.nodes[ptr] = true
	if s, ok := obj["$schema"].(string); ok && stripFragment(s) != stripFragment(dialect) && !o.allowOtherDialect {
		return errf(InterfaceInvalid, "", "/resolution/schema"+ptr+"/$schema",
			"an embedded resource selects dialect %q, not the Schema Reference's %q", s, dialect)
	}
	if id, ok := obj["$id"].(string); ok {
		u, err := resolveURI(base, id)
		if err != nil {
			return errf(InterfaceInvalid, "", "/resolution/schema"+ptr+"/$id", "$id %q is not a URI reference: %v", id, err)
		}
		if !root && !isAbsolute(id) {
			return errf(InterfaceInvalid, "", "/resolution/schema"+ptr+"/$id", "embedded resource $id %q is not an absolute URI", id)
		}
		base = stripFragment(u)
		if _, dup := g.resources[base]; dup && !root {
			return errf(InterfaceInvalid, "", "/resolution/schema"+ptr+"/$id", "two resources claim $id %q", base)
		}
		g.resources[base] = ptr
	} else if root {
		g.resources[base] = ptr
	}
	for _, k := range []string{"$anchor", "$dynamicAnchor"} {
		if a, ok := obj[k].(string); ok {
			g.anchors[base+"#"+a] = ptr
		}
	}
	for _, k := range refKeywords {
		if r, ok := obj[k].(string); ok {
			g.refs = append(g.refs, reference{from: ptr, keyword: k, value: r, base: base})
		}
	}
	sub := func(p string, x any, inPlace bool) *Error {
		if inPlace {
			g.inPlace[ptr] = append(g.inPlace[ptr], edge{to: p})
		}
		return g.walk(x, p, base, false, dialect, o)
	}
	for _, k := range sortedKeys(obj) {
		x := obj[k]
		p := ptr + "/" + jsonptr.Escape(k)
		switch {
		case slices.Contains(inPlaceOne, k):
			if err := sub(p, x, true); err != nil {
				return err
			}
		case slices.Contains(childOne, k):
			if arr, ok := x.([]any); ok && (k == "items" || k == "additionalItems") {
				for i, it := range arr { // draft-07 array form, harmless to walk
					if err := sub(fmt.Sprintf("%s/%d", p, i), it, false); err != nil {
						return err
					}
				}
				continue
			}
			if err := sub(p, x, false); err != nil {
				return err
			}
		case slices.Contains(inPlaceMany, k), slices.Contains(childMany, k):
			arr, _ := x.([]any)
			for i, it := range arr {
				if err := sub(fmt.Sprintf("%s/%d", p, i), it, slices.Contains(inPlaceMany, k)); err != nil {
					return err
				}
			}
		case slices.Contains(inPlaceMap, k), slices.Contains(childMap, k), slices.Contains(definitions, k):
			m, _ := x.(map[string]any)
			for _, mk := range sortedKeys(m) {
				if err := sub(p+"/"+jsonptr.Escape(mk), m[mk], slices.Contains(inPlaceMap, k)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (g *graph) resolve(r reference) (string, error) {
	u, err := resolveURI(r.base, r.value)
	if err != nil {
		return "", err
	}
	res, frag := u, ""
	if i := strings.IndexByte(u, '#'); i >= 0 {
		res, frag = u[:i], u[i+1:]
	}
	rootPtr, ok := g.resources[res]
	if !ok {
		return "", fmt.Errorf("no schema resource %q inside resolution.schema (external retrieval is not allowed)", res)
	}
	if frag == "" {
		return rootPtr, nil
	}
	if frag[0] != '/' {
		p, ok := g.anchors[res+"#"+frag]
		if !ok {
			return "", fmt.Errorf("no anchor %q in resource %q", frag, res)
		}
		return p, nil
	}
	dec, err := url.PathUnescape(frag)
	if err != nil {
		return "", err
	}
	target := rootPtr + dec
	if _, ok := Resolve(g.doc, target); !ok {
		return "", fmt.Errorf("JSON Pointer %q designates nothing", dec)
	}
	if !g.nodes[target] {
		g.nodes[target] = true // a pointer into a place the walk did not treat as a schema; the compiler decides
	}
	return target, nil
}

// dropUnresolved replaces every reference that did not resolve by the true schema (what a lax client does).
func (g *graph) dropUnresolved() {
	for _, r := range g.refs {
		if _, err := g.resolve(r); err == nil {
			continue
		}
		if obj, ok := resolvePtr(g.doc, r.from).(map[string]any); ok {
			delete(obj, r.keyword)
		}
	}
}

func resolvePtr(doc any, p string) any {
	v, _ := Resolve(doc, p)
	return v
}

// depth returns the longest chain of reference hops along in-place edges and, if any, a node on an in-place
// cycle (a cycle that never consumes the instance: infinite evaluation).
func (g *graph) depth() (int, string, bool) {
	const (
		white = 0
		grey  = 1
		black = 2
	)
	color := map[string]int{}
	memo := map[string]int{}
	cycle, cyclic := "", false
	var visit func(n string) int
	visit = func(n string) int {
		switch color[n] {
		case grey:
			if !cyclic {
				cycle, cyclic = n, true
			}
			return 0
		case black:
			return memo[n]
		}
		color[n] = grey
		best := 0
		for _, e := range g.inPlace[n] {
			d := visit(e.to)
			if e.isRef {
				d++
			}
			if d > best {
				best = d
			}
		}
		color[n] = black
		memo[n] = best
		return best
	}
	max := 0
	nodes := make([]string, 0, len(g.nodes))
	for n := range g.nodes {
		nodes = append(nodes, n)
	}
	sort.Strings(nodes)
	for _, n := range nodes {
		if d := visit(n); d > max {
			max = d
		}
	}
	return max, cycle, cyclic
}

func resolveURI(base, ref string) (string, error) {
	r, err := url.Parse(ref)
	if err != nil {
		return "", err
	}
	if r.IsAbs() {
		return r.String(), nil
	}
	b, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	if r.Scheme == "" && r.Host == "" && r.Path == "" && r.RawQuery == "" {
		// fragment-only: same resource (also for opaque bases such as urn:)
		b.Fragment, b.RawFragment = r.Fragment, r.RawFragment
		return b.String(), nil
	}
	if b.Opaque != "" {
		return "", fmt.Errorf("relative reference %q against the non-hierarchical base %q", ref, base)
	}
	return b.ResolveReference(r).String(), nil
}

func isAbsolute(id string) bool {
	u, err := url.Parse(id)
	return err == nil && u.IsAbs()
}

func stripFragment(u string) string {
	if i := strings.IndexByte(u, '#'); i >= 0 {
		return u[:i]
	}
	return u
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
