package skiface

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// One validation's pattern matching is bounded as a whole, not per string: an array of many strings under a
// backtracking pattern with no RE2 reading (a backreference) ends within the validation budget and reports the
// undecided matches as a resource limit, never as the instance's violation.
func TestValidationPatternBudget(t *testing.T) {
	schema := []byte(`{"type":"array","items":{"type":"string","pattern":"^(a+)+\\1$"}}`)
	dg, err := SchemaDigest(schema)
	if err != nil {
		t.Fatal(err)
	}
	ref, _ := json.Marshal(map[string]any{"schema_uri": "urn:budget:1.0", "version": "1.0", "dialect": Dialect2020,
		"digest": dg, "resolution": map[string]any{"type": "inline", "schema": json.RawMessage(schema)}})
	c, err := CompileSchema(ref, DefaultLimits())
	if err != nil {
		t.Fatal(err)
	}
	var items []string
	for range 40 {
		items = append(items, strings.Repeat("a", 4000)+"b")
	}
	inst, _ := json.Marshal(items)
	start := time.Now()
	vs := c.ValidateJSON(inst)
	if el := time.Since(start); el > ValidationPatternBudget+2*PatternMatchTimeout {
		t.Errorf("validation took %s, the budget is %s", el, ValidationPatternBudget)
	}
	if len(vs) == 0 {
		t.Fatal("no violation reported")
	}
	for _, v := range vs {
		if v.Keyword != "resource_limit" {
			t.Errorf("%s: %s (%s), want a resource limit", v.InstancePath, v.Message, v.Keyword)
		}
	}
	// the next validation has a budget of its own
	if vs := c.ValidateJSON([]byte(`["aa"]`)); len(vs) != 0 {
		t.Errorf("a short string after an exhausted budget: %v", vs)
	}
}
