package clientcert

import (
	"testing"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/catalog"
)

// A scope that passed with a MUST row not-tested is incomplete; a SHOULD row or an inapplicable one does not make
// it so; a failed scope stays failed; the scope status counts only the scope rows (a not-tested row out of the scope
// never makes it fail: the exit-3 defect, where verify required the not-tested rows to pass).
func TestCertStatus(t *testing.T) {
	rows := []catalog.Row{{ID: "A", Level: "MUST"}, {ID: "B", Level: "MUST"}, {ID: "C", Level: "SHOULD"}, {ID: "D", Level: "MUST"}}
	vs := []harness.RowVerdict{{ID: "A", Verdict: harness.ExecutedPass}, {ID: "B", Verdict: harness.NotTested, Detail: "declare limits.nesting"},
		{ID: "C", Verdict: harness.NotTested}, {ID: "D", Verdict: harness.Inapplicable}}
	acc := map[string]*acc{"A": {verdict: harness.ExecutedPass}, "B": {verdict: harness.NotTested}}
	sc := scope(acc)
	if len(sc) != 1 || sc[0] != "A" {
		t.Fatalf("scope %v: a row whose checks found no answer is out of it", sc)
	}
	st := scopeStatus(vs, sc)
	un := Untested(vs, rows)
	if st != harness.StatusPassed || len(un) != 1 || un[0] != "B: declare limits.nesting" {
		t.Fatalf("scope %s, untested %v", st, un)
	}
	if got := CertStatus(st, un); got != StatusIncomplete {
		t.Errorf("status %s, want incomplete", got)
	}
	if got := CertStatus(st, nil); got != harness.StatusPassed {
		t.Errorf("nothing untested: %s", got)
	}
	vs[0].Verdict = harness.ExecutedFail
	if got := CertStatus(scopeStatus(vs, sc), un); got != harness.StatusFailed {
		t.Errorf("a failed scope row: %s", got)
	}
	if got := scopeStatus(vs, nil); got != harness.StatusNothingGraded {
		t.Errorf("empty scope: %s", got)
	}
}

// Issue 35, item 1: a client certification fails only on an executed-fail; a graded row left blocked or not
// tested makes it incomplete, never passed.
func TestScopeStatusIncomplete(t *testing.T) {
	graded := []string{"a", "b"}
	vs := []harness.RowVerdict{{ID: "a", Verdict: harness.ExecutedPass}, {ID: "b", Verdict: harness.NotTested}, {ID: "c", Verdict: harness.ExecutedFail}}
	if got := scopeStatus(vs, graded); got != harness.StatusIncomplete {
		t.Errorf("a not-tested scope row: %s, want incomplete", got)
	}
	vs[1].Verdict = harness.Blocked
	if got := scopeStatus(vs, graded); got != harness.StatusIncomplete {
		t.Errorf("a blocked scope row: %s, want incomplete", got)
	}
	vs[1].Verdict = harness.ExecutedFail
	if got := scopeStatus(vs, graded); got != harness.StatusFailed {
		t.Errorf("a failed scope row: %s, want failed", got)
	}
	vs[1].Verdict = harness.ExecutedPass
	if got := scopeStatus(vs, graded); got != harness.StatusPassed {
		t.Errorf("every scope row passed: %s", got)
	}
	if got := scopeStatus(vs, nil); got != harness.StatusNothingGraded {
		t.Errorf("no scope row: %s", got)
	}
}
