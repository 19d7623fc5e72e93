package jsonschema

import (
	"encoding/json"
	"reflect"
	"strings"
)

// Describer is a type that gives its own schema (e.g. a member that is a string or an object).
type Describer interface{ JSONSchema() map[string]any }

var (
	rawMessage = reflect.TypeOf(json.RawMessage(nil))
	describer  = reflect.TypeOf((*Describer)(nil)).Elem()
)

// For returns the schema of t.
func For(t reflect.Type) map[string]any { return ForDocs(t, nil) }

// Docs maps "<package path>.<Type>" and "<package path>.<Type>.<Field>" to doc comment text (DocsFromSource).
type Docs map[string]string

// ForDocs returns the schema of t with a description per member: the field's doc comment, else the doc comment
// of the field's named struct type; a leading Go name is spelt as the JSON member.
func ForDocs(t reflect.Type, docs Docs) map[string]any { return forDocs(t, docs, "") }

// forDocs is ForDocs where an unnamed struct type is documented under key (the field that declares it,
// "<package path>.<Type>.<Field>").
func forDocs(t reflect.Type, docs Docs, key string) map[string]any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Implements(describer) {
		return reflect.Zero(t).Interface().(Describer).JSONSchema()
	}
	if t == rawMessage {
		return map[string]any{}
	}
	switch t.Kind() {
	case reflect.Interface:
		return map[string]any{}
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.Slice, reflect.Array:
		return map[string]any{"type": "array", "items": forDocs(t.Elem(), docs, key)}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": forDocs(t.Elem(), docs, key)}
	case reflect.Struct:
		if t.Name() != "" {
			key = t.PkgPath() + "." + t.Name()
		}
		props := map[string]any{}
		fields(t, props, docs, key)
		return map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	}
	return map[string]any{}
}

func fields(t reflect.Type, props map[string]any, docs Docs, key string) {
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
				fields(ft, props, docs, ft.PkgPath()+"."+ft.Name()) // flattened, as encoding/json and strictjson read it
				continue
			}
		}
		if name == "" {
			name = f.Name
		}
		s := forDocs(f.Type, docs, key+"."+f.Name)
		if strings.Contains(f.Tag.Get("schema"), "deprecated") {
			s["deprecated"] = true
		}
		if d := docs.member(key, f, name); d != "" {
			s["description"] = d
		}
		props[name] = s
	}
}

// member is the description of field f of the struct documented under owner, spelt with its JSON name.
func (d Docs) member(owner string, f reflect.StructField, name string) string {
	if d == nil {
		return ""
	}
	if text := d[owner+"."+f.Name]; text != "" {
		return respell(text, f.Name, name)
	}
	ft := f.Type
	for ft.Kind() == reflect.Pointer || ft.Kind() == reflect.Slice || ft.Kind() == reflect.Map {
		ft = ft.Elem()
	}
	if ft.Kind() == reflect.Struct && ft.Name() != "" {
		if text := d[ft.PkgPath()+"."+ft.Name()]; text != "" {
			return respell(text, ft.Name(), name)
		}
	}
	return ""
}

// respell replaces a leading Go identifier (Go's doc convention) by the JSON member name.
func respell(text, goName, jsonName string) string {
	if rest, ok := strings.CutPrefix(text, goName+" "); ok {
		return jsonName + " " + rest
	}
	if rest, ok := strings.CutPrefix(text, goName+":"); ok {
		return jsonName + ":" + rest
	}
	return text
}
