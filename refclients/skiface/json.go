package skiface

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/extconf/extconf/harness/jsonptr"
)

// nesting returns the maximum depth of arrays and objects in b without decoding it (b may be invalid JSON; the
// depth is then of what was scanned). Cheap enough to run before any recursive decoder sees hostile input.
func nesting(b []byte) int {
	depth, max := 0, 0
	inString, escaped := false, false
	for _, c := range b {
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			depth++
			if depth > max {
				max = depth
			}
		case '}', ']':
			depth--
		}
	}
	return max
}

// decode parses exactly one JSON value, numbers kept as json.Number (the schema library's representation).
func decode(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, fmt.Errorf("trailing data after the JSON value")
	}
	return v, nil
}

// checkedDecode enforces the nesting limit, then decodes.
func checkedDecode(b []byte, maxNesting int, step, what string) (any, error) {
	if n := nesting(b); maxNesting > 0 && n > maxNesting {
		return nil, errf(ResourceLimitExceeded, step, "", "%s nests %d levels, over the nesting limit", what, n)
	}
	v, err := decode(b)
	if err != nil {
		return nil, &Error{Code: "", Step: step, Msg: what + " is not one JSON value", Err: err}
	}
	return v, nil
}

// pointer builds an RFC 6901 JSON Pointer from reference tokens.
func pointer(tokens []string) string { return jsonptr.Format(tokens) }

// ParsePointer reports whether p is a well-formed RFC 6901 JSON Pointer.
func ParsePointer(p string) error {
	_, err := jsonptr.Split(p)
	return err
}

// Resolve returns the value p designates inside v (decoded JSON).
func Resolve(v any, p string) (any, bool) {
	x, err := jsonptr.Resolve(v, p)
	return x, err == nil
}
