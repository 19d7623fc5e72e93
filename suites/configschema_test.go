package suites_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/suites"
)

var update = flag.Bool("update", false, "rewrite "+suites.ConfigSchemaPath)

// The published schema is the one the types give.
func TestConfigSchemaFile(t *testing.T) {
	path := filepath.Join("..", suites.ConfigSchemaPath)
	want := suites.ConfigSchema()
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("%s is stale (err %v): go test ./suites -run TestConfigSchemaFile -update", suites.ConfigSchemaPath, err)
	}
}

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(suites.ConfigSchema()))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("target-config.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("target-config.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The configuration guide (docs/configuration.md, linked from the README) shows one complete file per document;
// each validates against the schema and loads strictly.
func TestReadmeConfigExamples(t *testing.T) {
	guide, err := os.ReadFile("../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	sec := string(guide)
	blocks := regexp.MustCompile("(?s)```json\\n(.*?)```").FindAllStringSubmatch(sec, -1)
	sch := compileSchema(t)
	seen := map[string]bool{}
	for _, env := range []string{"IV_TOKEN", "OR_TOKEN_A", "OR_TOKEN_B", "SI_TOKEN_A", "SI_TOKEN_B", "TERMS_TOKEN", "AC_TOKEN_A", "AC_TOKEN_B"} {
		t.Setenv(env, "Bearer x")
	}
	for i, b := range blocks {
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(b[1]))
		if err != nil {
			t.Fatalf("example %d: %v", i, err)
		}
		if err := sch.Validate(inst); err != nil {
			t.Errorf("example %d does not validate: %v", i, err)
		}
		var cfg target.Config
		p := filepath.Join(t.TempDir(), "c.json")
		os.WriteFile(p, []byte(b[1]), 0o600)
		if cfg, err = target.LoadConfig(p); err == nil {
			err = harness.PrepareConfig(&cfg, suites.Documents()...)
		}
		if err != nil {
			t.Errorf("example %d does not load: %v", i, err)
		}
		for id := range cfg.Documents {
			seen[id] = true
		}
	}
	for _, d := range suites.Documents() {
		if !seen[d.ID()] {
			t.Errorf("docs/configuration.md shows no configuration for %s", d.ID())
		}
	}
	// and the schema is strict where the decoder is
	var bad any
	json.Unmarshal([]byte(`{"documents": {"on-request": {"operater": {}}}}`), &bad)
	if sch.Validate(bad) == nil {
		t.Error("the schema accepts a misspelt member")
	}
}
