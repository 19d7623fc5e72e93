package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/extconf/extconf/mockagents"
	"github.com/extconf/extconf/sabotage"
	"github.com/extconf/extconf/suites"
)

var updateRef = flag.Bool("update", false, "rewrite "+suites.ConfigReferenceDir)

// The configuration reference (docs/config/<document>.md, common.md) is the one the types, the input tables and
// the reference agents' own configuration (the examples) give.
func TestConfigReferenceFiles(t *testing.T) {
	examples := referenceExamples(t)
	ids := []string{suites.CommonReference}
	for _, d := range suites.Documents() {
		ids = append(ids, d.ID())
	}
	dir := filepath.Join("..", "..", suites.ConfigReferenceDir)
	for _, id := range ids {
		want := suites.ConfigReference(id, examples[id])
		path := filepath.Join(dir, id+".md")
		if *updateRef {
			os.MkdirAll(dir, 0o755)
			if err := os.WriteFile(path, want, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s is stale (err %v): go test ./cmd/runsuite -run TestConfigReferenceFiles -update", path, err)
		}
	}
}

var (
	loopbackOrigin = regexp.MustCompile(`https?://127\.0\.0\.1:[0-9]+`)
	// a per-run token in an endpoint's path (the terms change hook's)
	randomPathSegment = regexp.MustCompile(`(https://[a-z0-9.-]+\.example[^"]*?)/[0-9a-f]{24,}`)
)

// referenceExamples are the reference agents' announcement, member by member per document ("common": the members
// outside documents), with their loopback origins named as example hosts and credential values read from the
// environment, so the examples are the same on every machine.
func referenceExamples(t *testing.T) map[string]map[string]json.RawMessage {
	t.Helper()
	tgt, err := mockagents.Start(sabotage.Set{})
	if err != nil {
		t.Fatal(err)
	}
	defer tgt.Close()
	an, err := tgt.Announce()
	if err != nil {
		t.Fatal(err)
	}
	an.CAFile = "ca.pem"
	for name, c := range an.Credentials {
		c.Value.Literal, c.Value.FromEnv = "", strings.ToUpper(strings.NewReplacer(".", "_", "-", "_").Replace(name))+"_TOKEN"
		an.Credentials[name] = c
	}
	raw, _ := json.Marshal(an)
	// Each agent's origin becomes https://<document>.example; any other loopback origin https://agent-N.example.
	names := map[string]string{}
	for doc, u := range an.Agents {
		names[loopbackOrigin.FindString(u)] = "https://" + doc + ".example"
	}
	text := string(raw)
	others := loopbackOrigin.FindAllString(text, -1) // in the order the (sorted) members show them
	n := 0
	for _, o := range others {
		if _, ok := names[o]; !ok {
			n++
			names[o] = "https://agent-" + string(rune('0'+n)) + ".example"
		}
	}
	text = loopbackOrigin.ReplaceAllStringFunc(text, func(o string) string { return names[o] })
	text = randomPathSegment.ReplaceAllString(text, "$1/TOKEN")
	var all map[string]json.RawMessage
	if err := json.Unmarshal([]byte(text), &all); err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]json.RawMessage{suites.CommonReference: {}}
	for k, v := range all {
		if k != "documents" {
			out[suites.CommonReference][k] = v
		}
	}
	var docs map[string]map[string]json.RawMessage
	json.Unmarshal(all["documents"], &docs)
	for id, sec := range docs {
		out[id] = sec
	}
	return out
}
