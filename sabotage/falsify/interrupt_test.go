package falsify_test

import (
	"context"
	"testing"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/mockagents"
	"github.com/extconf/extconf/sabotage"
	"github.com/extconf/extconf/sabotage/falsify"
	"github.com/extconf/extconf/suites"
)

// An interrupted falsification never reports a toggle as survived: the toggle cut short and those never run are
// left out, and the report says it was interrupted.
func TestInterruptedFalsifyReportsNoSurvivor(t *testing.T) {
	var terms []harness.Suite
	for _, s := range suites.All() {
		if s.Document == "terms" {
			terms = append(terms, s)
		}
	}
	var toggles []sabotage.Toggle
	for _, tg := range sabotage.All() {
		if tg.Document == "terms" && len(toggles) < 3 {
			toggles = append(toggles, tg)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	starts := 0
	start := func(set sabotage.Set, docs ...string) (*target.Target, error) {
		starts++
		if starts == 2 { // the first sabotaged run is interrupted as it starts
			cancel()
		}
		return mockagents.Start(set, docs...)
	}
	rep, err := falsify.Run(ctx, start, falsify.Options{Suites: terms, Toggles: toggles, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Interrupted {
		t.Error("the report does not say it was interrupted")
	}
	for _, tr := range rep.Table.Toggles {
		if len(tr.Survived) > 0 {
			t.Errorf("%s reads survived %v after an interruption", tr.ID, tr.Survived)
		}
	}
}
