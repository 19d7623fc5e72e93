package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/harness/evidence"
)

// An A2A agent that declares none of the five documents: nothing about the target is graded, which is not a pass;
// the harness's own self-check rows still run and are reported apart.
func TestNothingGradedAgainstAnAgentDeclaringNoDocument(t *testing.T) {
	srv, err := a2atest.Start(a2atest.Agent{Name: "echo"}, a2atest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	out := filepath.Join(t.TempDir(), "run")
	code, stdout, stderr := runCLI("run", "--target", srv.URL(), "--out", out)
	if code != exitIncomplete {
		t.Fatalf("exit %d, want %d (nothing graded is not a pass)\nstdout %s\nstderr %s", code, exitIncomplete, stdout, stderr)
	}
	if !strings.Contains(stderr, "/.well-known/agent-card.json") || !strings.Contains(stderr, "is an origin") {
		t.Errorf("the run does not say it resolved the origin by the well-known rule: %s", stderr)
	}
	if !strings.Contains(stdout, "NOTHING GRADED: ") || !strings.Contains(stdout, "harness self-check") {
		t.Errorf("summary lacks NOTHING GRADED or the self-check section:\n%s", stdout)
	}
	b, _, err := evidence.Load(filepath.Join(out, "bundle.json"))
	if err != nil {
		t.Fatal(err)
	}
	if b.Status != harness.StatusNothingGraded || b.StatusReason == "" {
		t.Errorf("status %q (%q), want nothing-graded with a reason", b.Status, b.StatusReason)
	}
	for _, v := range []string{harness.ExecutedPass, harness.ExecutedFail, harness.Blocked, harness.NotTested} {
		if b.Totals[v] != 0 {
			t.Errorf("target totals %v: want 0 graded", b.Totals)
		}
	}
	self := 0
	for _, r := range b.Rows {
		if r.SelfCheck {
			self++
		}
	}
	if self == 0 || b.SelfCheck.Totals[harness.ExecutedPass] == 0 || b.SelfCheck.Status == harness.SelfCheckFailed {
		t.Errorf("self-check %+v over %d rows: want the harness's own rows run and not failed", b.SelfCheck, self)
	}
	if code, vout, _ := runCLI("verify", filepath.Join(out, "bundle.json")); code != exitPass || !strings.Contains(vout, "nothing-graded") {
		t.Errorf("verify: exit %d\n%s", code, vout)
	}
	// --allow-nothing-graded accepts it.
	code, stdout, _ = runCLI("run", "--target", srv.URL(), "--suite", "terms", "--out", filepath.Join(t.TempDir(), "b"), "--allow-nothing-graded")
	if code != exitPass {
		t.Errorf("--allow-nothing-graded: exit %d\n%s", code, stdout)
	}
}

// A selection that holds no row about the target (only a self-check row) grades nothing about it.
func TestEmptyTargetSelectionIsNothingGraded(t *testing.T) {
	code, stdout, stderr := runCLI("run", "--suite", "terms", "--req", "TE-8.2", "--out", filepath.Join(t.TempDir(), "b"))
	if code != exitIncomplete || !strings.Contains(stdout, "NOTHING GRADED: ") {
		t.Fatalf("exit %d, want %d with NOTHING GRADED\n%s\n%s", code, exitIncomplete, stdout, stderr)
	}
}

func TestReqOutsideTheSelectionIsUsage(t *testing.T) {
	for _, args := range [][]string{
		{"run", "--suite", "terms", "--req", "IV-3.1"},
		{"run", "--req", "XX-1.1"},
	} {
		if code, _, stderr := runCLI(args...); code != exitUsage {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, stderr)
		}
	}
}

func TestExistingBundleNeedsForce(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bundle.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI("run", "--suite", "terms", "--req", "TE-3.1", "--out", dir)
	if code != exitUsage || !strings.Contains(stderr, "--force") {
		t.Fatalf("exit %d, want 2 naming --force: %s", code, stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "bundle.json")); string(b) != "{}" {
		t.Fatal("the existing bundle was overwritten")
	}
	if code, _, stderr := runCLI("falsify", "--sabotage", "terms.no-digest", "--out", dir); code != exitUsage {
		t.Errorf("falsify --out over a bundle: exit %d (%s)", code, stderr)
	}
	if code, out, stderr := runCLI("run", "--suite", "terms", "--req", "TE-3.1", "--out", dir, "--force"); code != exitPass {
		t.Fatalf("--force: exit %d\n%s\n%s", code, out, stderr)
	}
}

