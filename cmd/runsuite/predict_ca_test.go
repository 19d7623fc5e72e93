package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/harness/target"
)

// A card behind a CA the operator has not configured: config init writes no section it cannot know the card
// declares, asks for caFile, and config check predicts the run, which blocks every row on that one cause.
func TestConfigCheckPredictsAnUntrustedCA(t *testing.T) {
	srv, err := a2atest.Start(a2atest.Agent{Name: "plain"}, a2atest.Options{TLS: true})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dir := t.TempDir()
	base := writeJSON(t, filepath.Join(dir, "base.json"), target.Config{})
	predictsTheRun(t, dir, srv.CardURL(), base, -1)

	code, out, stderr := runCLI("config", "init", "--target", srv.CardURL(), "--config", base)
	if code != exitPass || !strings.Contains(stderr, "caFile") {
		t.Errorf("config init: exit %d, want 0 and caFile asked for:\n%s", code, stderr)
	}
	var c target.Config
	if err := json.Unmarshal([]byte(out), &c); err != nil || len(c.Documents) != 0 {
		t.Errorf("config init wrote sections for a card it could not read (%v):\n%s", err, out)
	}
}
