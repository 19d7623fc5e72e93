package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/harness/evidence"
)

// A run split across processes (--jobs 2) grades every row as the same run in one process (--jobs 1), and its
// merged transcript verifies: one Seq sequence 1…N, every exchange the rows cite present.
func TestSplitRunMatchesOneProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every suite twice")
	}
	dir := t.TempDir()
	load := func(jobs string) *evidence.Bundle {
		out := filepath.Join(dir, "jobs"+jobs)
		code, stdout, stderr := runCLI("run", "--quiet", "--seed", "1", "--jobs", jobs, "--out", out)
		if code != exitPass {
			t.Fatalf("--jobs %s: exit %d\n%s\n%s", jobs, code, stdout, stderr)
		}
		b, _, err := evidence.Load(filepath.Join(out, "bundle.json"))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	one, two := load("1"), load("2")
	if len(one.Rows) != len(two.Rows) {
		t.Fatalf("%d rows in one process, %d split", len(one.Rows), len(two.Rows))
	}
	for i, r := range one.Rows {
		s := two.Rows[i]
		if r.ID != s.ID || r.Verdict != s.Verdict || r.SelfCheck != s.SelfCheck {
			t.Errorf("%s: %s in one process, %s %s split (%s)", r.ID, r.Verdict, s.ID, s.Verdict, s.Detail)
		}
	}
	if one.Status != two.Status || one.SelfCheck.Status != two.SelfCheck.Status || len(one.Target.Cards) != len(two.Target.Cards) {
		t.Errorf("status %s/%s, self-check %s/%s, cards %d/%d", one.Status, two.Status, one.SelfCheck.Status, two.SelfCheck.Status, len(one.Target.Cards), len(two.Target.Cards))
	}
	rep, err := evidence.VerifyBundle(filepath.Join(dir, "jobs2", "bundle.json"), evidence.VerifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range rep.Problems() {
		if !strings.HasPrefix(p, "catalog: ") {
			t.Errorf("split bundle: %s", p)
		}
	}
}

// The parts are about equal in cost, each document in exactly one, rows with their documents; one document (or
// one job) is not split.
func TestPlanParts(t *testing.T) {
	parts := planParts(nil, nil, 2)
	if len(parts) != 2 {
		t.Fatalf("parts %v", parts)
	}
	var all []string
	for _, p := range parts {
		all = append(all, p...)
	}
	slices.Sort(all)
	var want []string
	for _, d := range catalog.Documents {
		want = append(want, d.ID)
	}
	slices.Sort(want)
	if !slices.Equal(all, want) {
		t.Errorf("documents %v, want each of %v once", all, want)
	}
	if !slices.Contains(parts[0], "schema-interface") || len(parts[0]) > 2 {
		t.Errorf("the costliest document shares its part with at most one other: %v", parts)
	}
	if p := planParts([]string{"terms"}, nil, 2); p != nil {
		t.Errorf("one document split: %v", p)
	}
	if p := planParts(nil, nil, 1); p != nil {
		t.Errorf("--jobs 1 split: %v", p)
	}
	if p := planParts([]string{"terms", "interview"}, []string{"TE-3.3b"}, 2); p != nil {
		t.Errorf("rows of one document split across parts: %v", p)
	}
}
