package harness_test

import (
	"strings"
	"testing"

	"github.com/extconf/extconf/harness"
)

// Issue 35, item 1: a run where nothing failed is never failed; blocked or not-tested rows make it incomplete,
// and its reason names each cause once with the rows it stands for.
func TestIncompleteIsItsOwnStatus(t *testing.T) {
	missing := "documents.terms.proposal is missing: the URL of a signed proposal"
	rows := []harness.RowVerdict{
		{ID: "a", Verdict: harness.ExecutedPass, Assertions: 1},
		{ID: "b", Verdict: harness.Blocked, Detail: missing},
		{ID: "c", Verdict: harness.Blocked, Detail: missing + "\nderived: nothing"},
		{ID: "d", Verdict: harness.Blocked, Detail: "the target provides no agent for role \"second\" (set agents.second)"},
		{ID: "e", Verdict: harness.NotTested, Detail: "spec passed without executing an assertion"},
		{ID: "g", Verdict: harness.Blocked, Detail: "positive control failed: the valid call was refused"},
		{ID: "s", Verdict: harness.Blocked, SelfCheck: true, Detail: "self-check blocked"},
		{ID: "v", Verdict: harness.Blocked, Advisory: true, Detail: "advisory blocked"},
	}
	st, why := harness.Status(rows)
	if st != harness.StatusIncomplete {
		t.Fatalf("status %s, want incomplete", st)
	}
	for _, want := range []string{"0 failed, 4 blocked, 1 not tested (", "documents.terms.proposal [2 rows]", "agents.second", "1 more cause(s)"} {
		if !strings.Contains(why, want) {
			t.Errorf("reason %q lacks %q", why, want)
		}
	}
	if strings.Count(why, "documents.terms.proposal") != 1 || strings.Contains(why, "self-check") || strings.Contains(why, "advisory") {
		t.Errorf("reason %q: a shared cause named more than once, or a self-check/advisory row counted", why)
	}
	// Strict: the advisory row's block keeps the run incomplete; its failure fails it.
	if st, _ := harness.StatusOf(rows[:1:1], true); st != harness.StatusPassed {
		t.Errorf("strict pass: %s", st)
	}
	if st, _ := harness.StatusOf([]harness.RowVerdict{rows[0], rows[7]}, true); st != harness.StatusIncomplete {
		t.Errorf("strict with a blocked advisory row: %s, want incomplete", st)
	}
	rows = append(rows, harness.RowVerdict{ID: "f", Verdict: harness.ExecutedFail})
	if st, _ := harness.Status(rows); st != harness.StatusFailed {
		t.Errorf("with an executed-fail row: %s, want failed", st)
	}
	// Only blocked rows, none graded otherwise: incomplete too (blocked rows are graded), never nothing-graded.
	if st, _ := harness.Status([]harness.RowVerdict{{ID: "b", Verdict: harness.Blocked, Detail: missing}}); st != harness.StatusIncomplete {
		t.Errorf("only blocked: %s", st)
	}
}
