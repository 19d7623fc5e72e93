package main

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
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
	for status, want := range map[string]int{"passed": exitPass, "incomplete": exitIncomplete, "failed": exitFail, "nothing-graded": exitIncomplete} {
		if got := clientExit(status); got != want {
			t.Errorf("%s: exit %d, want %d", status, got, want)
		}
	}
}

// --print-schema hands an outside client the Skill Interface Schema the certification validates with (SI-12.10b),
// and --ports pins the recording proxies' ports: the transcript's card URL names the port asked for.
func TestClientPrintSchemaAndPorts(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run(context.Background(), []string{"client", "--print-schema"}, &out, &errb); code != exitPass ||
		!strings.Contains(out.String(), `"skill_version"`) || !strings.Contains(errb.String(), "sha256:") {
		t.Fatalf("--print-schema: exit %d, %d bytes, stderr %s", code, out.Len(), errb.String())
	}
	for _, bad := range []string{"x", "0", "70000", "1,2,3", "5000,5000"} {
		if _, err := parsePorts(bad); err == nil {
			t.Errorf("--ports %s accepted", bad)
		}
	}
	if p, err := parsePorts("41001,41002"); err != nil || p != [2]int{41001, 41002} {
		t.Errorf("--ports 41001,41002: %v %v", p, err)
	}
	if testing.Short() {
		return
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	ref := buildRefclient(t)
	out.Reset()
	errb.Reset()
	js := filepath.Join(t.TempDir(), "r.json")
	code := run(context.Background(), []string{"client", "--cmd", ref, "--suite", "on-request", "--ports", strconv.Itoa(port), "--json", js,
		"--out", filepath.Join(t.TempDir(), "b")}, &out, &errb)
	b, _ := os.ReadFile(js)
	if code != exitPass || !strings.Contains(string(b), fmt.Sprintf("https://127.0.0.1:%d/", port)) {
		t.Errorf("--ports %d: exit %d; stdout %s; stderr %s", port, code, out.String(), errb.String())
	}
}
