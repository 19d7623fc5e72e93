package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/harness/target"
)

// A card behind a CA the operator has not configured: config init says every row is blocked on that one cause and
// asks for caFile, and config check predicts the run, which blocks every row on it.
func TestConfigCheckPredictsAnUntrustedCA(t *testing.T) {
	srv, err := a2atest.Start(a2atest.Agent{Name: "plain"}, a2atest.Options{TLS: true})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dir := t.TempDir()
	base := writeJSON(t, filepath.Join(dir, "base.json"), target.Config{})
	predictsTheRun(t, dir, srv.CardURL(), base, -1)

	code, _, stderr := runCLI("config", "init", "--target", srv.CardURL(), "--config", base)
	if code != exitPass || !strings.Contains(stderr, "every row is blocked until the target answers") || !strings.Contains(stderr, "caFile") {
		t.Errorf("config init: exit %d, want 0, the one cause and caFile asked for:\n%s", code, stderr)
	}
}
