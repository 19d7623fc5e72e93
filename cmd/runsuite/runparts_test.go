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

// Every selected row is in exactly one unit (a whole document, or its rows), and what cannot be shared (one unit,
// one job, less work than a child's start) is not split.
func TestPlanUnits(t *testing.T) {
	cat := catalog.MustLoad()
	owned := func(units []partPlan, id string) int {
		r, _ := cat.Row(id)
		n := 0
		for _, u := range units {
			if slices.Contains(u.Rows, id) || (u.Rows == nil && slices.Contains(u.Documents, r.Document)) {
				n++
			}
		}
		return n
	}
	for _, c := range []struct {
		docs, rows []string
	}{{nil, nil}, {[]string{"schema-interface"}, nil}, {[]string{"schema-interface", "terms"}, nil}} {
		units := planUnits(c.docs, c.rows, 2)
		if len(units) < 2 {
			t.Fatalf("%v %v: %d units, want at least 2", c.docs, c.rows, len(units))
		}
		for _, r := range cat.Rows {
			sel := (len(c.docs) == 0 || slices.Contains(c.docs, r.Document)) && (len(c.rows) == 0 || slices.Contains(c.rows, r.ID))
			if n := owned(units, r.ID); sel && n != 1 {
				t.Errorf("%v %v: %s is in %d units, want 1", c.docs, c.rows, r.ID, n)
			}
		}
	}
	if u := planUnits(nil, nil, 2); !slices.Contains(u[0].Documents, "schema-interface") {
		t.Errorf("the costliest unit first: %v", u[0])
	}
	if u := planUnits([]string{"terms"}, nil, 2); u != nil {
		t.Errorf("one document split: %v", u)
	}
	if u := planUnits(nil, nil, 1); u != nil {
		t.Errorf("--jobs 1 split: %v", u)
	}
	if u := planUnits(nil, []string{"SI-2.1b", "SI-12.9a", "TE-3.3b"}, 2); u != nil {
		t.Errorf("three rows split (a child costs more than they do): %v", u)
	}
}
