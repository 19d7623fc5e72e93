package falsify_test

import (
	"context"
	"testing"
	"time"

	"github.com/extconf/extconf/falsify"
	"github.com/extconf/extconf/mockagents"
	"github.com/extconf/extconf/sabotage"
	"github.com/extconf/extconf/suites"
)

// derivedGateToggles is the derived gate's selection, for CI time: every agent toggle of schema-interface (the
// document whose run derives its inputs by probing: valid arguments, degraded skills, authorization cases,
// constraints, limits), and every fourth agent toggle of the other documents as a sample (their derived runs differ
// from the full profile only by the members an operator states anyway). `runsuite falsify --mode derived` runs
// them all.
func derivedGateToggles() []sabotage.Toggle {
	var out []sabotage.Toggle
	n := 0
	for _, t := range falsify.DerivedToggles(nil) {
		if t.Document == "schema-interface" {
			out = append(out, t)
			continue
		}
		if n%4 == 0 {
			out = append(out, t)
		}
		n++
	}
	return out
}

// TestGateDerived is the falsifiability gate in the derived mode (the reference agents as URL targets, each run
// given only the operator facts): no toggle leaves one of its own target rows executed-pass, and every target row
// is killed or abstains naming why; the derived reference run fails no row.
func TestGateDerived(t *testing.T) {
	started := time.Now()
	toggles := derivedGateToggles()
	rep, err := falsify.Run(context.Background(), mockagents.Start, falsify.Options{Suites: suites.All(), Toggles: toggles, NoLatitudes: true, Seed: 1, Mode: falsify.ModeDerived})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.ReferenceFails {
		t.Errorf("derived reference run: %s is %s: %s", r.ID, r.Verdict, r.Detail)
	}
	if len(rep.Derived.Toggles) != len(toggles) {
		t.Errorf("derived table holds %d toggles, %d run", len(rep.Derived.Toggles), len(toggles))
	}
	for _, tr := range rep.Derived.Toggles {
		if len(tr.Survived) > 0 {
			t.Errorf("toggle %s (derived): survived %v, executed-pass %v %s", tr.ID, tr.Survived, tr.Passed, tr.Error)
			for _, a := range tr.Abstained {
				t.Logf("   %s %s: %.300s", a.Row, a.Verdict, a.Detail)
			}
		}
		for _, a := range tr.Abstained {
			if a.Detail == "" {
				t.Errorf("toggle %s (derived): %s is %s naming no reason", tr.ID, a.Row, a.Verdict)
			}
		}
	}
	sv, passed := rep.Derived.DerivedSurvivors()
	t.Logf("derived: %d toggles, %d with a survivor, %d with an executed-pass on a target; %d runs in %s", len(rep.Derived.Toggles), sv, passed, rep.Runs, time.Since(started).Round(time.Millisecond))
}
