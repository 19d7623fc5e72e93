package suites_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/extconf/extconf/harness/jsonschema"
	"github.com/extconf/extconf/suites"
)

const module = "github.com/extconf/extconf/"

// The configuration's doc comments, compiled in for the schema's descriptions and the reference, are the source's.
func TestConfigDocsFile(t *testing.T) {
	docs := jsonschema.Docs{}
	for _, pkg := range suites.ConfigPackages() {
		if !strings.HasPrefix(pkg, module) {
			continue
		}
		d, err := jsonschema.DocsFromSource(pkg, filepath.Join("..", strings.TrimPrefix(pkg, module)))
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range d {
			docs[k] = v
		}
	}
	want := suites.ConfigDocsSource(docs)
	path := filepath.Join("..", suites.ConfigDocsPath)
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("%s is stale (err %v): go test ./suites -run TestConfigDocsFile -update", suites.ConfigDocsPath, err)
	}
}

// Every member of the configuration schema says what it is (from the Go doc comments), and every member a row of
// a document's input table names says which rows it unblocks and how to declare it absent.
func TestConfigSchemaDescribesEveryMember(t *testing.T) {
	var s map[string]any
	if err := json.Unmarshal(suites.ConfigSchema(), &s); err != nil {
		t.Fatal(err)
	}
	var walk func(x map[string]any, path string)
	walk = func(x map[string]any, path string) {
		props, _ := x["properties"].(map[string]any)
		for k, v := range props {
			m := v.(map[string]any)
			if d, _ := m["description"].(string); d == "" && m["deprecated"] == nil {
				t.Errorf("%s.%s has no description", path, k)
			}
			walk(m, path+"."+k)
		}
		if it, ok := x["items"].(map[string]any); ok {
			walk(it, path+"[]")
		}
		if ap, ok := x["additionalProperties"].(map[string]any); ok {
			walk(ap, path+".*")
		}
	}
	walk(s, "$")
	multi := s["properties"].(map[string]any)["documents"].(map[string]any)["properties"].(map[string]any)["schema-interface"].(map[string]any)["properties"].(map[string]any)["multiOperation"].(map[string]any)
	if d := multi["description"].(string); !strings.Contains(d, "Unblocks SI-8.4a") || !strings.Contains(d, `"absent": {"multiOperation"`) {
		t.Errorf("multiOperation: %s", d)
	}
}
