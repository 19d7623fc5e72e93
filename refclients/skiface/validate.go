package skiface

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// lenientDateTime is the broken date-time check a toggle installs: any string starting with a date.
func lenientDateTime(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	if len(s) < 10 {
		return errors.New("not a date-time")
	}
	if _, err := time.Parse("2006-01-02", s[:10]); err != nil {
		return errors.New("not a date-time")
	}
	return nil
}

// Validate validates an instance: decoded JSON (numbers as json.Number or float64), json.RawMessage or []byte.
// The nesting limit applies to raw instances. A nil result means valid.
func (c *Compiled) Validate(instance any) []Violation {
	var v any
	switch x := instance.(type) {
	case json.RawMessage:
		return c.ValidateJSON(x)
	case []byte:
		return c.ValidateJSON(x)
	case map[string]any, []any, string, bool, nil, json.Number, float64:
		v = x
	default:
		b, err := json.Marshal(x)
		if err != nil {
			return []Violation{{InstancePath: "", Message: "the instance cannot be encoded as JSON: " + err.Error()}}
		}
		return c.ValidateJSON(b)
	}
	return c.validate(v)
}

// ValidateJSON validates raw JSON bytes.
func (c *Compiled) ValidateJSON(b []byte) []Violation {
	if n := nesting(b); n > c.lim.MaxNesting {
		return []Violation{{InstancePath: "", Message: fmt.Sprintf("the instance nests %d levels, over the nesting limit", n), Keyword: "resource_limit"}}
	}
	v, err := decode(b)
	if err != nil {
		return []Violation{{InstancePath: "", Message: "the instance is not one JSON value: " + err.Error()}}
	}
	return c.validate(v)
}

func (c *Compiled) validate(v any) (out []Violation) {
	defer func() {
		if p := recover(); p != nil {
			out = []Violation{{Message: fmt.Sprintf("validator panicked: %v", p)}}
		}
	}()
	b := c.budget
	if b == nil {
		b = &patternBudget{}
	}
	b.start() // one validation at a time per schema: its patterns' timeouts are its budget's
	defer b.end()
	err := c.schema.Validate(v)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []Violation{{Message: err.Error()}}
	}
	return leaves(ve, nil, b)
}

// leaves flattens a validation error tree into its innermost causes, in order.
func leaves(e *jsonschema.ValidationError, out []Violation, b *patternBudget) []Violation {
	if len(e.Causes) == 0 {
		kw := ""
		var kp []string
		if e.ErrorKind != nil {
			kp = e.ErrorKind.KeywordPath()
			if len(kp) > 0 {
				kw = kp[len(kp)-1]
			}
		}
		msg := fmt.Sprint(e.ErrorKind)
		if e.ErrorKind != nil {
			msg = e.ErrorKind.LocalizedString(printer)
		}
		sp := schemaPath(e.SchemaURL) + pointer(kp)
		if p, ok := e.ErrorKind.(*kind.Pattern); ok && b.wasUndecided(p.Want, p.Got) {
			// Undecided, not invalid: the match exceeded the time bound (resource limit).
			return append(out, Violation{InstancePath: pointer(e.InstanceLocation), SchemaPath: sp, Keyword: "resource_limit",
				Message: fmt.Sprintf("matching pattern %q did not finish within the match time limit (%s a match, %s a validation)", p.Want, PatternMatchTimeout, ValidationPatternBudget)})
		}
		if _, ok := e.ErrorKind.(*kind.Reference); ok {
			sp = schemaPath(e.SchemaURL)
		}
		return append(out, Violation{InstancePath: pointer(e.InstanceLocation), Message: msg, SchemaPath: sp, Keyword: kw})
	}
	for _, c := range e.Causes {
		out = leaves(c, out, b)
	}
	return out
}

func schemaPath(u string) string {
	if i := strings.IndexByte(u, '#'); i >= 0 {
		f, err := url.PathUnescape(u[i+1:])
		if err == nil {
			return f
		}
		return u[i+1:]
	}
	return ""
}

// Details turns violations into the error details of input_invalid / output_invalid.
func Details(vs []Violation) []Detail {
	out := make([]Detail, 0, len(vs))
	for _, v := range vs {
		out = append(out, Detail{InstancePath: v.InstancePath, SchemaPath: v.SchemaPath, Keyword: v.Keyword, Message: v.Message})
	}
	return out
}