func TestRunDirsAreUnique(t *testing.T) {
	wd, _ := os.Getwd()
	tmp := t.TempDir()
	if err := os.Chdir(tmp); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	seen := map[string]bool{}
	for i := 0; i < 5; i++ { // well within one second, or at worst two
		d, err := runDir()
		if err != nil {
			t.Fatal(err)
		}
		if seen[d] {
			t.Fatalf("run dir %s handed out twice", d)
		}
		seen[d] = true
	}
}

func TestSelfVerifyFailureIsHarnessDefect(t *testing.T) {
	prev := verifyWritten
	defer func() { verifyWritten = prev }()
	verifyWritten = func(path string, key *jose.JSONWebKey) (*evidence.Report, error) {
		rep, err := prev(path, key)
		if err == nil {
			rep.Checks = append(rep.Checks, evidence.Check{Name: "totals", Problems: []string{"made to fail by the test"}})
		}
		return rep, err
	}
	code, _, stderr := runCLI("run", "--suite", "terms", "--req", "TE-3.1", "--out", filepath.Join(t.TempDir(), "b"))
	if code != exitHarness || !strings.Contains(stderr, "HARNESS DEFECT") {
		t.Fatalf("exit %d, want %d with HARNESS DEFECT: %s", code, exitHarness, stderr)
	}
}

// A run interrupted before it starts writes a bundle whose unfinished rows read not-tested "interrupted".
func TestInterruptedRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out := filepath.Join(t.TempDir(), "b")
	var so, se strings.Builder
	code := run(ctx, []string{"run", "--suite", "terms", "--out", out}, &so, &se)
	if code != exitInterrupted {
		t.Fatalf("exit %d, want %d\n%s\n%s", code, exitInterrupted, so.String(), se.String())
	}
	b, _, err := evidence.Load(filepath.Join(out, "bundle.json"))
	if err != nil {
		t.Fatal(err)
	}
	if b.Status != harness.StatusInterrupted || b.Totals[harness.ExecutedFail] != 0 || b.Totals[harness.NotTested] == 0 {
		t.Fatalf("status %s totals %v", b.Status, b.Totals)
	}
	for _, r := range b.Rows {
		if r.Document == "terms" && r.Verdict == harness.NotTested && r.Detail != harness.InterruptedDetail {
			t.Errorf("%s: not-tested %q, want %q", r.ID, r.Detail, harness.InterruptedDetail)
		}
	}
	if code, vout, _ := runCLI("verify", filepath.Join(out, "bundle.json")); code != exitPass || !strings.Contains(vout, "interrupted") {
		t.Errorf("verify: exit %d\n%s", code, vout)
	}
}

// Interrupting mid-run stops it well before it would end, and no row reads executed-fail for it.
func TestInterruptedMidRun(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() { time.Sleep(300 * time.Millisecond); cancel() }()
	out := filepath.Join(t.TempDir(), "b")
	var so, se strings.Builder
	done := make(chan int, 1)
	go func() { done <- run(ctx, []string{"run", "--out", out}, &so, &se) }()
	var code int
	select {
	case code = <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("the interrupted run did not stop")
	}
	b, _, err := evidence.Load(filepath.Join(out, "bundle.json"))
	if err != nil {
		t.Fatalf("%v\n%s", err, se.String())
	}
	if b.Status == harness.StatusPassed { // the run finished before the interrupt: nothing to check
		t.Skip("the run finished before it was interrupted")
	}
	if code != exitInterrupted || b.Status != harness.StatusInterrupted || b.Totals[harness.ExecutedFail] != 0 {
		t.Fatalf("exit %d status %s totals %v", code, b.Status, b.Totals)
	}
}
