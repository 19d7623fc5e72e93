package schemaiface

import (
	sifx "github.com/extconf/extconf/fixtures/schemaiface"
	"github.com/extconf/extconf/refclients/skiface"
)

// The sabotaged input validators of the probe classes the mutation generator adds (#36): each compiles an edited
// copy of the input schema, so the agent enforces less than it advertises.

// compileEdited compiles the input schema after edit.
func compileEdited(in sifx.SchemaSource, edit func(map[string]any)) *skiface.Compiled {
	editSchema(&in, edit)
	c, err := skiface.CompileSchema(mustJSON(ref(in, jcsDigest)), skiface.Limits{})
	if err != nil {
		panic("schemaiface: " + err.Error())
	}
	return c
}

// requiredAndTypesOnly keeps required and type (and the root's additionalProperties): every other assertion goes.
func requiredAndTypesOnly(m map[string]any) { stripAssertions(m, true) }

func stripAssertions(m map[string]any, root bool) {
	for _, k := range []string{"enum", "const", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
		"pattern", "minLength", "maxLength", "minItems", "maxItems", "uniqueItems", "minProperties", "maxProperties"} {
		delete(m, k)
	}
	if !root {
		delete(m, "additionalProperties")
	}
	for k, v := range m {
		switch x := v.(type) {
		case map[string]any:
			stripAssertions(x, false)
		case []any:
			if k == "required" || k == "type" {
				continue
			}
			for _, e := range x {
				if em, ok := e.(map[string]any); ok {
					stripAssertions(em, false)
				}
			}
		}
	}
}

// skipRefs drops every $ref, so a schema behind one asserts nothing.
func skipRefs(m map[string]any) {
	delete(m, "$ref")
	for _, v := range m {
		switch x := v.(type) {
		case map[string]any:
			skipRefs(x)
		case []any:
			for _, e := range x {
				if em, ok := e.(map[string]any); ok {
					skipRefs(em)
				}
			}
		}
	}
}
