package interview_test

import (
	"strings"
	"testing"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/mockagents/interview"
	"github.com/extconf/extconf/sabotage"
)

// TestLatitudes runs the interview suite with each latitude option of the reference agents on: no row may be
// executed-fail or not-tested (nor blocked: the reference agents leave nothing blocked). skill-id-instructions is also the regression of #17's IV-6.3a echo check, which read
// the word "instructions" anywhere in a refusal (here: a declared skill id) as an echo of the injection probe.
func TestLatitudes(t *testing.T) {
	for name := range interview.OptionNames {
		t.Run(name, func(t *testing.T) {
			opt, err := interview.ParseOptions(name)
			if err != nil {
				t.Fatal(err)
			}
			for id, v := range runWith(t, opt) {
				if v.Verdict == harness.ExecutedFail || v.Verdict == harness.NotTested || v.Verdict == harness.Blocked {
					t.Errorf("%s: %s is %s: %s", name, id, v.Verdict, firstLine(v.Detail))
				}
			}
		})
	}
}

// TestContentToggles: every toggle of the content and activation rows added for #17 kills its targets.
func TestContentToggles(t *testing.T) {
	if testing.Short() {
		t.Skip("the falsification gate runs every toggle")
	}
	for _, id := range []string{"iv.answers-without-activation", "iv.no-extensions-echo", "iv.identity-omits-version",
		"iv.capabilities-omits-skill", "iv.usage-omits-interfaces", "iv.terms-declared-false", "iv.refusals-omits-skill",
		"iv.answers-empty", "iv.question-mislabelled"} {
		tg, _ := sabotage.Lookup(id)
		got := run(t, sabotage.ID(id))
		for _, row := range tg.Targets {
			if got[row].Verdict != harness.ExecutedFail {
				t.Errorf("%s: %s is %s: %s", id, row, got[row].Verdict, firstLine(got[row].Detail))
			}
		}
	}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
