package a2a

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"unicode/utf8"
)

// CheckIJSON reports why b is not exactly one I-JSON value (RFC 7493) nested at most maxDepth deep: nesting
// deeper than maxDepth (a *LimitError, checked first and without parsing, so a hostile nesting costs one pass),
// invalid UTF-8, text that is not JSON, a duplicate member name in one object, or a number beyond the IEEE 754
// double range. The others wrap ErrInvalidJSON and name the byte offset.
//
// Cards and documents the harness reads from a target go through it before they are decoded: encoding/json keeps
// the last of two duplicate members, replaces invalid UTF-8 and cannot hold 1e400, so without this check the
// harness would grade a different document from the one other clients read, and JCS (card signatures, digests)
// is defined only over I-JSON.
func CheckIJSON(b []byte, maxDepth int) error {
	if d, at := jsonDepth(b, maxDepth); d > maxDepth {
		return &LimitError{Limit: LimitMaxJSONDepth, Detail: fmt.Sprintf("(%d levels): nesting reaches %d at byte %d", maxDepth, d, at)}
	}
	if !utf8.Valid(b) {
		return fmt.Errorf("%w: invalid UTF-8 at byte %d", ErrInvalidJSON, invalidUTF8At(b))
	}
	if !json.Valid(b) {
		return fmt.Errorf("%w: not well-formed JSON", ErrInvalidJSON)
	}
	var first error
	err := ScanIJSON(b, func(is IJSONIssue) bool {
		if is.Number != "" {
			first = fmt.Errorf("%w: number %s at byte %d is beyond the IEEE 754 double range (I-JSON)", ErrInvalidJSON, clipName(is.Number), is.Offset)
		} else {
			first = fmt.Errorf("%w: duplicate member name %q at byte %d (I-JSON: names are unique; decoders disagree on which one counts)",
				ErrInvalidJSON, clipName(is.Name), is.Offset)
		}
		return false
	})
	if first != nil {
		return first
	}
	if err != nil {
		return fmt.Errorf("%w: %v", ErrInvalidJSON, err)
	}
	return nil
}

// IJSONIssue is one place where well-formed JSON text is not I-JSON: a duplicate member name (Name) or a number no
// IEEE 754 double holds (Number, as written).
type IJSONIssue struct {
	Offset int      // byte offset of the token
	Name   string   // the duplicate member name
	Number string   // the number, when the issue is a number ("" for a duplicate)
	Path   []string // member names from the root: to the number, or to the object holding the duplicate
	Prev   string   // for a duplicate: the name of the member read just before it in the same object
}

// ScanIJSON walks b token by token (encoding/json keeps the last of two duplicate members, so a decoded document
// cannot show them) and calls visit for each I-JSON issue in document order until visit returns false. Array
// positions are not part of Path. It returns the decoder's error when b is not well-formed JSON (issues before
// the error have been visited). CheckIJSON and the schema-interface suite both read I-JSON through it.
func ScanIJSON(b []byte, visit func(IJSONIssue) bool) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	type frame struct {
		obj   bool
		key   bool   // the next token of this object is a member name (or its closing brace)
		name  string // the member being read
		names map[string]struct{}
	}
	stack := make([]*frame, 0, 16)
	path := func() []string {
		var p []string
		for _, f := range stack {
			if f.obj {
				p = append(p, f.name)
			}
		}
		return p
	}
	for {
		off := dec.InputOffset()
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		var top *frame
		if n := len(stack); n > 0 {
			top = stack[n-1]
		}
		if top != nil && top.obj && top.key {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
				continue
			}
			name, _ := tok.(string)
			if _, dup := top.names[name]; dup {
				p := path()
				if !visit(IJSONIssue{Offset: int(off), Name: name, Path: p[:len(p)-1], Prev: top.name}) {
					return nil
				}
			}
			top.names[name] = struct{}{}
			top.name = name
			top.key = false
			continue
		}
		if top != nil && top.obj {
			top.key = true // this token is a member's value, or opens it
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				stack = append(stack, &frame{obj: true, key: true, names: map[string]struct{}{}})
			case '[':
				stack = append(stack, &frame{})
			case ']':
				stack = stack[:len(stack)-1]
			}
		case json.Number:
			if f, err := strconv.ParseFloat(string(t), 64); err != nil && (math.IsInf(f, 0) || !errors.Is(err, strconv.ErrRange)) {
				if !visit(IJSONIssue{Offset: int(off), Number: string(t), Path: path()}) {
					return nil
				}
			}
		}
	}
}

// jsonDepth returns the deepest array/object nesting of b (strings skipped), stopping as soon as it passes limit,
// and the byte offset where it got there. Malformed input is measured as far as it goes.
func jsonDepth(b []byte, limit int) (depth, at int) {
	d, inStr, esc := 0, false, false
	for i, c := range b {
		switch {
		case inStr:
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == '{' || c == '[':
			d++
			if d > depth {
				depth, at = d, i
				if depth > limit {
					return depth, at
				}
			}
		case c == '}' || c == ']':
			d--
		}
	}
	return depth, at
}

func invalidUTF8At(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return len(b)
}

func clipName(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
