package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/harness/target/container"
)

func TestContainerFlagsUsage(t *testing.T) {
	for _, args := range [][]string{
		{"run", "--image", "x", "--target", "https://127.0.0.1:9/"},
		{"run", "--image", "x", "--dockerfile", "docker"},
		{"run", "--image", "x", "--falsify"},
		{"run", "--dockerfile", filepath.Join(t.TempDir(), "absent")},
	} {
		if code, _, stderr := runCLI(args...); code != exitUsage {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", args, code, stderr)
		}
	}
}

// No engine: the run ends quickly with every selected row blocked with the reason, a bundle, and exit 4
// (incomplete: nothing failed).
func TestNoEngineRunIsBlocked(t *testing.T) {
	t.Setenv("DOCKER_HOST", "unix://"+filepath.Join(t.TempDir(), "no-engine.sock"))
	out := t.TempDir()
	start := time.Now()
	code, stdout, stderr := runCLI("run", "--image", "extconf-mock:ci", "--suite", "terms,interview", "--out", out)
	if code != exitIncomplete || !strings.Contains(stdout, "INCOMPLETE: 0 failed, ") {
		t.Fatalf("exit %d, want 4 and INCOMPLETE\n%s\n%s", code, stdout, stderr)
	}
	if d := time.Since(start); d > container.DefaultProbeTimeout+5*time.Second {
		t.Errorf("took %s", d)
	}
	if !strings.Contains(stderr, "no container engine reachable") {
		t.Errorf("stderr does not say why:\n%s", stderr)
	}
	raw, err := os.ReadFile(filepath.Join(out, "bundle.json"))
	if err != nil {
		t.Fatal(err)
	}
	var b struct {
		Status string `json:"status"`
		Target struct {
			Kind string `json:"kind"`
		} `json:"target"`
		Rows []struct {
			ID, Document, Verdict, Detail string
			SelfCheck                     bool
		} `json:"rows"`
	}
	if err := json.Unmarshal(raw, &b); err != nil {
		t.Fatal(err)
	}
	if b.Status == "passed" || b.Target.Kind != target.KindContainer {
		t.Fatalf("status %q kind %q", b.Status, b.Target.Kind)
	}
	blocked := 0
	for _, r := range b.Rows {
		selected := r.Document == "terms" || r.Document == "interview"
		switch {
		case !selected && r.Verdict != "skipped":
			t.Errorf("%s outside the selection is %s", r.ID, r.Verdict)
		case selected && r.Verdict == "blocked":
			blocked++
			if !strings.HasPrefix(r.Detail, "no container engine reachable: ") {
				t.Errorf("%s: detail %q", r.ID, r.Detail)
			}
		case selected && r.SelfCheck && r.Verdict != "executed-pass":
			t.Errorf("self-check %s is %s with no engine: self-checks never depend on the target", r.ID, r.Verdict)
		case selected && !r.SelfCheck && r.Verdict != "unwitnessable":
			t.Errorf("%s is %s with no engine", r.ID, r.Verdict)
		}
	}
	if blocked == 0 {
		t.Fatal("no blocked row")
	}
	if _, err := os.Stat(filepath.Join(out, ContainerLogFile)); err == nil {
		t.Error("a container log was written although no container ran")
	}
}

func TestAnnounce(t *testing.T) {
	tgt := &target.Target{Agents: map[string]string{"terms": "https://127.0.0.1:9401/c", "agent-cards": "https://127.0.0.1:9400/c"},
		Config: target.Config{ActingFor: &target.ActingFor{Metadata: json.RawMessage(`{"name":"<person>"}`)}}}
	var buf bytes.Buffer
	if err := announce(&buf, tgt); err != nil {
		t.Fatal(err)
	}
	want := "agent-cards\thttps://127.0.0.1:9400/c\nterms\thttps://127.0.0.1:9401/c\n" +
		container.MockConfigPrefix + `{"actingFor":{"metadata":{"name":"<person>"}}}` + "\n" + container.MockReady + "\n"
	if buf.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", buf.String(), want)
	}
}
