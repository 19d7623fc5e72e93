package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/mockagents"
	"github.com/extconf/extconf/sabotage"
	"github.com/extconf/extconf/suites"
)

// baseFromMock is what an operator holds before config init: what the reference agents announce (`runsuite mock`
// prints it: credentials and one section per document), cut down to the operator facts (suites.OperatorCut), with
// the test CA.
func baseFromMock(t *testing.T, dir string) (string, map[string]string) {
	return baseFromMockWith(t, dir, sabotage.Set{})
}

// baseFromMockWith is baseFromMock against the reference agents with set switched on.
func baseFromMockWith(t *testing.T, dir string, set sabotage.Set) (string, map[string]string) {
	t.Helper()
	tgt, err := mockagents.Start(set)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tgt.Close() })
	base, err := suites.OperatorCut(announcedFile(t, tgt))
	if err != nil {
		t.Fatal(err)
	}
	return writeJSON(t, filepath.Join(dir, "base.json"), base), tgt.Agents
}

// announcedFile is the reference agents' announcement as a configuration file, with the test CA.
func announcedFile(t *testing.T, tgt *target.Target) target.Config {
	t.Helper()
	if tgt.Announce == nil {
		t.Fatal("the reference agents announce nothing")
	}
	an, err := tgt.Announce()
	if err != nil {
		t.Fatal(err)
	}
	cfg := *an
	cfg.CAFile, _ = filepath.Abs("../../fixtures/testpki/ca.pem")
	return cfg
}

