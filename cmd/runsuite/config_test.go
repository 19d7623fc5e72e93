package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/extconf/extconf/mockagents"
	"github.com/extconf/extconf/sabotage"
)

// baseFromMock is what an operator holds before config init: the reference agents' card URLs, the test CA, and the
// credentials the mock announces, each named and referred to by the documents that use it.
func baseFromMock(t *testing.T, dir string) (string, map[string]string) {
	t.Helper()
	tgt, err := mockagents.Start(sabotage.Set{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tgt.Close() })
	ca, _ := filepath.Abs("../../fixtures/testpki/ca.pem")
	agents := map[string]string{}
	for r, u := range tgt.Agents {
		if !strings.Contains(r, ".") {
			agents[r] = u
		}
	}
	creds := map[string]any{}
	for name, p := range tgt.Config.Principals {
		creds[name] = p
	}
	base := map[string]any{
		"caFile": ca, "agents": agents, "credentials": creds, "trustedKeys": tgt.Config.TrustedKeys, "provider": tgt.Config.Provider,
		"documents": map[string]any{
			"schema-interface": map[string]any{"principals": map[string]string{"A": "A", "B": "B"}},
			"agent-cards":      map[string]any{"principals": map[string]string{"A": "agent-cards.A", "A-restricted": "agent-cards.A-restricted", "B": "agent-cards.B"}},
			"on-request":       map[string]any{"principals": map[string]string{"A": "on-request.A", "B": "on-request.B"}},
			"terms":            map[string]any{"principals": []string{"terms-A", "terms-B"}},
		},
	}
	b, _ := json.Marshal(base)
	p := filepath.Join(dir, "base.json")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p, tgt.Agents
}

var predictedRow = regexp.MustCompile(`^  (blocked|inapplicable)\s+\S+ \(.*\): (.+)$`)

// predicted parses config check's output: verdict → row ids.
func predicted(out string) map[string][]string {
	got := map[string][]string{}
	for _, l := range strings.Split(out, "\n") {
		if m := predictedRow.FindStringSubmatch(l); m != nil {
			got[m[1]] = append(got[m[1]], strings.Fields(m[2])...)
		}
	}
	for _, v := range got {
		sort.Strings(v)
	}
	return got
}

// ran reads a bundle's target rows: verdict → row ids (blocked and inapplicable).
func ran(t *testing.T, bundle string) map[string][]string {
	t.Helper()
	b, err := os.ReadFile(bundle)
	if err != nil {
		t.Fatal(err)
	}
	var bun struct {
		Rows []struct {
			ID, Verdict, Detail string
			SelfCheck           bool
		} `json:"rows"`
	}
	if err := json.Unmarshal(b, &bun); err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, r := range bun.Rows {
		if r.SelfCheck {
			continue
		}
		if r.Verdict == "blocked" || (r.Verdict == "inapplicable" && strings.Contains(r.Detail, "the operator declares")) {
			got[r.Verdict] = append(got[r.Verdict], r.ID)
		}
	}
	for _, v := range got {
		sort.Strings(v)
	}
	return got
}

// config init against the reference agents, then config check predicts exactly the rows the run blocks (and the
// ones an absence declaration makes inapplicable).
func TestConfigCheckPredictsTheRun(t *testing.T) {
	dir := t.TempDir()
	base, roles := baseFromMock(t, dir)
	tgtURL := roles["interview"]
	initPath := filepath.Join(dir, "init.json")
	if code, _, stderr := runCLI("config", "init", "--target", tgtURL, "--config", base, "--out", initPath); code != exitPass {
		t.Fatalf("config init: exit %d: %s", code, stderr)
	}
	// A second file: the operator gives the terms change hook and declares the multi-operation skill absent.
	var cfg map[string]any
	b, _ := os.ReadFile(initPath)
	json.Unmarshal(b, &cfg)
	docs := cfg["documents"].(map[string]any)
	docs["terms"].(map[string]any)["changeHook"] = roles["terms.change-hook"]
	docs["schema-interface"].(map[string]any)["absent"] = map[string]string{"multiOperation": "none: no skill selects an operation"}
	b, _ = json.Marshal(cfg)
	edited := filepath.Join(dir, "edited.json")
	os.WriteFile(edited, b, 0o600)

	for i, file := range []string{initPath, edited} {
		_, out, stderr := runCLI("config", "check", file, "--target", tgtURL)
		want := predicted(out)
		if len(want["blocked"]) == 0 {
			t.Fatalf("%s: config check predicted nothing:\n%s\n%s", file, out, stderr)
		}
		outDir := filepath.Join(dir, "run"+string(rune('0'+i)))
		if code, _, stderr := runCLI("run", "--target", tgtURL, "--config", file, "--out", outDir); code == exitUsage {
			t.Fatalf("run: exit 2: %s", stderr)
		}
		got := ran(t, filepath.Join(outDir, "bundle.json"))
		for _, v := range []string{"blocked", "inapplicable"} {
			if strings.Join(got[v], " ") != strings.Join(want[v], " ") {
				t.Errorf("%s: %s rows\n  predicted %v\n  ran       %v", filepath.Base(file), v, want[v], got[v])
			}
		}
		t.Logf("%s: %d rows blocked, %d declared absent (predicted and run)", filepath.Base(file), len(got["blocked"]), len(got["inapplicable"]))
	}
}

func TestConfigCheckStrictExit2(t *testing.T) {
	p := filepath.Join(t.TempDir(), "c.json")
	os.WriteFile(p, []byte(`{"documents": {"on-request": {"operater": {}}}}`), 0o600)
	code, _, stderr := runCLI("config", "check", p)
	if code != exitUsage || !strings.Contains(stderr, `unknown member "operater" at $.documents.on-request`) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = runCLI("run", "--config", p, "--suite", "on-request")
	if code != exitUsage || !strings.Contains(stderr, `$.documents.on-request`) {
		t.Errorf("run: exit %d, stderr %q", code, stderr)
	}
}
