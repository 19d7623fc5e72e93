package jsonschema

import (
	"encoding/json"
	"reflect"
	"strings"

	"github.com/extconf/extconf/harness/strictjson"
)

// Describer is a type that gives its own schema (e.g. a member that is a string or an object).
type Describer interface{ JSONSchema() map[string]any }

var (
	rawMessage = reflect.TypeOf(json.RawMessage(nil))
	describer  = reflect.TypeOf((*Describer)(nil)).Elem()
)

// For returns the schema of t.
func For(t reflect.Type) map[string]any {
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
		return map[string]any{"type": "array", "items": For(t.Elem())}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": For(t.Elem())}
	case reflect.Struct:
		props := map[string]any{}
		fields(t, props)
		return map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	}
	return map[string]any{}
}

func fields(t reflect.Type, props map[string]any) {
	for name, f := range strictjson.Fields(t) {
		s := For(f.Type)
		if strings.Contains(f.Tag.Get("schema"), "deprecated") {
			s["deprecated"] = true
		}
		props[name] = s
	}
}
