package schemaiface_test

import (
	"github.com/extconf/extconf/harness/harnesstest"
	mock "github.com/extconf/extconf/mockagents/schemaiface"
	"slices"
	"strings"
	"testing"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/sabotage"
	"github.com/extconf/extconf/suites/schemaiface"
)

// credentialsOnly makes the target a URL target configured with the two principals and nothing else.
func credentialsOnly(tgt *target.Target) {
	tgt.Kind = target.KindURL
	tgt.Config = target.Config{Principals: tgt.Config.Principals}
}

// Issue #18, done-when: against the reference agent as a URL target with only the credentials, at most 20 agent
// rows are blocked, each naming the member it lacks, none fails, and rows resting on a derived input say so.
func TestCredentialsOnlyDerivesTheRest(t *testing.T) {
	rows, _ := run(t, sabotage.Set{}, credentialsOnly)
	blocked := 0
	for id := range agentRows() {
		r := rows[id]
		switch r.Verdict {
		case harness.ExecutedFail, harness.NotTested:
			t.Errorf("%s: %s: %s", id, r.Verdict, r.Detail)
		case harness.Blocked:
			if !strings.Contains(r.Detail, "documents.schema-interface.") || !strings.Contains(r.Detail, " is missing: ") {
				t.Errorf("%s: blocked without naming a member: %s", id, r.Detail)
			}
			blocked++
		}
	}
	// 20 before #36 and #40: SI-10.1 blocks on failedInitSkill, which only the operator knows (#40); #36 blocks SI-9.54a/b (no retired binding is derivable), SI-8.3 (the execute mode is never
	// probed), SI-8.10a/b (derived constraints are read from input_schema itself) and SI-9.37b (no side effect to
	// read without the operator's case).
	if blocked > 27 {
		t.Errorf("%d agent rows blocked with only credentials, want at most 27", blocked)
	}
	for id, member := range map[string]string{"SI-9.37b": "inputSideEffect", "SI-8.3": "authorization.modes.execute", "SI-8.10a": "constraints", "SI-8.10b": "constraints", "SI-9.54a": "staleBinding", "SI-9.54b": "staleBinding"} {
		if r := rows[id]; r.Verdict != harness.Blocked || !strings.Contains(r.Detail, "documents.schema-interface."+member+" is missing") {
			t.Errorf("%s: %s (%s), want blocked naming %s", id, r.Verdict, r.Detail, member)
		}
	}
	for id, want := range map[string]string{
		"SI-4.1a":  "arguments.evaluate_resource_condition derived: the draft's worked example",
		"SI-8.7b":  "authorization.skill derived: A completed evaluate_resource_condition",
		"SI-8.7e":  "authorization.constraint derived",
		"SI-9.67a": "constraints derived",
		"SI-12.2h": "limits derived",
		"SI-9.27":  "unavailableSkill derived",
		"SI-9.28":  "corruptSkill derived",
		// no execute-mode skill has arguments (none is derived): the row takes the recommend_only skill
		"SI-6.5a": "graded on propose_remediation (authority.default_mode recommend_only",
	} {
		if r := rows[id]; r.Verdict != harness.ExecutedPass || !strings.Contains(r.Detail, want) {
			t.Errorf("%s: %s, detail %q, want executed-pass naming %q", id, r.Verdict, r.Detail, want)
		}
	}
	t.Logf("%d agent rows blocked with only credentials", blocked)
}

// derivedRowsBlocked runs with only credentials against the agent with toggle on and wants each row blocked naming
// member: the probe that would derive it is answered ambiguously, so nothing is derived and nothing fails.
func derivedRowsBlocked(t *testing.T, toggle sabotage.ID, member string, rows ...string) {
	t.Helper()
	got, _ := run(t, sabotage.MustParse(toggle), credentialsOnly)
	for _, id := range rows {
		r := got[id]
		if r.Verdict != harness.Blocked || !strings.Contains(r.Detail, "documents.schema-interface."+member+" is missing") {
			t.Errorf("%s: %s (%s), want blocked naming %s", id, r.Verdict, r.Detail, member)
		}
	}
}

// Principal B is permitted every skill: no request A may make and B may not shows, nothing is derived.
func TestDeriveAuthorizationSkillNotWhenBIsPermitted(t *testing.T) {
	derivedRowsBlocked(t, sabotage.SIAuthzSkillUnchecked, "authorization.skill", "SI-8.7b", "SI-12.5b", "SI-12.7a", "SI-12.7b", "SI-12.8b", "SI-9.50d")
	derivedRowsBlocked(t, sabotage.SIAuthzSkillUnchecked, "authorization.modes", "SI-8.3")
}

