package onrequest_test

import (
	"net/url"
	"sort"
	"strings"
	"testing"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/harness/harnesstest"
	"github.com/extconf/extconf/harness/target"
	mock "github.com/extconf/extconf/mockagents/onrequest"
	"github.com/extconf/extconf/sabotage"
	"github.com/extconf/extconf/suites/onrequest"
)

// run starts the reference chapel, lets edit change the target (withhold operator input), and runs the suite.
func run(t *testing.T, edit func(*target.Target)) map[string]harness.RowVerdict {
	t.Helper()
	return runWith(t, sabotage.Set{}, edit, nil)
}

func runWith(t *testing.T, set sabotage.Set, edit func(*target.Target), rows []string) map[string]harness.RowVerdict {
	t.Helper()
	out, _ := harnesstest.Run(t, mock.Start, set, edit, "on-request", harness.Options{
		Suites: []harness.Suite{onrequest.Suite()}, Rows: rows, Seed: 1})
	if got, want := len(out), len(catalog.MustLoad().ByDocument("on-request")); got != want && rows == nil {
		t.Fatalf("%d on-request rows in the result, the catalog has %d", got, want)
	}
	return out
}

// Against the reference chapel with its operator input, every row is executed-pass with assertions.
func TestReferenceChapelPassesEveryRow(t *testing.T) {
	for id, r := range run(t, nil) {
		if r.Verdict != harness.ExecutedPass || r.Assertions == 0 {
			t.Errorf("%s: %s (%d assertions): %s", id, r.Verdict, r.Assertions, r.Detail)
		}
	}
}

// A URL target that says nothing of the operator (no statement, no acting-for convention, no calling assistants,
// no extra agents) gets every row that needs that input blocked, with what to supply; nothing it needs passes.
func TestWithoutOperatorInputRowsAreBlocked(t *testing.T) {
	rows := run(t, func(tgt *target.Target) {
		tgt.Kind = target.KindURL
		tgt.Agents = map[string]string{"on-request": tgt.Agents["on-request"]}
		tgt.Config = target.Config{}
	})
	blocked := map[string]string{
		"OR-3.4d": "operator must state", "OR-3.6": "consent", "OR-3.9": "no value given on request",
		"OR-5.1": "consent", "OR-5.3a": "actingFor",
		"OR-5.7a": "consent", "OR-5.7b": "consent", "OR-5.7c": "attestation", "OR-5.7d": "consent",
		"OR-5.7e": "consent", "OR-5.7f": "consent", "OR-5.7g": "consent", "OR-5.7h": "consent", "OR-5.8a": "consent",
		"OR-5.10": "staffReachable", "OR-6.1b": "consent", "OR-6.1c": "actingFor", "OR-6.1d": "consent",
		"OR-6.1e": "consent", "OR-6.1f": "consent", "OR-6.2": "consent",
	}
	var ids []string
	for id := range rows {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		r := rows[id]
		if want, ok := blocked[id]; ok {
			if r.Verdict != harness.Blocked || !strings.Contains(r.Detail, want) {
				t.Errorf("%s: %s (%s), want blocked naming %q", id, r.Verdict, r.Detail, want)
			}
			continue
		}
		if r.Verdict != harness.ExecutedPass {
			t.Errorf("%s: %s (%s), want executed-pass (it needs no operator input)", id, r.Verdict, r.Detail)
		}
	}
	var all []harness.RowVerdict
	for _, r := range rows {
		all = append(all, r)
	}
	if harness.Passed(all) {
		t.Error("a run with blocked rows reads as passed")
	}
}

// OR-3.9 reads what the agent gives on opt-in as values given on request: with a statement that names no values,
// a skill example carrying the opted-in price still fails the row, and the reference chapel still passes it.
func TestSkillTextCheckedAgainstWhatIsGivenOnOptIn(t *testing.T) {
	noValues := func(tgt *target.Target) {
		tgt.Agents["on-request.operator"] = "data:application/json," + url.PathEscape(`{"consentToActions": true}`)
	}
	if r := runWith(t, sabotage.Set{}, noValues, []string{"OR-3.9"})["OR-3.9"]; r.Verdict != harness.ExecutedPass {
		t.Errorf("reference chapel, no stated values: %s (%s)", r.Verdict, r.Detail)
	}
	r := runWith(t, sabotage.MustParse(sabotage.ORSkillTextLeaksOptInValue), noValues, []string{"OR-3.9"})["OR-3.9"]
	if r.Verdict != harness.ExecutedFail || !strings.Contains(r.Detail, "GBP 2,400") {
		t.Errorf("opted-in price in a skill example, no stated values: %s (%s)", r.Verdict, r.Detail)
	}
}
