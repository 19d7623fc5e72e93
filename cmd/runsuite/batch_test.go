package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/extconf/extconf/batch"
	"github.com/extconf/extconf/mockagents"
	"github.com/extconf/extconf/mockagents/hostile"
	"github.com/extconf/extconf/sabotage"
)

// batchSuites keeps the batch test's runs short: two documents, each with agent-side toggles.
var batchSuites = []string{"agent-cards", "terms"}

// A batch over 20 targets: reference agents with agent-side toggles (and clean ones), a dead agent and a hostile
// one that never answers. Every target gets its bundle, every bundle verifies, each toggle fails its run on its
// targeted rows, the dead and hostile targets end within their own bounds without holding up the others, and
// `runsuite index` over the same bundles (written by the batch's child processes) writes the same index.
func TestBatchIndexesEveryTarget(t *testing.T) {
	if testing.Short() {
		t.Skip("20 runs")
	}
	dir := t.TempDir()
	var toggles []sabotage.ID
	perDoc := map[string]int{}
	for _, tg := range sabotage.All() {
		if tg.Side == sabotage.SideAgent && slices.Contains(batchSuites, tg.Document) && perDoc[tg.Document] < 7 {
			perDoc[tg.Document]++
			toggles = append(toggles, tg.ID)
		}
	}
	type want struct {
		pass   bool
		toggle sabotage.ID
	}
	wants := map[string]want{}
	var entries []map[string]string
	addMock := func(name string, set sabotage.Set, w want) {
		tgt, err := mockagents.Start(set)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { tgt.Close() })
		cfg := writeJSON(t, filepath.Join(dir, name+".json"), announcedFile(t, tgt))
		entries = append(entries, map[string]string{"name": name, "target": tgt.Agents["terms"], "config": filepath.Base(cfg)})
		wants[name] = w
	}
	for i := range 4 {
		addMock(fmt.Sprintf("clean-%d", i), sabotage.Set{}, want{pass: true})
	}
	for _, id := range toggles {
		addMock("tg-"+string(id), sabotage.MustParse(id), want{toggle: id})
	}
	// Dead: nothing listens on port 9 of loopback. Hostile: the card request is read and never answered.
	entries = append(entries, map[string]string{"name": "dead", "target": "https://127.0.0.1:9/"})
	h, err := hostile.Start(hostile.NeverAnswers)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	hcfg := writeJSON(t, filepath.Join(dir, "hostile.json"), map[string]any{"limits": map[string]string{"callTimeout": "2s", "runTimeout": "20s"}})
	entries = append(entries, map[string]string{"name": "hostile", "target": h.CardURL(), "config": filepath.Base(hcfg)})
	if len(entries) < 20 {
		t.Fatalf("only %d targets (toggles found: %d)", len(entries), len(toggles))
	}
	file := writeJSON(t, filepath.Join(dir, "targets.json"), map[string]any{"targets": entries})

	out := filepath.Join(dir, "out")
	start := time.Now()
	code, stdout, stderr := runCLI("batch", file, "--out", out, "--parallel", "4", "--suite", strings.Join(batchSuites, ","))
	took := time.Since(start)
	if code != exitFail {
		t.Errorf("batch exit %d, want 1 (the worst outcome: toggled agents fail)\n%s\n%s", code, stdout, stderr)
	}
	// The hostile agent holds one slot for at most its run deadline; the batch is not held up behind it.
	if took > 3*time.Minute {
		t.Errorf("batch took %s", took)
	}
	for _, e := range entries {
		if n := strings.Count(stderr, "batch: start "+e["name"]+" ("); n != 1 {
			t.Errorf("%s: %d start lines", e["name"], n)
		}
		if !strings.Contains(stderr, "] "+e["name"]+" ") {
			t.Errorf("%s: no end line", e["name"])
		}
	}
	var idx batch.Index
	raw, err := os.ReadFile(filepath.Join(out, batch.IndexJSON))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &idx); err != nil {
		t.Fatal(err)
	}
	if len(idx.Entries) != len(entries) {
		t.Fatalf("index holds %d entries, want %d", len(idx.Entries), len(entries))
	}
	for _, e := range idx.Entries {
		if !e.Verified || e.BundleSHA256 == "" || e.Log == "" {
			t.Errorf("%s: verified %v, digest %q, log %q: %v", e.Name, e.Verified, e.BundleSHA256, e.Log, e.Problems)
			continue
		}
		w, known := wants[e.Name]
		switch {
		case !known: // dead, hostile: never a pass, never a harness defect
			if e.Status == "passed" || e.Exit == exitPass || e.Exit == exitHarness || len(e.DocumentsGraded) > 0 {
				t.Errorf("%s: status %s exit %d, documents executed %v", e.Name, e.Status, e.Exit, e.DocumentsGraded)
			}
		case w.pass:
			if e.Status != "passed" || e.Exit != exitPass || !slices.Equal(e.DocumentsGraded, batchSuites) {
				t.Errorf("%s: status %s exit %d documents %v: %s", e.Name, e.Status, e.Exit, e.DocumentsGraded, logTail(t, out, e.Name))
			}
		default:
			if e.Status != "failed" || e.Exit != exitFail {
				t.Errorf("%s: status %s exit %d, want failed", e.Name, e.Status, e.Exit)
				continue
			}
			var got []string
			for _, r := range bundleRows(t, filepath.Join(out, e.Name, "bundle.json")) {
				if !r.SelfCheck && r.Verdict == "executed-fail" {
					got = append(got, r.ID)
				}
			}
			tg, _ := sabotage.Lookup(string(w.toggle))
			hit := false
			for _, r := range tg.Targets {
				hit = hit || slices.Contains(got, r)
			}
			if !hit {
				t.Errorf("%s: none of its targets %v failed (failed: %v)", e.Name, tg.Targets, got)
			}
		}
	}
	if idx.Exit != exitFail || idx.Statuses["passed"] != 4 {
		t.Errorf("index: exit %d, statuses %v", idx.Exit, idx.Statuses)
	}

	// The same bundles, indexed by another command into another directory: the same three files.
	again := filepath.Join(dir, "again")
	if code, _, stderr := runCLI("index", out, "--out", again); code != idx.Exit {
		t.Errorf("index exit %d, want %d: %s", code, idx.Exit, stderr)
	}
	for _, f := range []string{batch.IndexJSON, batch.IndexHTML, batch.IndexJUnit} {
		a, _ := os.ReadFile(filepath.Join(out, f))
		b, _ := os.ReadFile(filepath.Join(again, f))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s differs between batch and index (%d and %d bytes)", f, len(a), len(b))
		}
	}
	t.Logf("batch of %d targets, --parallel 4: %s", len(entries), took.Round(time.Millisecond))
}

