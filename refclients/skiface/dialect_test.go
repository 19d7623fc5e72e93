package skiface

import (
	"encoding/json"
	"testing"
)

// The dialects whose meta-schemas the validator library embeds are trusted, compiled under their own draft, and
// validate instances (issue #40: only 2020-12 was); any other dialect stays interface_invalid for this client.
func TestTrustedDialects(t *testing.T) {
	schema := `{"type":"object","properties":{"n":{"$ref":"#/definitions/n"}},"required":["n"],"definitions":{"n":{"type":"integer","minimum":1}}}`
	for _, c := range []struct {
		dialect string
		trusted bool
	}{
		{Dialect2020, true}, {Dialect2020 + "#", true},
		{"https://json-schema.org/draft/2019-09/schema", true},
		{"http://json-schema.org/draft-07/schema#", true},
		{"http://json-schema.org/draft-04/schema#", false},
		{"urn:example:my-dialect", false},
	} {
		dg, err := SchemaDigest(json.RawMessage(schema))
		if err != nil {
			t.Fatal(err)
		}
		ref, _ := json.Marshal(map[string]any{"schema_uri": "urn:t:1", "version": "1.0", "dialect": c.dialect, "digest": dg,
			"resolution": map[string]any{"type": "inline", "schema": json.RawMessage(schema)}})
		cs, err := CompileSchema(ref, Limits{})
		if (err == nil) != c.trusted {
			t.Errorf("%s: compile error %v, want trusted=%v", c.dialect, err, c.trusted)
			continue
		}
		if err != nil {
			continue
		}
		if vs := cs.ValidateJSON([]byte(`{"n":2}`)); len(vs) != 0 {
			t.Errorf("%s: a valid instance failed: %v", c.dialect, vs)
		}
		if vs := cs.ValidateJSON([]byte(`{"n":0}`)); len(vs) == 0 {
			t.Errorf("%s: an instance under the minimum passed", c.dialect)
		}
	}
}
