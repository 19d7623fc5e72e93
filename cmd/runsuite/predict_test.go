package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/mockagents"
	"github.com/extconf/extconf/sabotage"
)

// config check predicts the run exactly (the rows blocked, and those an absence declaration makes inapplicable),
// whatever the target declares: an agent declaring none of the documents, and each reference agent served as a URL
// target on its own (each declares its one document) with credentials only, through config init.
func TestConfigCheckPredictsTheRunOnAnyTarget(t *testing.T) {
	t.Run("declares-nothing", func(t *testing.T) {
		srv, err := a2atest.Start(a2atest.Agent{Name: "plain"}, a2atest.Options{TLS: true})
		if err != nil {
			t.Fatal(err)
		}
		defer srv.Close()
		dir := t.TempDir()
		ca, _ := filepath.Abs("../../fixtures/testpki/ca.pem")
		base := writeJSON(t, filepath.Join(dir, "base.json"), target.Config{CAFile: ca})
		predictsTheRun(t, dir, srv.CardURL(), base, 0)
	})
	for _, doc := range mockagents.Documents() {
		t.Run(doc, func(t *testing.T) {
			tgt, err := mockagents.Start(sabotage.Set{}, doc)
			if err != nil {
				t.Fatal(err)
			}
			defer tgt.Close()
			dir := t.TempDir()
			predictsTheRun(t, dir, tgt.Agents[doc], credentialsOnly(t, dir, tgt), -1)
		})
	}
}

// credentialsOnly is the reference agents' announcement cut down to what an operator holds before anything else:
// the credentials, the sections' principals naming them, and the CA.
func credentialsOnly(t *testing.T, dir string, tgt *target.Target) string {
	t.Helper()
	cfg := announcedFile(t, tgt)
	for id, raw := range cfg.Documents {
		var sec map[string]json.RawMessage
		if err := json.Unmarshal(raw, &sec); err != nil {
			t.Fatal(err)
		}
		keep := map[string]json.RawMessage{}
		for _, k := range []string{"principals", "principal"} {
			if v, ok := sec[k]; ok {
				keep[k] = v
			}
		}
		cfg.Documents[id], _ = json.Marshal(keep)
	}
	cfg.Agents = nil
	return writeJSON(t, filepath.Join(dir, "base.json"), cfg)
}

// predictsTheRun runs config init from base, config check and the run on cardURL, and compares. maxBlocked >= 0
// also bounds the blocked rows.
func predictsTheRun(t *testing.T, dir, cardURL, base string, maxBlocked int) {
	t.Helper()
	initPath := filepath.Join(dir, "init.json")
	if code, _, stderr := runCLI("config", "init", "--target", cardURL, "--config", base, "--out", initPath); code != exitPass {
		t.Fatalf("config init: exit %d: %s", code, stderr)
	}
	_, out, stderr := runCLI("config", "check", initPath, "--target", cardURL)
	want := predicted(out)
	if code, _, stderr := runCLI("run", "--target", cardURL, "--config", initPath, "--out", filepath.Join(dir, "run")); code == exitUsage {
		t.Fatalf("run: exit 2: %s", stderr)
	}
	bundle := filepath.Join(dir, "run", "bundle.json")
	got := ran(t, bundle)
	for _, v := range []string{"blocked", "inapplicable"} {
		if strings.Join(got[v], " ") != strings.Join(want[v], " ") {
			t.Errorf("%s rows\n  predicted %v\n  ran       %v", v, want[v], got[v])
		}
	}
	if maxBlocked >= 0 && len(got["blocked"]) > maxBlocked {
		t.Errorf("%d rows blocked, want at most %d", len(got["blocked"]), maxBlocked)
	}
	if t.Failed() {
		b, _ := os.ReadFile(initPath)
		t.Logf("config check:\n%s\n%s\ninit.json: %s\nblocked in the run:%s", out, stderr, b, detailsOf(t, bundle, "blocked"))
	}
}
