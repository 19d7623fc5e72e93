package terms_test

import (
	"context"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/mockagents/terms"
	"github.com/extconf/extconf/sabotage"
	termssuite "github.com/extconf/extconf/suites/terms"
)

func run(t *testing.T, set sabotage.Set) map[string]harness.RowVerdict {
	t.Helper()
	return runWith(t, set, terms.Options{})
}

func runWith(t *testing.T, set sabotage.Set, opt terms.Options) map[string]harness.RowVerdict {
	t.Helper()
	roles, cfg, closeFn, err := terms.StartWith(set, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	tgt := &target.Target{Kind: target.KindMock, Agents: roles, RootCAs: testpki.CAPool(), Config: cfg, Sabotage: set.IDs()}
	res, err := harness.Run(context.Background(), tgt, harness.Options{Suites: []harness.Suite{termssuite.Suite()},
		Documents: []string{"terms"}, Sabotage: set, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]harness.RowVerdict{}
	for _, r := range res.Rows {
		if r.Document == "terms" {
			out[r.ID] = r
		}
	}
	return out
}

// TestReferenceAndToggles is the terms part of the falsification gate, runnable alone: every row passes against
// the reference agent, and every terms toggle fails each of its targets.
func TestReferenceAndToggles(t *testing.T) {
	start := time.Now()
	ref := run(t, sabotage.Set{})
	t.Logf("reference run: %s", time.Since(start))
	for id, v := range ref {
		if v.Verdict != harness.ExecutedPass && v.Verdict != harness.Unwitnessable {
			t.Errorf("reference: %s is %s: %s", id, v.Verdict, v.Detail)
		}
	}
	if testing.Short() {
		return // the toggle matrix also runs in falsify's gate
	}
	for _, tg := range sabotage.All() {
		if tg.Document != "terms" {
			continue
		}
		set := sabotage.MustParse(tg.ID)
		got := run(t, set)
		for _, id := range tg.Targets {
			if got[id].Verdict != harness.ExecutedFail {
				t.Errorf("toggle %s: target %s is %s (%s)", tg.ID, id, got[id].Verdict, firstLine(got[id].Detail))
			}
		}
		var coll []string
		for id, v := range got {
			if v.Verdict != ref[id].Verdict && !contains(tg.Targets, id) {
				coll = append(coll, id+"="+v.Verdict)
			}
		}
		sort.Strings(coll)
		if len(coll) > 0 {
			t.Logf("toggle %s: collateral %v", tg.ID, coll)
		}
	}
	t.Logf("total: %s", time.Since(start))
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}