// Principal B may demand any freshness: no constraint beyond its grant shows.
func TestDeriveAuthorizationConstraintNotWhenBIsPermitted(t *testing.T) {
	derivedRowsBlocked(t, sabotage.SIAuthzConstraintUnchecked, "authorization.constraint", "SI-8.7e", "SI-12.5e")
}

// An agent that refuses unsatisfiable constraints with another condition (input_invalid) shows no constraint:
// nothing is derived, the constraint rows stay blocked (the operator's profile is what fails such an agent).
func TestDeriveConstraintsNotWhenTheConditionIsAnother(t *testing.T) {
	derivedRowsBlocked(t, sabotage.SIConstraintWrongCode, "constraints", "SI-8.10a", "SI-8.10b", "SI-8.11a", "SI-8.11b", "SI-9.50c", "SI-9.67a", "SI-9.67b", "SI-9.67c", "SI-9.67d", "SI-9.68a")
}

// An agent whose limit refusals carry another condition (input_invalid) shows no limit: nothing is derived, the
// limit rows stay blocked. One without a nesting limit (up to the probe's ceiling) shows none either, while its
// payload limit is still derived.
func TestDeriveLimitsNotWhenNoneShows(t *testing.T) {
	derivedRowsBlocked(t, sabotage.SILimitReportedAsInputInvalid, "limits.payloadBytes", "SI-12.2h")
	derivedRowsBlocked(t, sabotage.SILimitReportedAsInputInvalid, "limits.nestingDepth", "SI-12.2i")
	derivedRowsBlocked(t, sabotage.SILimitReportedAsInputInvalid, "limits", "SI-12.3a")
	got, _ := run(t, sabotage.MustParse(sabotage.SIAgentNoNestingLimit), credentialsOnly)
	if r := got["SI-12.2i"]; r.Verdict != harness.Blocked || !strings.Contains(r.Detail, "limits.nestingDepth is missing") {
		t.Errorf("SI-12.2i: %s (%s), want blocked naming limits.nestingDepth", r.Verdict, r.Detail)
	}
	if r := got["SI-12.2h"]; r.Verdict != harness.ExecutedPass {
		t.Errorf("SI-12.2h: %s (%s), want executed-pass on the derived payload limit", r.Verdict, r.Detail)
	}
}

// An operator-given member wins over a derived one: the operator's authorization.skill is used as given and
// no derivation note is written for it.
func TestOperatorMemberWinsOverDerived(t *testing.T) {
	got, _ := run(t, sabotage.Set{}, func(tgt *target.Target) {
		credentialsOnly(tgt)
		tgt.Config.Requests = map[string][]string{schemaiface.ProfileKey: {`{"authorization":{"skill":{"skill":"propose_remediation","arguments":{"incident_id":"inc-42","objective":"restore link-7 capacity"}}}}`}}
	})
	r := got["SI-8.7b"]
	if r.Verdict != harness.ExecutedPass || strings.Contains(r.Detail, "authorization.skill derived") {
		t.Errorf("SI-8.7b: %s (%s), want executed-pass on the operator's case", r.Verdict, r.Detail)
	}
	// The modes the operator left out are still derived (the execute mode, never probed, then blocks the row).
	if r := got["SI-8.3"]; r.Verdict != harness.Blocked || !strings.Contains(r.Detail, "authorization.modes.observe_only derived") {
		t.Errorf("SI-8.3: %s (%s)", r.Verdict, r.Detail)
	}
}

// Arguments are derived only when they validate against input_schema: a skill whose schema is in a dialect the
// harness holds no meta-schema for (draft-04) gets none, so it takes no part in the authorization modes derived
// either; nothing fails.
func TestDeriveArgumentsNotWithoutAValidator(t *testing.T) {
	rows, _ := harnesstest.Run(t, mock.StartWith(mock.Options{ProposeDialect: "http://json-schema.org/draft-04/schema#"}), sabotage.Set{}, credentialsOnly, "schema-interface",
		harness.Options{Suites: []harness.Suite{schemaiface.Suite()}, Seed: 1})
	for id := range agentRows() {
		if r := rows[id]; r.Verdict == harness.ExecutedFail || r.Verdict == harness.NotTested {
			t.Errorf("%s: %s: %s", id, r.Verdict, r.Detail)
		}
	}
	r := rows["SI-8.3"]
	if strings.Contains(r.Detail, "arguments.propose_remediation derived") || strings.Contains(r.Detail, "authorization.modes.recommend_only derived") {
		t.Errorf("SI-8.3: %s (%s): propose_remediation was probed without a validator", r.Verdict, r.Detail)
	}
}

