package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/extconf/extconf/harness/evidence"
)

// limits.runTimeout ends a run at its deadline: unfinished rows read not-tested (interrupted), never failed, and
// the bundle says the run was cut short.
func TestRunTimeoutEndsTheRun(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "target.json")
	if err := os.WriteFile(cfg, []byte(`{"limits": {"runTimeout": "150ms"}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "bundle")
	code, stdout, stderr := runCLI("run", "--quiet", "--config", cfg, "--out", out)
	if code == exitPass {
		t.Fatalf("a run cut at 150 ms passed:\n%s\n%s", stdout, stderr)
	}
	if code != exitRunDeadline { // issue 37: 130 says a signal stopped the run; a deadline leaves it incomplete
		t.Errorf("exit %d on the run deadline, want %d", code, exitRunDeadline)
	}
	b, _, err := evidence.Load(filepath.Join(out, "bundle.json"))
	if err != nil {
		t.Fatal(err)
	}
	if b.Status != "interrupted" {
		t.Errorf("status %s (%s), want interrupted", b.Status, b.StatusReason)
	}
	for _, r := range b.Rows {
		if r.Verdict == "executed-fail" && strings.Contains(r.Detail, "interrupt") {
			t.Errorf("%s failed on the deadline: %s", r.ID, r.Detail)
		}
	}
}
