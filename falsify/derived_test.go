package falsify_test

import (
	"context"
	"testing"
	"time"

	"github.com/extconf/extconf/falsify"
	"github.com/extconf/extconf/mockagents"
	"github.com/extconf/extconf/suites"
)

// TestGateDerived is the falsifiability gate in the derived mode (the reference agents as URL targets, each run
// given only the operator facts): no toggle leaves one of its own target rows executed-pass, and every target row
// is killed or abstains naming why.
func TestGateDerived(t *testing.T) {
	started := time.Now()
	rep, err := falsify.Run(context.Background(), mockagents.Start, falsify.Options{Suites: suites.All(), Seed: 1, Mode: falsify.ModeDerived})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rep.ReferenceFails {
		t.Errorf("derived reference run: %s is %s: %s", r.ID, r.Verdict, r.Detail)
	}
	for _, tr := range rep.Derived.Toggles {
		if len(tr.Survived) > 0 {
			t.Errorf("toggle %s (derived): survived %v passed %v %s", tr.ID, tr.Survived, tr.Passed, tr.Error)
			for _, a := range tr.Abstained {
				t.Logf("   %s %s: %.200s", a.Row, a.Verdict, a.Detail)
			}
		}
	}
	sv, passed := rep.Derived.DerivedSurvivors()
	t.Logf("derived: %d toggles, %d with a survivor, %d with an executed-pass on a target; %d runs in %s", len(rep.Derived.Toggles), sv, passed, rep.Runs, time.Since(started))
}
