package jsonptr

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrSyntax is wrapped by every error about the form of a pointer (as opposed to a pointer that does not resolve).
var ErrSyntax = errors.New("not an RFC 6901 JSON Pointer")

// Escape encodes one reference token: "~" as "~0", "/" as "~1".
func Escape(tok string) string {
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1")
}

// Unescape decodes one reference token ("~1" to "/", then "~0" to "~"). It does not check the escapes: see
// Split and Resolve for that.
func Unescape(tok string) string {
	return strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
}

// Format builds a pointer from unescaped reference tokens (no tokens: "", the whole document).
func Format(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(Escape(t))
	}
	return b.String()
}

// badEscape reports whether a raw reference token has a "~" that is not "~0" or "~1".
func badEscape(raw string) bool {
	return strings.Contains(strings.ReplaceAll(strings.ReplaceAll(raw, "~0", ""), "~1", ""), "~")
}

// Split parses ptr into its unescaped reference tokens ("" is the whole document: no tokens).
func Split(ptr string) ([]string, error) {
	if ptr == "" {
		return nil, nil
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, fmt.Errorf("%w: %q does not start with /", ErrSyntax, ptr)
	}
	parts := strings.Split(ptr[1:], "/")
	for i, raw := range parts {
		if badEscape(raw) {
			return nil, fmt.Errorf("%w: bad escape in %q", ErrSyntax, raw)
		}
		parts[i] = Unescape(raw)
	}
	return parts, nil
}

// Resolve returns the value ptr designates in doc. Tokens are read one at a time, so the error names the first
// step that fails: a malformed token (wrapping ErrSyntax), a missing member, a token that is no array index
// (only 0 or digits without a leading zero), an index out of range, or a step into a scalar.
func Resolve(doc any, ptr string) (any, error) {
	if ptr == "" {
		return doc, nil
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, fmt.Errorf("%w: %q does not start with /", ErrSyntax, ptr)
	}
	cur := doc
	for _, raw := range strings.Split(ptr[1:], "/") {
		if badEscape(raw) {
			return nil, fmt.Errorf("%w: bad escape in %q", ErrSyntax, raw)
		}
		tok := Unescape(raw)
		switch v := cur.(type) {
		case map[string]any:
			next, ok := v[tok]
			if !ok {
				return nil, fmt.Errorf("no member %q", tok)
			}
			cur = next
		case []any:
			if tok == "" || (len(tok) > 1 && tok[0] == '0') || strings.TrimLeft(tok, "0123456789") != "" {
				return nil, fmt.Errorf("%q is not an array index", tok)
			}
			n, err := strconv.Atoi(tok)
			if err != nil || n >= len(v) {
				return nil, fmt.Errorf("index %s is out of range (%d elements)", tok, len(v))
			}
			cur = v[n]
		default:
			return nil, fmt.Errorf("cannot step into a scalar with %q", tok)
		}
	}
	return cur, nil
}
