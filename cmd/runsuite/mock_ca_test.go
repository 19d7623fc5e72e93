package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/harness/target/container"
)

// runsuite mock's "# config" line, saved as a file anywhere, is a complete configuration: it names the CA the
// agents' certificates chain to (written where --ca-file says), so a run with only it passes with nothing blocked.
func TestMockAnnouncesItsCA(t *testing.T) {
	dir := t.TempDir()
	ca := filepath.Join(dir, "mock-ca.pem")
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		var errb bytes.Buffer
		run(ctx, []string{"mock", "--ca-file", ca}, pw, &errb)
		pw.Close()
	}()
	defer func() { cancel(); <-done }()
	var cfgLine, interview string
	sc := bufio.NewScanner(pr)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		l := sc.Text()
		if l == container.MockReady {
			break
		}
		if strings.HasPrefix(l, container.MockConfigPrefix) {
			cfgLine = strings.TrimPrefix(l, container.MockConfigPrefix)
		} else if role, u, ok := strings.Cut(l, "\t"); ok && role == "interview" {
			interview = u
		}
	}
	go io.Copy(io.Discard, pr)
	var cfg target.Config
	if err := json.Unmarshal([]byte(cfgLine), &cfg); err != nil || cfg.CAFile != ca {
		t.Fatalf("the announcement names caFile %q (err %v), want %s", cfg.CAFile, err, ca)
	}
	if b, err := os.ReadFile(ca); err != nil || !bytes.Contains(b, []byte("BEGIN CERTIFICATE")) {
		t.Fatalf("the CA file: %v", err)
	}
	file := filepath.Join(dir, "announced.json")
	os.WriteFile(file, []byte(cfgLine), 0o600)
	out := filepath.Join(dir, "run")
	if code, _, stderr := runCLI("run", "--target", interview, "--config", file, "--out", out); code != exitPass {
		t.Fatalf("run with the announcement alone: exit %d\n%s", code, stderr)
	}
	if got := ran(t, filepath.Join(out, "bundle.json")); len(got["blocked"]) > 0 {
		t.Errorf("blocked: %v", got["blocked"])
	}
}
