package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/extconf/extconf/harness/a2a"
)

// Decode decodes data into v (a pointer) and refuses, naming the member's path: trailing data after the first
// value, a duplicate member name at any level, and a member name that is not exactly one of the target type's
// JSON names (case variants included). json.RawMessage and interface values are left to their owner to decode.
func Decode(data []byte, v any) error { return DecodeAt(data, v, "$") }

// DecodeAt is Decode for a value found at path base of an enclosing document ("$.documents.terms"): every
// error names the full path.
func DecodeAt(data []byte, v any, base string) error {
	if err := CheckAt(data, reflect.TypeOf(v), base); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if base != "$" {
			return fmt.Errorf("%s: %w", base, err)
		}
		return err
	}
	return nil
}

// Check applies Decode's rules to data against type t without decoding into a value.
func Check(data []byte, t reflect.Type) error { return CheckAt(data, t, "$") }

// CheckAt is Check for a value at path base of an enclosing document.
func CheckAt(data []byte, t reflect.Type, base string) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		if base != "$" {
			return fmt.Errorf("%s: %w", base, err)
		}
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("trailing data after the JSON value")
	}
	var dup error
	if err := a2a.ScanIJSON(data, func(is a2a.IJSONIssue) bool {
		if is.Number == "" {
			dup = fmt.Errorf("duplicate member %q at %s", is.Name, pathOf(base, is.Path))
			return false
		}
		return true
	}); err != nil {
		return err
	}
	if dup != nil {
		return dup
	}
	return walk(doc, t, base)
}

func pathOf(base string, p []string) string {
	if len(p) == 0 {
		return base
	}
	return base + "." + strings.Join(p, ".")
}

var rawMessage = reflect.TypeOf(json.RawMessage(nil))

func walk(v any, t reflect.Type, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == rawMessage || t.Kind() == reflect.Interface {
		return nil
	}
	if reflect.PointerTo(t).Implements(reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()) {
		return nil // the type decodes itself (and checks its own members)
	}
	switch x := v.(type) {
	case map[string]any:
		switch t.Kind() {
		case reflect.Struct:
			fields := map[string]reflect.Type{}
			for name, f := range Fields(t) {
				fields[name] = f.Type
			}
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				ft, ok := fields[k]
				if !ok {
					return unknown(k, path, fields)
				}
				if err := walk(x[k], ft, path+"."+k); err != nil {
					return err
				}
			}
		case reflect.Map:
			for k, e := range x {
				if err := walk(e, t.Elem(), path+"."+k); err != nil {
					return err
				}
			}
		}
	case []any:
		if t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
			for i, e := range x {
				if err := walk(e, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func unknown(k, path string, fields map[string]reflect.Type) error {
	for name := range fields {
		if strings.EqualFold(name, k) {
			return fmt.Errorf("unknown member %q at %s (member names are case-sensitive: did you mean %q?)", k, path, name)
		}
	}
	return fmt.Errorf("unknown member %q at %s", k, path)
}

// Fields maps each exact JSON member name of struct t (embedded structs flattened, "-" and unexported fields
// left out) to its field, as encoding/json names them: the one reading of the tags that strict decoding and the
// configuration's generated schema share.
func Fields(t reflect.Type) map[string]reflect.StructField {
	out := map[string]reflect.StructField{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				for k, v := range Fields(ft) {
					out[k] = v
				}
				continue
			}
		}
		if name == "" {
			name = f.Name
		}
		out[name] = f
	}
	return out
}

// Duration is a positive duration written as a Go duration string ("5s", "750ms"), as the harness's own formats
// spell timeouts.
type Duration time.Duration

// UnmarshalJSON accepts only a positive duration string.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("want a duration string such as \"5s\" or \"750ms\", got %s", b)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	if v <= 0 {
		return fmt.Errorf("duration %q is not positive", s)
	}
	*d = Duration(v)
	return nil
}

// Positive sets *dst to *p when the member is present and positive; a present non-positive value is an error
// naming the member (prefix.name).
func Positive[T int | int64](errs *[]error, name string, p, dst *T) {
	if p == nil {
		return
	}
	if *p <= 0 {
		*errs = append(*errs, fmt.Errorf("%s: %d is not positive", name, *p))
		return
	}
	*dst = *p
}
