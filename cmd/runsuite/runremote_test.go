package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/harness/evidence"
	"github.com/extconf/extconf/mockagents"
	"github.com/extconf/extconf/sabotage"
	"github.com/extconf/extconf/suites"
)

// timingCounts are rows whose assertion count depends on timing even in one process (how often the churning
// card is re-read before it settles): their verdicts are compared, their counts not.
var timingCounts = map[string]bool{"IV-5.2": true}

// A run against the reference agents served as a URL target grades every row the same split across processes
// (--jobs 6: groups of rows, the ordered ones alone) as in one process (--jobs 1): same verdict, same assertion
// and control counts, and the split bundle verifies (one Seq sequence 1…N, every cited exchange present).
func TestRemoteSplitMatchesOneProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every suite twice")
	}
	remoteSplitMatches(t, sabotage.Set{}, exitPass)
}

// A defective agent grades alike too: one that carries out actions it should refer turns on-request's referral
// rows into rows that change the action log and limits (split with them unordered, four rows graded otherwise).
func TestRemoteSplitMatchesOneProcessDefectiveAgent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a suite twice")
	}
	set, err := sabotage.Parse("or.action-for-non-person")
	if err != nil {
		t.Fatal(err)
	}
	remoteSplitMatches(t, set, exitFail, "--suite", "on-request")
}

