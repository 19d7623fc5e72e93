package main

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// buildRefclient builds cmd/refclient once per test binary run into dir.
func buildRefclient(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "refclient")
	if out, err := exec.Command("go", "build", "-o", bin, "../refclient").CombinedOutput(); err != nil {
		t.Fatalf("building refclient: %v\n%s", err, out)
	}
	return bin
}

// Two documented clients that pass every graded row but leave some MUST rows untested: one ignoring
// EXTCONF_CARD_URLS (it contacts only the first card: the two-target rows read not-tested), and refclient
// --no-cache (no document cache: the cache row reads not-tested). Their bundles verify (no exit 3 "scopeStatus is
// passed but the scope rows make it failed": not-tested rows are out of the scope, not required to pass), and the
// run ends incomplete, exit 4, never 0.
func TestClientUntestedRowsEndIncomplete(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the client certification twice")
	}
	ref := buildRefclient(t)
	for name, cmd := range map[string]string{
		"ignores-card-urls": "env -u EXTCONF_CARD_URLS " + ref,
		"no-cache":          ref + " --no-cache",
	} {
		t.Run(name, func(t *testing.T) {
			var out, errb bytes.Buffer
			code := run(context.Background(), []string{"client", "--cmd", cmd, "--suite", "schema-interface", "--out", filepath.Join(t.TempDir(), "b")}, &out, &errb)
			if strings.Contains(errb.String(), "HARNESS DEFECT") || code == exitHarness {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			if code != exitIncomplete || !strings.Contains(out.String(), "INCOMPLETE: ") || !strings.Contains(out.String(), "scope passed") {
				t.Errorf("exit %d (want %d incomplete); stdout:\n%s", code, exitIncomplete, out.String())
			}
		})
	}
}

func TestClientExit(t *testing.T) {
	for status, want := range map[string]int{"passed": exitPass, "incomplete": exitIncomplete, "failed": exitFail, "nothing-graded": exitFail} {
		if got := clientExit(status); got != want {
			t.Errorf("%s: exit %d, want %d", status, got, want)
		}
	}
}
