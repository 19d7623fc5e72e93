package evidence

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
)

// DiffJSON names, path by path, where document b differs from document a ("runner.name: was "x", now "y""),
// at most limit entries (then a count of the rest). Array elements that are objects with an "id" (rows, toggles)
// or a "role" (cards) are matched by it and named by it: rows[TE-3.2a].verdict.
func DiffJSON(a, b []byte, limit int) []string {
	var va, vb any
	if err := decodeNumbers(a, &va); err != nil {
		return []string{"the signed payload is not JSON: " + err.Error()}
	}
	if err := decodeNumbers(b, &vb); err != nil {
		return []string{"the bundle is not JSON: " + err.Error()}
	}
	var out []string
	diffValue("", va, vb, &out)
	if limit > 0 && len(out) > limit {
		rest := len(out) - limit
		out = append(out[:limit], fmt.Sprintf("… and %d more differences", rest))
	}
	return out
}

func decodeNumbers(raw []byte, v *any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return dec.Decode(v)
}

func diffValue(path string, a, b any, out *[]string) {
	name := path
	if name == "" {
		name = "(the whole bundle)"
	}
	switch av := a.(type) {
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok {
			*out = append(*out, fmt.Sprintf("%s: was %s, now %s", name, show(a), show(b)))
			return
		}
		for _, k := range unionKeys(av, bv) {
			x, inA := av[k]
			y, inB := bv[k]
			p := join(path, k)
			switch {
			case !inB:
				*out = append(*out, fmt.Sprintf("%s: removed (was %s)", p, show(x)))
			case !inA:
				*out = append(*out, fmt.Sprintf("%s: added (%s)", p, show(y)))
			default:
				diffValue(p, x, y, out)
			}
		}
	case []any:
		bv, ok := b.([]any)
		if !ok {
			*out = append(*out, fmt.Sprintf("%s: was %s, now %s", name, show(a), show(b)))
			return
		}
		if key := elementKey(av, bv); key != "" {
			diffKeyed(path, key, av, bv, out)
			return
		}
		n := max(len(av), len(bv))
		for i := 0; i < n; i++ {
			p := path + "[" + strconv.Itoa(i) + "]"
			switch {
			case i >= len(bv):
				*out = append(*out, fmt.Sprintf("%s: removed (was %s)", p, show(av[i])))
			case i >= len(av):
				*out = append(*out, fmt.Sprintf("%s: added (%s)", p, show(bv[i])))
			default:
				diffValue(p, av[i], bv[i], out)
			}
		}
	default:
		if !equalScalar(a, b) {
			*out = append(*out, fmt.Sprintf("%s: was %s, now %s", name, show(a), show(b)))
		}
	}
}

// elementKey returns "id" or "role" when every element of both arrays is an object carrying that member with a
// unique string value.
func elementKey(a, b []any) string {
	for _, key := range []string{"id", "role"} {
		if keyed(a, key) && keyed(b, key) && len(a)+len(b) > 0 {
			return key
		}
	}
	return ""
}

func keyed(list []any, key string) bool {
	seen := map[string]bool{}
	for _, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			return false
		}
		s, ok := m[key].(string)
		if !ok || seen[s] {
			return false
		}
		seen[s] = true
	}
	return true
}

func diffKeyed(path, key string, a, b []any, out *[]string) {
	index := func(list []any) (map[string]any, []string) {
		m := map[string]any{}
		var order []string
		for _, e := range list {
			k := e.(map[string]any)[key].(string)
			m[k] = e
			order = append(order, k)
		}
		return m, order
	}
	am, aOrder := index(a)
	bm, bOrder := index(b)
	for _, k := range aOrder {
		p := path + "[" + k + "]"
		if y, ok := bm[k]; ok {
			diffValue(p, am[k], y, out)
		} else {
			*out = append(*out, fmt.Sprintf("%s: removed", p))
		}
	}
	for _, k := range bOrder {
		if _, ok := am[k]; !ok {
			*out = append(*out, fmt.Sprintf("%s[%s]: added", path, k))
		}
	}
}

func unionKeys(a, b map[string]any) []string {
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

func equalScalar(a, b any) bool {
	switch x := a.(type) {
	case json.Number:
		y, ok := b.(json.Number)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case nil:
		return b == nil
	}
	return false
}

// show renders a value for a message: compact JSON, clipped.
func show(v any) string {
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	s := string(raw)
	if len(s) > 120 {
		s = s[:117] + "…"
	}
	return s
}
