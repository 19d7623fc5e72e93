package harness

import (
	"fmt"
	"slices"
	"strings"
)

// Run statuses: what the rows about the target add up to (Status), and what the harness's self-checks add up to
// (SelfCheckStatus).
const (
	StatusPassed        = "passed"         // every graded target row passed, none blocked, at least one graded
	StatusFailed        = "failed"         // a target row failed (executed-fail): a requirement is broken
	StatusIncomplete    = "incomplete"     // no target row failed, but some are blocked or were not tested
	StatusNothingGraded = "nothing-graded" // no row about the target was graded: that is not a pass
	StatusInterrupted   = "interrupted"    // the run was stopped before every row finished

	SelfCheckPassed     = "passed"     // every graded self-check passed
	SelfCheckFailed     = "failed"     // a self-check failed: a harness defect
	SelfCheckIncomplete = "incomplete" // a self-check was blocked or not finished, none failed
	SelfCheckNone       = "none"       // no self-check row was graded
)

// InterruptedDetail is the detail of a row whose spec had not finished when the run was interrupted.
const InterruptedDetail = "interrupted"

// TargetRows are the rows about the target; SelfCheckRows the rows about the harness.
func TargetRows(rows []RowVerdict) []RowVerdict {
	var out []RowVerdict
	for _, r := range rows {
		if !r.SelfCheck {
			out = append(out, r)
		}
	}
	return out
}

// RequiredRows are the rows about the target at a requirement level (MUST, MUST NOT, REQUIRED, SHALL): the rows
// that decide the run.
func RequiredRows(rows []RowVerdict) []RowVerdict {
	var out []RowVerdict
	for _, r := range rows {
		if !r.SelfCheck && !r.Advisory {
			out = append(out, r)
		}
	}
	return out
}

// AdvisoryRows are the rows about the target at a recommendation level (SHOULD, SHOULD NOT, RECOMMENDED): graded
// like any other, reported apart, deciding the run only when it is strict.
func AdvisoryRows(rows []RowVerdict) []RowVerdict {
	var out []RowVerdict
	for _, r := range rows {
		if !r.SelfCheck && r.Advisory {
			out = append(out, r)
		}
	}
	return out
}

// AdvisoryFindings are the advisory rows that did not pass: executed-fail, blocked or not-tested. They do not fail
// a run unless it is strict.
func AdvisoryFindings(rows []RowVerdict) []RowVerdict {
	var out []RowVerdict
	for _, r := range AdvisoryRows(rows) {
		if r.Counts() {
			out = append(out, r)
		}
	}
	return out
}

// SelfCheckRows are the rows witnessed by the harness's own reference client.
func SelfCheckRows(rows []RowVerdict) []RowVerdict {
	var out []RowVerdict
	for _, r := range rows {
		if r.SelfCheck {
			out = append(out, r)
		}
	}
	return out
}

// Graded reports whether the row was graded: it ran, or was meant to and could not (pass, fail, blocked,
// not-tested). Inapplicable, unwitnessable and skipped rows are not graded.
func (v RowVerdict) Graded() bool {
	switch v.Verdict {
	case ExecutedPass, ExecutedFail, Blocked, NotTested:
		return true
	}
	return false
}

// Interrupted reports whether the row was left unfinished by an interruption.
func (v RowVerdict) Interrupted() bool {
	return v.Verdict == NotTested && slices.Contains(strings.Split(v.Detail, "\n"), InterruptedDetail)
}

// Status is the target's status from all rows of a run, with the reason when it is not a plain pass or fail.
// Self-check rows never enter it; advisory (SHOULD-level) findings do not fail it: StatusOf(rows, true) is the
// strict status, where they do.
func Status(rows []RowVerdict) (status, reason string) { return StatusOf(rows, false) }

// StatusOf is Status, strict or not. A strict run fails on an advisory finding like on a requirement's; a run
// that is not strict reports advisory findings apart and passes if every requirement row passed. Advisory rows
// count as graded either way.
func StatusOf(rows []RowVerdict, strict bool) (status, reason string) {
	for _, r := range rows {
		if r.Interrupted() {
			return StatusInterrupted, "the run was interrupted before every row finished"
		}
	}
	target := TargetRows(rows)
	deciding := RequiredRows(rows)
	if strict {
		deciding = target
	}
	// Only an executed-fail is a broken requirement; a row that could not be graded (blocked, not tested) leaves
	// the run incomplete, never failed.
	if anyVerdict(deciding, ExecutedFail) {
		if anyVerdict(RequiredRows(rows), ExecutedFail) {
			return StatusFailed, ""
		}
		return StatusFailed, fmt.Sprintf("strict: %d advisory finding(s) on recommendation rows", len(AdvisoryFindings(rows)))
	}
	if !Passed(deciding) {
		return StatusIncomplete, IncompleteReason(deciding)
	}
	graded := 0
	why := map[string]int{}
	for _, r := range target {
		if r.Graded() {
			graded++
		} else {
			why[r.Verdict]++
		}
	}
	if graded == 0 {
		if len(target) == 0 {
			return StatusNothingGraded, "the selection holds no row about the target"
		}
		var parts []string
		for _, v := range VerdictOrder {
			if why[v] > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", why[v], v))
			}
		}
		return StatusNothingGraded, "no row about the target was graded (" + strings.Join(parts, ", ") + ")"
	}
	return StatusPassed, ""
}

func anyVerdict(rows []RowVerdict, verdict string) bool {
	for _, r := range rows {
		if r.Verdict == verdict {
			return true
		}
	}
	return false
}

// SelfCheckStatus is the status of the harness's self-check rows.
func SelfCheckStatus(rows []RowVerdict) string {
	graded, incomplete := 0, false
	for _, r := range SelfCheckRows(rows) {
		switch r.Verdict {
		case ExecutedFail:
			return SelfCheckFailed
		case Blocked, NotTested:
			incomplete = true
		}
		if r.Graded() {
			graded++
		}
	}
	switch {
	case incomplete:
		return SelfCheckIncomplete
	case graded == 0:
		return SelfCheckNone
	}
	return SelfCheckPassed
}