// remoteSplitMatches runs the reference agents with set as a URL target in one process and split, each run
// against agents of its own (state an agent keeps, such as its limits' window, would carry over otherwise).
func remoteSplitMatches(t *testing.T, set sabotage.Set, want int, args ...string) {
	dir := t.TempDir()
	ca, err := filepath.Abs("../../fixtures/testpki/ca.pem")
	if err != nil {
		t.Fatal(err)
	}
	load := func(jobs string) *evidence.Bundle {
		tgt, err := mockagents.Start(set)
		if err != nil {
			t.Fatal(err)
		}
		defer tgt.Close()
		an, err := tgt.Announce()
		if err != nil {
			t.Fatal(err)
		}
		cfg := *an
		cfg.CAFile = ca
		raw, _ := json.Marshal(cfg)
		cfgFile := filepath.Join(dir, "target"+jobs+".json")
		if err := os.WriteFile(cfgFile, raw, 0o600); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, "jobs"+jobs)
		code, stdout, stderr := runCLI(append([]string{"run", "--seed", "1", "--jobs", jobs, "--target", tgt.Agents["interview"],
			"--config", cfgFile, "--out", out}, args...)...)
		if code != want {
			t.Fatalf("--jobs %s: exit %d\n%s\n%s", jobs, code, stdout, stderr)
		}
		if jobs != "1" && !strings.Contains(stderr, "ordered") {
			t.Fatalf("--jobs %s: the run was not split:\n%s", jobs, stderr)
		}
		b, _, err := evidence.Load(filepath.Join(out, "bundle.json"))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	one, six := load("1"), load("6")
	if len(one.Rows) != len(six.Rows) {
		t.Fatalf("%d rows in one process, %d split", len(one.Rows), len(six.Rows))
	}
	for i, r := range one.Rows {
		s := six.Rows[i]
		if r.ID != s.ID || r.Verdict != s.Verdict || r.SelfCheck != s.SelfCheck {
			t.Errorf("%s: %s in one process, %s %s split (%s)", r.ID, r.Verdict, s.ID, s.Verdict, s.Detail)
		}
		if !timingCounts[r.ID] && (r.Assertions != s.Assertions || r.Controls != s.Controls) {
			t.Errorf("%s: %d assertions, %d controls in one process; %d, %d split", r.ID, r.Assertions, r.Controls, s.Assertions, s.Controls)
		}
	}
	if one.Status != six.Status || one.SelfCheck.Status != six.SelfCheck.Status || six.Target.Kind != "url" ||
		len(one.Target.Cards) != len(six.Target.Cards) {
		t.Errorf("status %s/%s, self-check %s/%s, kind %s, cards %d/%d", one.Status, six.Status, one.SelfCheck.Status,
			six.SelfCheck.Status, six.Target.Kind, len(one.Target.Cards), len(six.Target.Cards))
	}
	rep, err := evidence.VerifyBundle(filepath.Join(dir, "jobs6", "bundle.json"), evidence.VerifyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range rep.Problems() {
		if !strings.HasPrefix(p, "catalog: ") {
			t.Errorf("split bundle: %s", p)
		}
	}
}

// Every row of the selection is in exactly one remote unit; a document's SharedStater rows (all of them, for a
// document that names none) are in its one ordered unit, which carries the document's agents' origins.
func TestPlanRemoteUnits(t *testing.T) {
	tgt, err := mockagents.Start(sabotage.Set{})
	if err != nil {
		t.Fatal(err)
	}
	defer tgt.Close()
	tgt.Kind = "url"
	cat := catalog.MustLoad()
	units := planRemoteUnits(nil, nil, 8, tgt)
	seen := map[string]int{}
	ordered := map[string]int{}
	for _, u := range units {
		if len(u.Documents) != 1 {
			t.Fatalf("unit %v: want one document", u.Documents)
		}
		if u.Ordered {
			ordered[u.Documents[0]]++
			if len(u.Origins) == 0 {
				t.Errorf("ordered unit of %s names no origin", u.Documents[0])
			}
		}
		for _, r := range u.Rows {
			seen[r]++
			row, _ := cat.Row(r)
			if row.Document != u.Documents[0] {
				t.Errorf("row %s in a unit of %s", r, u.Documents[0])
			}
		}
	}
	for _, r := range cat.Rows {
		if seen[r.ID] != 1 {
			t.Errorf("row %s is in %d units", r.ID, seen[r.ID])
		}
	}
	for _, d := range suites.Documents() {
		rows, all := harness.OrderedRows(d)
		if want := min(len(rows), 1); all && ordered[d.ID()] != 1 || !all && ordered[d.ID()] != want {
			t.Errorf("%s: %d ordered units", d.ID(), ordered[d.ID()])
		}
		for id := range rows {
			if r, ok := cat.Row(id); !ok || r.Document != d.ID() || !r.Witnessable() || r.SelfCheck() {
				t.Errorf("%s names %s among its ordered rows: not a witnessable row about its agents", d.ID(), id)
			}
		}
		for _, u := range units {
			if u.Documents[0] != d.ID() || u.Ordered || len(u.Origins) == 0 {
				continue
			}
			for _, r := range u.Rows {
				if row, _ := cat.Row(r); all && row.Witnessable() || rows[r] != "" {
					t.Errorf("ordered row %s of %s in an unordered unit", r, d.ID())
				}
			}
		}
	}
	if planRemoteUnits(nil, nil, 1, tgt) != nil {
		t.Error("--jobs 1 split the run")
	}
}

// The queue never hands out an ordered unit beside a running unit that shares an origin with it (nor another unit
// beside a running ordered one), hands out every unit once, and stops holding units back once the run ends.
func TestUnitQueueKeepsOrderedUnitsAlone(t *testing.T) {
	units := []partPlan{
		{Documents: []string{"a"}, Ordered: true, Origins: []string{"x"}},
		{Documents: []string{"a"}, Origins: []string{"x"}},
		{Documents: []string{"a"}, Origins: []string{"x"}},
		{Documents: []string{"b"}, Origins: []string{"y"}},
		{Documents: []string{"b"}, Ordered: true, Origins: []string{"y", "x"}},
		{Documents: []string{"a"}},
	}
	q, stop := newUnitQueue(context.Background(), units)
	defer stop()
	var mu sync.Mutex
	running := map[int]bool{}
	var handed []int
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i, _, ok := q.pop()
				if !ok {
					return
				}
				mu.Lock()
				for j := range running {
					a, b := units[i], units[j]
					if (a.Ordered || b.Ordered) && overlaps(a.Origins, b.Origins) {
						t.Errorf("unit %d handed out beside unit %d", i, j)
					}
				}
				running[i] = true
				handed = append(handed, i)
				mu.Unlock()
				time.Sleep(5 * time.Millisecond)
				mu.Lock()
				delete(running, i)
				mu.Unlock()
				q.finish(i)
			}
		}()
	}
	wg.Wait()
	slices.Sort(handed)
	if !slices.Equal(handed, []int{0, 1, 2, 3, 4, 5}) {
		t.Errorf("handed out %v", handed)
	}
	ctx, cancel := context.WithCancel(context.Background())
	q, stop2 := newUnitQueue(ctx, units[:2])
	defer stop2()
	if i, _, _ := q.pop(); i != 0 {
		t.Fatalf("first unit %d", i)
	}
	cancel() // unit 0 never finishes: after the run ends, unit 1 is handed out anyway
	if i, _, ok := q.pop(); !ok || i != 1 {
		t.Errorf("after the run ended: %d %v", i, ok)
	}
}
