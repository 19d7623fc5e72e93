package harness_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/onsi/gomega"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/target"
)

// fixtureSuite exercises every outcome the engine must tell apart, on real terms rows (the rows' content does
// not matter here, only that the catalog knows them).
func fixtureSuite() harness.Suite {
	return harness.Suite{
		Document:   "terms",
		Applicable: func(context.Context, *harness.Env) (bool, string) { return true, "" },
		Register: func(e *harness.Env) {
			harness.Spec(e, "TE-3.1", "passes with one assertion", func(w *harness.W) {
				w.Check(true, "true", "true", nil)
			})
			harness.Spec(e, "TE-3.2a", "asserts nothing", func(w *harness.W) {})
			harness.Spec(e, "TE-3.2b", "fails", func(w *harness.W) {
				w.Check(false, "a data-only entry", "required: true", nil)
			})
			harness.Spec(e, "TE-3.3a", "is blocked", func(w *harness.W) {
				w.Blocked("no second principal configured")
			})
			harness.Spec(e, "TE-3.3b", "is inapplicable", func(w *harness.W) {
				w.Inapplicable("the card declares no proposals")
			})
			harness.Spec(e, "TE-3.3c", "negative without control", func(w *harness.W) {
				w.Negative(true, "refused", "refused", nil)
			})
			harness.Spec(e, "TE-3.3d", "negative after control", func(w *harness.W) {
				w.Control(true, "the valid call succeeds", "200", nil)
				w.Negative(true, "refused", "refused", nil)
			})
			harness.Spec(e, "TE-3.3e", "a failed positive control blocks", func(w *harness.W) {
				w.Control(false, "the valid call succeeds", "HTTP 503", nil)
				w.Negative(true, "refused", "refused", nil)
			})
			harness.Spec(e, "TE-3.4b", "the operator declares the feature absent", func(w *harness.W) {
				w.Absent("no proposals are published (documents.terms.proposals: none)")
			})
			harness.Spec(e, "TE-3.4a", "fails through a matcher", func(w *harness.W) {
				w.Check(true, "x", "x", nil)
				w.Expect(2, gomega.Equal(3), "the digest matches", nil)
			})
		},
	}
}

