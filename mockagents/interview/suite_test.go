package interview_test

import (
	"context"
	"testing"

	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/mockagents/interview"
	"github.com/extconf/extconf/sabotage"
	ivsuite "github.com/extconf/extconf/suites/interview"
)

func run(t *testing.T, toggles ...sabotage.ID) map[string]harness.RowVerdict {
	t.Helper()
	return runWith(t, interview.Options{}, toggles...)
}

func runWith(t *testing.T, opt interview.Options, toggles ...sabotage.ID) map[string]harness.RowVerdict {
	t.Helper()
	set := sabotage.MustParse(toggles...)
	roles, cfg, closeFn, err := interview.StartWith(set, opt)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	tgt := &target.Target{Kind: target.KindMock, Agents: roles, RootCAs: testpki.CAPool(), Config: cfg}
	res, err := harness.Run(context.Background(), tgt, harness.Options{Suites: []harness.Suite{ivsuite.Suite()},
		Documents: []string{"interview"}, Sabotage: set, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]harness.RowVerdict{}
	for _, r := range res.Rows {
		if r.Document == "interview" {
			out[r.ID] = r
		}
	}
	return out
}

// TestReferenceRun: against the reference agents every witnessable row passes; the two the model hides stay
// unwitnessable.
func TestReferenceRun(t *testing.T) {
	for id, r := range run(t) {
		want := harness.ExecutedPass
		if id == "IV-4.1b" || id == "IV-6.3b" {
			want = harness.Unwitnessable
		}
		if r.Verdict != want {
			t.Errorf("%s: %s, want %s: %s", id, r.Verdict, want, r.Detail)
		}
	}
}

// TestOneToggleEachSide spot-checks the falsification runner's contract for one agent-side and one client-side
// toggle (the gate in falsify runs them all).
func TestOneToggleEachSide(t *testing.T) {
	for toggle, row := range map[sabotage.ID]string{sabotage.IVValueSummarized: "IV-5.2", sabotage.IVRefusalCountedAsFailure: "IV-9.3"} {
		if v := run(t, toggle)[row]; v.Verdict != harness.ExecutedFail {
			t.Errorf("%s: %s is %s, want executed-fail", toggle, row, v.Verdict)
		}
	}
}
