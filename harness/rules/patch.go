package rules

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"

	"github.com/extconf/extconf/harness/jsonptr"
)

// validate checks an operation's form before it is ever applied.
func (o Op) validate() error {
	switch o.Op {
	case "add", "replace", "test":
		if len(o.Value) == 0 {
			return fmt.Errorf("op %s needs a value", o.Op)
		}
	case "remove":
	case "move", "copy":
		if _, err := jsonptr.Split(o.From); err != nil {
			return fmt.Errorf("from: %w", err)
		}
	default:
		return fmt.Errorf("op %q: want add, remove, replace, move, copy or test (RFC 6902)", o.Op)
	}
	if _, err := jsonptr.Split(o.Path); err != nil {
		return fmt.Errorf("path: %w", err)
	}
	if o.Op == "remove" && o.Path == "" {
		return fmt.Errorf("path: the whole document cannot be removed")
	}
	return nil
}

// ApplyPatch applies RFC 6902 operations to a JSON document (the bytes are decoded, patched and re-encoded). Any
// operation that does not apply (a missing member, a failed test) fails the whole patch, as RFC 6902 §5 says.
func ApplyPatch(doc []byte, ops []Op) ([]byte, error) {
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		return nil, fmt.Errorf("the document is not JSON: %w", err)
	}
	for i, op := range ops {
		var err error
		if v, err = applyOp(v, op); err != nil {
			return nil, fmt.Errorf("patch[%d] %s %s: %w", i, op.Op, op.Path, err)
		}
	}
	return json.Marshal(v)
}

func applyOp(doc any, op Op) (any, error) {
	if err := op.validate(); err != nil {
		return nil, err
	}
	switch op.Op {
	case "add":
		return set(doc, op.Path, op.value(), true)
	case "replace":
		if _, err := jsonptr.Resolve(doc, op.Path); err != nil {
			return nil, err
		}
		return set(doc, op.Path, op.value(), false)
	case "remove":
		return remove(doc, op.Path)
	case "test":
		got, err := jsonptr.Resolve(doc, op.Path)
		if err != nil {
			return nil, err
		}
		if !reflect.DeepEqual(got, op.value()) {
			return nil, fmt.Errorf("test failed: the value there is %s", jsonText(got))
		}
		return doc, nil
	case "copy", "move":
		v, err := jsonptr.Resolve(doc, op.From)
		if err != nil {
			return nil, fmt.Errorf("from: %w", err)
		}
		v = clone(v)
		if op.Op == "move" {
			if doc, err = remove(doc, op.From); err != nil {
				return nil, err
			}
		}
		return set(doc, op.Path, v, true)
	}
	return nil, fmt.Errorf("unknown op %q", op.Op)
}

// set writes v at ptr: add semantics (insert into arrays, "-" appends) when add, else replace in place.
func set(doc any, ptr string, v any, add bool) (any, error) {
	toks, err := jsonptr.Split(ptr)
	if err != nil {
		return nil, err
	}
	if len(toks) == 0 {
		return v, nil
	}
	parent, err := jsonptr.Resolve(doc, jsonptr.Format(toks[:len(toks)-1]))
	if err != nil {
		return nil, err
	}
	last := toks[len(toks)-1]
	switch p := parent.(type) {
	case map[string]any:
		p[last] = v
		return doc, nil
	case []any:
		var n int
		if last == "-" && add {
			n = len(p)
		} else if n, err = index(last, len(p), add); err != nil {
			return nil, err
		}
		if !add {
			p[n] = v
			return doc, nil
		}
		grown := append(p[:n:n], append([]any{v}, p[n:]...)...)
		return set(doc, jsonptr.Format(toks[:len(toks)-1]), grown, false)
	default:
		return nil, fmt.Errorf("the parent of %s is not an object or array", ptr)
	}
}

func remove(doc any, ptr string) (any, error) {
	toks, err := jsonptr.Split(ptr)
	if err != nil {
		return nil, err
	}
	if _, err := jsonptr.Resolve(doc, ptr); err != nil {
		return nil, err
	}
	parentPtr := jsonptr.Format(toks[:len(toks)-1])
	parent, _ := jsonptr.Resolve(doc, parentPtr)
	last := toks[len(toks)-1]
	switch p := parent.(type) {
	case map[string]any:
		delete(p, last)
		return doc, nil
	case []any:
		n, err := index(last, len(p), false)
		if err != nil {
			return nil, err
		}
		shrunk := append(append([]any{}, p[:n]...), p[n+1:]...)
		if len(toks) == 1 {
			return shrunk, nil
		}
		return set(doc, parentPtr, shrunk, false)
	}
	return nil, fmt.Errorf("the parent of %s is not an object or array", ptr)
}

func index(tok string, n int, add bool) (int, error) {
	i, err := strconv.Atoi(tok)
	if err != nil || i < 0 || (len(tok) > 1 && tok[0] == '0') {
		return 0, fmt.Errorf("%q is not an array index", tok)
	}
	if i > n || (!add && i == n) {
		return 0, fmt.Errorf("index %d is out of range (%d elements)", i, n)
	}
	return i, nil
}

// clone deep-copies a JSON value through its encoding, so a patch value is never shared between documents.
func clone(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return v
	}
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

// value decodes the operation's value afresh, so a patch value is never shared between documents.
func (o Op) value() any {
	var v any
	_ = json.Unmarshal(o.Value, &v)
	return v
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 200 {
		return string(b[:200]) + "…"
	}
	return string(b)
}

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }
