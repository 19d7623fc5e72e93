package harness

import "testing"

// An advisory (SHOULD-level) finding is reported but does not fail the target's status; a strict run fails on it;
// a requirement row's failure fails either way; self-checks never enter it.
func TestAdvisoryFindingsFailOnlyWhenStrict(t *testing.T) {
	must := RowVerdict{ID: "TE-1", Document: "terms", Verdict: ExecutedPass, Assertions: 1}
	should := RowVerdict{ID: "TE-2", Document: "terms", Advisory: true, Verdict: ExecutedFail, Detail: "did not"}
	rows := []RowVerdict{must, should}
	if got := AdvisoryFindings(rows); len(got) != 1 || got[0].ID != "TE-2" {
		t.Fatalf("AdvisoryFindings = %+v", got)
	}
	if len(RequiredRows(rows)) != 1 || len(AdvisoryRows(rows)) != 1 {
		t.Fatalf("RequiredRows/AdvisoryRows split wrongly")
	}
	if s, _ := Status(rows); s != StatusPassed {
		t.Errorf("not strict: status %s, want passed (the finding is advisory)", s)
	}
	if s, why := StatusOf(rows, true); s != StatusFailed || why == "" {
		t.Errorf("strict: status %s (%q), want failed with a reason", s, why)
	}
	must.Verdict = ExecutedFail
	if s, _ := StatusOf([]RowVerdict{must, should}, false); s != StatusFailed {
		t.Errorf("a failing requirement row: status %s, want failed", s)
	}
	// Only advisory rows graded, all passing: graded, passed.
	should.Verdict, should.Assertions = ExecutedPass, 1
	if s, _ := StatusOf([]RowVerdict{should}, true); s != StatusPassed {
		t.Errorf("a passing advisory row alone: %s, want passed", s)
	}
}
