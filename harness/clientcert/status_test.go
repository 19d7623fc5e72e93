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
