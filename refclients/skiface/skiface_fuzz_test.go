package skiface

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// fuzzLimits keep one input's work small; the compile timeout is the bound the validator promises.
var fuzzLimits = Limits{MaxSchemaBytes: 64 << 10, MaxNesting: 32, MaxRefDepth: 16, CompileTimeout: 500 * time.Millisecond}

// maxFuzzWork is how long one input may take: far above any honest schema, far below a runaway.
const maxFuzzWork = 5 * time.Second

func exampleDoc(f *testing.F) []byte {
	b, err := os.ReadFile(filepath.Join("testdata", "evaluate_resource_condition.json"))
	if err != nil {
		f.Fatal(err)
	}
	return b
}

// FuzzSkillInterfaceDocument: the document validator (trusted schema, inline digests, compilation under limits)
// never panics, answers within its bound, and every refusal is an *Error with one of the document's codes.
func FuzzSkillInterfaceDocument(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	doc := exampleDoc(f)
	var m map[string]any
	if err := json.Unmarshal(doc, &m); err != nil {
		f.Fatal(err)
	}
	for _, edit := range []func(s map[string]any){
		func(s map[string]any) {
			s["properties"] = map[string]any{"x": map[string]any{"$ref": "file:///etc/passwd"}}
		},
		func(s map[string]any) {
			s["properties"] = map[string]any{"x": map[string]any{"$ref": "http://127.0.0.1:9/s.json"}}
		},
		func(s map[string]any) {
			s["$defs"] = map[string]any{"a": map[string]any{"$ref": "#/$defs/b"}, "b": map[string]any{"$ref": "#/$defs/a"}}
		},
		func(s map[string]any) { s["properties"] = map[string]any{"x": map[string]any{"pattern": "^(a|aa)+$"}} },
	} {
		c := cloneJSON(m)
		sch := c["input_schema"].(map[string]any)["resolution"].(map[string]any)["schema"].(map[string]any)
		edit(sch)
		b, _ := json.Marshal(sch)
		c["input_schema"].(map[string]any)["digest"], _ = SchemaDigest(b)
		out, _ := json.Marshal(c)
		f.Add(out)
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if len(doc) > 128<<10 {
			return
		}
		start := time.Now()
		verr := ValidateDocument(doc)
		v, err := VerifyDocument(doc, fuzzLimits)
		if el := time.Since(start); el > maxFuzzWork {
			t.Fatalf("validating one %d-byte document took %s", len(doc), el)
		}
		if verr == nil && err == nil && v == nil {
			t.Fatal("verified without a result")
		}
		for _, e := range []error{verr, err} {
			var se *Error
			if e != nil && (!errors.As(e, &se) || !IsCode(se.Code)) {
				t.Fatalf("a refusal without a document code: %v", e)
			}
		}
		if err == nil && verr != nil {
			t.Fatalf("VerifyDocument accepted what ValidateDocument refused: %v", verr)
		}
	})
}

// FuzzSchemaValidate: an inline schema from a target compiled under limits, then an instance from the same target
// validated against it, never panics and answers within its bound (a catastrophic pattern included: the
// validator's regular expressions are linear-time).
func FuzzSchemaValidate(f *testing.F) {
	// Small match bounds: the property is that they bound the work, and the minimizer re-runs a slow input many
	// times (at a 1 s validation budget it looked hung for minutes).
	PatternMatchTimeout, ValidationPatternBudget = 20*time.Millisecond, 60*time.Millisecond
	doc := exampleDoc(f)
	var d struct {
		Input struct {
			Resolution struct {
				Schema json.RawMessage `json:"schema"`
			} `json:"resolution"`
		} `json:"input_schema"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		f.Fatal(err)
	}
	req, _ := os.ReadFile(filepath.Join("testdata", "evaluate_resource_condition.request.json"))
	var r struct {
		Arguments json.RawMessage `json:"arguments"`
	}
	_ = json.Unmarshal(req, &r)
	f.Add([]byte(d.Input.Resolution.Schema), []byte(r.Arguments))
	f.Add([]byte(`{"type":"string","pattern":"^(a|aa)+$"}`), []byte(`"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab"`))
	f.Add([]byte(`{"$defs":{"n":{"type":"array","items":{"$ref":"#/$defs/n"}}},"$ref":"#/$defs/n"}`), []byte(`[[[[[[[[]]]]]]]]`))
	f.Add([]byte(`{"$dynamicAnchor":"x","properties":{"a":{"$dynamicRef":"#x"}}}`), []byte(`{"a":{"a":1}}`))
	f.Add([]byte(`{"type":"string","format":"date-time"}`), []byte(`"2026-08-11T12:00:01Z"`))
	f.Add([]byte(`true`), []byte(`null`))
	f.Fuzz(func(t *testing.T, schema, instance []byte) {
		if len(schema) > 32<<10 || len(instance) > 64<<10 {
			return
		}
		dg, err := SchemaDigest(schema)
		if err != nil {
			return
		}
		ref, _ := json.Marshal(map[string]any{"schema_uri": "urn:fuzz:1.0", "version": "1.0", "dialect": Dialect2020,
			"digest": dg, "resolution": map[string]any{"type": "inline", "schema": json.RawMessage(schema)}})
		start := time.Now()
		c, err := CompileSchema(ref, fuzzLimits)
		if err != nil {
			var se *Error
			if !errors.As(err, &se) || !IsCode(se.Code) {
				t.Fatalf("a compile refusal without a document code: %v", err)
			}
			return
		}
		_ = c.ValidateJSON(instance)
		if el := time.Since(start); el > maxFuzzWork {
			t.Fatalf("compiling and validating took %s", el)
		}
	})
}

func cloneJSON(m map[string]any) map[string]any {
	b, _ := json.Marshal(m)
	var out map[string]any
	_ = json.Unmarshal(b, &out)
	return out
}
