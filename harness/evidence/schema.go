package evidence

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"

	schemafile "github.com/extconf/extconf/evidence"
)

// Validate checks raw bundle bytes against the bundle schema: format assertions on, no loader (nothing is ever
// fetched from the network or the disk while validating).
func Validate(raw []byte) error {
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	c.UseLoader(noLoader{})
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemafile.BundleSchema))
	if err != nil {
		return fmt.Errorf("bundle schema: %w", err)
	}
	const id = "https://extconf.invalid/evidence/bundle-v2.json"
	if err := c.AddResource(id, doc); err != nil {
		return err
	}
	s, err := c.Compile(id)
	if err != nil {
		return err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return fmt.Errorf("bundle is not JSON: %w", err)
	}
	return s.Validate(inst)
}

type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("schema loading refused: %s (extconf never fetches schemas)", url)
}

var _ = json.Marshal
