package falsify_test

import (
	"context"
	"testing"

	"github.com/extconf/extconf/falsify"
	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/mockagents"
	"github.com/extconf/extconf/sabotage"
	"github.com/extconf/extconf/suites"
)

// An interrupted falsification never reports a toggle as survived: the toggle cut short and those never run are
// left out, and the report says it was interrupted.
func TestInterruptedFalsifyReportsNoSurvivor(t *testing.T) {
	terms, toggles := termsAndThreeToggles()
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

// A latitude run cut short by an interruption is left out too: its rows read not-tested, which must not read as
// the latitude failing.
func TestInterruptedLatitudeLeftOut(t *testing.T) {
	lats := sabotage.Latitudes()
	if len(lats) < 2 {
		t.Skip("fewer than two latitudes")
	}
	chosen := suites.All() // some latitudes apply to every document
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	starts := 0
	start := func(set sabotage.Set, docs ...string) (*target.Target, error) {
		starts++
		if starts == 3 { // reference, first latitude, then the second latitude is interrupted as it starts
			cancel()
		}
		return mockagents.Start(set, docs...)
	}
	rep, err := falsify.Run(ctx, start, falsify.Options{Suites: chosen, NoToggles: true, Latitudes: lats[:2], Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Interrupted {
		t.Error("the report does not say it was interrupted")
	}
	if len(rep.Table.Latitudes) != 1 || rep.Table.Latitudes[0].ID != string(lats[0].ID) {
		t.Errorf("latitudes in the table: %+v; want only %s, the one that finished", rep.Table.Latitudes, lats[0].ID)
	}
}

// termsAndThreeToggles is a small matrix for tests about how falsification ends: the terms suites and three of
// their toggles.
func termsAndThreeToggles() ([]harness.Suite, []sabotage.Toggle) {
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
	return terms, toggles
}
