package clientcert

import (
	"fmt"
	"sort"
	"strings"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/catalog"
)

// StatusIncomplete is a certification where no row failed but a graded row is blocked or unasserted, or a
// requirement-level (MUST) client row of an action the client implements reads not-tested: the run proves nothing
// about that requirement, so it is not a pass (exit 4).
const StatusIncomplete = harness.StatusIncomplete

// scope are the rows the run's scope status rests on: those a check judged on an answer (a row whose checks found
// no answer to judge reads not-tested and is left out), and every row whose scenario the run never reached.
func scope(rows map[string]*acc) []string {
	var out []string
	for id, a := range rows {
		if a.interrupted || a.verdict != harness.NotTested {
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out
}

// scopeStatus: failed when a scope row failed (executed-fail: a requirement broken); incomplete when none failed
// but one is blocked or unasserted; passed when every scope row passed and there is one; nothing-graded when there
// is none.
func scopeStatus(vs []harness.RowVerdict, scope []string) string {
	in := map[string]bool{}
	for _, id := range scope {
		in[id] = true
	}
	n, incomplete := 0, false
	for _, v := range vs {
		if !in[v.ID] {
			continue
		}
		n++
		switch v.Verdict {
		case harness.ExecutedFail:
			return harness.StatusFailed
		case harness.ExecutedPass:
		default:
			incomplete = true // blocked or unasserted: not a pass, and no requirement broken
		}
	}
	switch {
	case n == 0:
		return harness.StatusNothingGraded
	case incomplete:
		return harness.StatusIncomplete
	}
	return harness.StatusPassed
}

// Untested are the requirement-level rows (MUST, MUST NOT, REQUIRED, SHALL) reading not-tested, each with its
// reason: what keeps a passed scope from being a passed certification. Inapplicable rows (actions the client does
// not implement) are not among them, nor recommendation-level rows.
func Untested(vs []harness.RowVerdict, rows []catalog.Row) []string {
	required := map[string]bool{}
	for _, r := range rows {
		required[r.ID] = !r.Advisory()
	}
	var out []string
	for _, v := range vs {
		if required[v.ID] && v.Verdict == harness.NotTested {
			out = append(out, fmt.Sprintf("%s: %s", v.ID, firstLine(v.Detail)))
		}
	}
	return out
}

// CertStatus is the certification's status from its scope status and its untested requirement rows: a scope that
// passed with a MUST row untested is incomplete, never passed; every other scope status stands.
func CertStatus(scope string, untested []string) string {
	if scope == harness.StatusPassed && len(untested) > 0 {
		return StatusIncomplete
	}
	return scope
}

// writeUntested lists the untested requirement rows under an incomplete status: each names what the client must
// declare or give for it to be graded.
func writeUntested(w interface{ Write([]byte) (int, error) }, r *Result) {
	if r.Status != StatusIncomplete {
		return
	}
	fmt.Fprintf(w, "INCOMPLETE: %d requirement rows read not-tested; declare or give what each names to have it graded:\n  %s\n",
		len(r.Untested), strings.Join(r.Untested, "\n  "))
}