func writeJSON(t *testing.T, p string, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

var predictedRow = regexp.MustCompile(`^  (blocked|inapplicable)\s+\S+ \(.*\): (.+)$`)

// predicted parses config check's output: verdict → row ids.
func predicted(out string) map[string][]string {
	got := map[string][]string{}
	for _, l := range strings.Split(out, "\n") {
		if m := predictedRow.FindStringSubmatch(l); m != nil {
			got[m[1]] = append(got[m[1]], strings.Fields(m[2])...)
		}
	}
	for _, v := range got {
		sort.Strings(v)
	}
	return got
}

// bundleRows reads a bundle's rows.
func bundleRows(t *testing.T, bundle string) []bundleRow {
	t.Helper()
	b, err := os.ReadFile(bundle)
	if err != nil {
		t.Fatal(err)
	}
	var bun struct {
		Rows []bundleRow `json:"rows"`
	}
	if err := json.Unmarshal(b, &bun); err != nil {
		t.Fatal(err)
	}
	return bun.Rows
}

type bundleRow struct {
	ID, Verdict, Detail string
	SelfCheck           bool
}

// ran reads a bundle's target rows: verdict → row ids (blocked and inapplicable).
func ran(t *testing.T, bundle string) map[string][]string {
	t.Helper()
	got := map[string][]string{}
	for _, r := range bundleRows(t, bundle) {
		if r.SelfCheck {
			continue
		}
		if r.Verdict == "blocked" || (r.Verdict == "inapplicable" && strings.Contains(r.Detail, "the operator declares")) {
			got[r.Verdict] = append(got[r.Verdict], r.ID)
		}
	}
	for _, v := range got {
		sort.Strings(v)
	}
	return got
}

// config init against the reference agents, then config check predicts exactly the rows the run blocks (and the
// ones an absence declaration makes inapplicable).
func TestConfigCheckPredictsTheRun(t *testing.T) {
	dir := t.TempDir()
	base, roles := baseFromMock(t, dir)
	tgtURL := roles["interview"]
	initPath := filepath.Join(dir, "init.json")
	if code, _, stderr := runCLI("config", "init", "--target", tgtURL, "--config", base, "--out", initPath); code != exitPass {
		t.Fatalf("config init: exit %d: %s", code, stderr)
	}
	// A second file: the operator leaves out the terms change hook and declares the multi-operation skill absent.
	var cfg map[string]any
	b, _ := os.ReadFile(initPath)
	json.Unmarshal(b, &cfg)
	docs := cfg["documents"].(map[string]any)
	delete(docs["terms"].(map[string]any), "changeHook")
	docs["schema-interface"].(map[string]any)["absent"] = map[string]string{"multiOperation": "none: no skill selects an operation"}
	b, _ = json.Marshal(cfg)
	edited := filepath.Join(dir, "edited.json")
	os.WriteFile(edited, b, 0o600)

	for i, file := range []string{initPath, edited} {
		_, out, stderr := runCLI("config", "check", file, "--target", tgtURL)
		want := predicted(out)
		if len(want["blocked"]) == 0 {
			t.Fatalf("%s: config check predicted nothing:\n%s\n%s", file, out, stderr)
		}
		outDir := filepath.Join(dir, "run"+string(rune('0'+i)))
		if code, _, stderr := runCLI("run", "--target", tgtURL, "--config", file, "--out", outDir); code == exitUsage {
			t.Fatalf("run: exit 2: %s", stderr)
		}
		got := ran(t, filepath.Join(outDir, "bundle.json"))
		for _, v := range []string{"blocked", "inapplicable"} {
			if strings.Join(got[v], " ") != strings.Join(want[v], " ") {
				t.Errorf("%s: %s rows\n  predicted %v\n  ran       %v", filepath.Base(file), v, want[v], got[v])
			}
		}
		t.Logf("%s: %d rows blocked, %d declared absent (predicted and run)", filepath.Base(file), len(got["blocked"]), len(got["inapplicable"]))
		if i == 0 && len(got["blocked"]) > 10 {
			t.Errorf("config init + the operator facts the reference agents announce: %d rows blocked, want at most 10: %v", len(got["blocked"]), got["blocked"])
		}
	}
}

func TestConfigCheckStrictExit2(t *testing.T) {
	p := filepath.Join(t.TempDir(), "c.json")
	os.WriteFile(p, []byte(`{"documents": {"on-request": {"operater": {}}}}`), 0o600)
	code, _, stderr := runCLI("config", "check", p)
	if code != exitUsage || !strings.Contains(stderr, `unknown member "operater" at $.documents.on-request`) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = runCLI("run", "--config", p, "--suite", "on-request")
	if code != exitUsage || !strings.Contains(stderr, `$.documents.on-request`) {
		t.Errorf("run: exit %d, stderr %q", code, stderr)
	}
}

// What the reference agents announce (runsuite mock's "# config" line) is a configuration file in the shape
// operators write: decoded strictly, it certifies them with no row blocked and no legacy-place warning.
func TestMockAnnouncementIsAConfigFile(t *testing.T) {
	tgt, err := mockagents.Start(sabotage.Set{})
	if err != nil {
		t.Fatal(err)
	}
	defer tgt.Close()
	dir := t.TempDir()
	file := writeJSON(t, filepath.Join(dir, "announced.json"), announcedFile(t, tgt))
	var b strings.Builder
	if err := announce(&b, tgt); err != nil || !strings.Contains(b.String(), `"documents":`) || strings.Contains(b.String(), `"requests":{"agent-cards:`) {
		t.Fatalf("announce: %v\n%s", err, b.String())
	}
	code, _, stderr := runCLI("run", "--target", tgt.Agents["interview"], "--config", file, "--out", filepath.Join(dir, "run"))
	if code != exitPass || strings.Contains(stderr, "deprecated") {
		t.Fatalf("run with the announcement: exit %d\n%s", code, stderr)
	}
	if got := ran(t, filepath.Join(dir, "run", "bundle.json")); len(got["blocked"]) > 0 {
		t.Errorf("blocked: %v", got["blocked"])
	}
}

// Every conditional input of every document declared absent: config check predicts each row that then reads
// inapplicable, and the run makes exactly those rows inapplicable quoting the declaration.
func TestEveryAbsenceDeclaredPredictsTheRun(t *testing.T) {
	dir := t.TempDir()
	tgt, err := mockagents.Start(sabotage.Set{})
	if err != nil {
		t.Fatal(err)
	}
	defer tgt.Close()
	cfg := announcedFile(t, tgt)
	for _, d := range suites.Documents() {
		n, ok := d.(harness.Needer)
		if !ok {
			continue
		}
		var sec map[string]any
		json.Unmarshal(cfg.Documents[d.ID()], &sec)
		keep := map[string]any{"absent": map[string]string{}}
		if p, ok := sec["principals"]; ok {
			keep["principals"] = p // credentials stay: absence is about conditional inputs, not access
		}
		for _, need := range n.Needs() {
			if need.Always {
				continue
			}
			keep["absent"].(map[string]string)[need.Member] = "declared absent by the test: " + need.Member
		}
		cfg.Documents[d.ID()], _ = json.Marshal(keep)
	}
	file := writeJSON(t, filepath.Join(dir, "absent.json"), cfg)
	tgtURL := tgt.Agents["interview"]
	_, out, stderr := runCLI("config", "check", file, "--target", tgtURL)
	want := predicted(out)
	if len(want["inapplicable"]) == 0 {
		t.Fatalf("nothing predicted inapplicable:\n%s\n%s", out, stderr)
	}
	if code, _, stderr := runCLI("run", "--target", tgtURL, "--config", file, "--out", filepath.Join(dir, "run")); code == exitUsage {
		t.Fatalf("run: exit 2: %s", stderr)
	}
	got := ran(t, filepath.Join(dir, "run", "bundle.json"))
	for _, v := range []string{"blocked", "inapplicable"} {
		if strings.Join(got[v], " ") != strings.Join(want[v], " ") {
			t.Errorf("%s rows\n  predicted %v\n  ran       %v", v, want[v], got[v])
		}
	}
	if t.Failed() {
		t.Log(detailsOf(t, filepath.Join(dir, "run", "bundle.json"), "blocked"))
	}
}

// detailsOf lists the target rows of a bundle with one verdict, with their details.
func detailsOf(t *testing.T, bundle, verdict string) string {
	var out strings.Builder
	cat := catalog.MustLoad()
	for _, r := range bundleRows(t, bundle) {
		if row, ok := cat.Row(r.ID); ok && row.Advisory() && verdict == "executed-fail" {
			continue // a latitude declining a SHOULD is an advisory finding, as the falsification gate reads it
		}
		if !r.SelfCheck && r.Verdict == verdict {
			fmt.Fprintf(&out, "\n  %s %s: %.300s", r.ID, r.Verdict, r.Detail)
		}
	}
	return out.String()
}

// config init's derivations against every cross-cutting latitude (one binding only, no streaming, Message or Task
// replies, plain 401, no card cache headers): the file it writes, with the operator facts, fails no row.
func TestConfigInitUnderLatitudesFailsNothing(t *testing.T) {
	for _, l := range sabotage.Latitudes() {
		if !strings.HasPrefix(string(l.ID), "a2a.") {
			continue // the document latitudes run in their suites' own tests
		}
		t.Run(string(l.ID), func(t *testing.T) {
			dir := t.TempDir()
			base, roles := baseFromMockWith(t, dir, sabotage.MustParse(l.ID))
			initPath := filepath.Join(dir, "init.json")
			if code, _, stderr := runCLI("config", "init", "--target", roles["interview"], "--config", base, "--out", initPath); code != exitPass {
				t.Fatalf("config init: exit %d: %s", code, stderr)
			}
			if code, _, stderr := runCLI("run", "--target", roles["interview"], "--config", initPath, "--out", filepath.Join(dir, "run")); code == exitUsage {
				t.Fatalf("run: exit 2: %s", stderr)
			}
			for _, v := range []string{"executed-fail", "not-tested"} {
				if d := detailsOf(t, filepath.Join(dir, "run", "bundle.json"), v); d != "" {
					t.Errorf("%s rows:%s", v, d)
				}
			}
		})
	}
}
