package rules

import (
	"bytes"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	schemafile "github.com/extconf/extconf/evidence"
)

var (
	schemaOnce sync.Once
	ruleSchema *jsonschema.Schema
	schemaErr  error
)

// validateSchema checks a decoded rule file against the published rule schema (evidence/rule.schema.json), so
// the schema and the harness accept the same files. Nothing is ever loaded from the network or the disk.
func validateSchema(v any) error {
	schemaOnce.Do(func() {
		c := jsonschema.NewCompiler()
		c.UseLoader(noLoader{})
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemafile.RuleSchema))
		if err != nil {
			schemaErr = err
			return
		}
		const id = "https://extconf.invalid/evidence/rule-v1.json"
		if schemaErr = c.AddResource(id, doc); schemaErr == nil {
			ruleSchema, schemaErr = c.Compile(id)
		}
	})
	if schemaErr != nil {
		return fmt.Errorf("rule schema: %w", schemaErr)
	}
	// The schema library wants its own number type; a round trip through its decoder gives it.
	b, err := jsonMarshal(v)
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return err
	}
	if err := ruleSchema.Validate(inst); err != nil {
		return fmt.Errorf("does not match evidence/rule.schema.json: %w", err)
	}
	return nil
}

type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("schema loading refused: %s", url)
}