func logTail(t *testing.T, dir, name string) string {
	b, _ := os.ReadFile(filepath.Join(dir, name, batch.LogFile))
	if len(b) > 2000 {
		b = b[len(b)-2000:]
	}
	return string(b)
}

// A bundle edited after its run is indexed as unverified (exit 3), and a directory without a bundle as missing.
func TestIndexFlagsEditedAndMissingBundles(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	if code, _, stderr := runCLI("run", "--suite", "terms", "--jobs", "1", "--quiet", "--out", filepath.Join(out, "good")); code != exitPass {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runCLI("run", "--suite", "terms", "--jobs", "1", "--quiet", "--out", filepath.Join(out, "edited")); code != exitPass {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	p := filepath.Join(out, "edited", "bundle.json")
	b, _ := os.ReadFile(p)
	os.WriteFile(p, bytes.Replace(b, []byte(`"status":"passed"`), []byte(`"status":"failed"`), 1), 0o644)
	os.MkdirAll(filepath.Join(out, "empty"), 0o755)
	code, stdout, _ := runCLI("index", out)
	if code != exitHarness {
		t.Errorf("index exit %d, want 3\n%s", code, stdout)
	}
	for _, line := range []string{"good                     passed", "edited                   unverified", "empty                    missing"} {
		if !strings.Contains(stdout, line) {
			t.Errorf("no line %q in\n%s", line, stdout)
		}
	}
	if code, _, _ := runCLI("index", filepath.Join(out, "good")); code != exitUsage {
		t.Errorf("index of a bundle directory itself: exit %d, want 2", code)
	}
}

// A pod of an Indexed Job: --shard-of N takes its shard from JOB_COMPLETION_INDEX, --no-index writes bundles
// only, --record-only exits 0 once they are written whatever the agents' outcomes (dead addresses fail).
func TestBatchShardOfJobIndex(t *testing.T) {
	dir := t.TempDir()
	file := writeJSON(t, filepath.Join(dir, "targets.json"), map[string]any{"targets": []map[string]string{
		{"name": "a", "target": "https://127.0.0.1:9/"}, {"name": "b", "target": "https://127.0.0.1:7/"}, {"name": "c", "target": "https://127.0.0.1:13/"}}})
	out := filepath.Join(dir, "out")
	args := []string{"batch", file, "--shard-of", "2", "--out", out, "--no-index", "--record-only", "--suite", "terms", "--quiet"}
	if code, _, stderr := runCLI(args...); code != exitUsage || !strings.Contains(stderr, "JOB_COMPLETION_INDEX") {
		t.Errorf("without the index: exit %d: %s", code, stderr)
	}
	t.Setenv("JOB_COMPLETION_INDEX", "1")
	if code, stdout, stderr := runCLI(args...); code != exitPass {
		t.Fatalf("exit %d, want 0 (--record-only)\n%s%s", code, stdout, stderr)
	}
	for name, want := range map[string]bool{"a": false, "b": true, "c": false} {
		if _, err := os.Stat(filepath.Join(out, name, "bundle.json")); (err == nil) != want {
			t.Errorf("%s: bundle written %v, want %v (shard 1 of 2 is the second target)", name, err == nil, want)
		}
	}
	if _, err := os.Stat(filepath.Join(out, batch.IndexJSON)); err == nil {
		t.Error("--no-index wrote an index")
	}
	// Without --record-only the pod's exit is the outcome: a dead agent answered nothing, so its run is incomplete.
	if code, _, _ := runCLI("batch", file, "--shard", "0/2", "--out", filepath.Join(dir, "out2"), "--suite", "terms", "--quiet"); code != exitIncomplete {
		t.Errorf("shard 0/2 of dead agents: exit %d, want 4 (incomplete)", code)
	}
}
