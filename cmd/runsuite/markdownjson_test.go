package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/strictjson"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/suites"
)

var jsonFence = regexp.MustCompile("(?s)```json\n(.*?)```")

// Every ```json block of every Markdown file of the repository decodes. Three kinds are told apart:
//   - a configuration file (a JSON object whose members are all members of the configuration file): loaded the
//     way --config is, strictly at every level with the documents' sections decoded into their input types, and
//     with no member in a deprecated place;
//   - a configuration fragment in docs/config/<document>.md (members of that document's section, or for
//     common.md of the file): decoded strictly in its place;
//   - anything else (wire messages, bundle excerpts, transcripts written one JSON value a line): is not
//     configuration, and must only be JSON (a value, or one per line), unless it elides parts with "…" where
//     no JSON value can stand ({…}), which marks a shape, not an instance: it is skipped.
func TestMarkdownJSONExamplesDecode(t *testing.T) {
	configMembers := map[string]bool{}
	for name := range strictjson.Fields(reflectConfig()) {
		configMembers[name] = true
	}
	root := filepath.Join("..", "..")
	kinds := map[string]int{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules" || d.Name() == "runs") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".md") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		for i, m := range jsonFence.FindAllSubmatch(b, -1) {
			block := m[1]
			where := rel + " block " + strconv.Itoa(i+1)
			var obj map[string]json.RawMessage
			isObj := json.Unmarshal(block, &obj) == nil
			doc, inRef := strings.CutPrefix(filepath.ToSlash(rel), suites.ConfigReferenceDir+"/")
			doc = strings.TrimSuffix(doc, ".md")
			switch {
			case inRef && doc != suites.CommonReference:
				kinds["fragment"]++
				checkConfig(t, where, fragment(doc, obj, block))
			case isObj && len(obj) > 0 && allIn(obj, configMembers):
				kinds["configuration"]++
				checkConfig(t, where, block)
			default:
				kinds["other"]++
				if !jsonValues(block) && !bytes.Contains(block, []byte("{…}")) {
					t.Errorf("%s: not JSON (a value, or one per line)", where)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("checked: %v", kinds)
	if kinds["configuration"] < 5 || kinds["fragment"] < 10 {
		t.Errorf("too few configuration examples found: %v", kinds)
	}
}

func allIn(obj map[string]json.RawMessage, members map[string]bool) bool {
	for k := range obj {
		if !members[k] {
			return false
		}
	}
	return true
}

// checkConfig loads b as --config does: strictly, sections into their input types, no deprecated place.
func checkConfig(t *testing.T, where string, b []byte) {
	t.Helper()
	// What the example names outside itself exists: its environment variables are set, a relative caFile is the
	// test CA (the file is read from where the configuration is used, like a run's working directory).
	dir := t.TempDir()
	p := filepath.Join(dir, "c.json")
	os.WriteFile(p, b, 0o600)
	var generic any
	json.Unmarshal(b, &generic)
	for _, v := range fromEnvNames(generic) {
		t.Setenv(v, "Bearer x")
	}
	var top struct {
		CAFile string `json:"caFile"`
	}
	if json.Unmarshal(b, &top) == nil && top.CAFile != "" && !filepath.IsAbs(top.CAFile) {
		ca, _ := os.ReadFile(filepath.Join("..", "..", "fixtures", "testpki", "ca.pem"))
		os.WriteFile(filepath.Join(dir, top.CAFile), ca, 0o600)
		wd, _ := os.Getwd()
		os.Chdir(dir)
		defer os.Chdir(wd)
	}
	cfg, err := target.LoadConfig(p)
	if err != nil {
		t.Errorf("%s: does not load as a configuration: %v", where, err)
		return
	}
	if w := target.LegacyWarnings(cfg); len(w) > 0 {
		t.Errorf("%s: members in deprecated places: %s", where, strings.Join(w, "; "))
	}
	if err := harness.PrepareConfig(&cfg, suites.Documents()...); err != nil {
		t.Errorf("%s: does not load as a configuration: %v", where, err)
	}
}

// jsonValues reports whether b is one JSON value, or one per non-empty line.
func jsonValues(b []byte) bool {
	if json.Valid(bytes.TrimSpace(b)) {
		return true
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if l := bytes.TrimSpace(sc.Bytes()); len(l) > 0 && !json.Valid(l) {
			return false
		}
	}
	return true
}

func reflectConfig() reflect.Type { return reflect.TypeOf(target.Config{}) }

// fragment places a section's members as a configuration file, with a credential for each name its principals give
// (the fragment shows the section; the credentials live beside it, in common.md).
func fragment(doc string, obj map[string]json.RawMessage, block []byte) []byte {
	creds := map[string]any{}
	for _, k := range []string{"principals", "principal"} {
		var v any
		if json.Unmarshal(obj[k], &v) == nil {
			names := map[string]bool{}
			allStrings(v, names)
			for n := range names {
				creds[n] = map[string]string{"header": "Authorization", "value": "Bearer x"}
			}
		}
	}
	c, _ := json.Marshal(creds)
	return []byte(`{"credentials": ` + string(c) + `, "documents": {"` + doc + `": ` + string(block) + `}}`)
}

// fromEnvNames lists the environment variables a configuration's {"fromEnv": NAME} secrets name.
func fromEnvNames(v any) []string {
	var out []string
	switch x := v.(type) {
	case map[string]any:
		if n, ok := x["fromEnv"].(string); ok && len(x) == 1 {
			return []string{n}
		}
		for _, e := range x {
			out = append(out, fromEnvNames(e)...)
		}
	case []any:
		for _, e := range x {
			out = append(out, fromEnvNames(e)...)
		}
	}
	return out
}