// Derived inputs never fail a correct agent: with only the two credentials, every latitude of the reference agent
// (each a choice the draft or A2A permits) runs with no row failed or not tested — the derivation takes what that
// agent shows, or nothing.
func TestCredentialsOnlyLatitudesFailNothing(t *testing.T) {
	for _, l := range sabotage.Latitudes() {
		if !slices.Contains(l.Documents, "schema-interface") && !slices.Contains(l.Documents, sabotage.AllDocuments) {
			continue
		}
		t.Run(string(l.ID), func(t *testing.T) {
			rows, _ := run(t, sabotage.MustParse(l.ID), credentialsOnly)
			for id := range agentRows() {
				// a latitude that declines a SHOULD is an advisory finding, not a failure (as the falsification gate reads it)
				if r := rows[id]; (r.Verdict == harness.ExecutedFail && !r.Advisory) || r.Verdict == harness.NotTested {
					t.Errorf("%s: %s: %s", id, r.Verdict, r.Detail)
				}
			}
		})
	}
}

// SI-6.5a graded on the recommend_only skill (no execute-mode skill has arguments) still fails an agent that does
// not validate the representation: the widened reach grades, it does not pass by default.
func TestChangeSkillRowKilledOnRecommendOnly(t *testing.T) {
	rows, _ := run(t, sabotage.MustParse(sabotage.SIInputNotValidated), credentialsOnly)
	if r := rows["SI-6.5a"]; r.Verdict != harness.ExecutedFail || !strings.Contains(r.Detail, "propose_remediation") {
		t.Errorf("SI-6.5a with %s, only credentials: %s %q, want executed-fail on propose_remediation", sabotage.SIInputNotValidated, r.Verdict, r.Detail)
	}
}

// A mode the operator declares has no request principal B is refused is quoted, not blocked on, while the modes
// with a case are graded (reading 33): with only the credentials and execute declared absent, SI-8.3 passes on the
// derived observe_only and recommend_only cases; config check predicts the same (TestEveryAbsenceDeclared…).
func TestModeDeclaredAbsentGradesTheOthers(t *testing.T) {
	got, _ := run(t, sabotage.Set{}, func(tgt *target.Target) {
		credentialsOnly(tgt)
		tgt.Config.Inputs = map[string]any{"schema-interface": &schemaiface.Input{Absences: harness.Absences{Absent: map[string]string{
			"authorization.modes.execute": "B may make every execute request"}}}}
	})
	r := got["SI-8.3"]
	if r.Verdict != harness.ExecutedPass || !strings.Contains(r.Detail, `execute not graded: the operator declares documents.schema-interface.absent.authorization.modes.execute`) {
		t.Errorf("SI-8.3: %s (%s), want executed-pass quoting the execute declaration", r.Verdict, r.Detail)
	}
}

// An authorization.skill of another mode does not meet SI-8.2b / SI-12.4b's observe_only need: the rows need
// authorization.modes.observe_only, which the operator may declare absent (reading 34). Before, they blocked on
// the combined member although one half was given, and config check predicted them passing.
func TestObserveOnlyNeedWithAnExecuteSkillCase(t *testing.T) {
	got, _ := run(t, sabotage.Set{}, func(tgt *target.Target) {
		credentialsOnly(tgt)
		tgt.Config.Requests = map[string][]string{schemaiface.ProfileKey: {`{"authorization":{"skill":{"skill":"manage_resource","arguments":{"operation":"read","resource_id":"r-a-only"}}}}`}}
		tgt.Config.Inputs = map[string]any{"schema-interface": &schemaiface.Input{Absences: harness.Absences{Absent: map[string]string{
			"authorization.modes.observe_only": "B may make every observe_only request"}}}}
	})
	for _, row := range []string{"SI-8.2b", "SI-12.4b"} {
		if r := got[row]; r.Verdict != harness.Inapplicable || !strings.Contains(r.Detail, "absent.authorization.modes.observe_only") {
			t.Errorf("%s: %s (%s), want inapplicable quoting the observe_only declaration", row, r.Verdict, r.Detail)
		}
	}
}
