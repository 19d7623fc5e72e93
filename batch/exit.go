package batch

import (
	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/evidence"
)

// The CLI's exit statuses (cmd/runsuite), which an index entry and a batch report.
const (
	ExitPass        = 0   // the target passed
	ExitFail        = 1   // a row about the target failed, is blocked or was not tested
	ExitUsage       = 2   // usage or configuration error
	ExitDefect      = 3   // harness defect: a self-check failed, or a bundle is missing or does not verify
	ExitIncomplete  = 4   // nothing graded, or the run is incomplete
	ExitInterrupted = 130 // interrupted
)

// StatusIncomplete is the run status a certification that could not finish reports (exit 4); older bundles say
// nothing-graded for the same outcome.
const StatusIncomplete = "incomplete"

// Entry statuses that are not a bundle's own.
const (
	StatusMissing    = "missing"    // the directory holds no bundle.json
	StatusUnverified = "unverified" // the bundle does not pass offline verification
)

// severity orders outcomes for Worst: a pass, then an incomplete certification, an interrupted run, a failed
// target, a usage error, and a harness defect (the harness, or the bundle, cannot be trusted).
var severity = map[int]int{ExitPass: 0, ExitIncomplete: 1, ExitInterrupted: 2, ExitFail: 3, ExitUsage: 4, ExitDefect: 5}

// Worst is the more severe of two exit statuses; an unknown status counts as a harness defect.
func Worst(a, b int) int {
	sa, ok := severity[a]
	if !ok {
		a, sa = ExitDefect, severity[ExitDefect]
	}
	sb, ok := severity[b]
	if !ok {
		b, sb = ExitDefect, severity[ExitDefect]
	}
	if sb > sa {
		return b
	}
	return a
}

// ExitOf is the exit status a verified bundle stands for (the one `runsuite run` exits with for it).
func ExitOf(b *evidence.Bundle) int {
	if b.SelfCheck.Status == harness.SelfCheckFailed {
		return ExitDefect
	}
	switch b.Status {
	case harness.StatusPassed:
		return ExitPass
	case harness.StatusFailed:
		return ExitFail
	case harness.StatusNothingGraded, StatusIncomplete:
		return ExitIncomplete
	case harness.StatusInterrupted:
		return ExitInterrupted
	}
	return ExitDefect // a status this harness does not know
}