func TestRunVerdicts(t *testing.T) {
	tgt := &target.Target{Kind: target.KindMock, Agents: map[string]string{"": "http://127.0.0.1:1/.well-known/agent-card.json"}}
	res, err := harness.Run(context.Background(), tgt, harness.Options{Suites: []harness.Suite{fixtureSuite()}, Documents: []string{"terms"}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]harness.RowVerdict{}
	for _, r := range res.Rows {
		got[r.ID] = r
	}
	want := map[string]string{
		"TE-3.1":  harness.ExecutedPass,
		"TE-3.2a": harness.NotTested,
		"TE-3.2b": harness.ExecutedFail,
		"TE-3.3a": harness.Blocked,
		"TE-3.3b": harness.Inapplicable,
		"TE-3.3c": harness.ExecutedFail,
		"TE-3.3d": harness.ExecutedPass,
		"TE-3.3e": harness.Blocked, // never executed-fail: the control shows the test could not be made
		"TE-3.4a": harness.ExecutedFail,
		"TE-3.4b": harness.Inapplicable,
		"TE-3.5a": harness.NotTested, // no spec at all
	}
	for id, v := range want {
		if got[id].Verdict != v {
			t.Errorf("%s: verdict %s (%s), want %s", id, got[id].Verdict, got[id].Detail, v)
		}
	}
	if got["TE-3.1"].Assertions != 1 {
		t.Errorf("TE-3.1 assertions = %d, want 1", got["TE-3.1"].Assertions)
	}
	musts := map[string][]string{
		"TE-3.2a": {"without executing an assertion"},
		"TE-3.2b": {"[TE-3.2b]", "expected: a data-only entry", "observed: required: true", "spec text:"},
		"TE-3.3a": {"no second principal configured"},
		"TE-3.3b": {"the card declares no proposals"},
		"TE-3.3c": {"harness defect", "without a positive control"},
		"TE-3.4a": {"[TE-3.4a]", "Expected"},
		"TE-3.3e": {"positive control failed: the valid call succeeds — HTTP 503"},
		"TE-3.4b": {"the operator declares: no proposals are published"},
	}
	for id, subs := range musts {
		for _, s := range subs {
			if !strings.Contains(got[id].Detail, s) {
				t.Errorf("%s detail %q lacks %q", id, got[id].Detail, s)
			}
		}
	}
	// Unselected documents are skipped, never passed.
	for _, r := range res.Rows {
		if r.Document != "terms" && r.Verdict != harness.Skipped {
			t.Errorf("%s of unselected %s: %s", r.ID, r.Document, r.Verdict)
		}
	}
	if harness.Passed(res.Rows) {
		t.Error("a run with failing, blocked and not-tested rows reads as passed")
	}

	// A second run in the same process works (falsification relies on it), and --req narrows the run.
	res2, err := harness.Run(context.Background(), tgt, harness.Options{Suites: []harness.Suite{fixtureSuite()}, Rows: []string{"TE-3.1"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res2.Rows {
		want := harness.Skipped
		if r.ID == "TE-3.1" {
			want = harness.ExecutedPass
		}
		if r.Verdict != want {
			t.Errorf("second run: %s = %s, want %s", r.ID, r.Verdict, want)
		}
	}
}

func TestRunRejectsUnlabelledSpec(t *testing.T) {
	bad := harness.Suite{Document: "terms", Register: func(e *harness.Env) {
		harness.Spec(e, "", "has no row", func(w *harness.W) {})
		harness.Spec(e, "TE-99.9", "unknown row", func(w *harness.W) {})
	}}
	tgt := &target.Target{Kind: target.KindURL, Agents: map[string]string{}}
	_, err := harness.Run(context.Background(), tgt, harness.Options{Suites: []harness.Suite{bad}})
	if err == nil || !strings.Contains(err.Error(), "carries no row label") || !strings.Contains(err.Error(), "unknown row \"TE-99.9\"") {
		t.Fatalf("err = %v, want both defects named", err)
	}
}

// An interrupted run never reads executed-fail: the spec cut short and the specs never started read not-tested
// "interrupted", and the status says interrupted.
func TestRunInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := make(chan struct{})
	suite := harness.Suite{
		Document:   "terms",
		Applicable: func(context.Context, *harness.Env) (bool, string) { return true, "" },
		Register: func(e *harness.Env) {
			harness.Spec(e, "TE-3.1", "waits until the run is interrupted", func(w *harness.W) {
				close(started)
				<-w.Ctx().Done() // as an exchange in flight would end
				w.Check(false, "an answer", w.Ctx().Err().Error(), nil)
			})
			for _, id := range []string{"TE-3.2a", "TE-3.2b", "TE-3.3a"} {
				harness.Spec(e, id, "would pass", func(w *harness.W) { w.Check(true, "x", "x", nil) })
			}
		},
	}
	go func() {
		select {
		case <-started:
			cancel()
		case <-time.After(time.Minute):
		}
	}()
	tgt := &target.Target{Kind: target.KindMock, Agents: map[string]string{"": "http://127.0.0.1:1/.well-known/agent-card.json"}}
	done := make(chan *harness.Result, 1)
	go func() {
		res, err := harness.Run(ctx, tgt, harness.Options{Suites: []harness.Suite{suite}, Documents: []string{"terms"}, Seed: 1})
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	var res *harness.Result
	select {
	case res = <-done:
	case <-time.After(2 * time.Minute):
		t.Fatal("the interrupted run did not end")
	}
	if res == nil {
		t.FailNow()
	}
	if !res.Interrupted {
		t.Error("Result.Interrupted is false")
	}
	for _, r := range res.Rows {
		if r.Verdict == harness.ExecutedFail {
			t.Errorf("%s: executed-fail in an interrupted run: %s", r.ID, r.Detail)
		}
	}
	got := map[string]harness.RowVerdict{}
	for _, r := range res.Rows {
		got[r.ID] = r
	}
	if v := got["TE-3.1"]; v.Verdict != harness.NotTested || v.Detail != harness.InterruptedDetail {
		t.Errorf("TE-3.1: %s %q, want not-tested %q", v.Verdict, v.Detail, harness.InterruptedDetail)
	}
	if st, _ := harness.Status(res.Rows); st != harness.StatusInterrupted {
		t.Errorf("status %s, want interrupted", st)
	}
}

func TestStatusSubjects(t *testing.T) {
	rows := []harness.RowVerdict{
		{ID: "a", Verdict: harness.Inapplicable},
		{ID: "b", Verdict: harness.Skipped},
		{ID: "s", Verdict: harness.ExecutedPass, SelfCheck: true},
	}
	if st, why := harness.Status(rows); st != harness.StatusNothingGraded || why == "" {
		t.Errorf("only a self-check passed: status %s (%q), want nothing-graded with a reason", st, why)
	}
	rows = append(rows, harness.RowVerdict{ID: "t", Verdict: harness.ExecutedPass})
	if st, _ := harness.Status(rows); st != harness.StatusPassed {
		t.Errorf("status %s, want passed", st)
	}
	rows[2].Verdict = harness.ExecutedFail
	if st, _ := harness.Status(rows); st != harness.StatusPassed {
		t.Errorf("a failed self-check changed the target's status to %s", st)
	}
	if harness.SelfCheckStatus(rows) != harness.SelfCheckFailed {
		t.Errorf("self-check status %s, want failed", harness.SelfCheckStatus(rows))
	}
	if st, _ := harness.Status(nil); st != harness.StatusNothingGraded {
		t.Errorf("empty selection: %s", st)
	}
}
