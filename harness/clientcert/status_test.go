package clientcert

import (
	"testing"

	"github.com/extconf/extconf/harness"
)

// Issue 35, item 1: a client certification fails only on an executed-fail; a graded row left blocked or not
// tested makes it incomplete, never passed.
func TestScopeStatusIncomplete(t *testing.T) {
	graded := map[string]bool{"a": true, "b": true}
	vs := []harness.RowVerdict{{ID: "a", Verdict: harness.ExecutedPass}, {ID: "b", Verdict: harness.NotTested}, {ID: "c", Verdict: harness.ExecutedFail}}
	if got := status(vs, graded); got != harness.StatusIncomplete {
		t.Errorf("a not-tested scope row: %s, want incomplete", got)
	}
	vs[1].Verdict = harness.Blocked
	if got := status(vs, graded); got != harness.StatusIncomplete {
		t.Errorf("a blocked scope row: %s, want incomplete", got)
	}
	vs[1].Verdict = harness.ExecutedFail
	if got := status(vs, graded); got != harness.StatusFailed {
		t.Errorf("a failed scope row: %s, want failed", got)
	}
	vs[1].Verdict = harness.ExecutedPass
	if got := status(vs, graded); got != harness.StatusPassed {
		t.Errorf("every scope row passed: %s", got)
	}
	if got := status(vs, map[string]bool{}); got != harness.StatusNothingGraded {
		t.Errorf("no scope row: %s", got)
	}
}
