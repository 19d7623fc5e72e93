package onrequest_test

import (
	"net/url"
	"sort"
	"strings"
	"testing"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/harness/harnesstest"
	"github.com/extconf/extconf/harness/target"
	mock "github.com/extconf/extconf/mockagents/onrequest"
	"github.com/extconf/extconf/sabotage"
	"github.com/extconf/extconf/suites/onrequest"
)

// runOpts runs the suite against the chapel started with options (mock.StartWith), edit applied, toggles set on.
func runOpts(t *testing.T, opts []string, set sabotage.Set, edit func(*target.Target), rows []string) map[string]harness.RowVerdict {
	t.Helper()
	out, _ := harnesstest.Run(t, mock.StartWith(opts...), set, edit, "on-request", harness.Options{
		Suites: []harness.Suite{onrequest.Suite()}, Rows: rows, Seed: 1})
	return out
}

// noFalseFailure fails t for any row executed-fail or not-tested: what a latitude (a choice the document permits)
// must never cause.
func noFalseFailure(t *testing.T, rows map[string]harness.RowVerdict) {
	t.Helper()
	var ids []string
	for id := range rows {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		if r := rows[id]; r.Verdict == harness.ExecutedFail || r.Verdict == harness.NotTested {
			t.Errorf("%s: %s: %s", id, r.Verdict, r.Detail)
		}
	}
}

// The latitudes of issue #19: each option of the reference chapel is a reading the document permits; with it on, no
// row may read executed-fail or not-tested.
func TestLatitudes(t *testing.T) {
	for _, opt := range mock.Options() {
		t.Run(opt, func(t *testing.T) { noFalseFailure(t, runOpts(t, []string{opt}, sabotage.Set{}, nil, nil)) })
	}
}

// Issue #19: positive controls required the agent to take a MAY. Annex A.3's level-1 chapel, which refers every
// action, failed OR-3.6 and OR-5.7b; the rows about a carried-out action then blocked (#19), and since #36 they are
// inapplicable quoting the operator's level-1 statement (OR-5.6(a)): such an operator states everything it can, so
// nothing it could state is left blocked. OR-5.7b passes.
func TestLevel1ChapelBlocksInsteadOfFailing(t *testing.T) {
	rows := runOpts(t, []string{mock.OptLevel1}, sabotage.Set{}, nil, nil)
	for _, id := range []string{"OR-3.6", "OR-5.7d", "OR-5.7e", "OR-5.7f", "OR-5.7g", "OR-5.8a"} {
		if r := rows[id]; r.Verdict != harness.Inapplicable || !strings.Contains(r.Detail, "level-1 attestation") || !strings.Contains(r.Detail, "OR-5.6(a)") {
			t.Errorf("%s: %s (%s), want inapplicable quoting the level-1 statement and OR-5.6(a)", id, r.Verdict, r.Detail)
		}
	}
	for _, id := range []string{"OR-5.7a", "OR-5.7b", "OR-5.7h", "OR-6.1b"} {
		if r := rows[id]; r.Verdict != harness.ExecutedPass {
			t.Errorf("%s: %s (%s), want executed-pass", id, r.Verdict, r.Detail)
		}
	}
}

// Issue #19: an agent that does not recognise the configured acting-for assertion (it reads params.metadata, the
// harness sends the default Message.metadata[URI]) answers the assistant as it answers anybody: the rows that need
// the opt-in block naming the mismatch; none fails.
func TestActingForMismatchBlocks(t *testing.T) {
	rows := runOpts(t, nil, sabotage.Set{}, func(tgt *target.Target) { tgt.Config.ActingFor = &target.ActingFor{} }, nil)
	noFalseFailure(t, rows)
	if r := rows["OR-6.1c"]; r.Verdict != harness.Blocked || !strings.Contains(r.Detail, "does not recognise the assertion") {
		t.Errorf("OR-6.1c: %s (%s)", r.Verdict, r.Detail)
	}
}

// statementWithout is the chapel's operator statement with members removed, as a data: URL.
func statementWithout(t *testing.T, tgt *target.Target, drop ...string) string {
	t.Helper()
	base := strings.TrimSuffix(tgt.Agents["on-request.operator"], "/_operator/statement.json")
	kiosk := strings.TrimSuffix(tgt.Agents["on-request.unattested"], "/.well-known/agent-card.json")
	m := map[string]string{
		"operatorOrigins":    `["` + base + `","` + kiosk + `"]`,
		"operatorPhones":     `["+12025550143"]`,
		"attestationLevel":   `2`,
		"staffReachable":     `true`,
		"consentToActions":   `true`,
		"values":             `{"service-pricing":["GBP 1,950"],"memorial-options":["GBP 2,400"],"repatriation-quote":["GBP 3,800"]}`,
		"actionLog":          `"` + base + `/_operator/actions"`,
		"reverse":            `"` + base + `/_operator/reverse"`,
		"limits":             `{"perAssistant":2,"total":3}`,
		"irreversible":       `{"notice-publication":"publishing the notice"}`,
		"personConfirmation": `"post"`,
		"actionSkills":       `["arrangement-booking","callback-request","notice-publication","record-amendment"]`,
	}
	for _, d := range drop {
		delete(m, d)
	}
	var parts []string
	for k, v := range m {
		parts = append(parts, `"`+k+`":`+v)
	}
	return "data:application/json," + url.PathEscape("{"+strings.Join(parts, ",")+"}")
}

// Issue #19: without operatorOrigins, a personEntry off the card's origin (Annex A.1's layout) failed OR-3.4c; it
// now blocks, proposing the card's origins. A stated list still fails an origin it does not hold.
func TestOperatorOriginsMissingBlocks(t *testing.T) {
	set := sabotage.MustParse(sabotage.ORPersonEntryForeignOrigin)
	r := runOpts(t, nil, set, func(tgt *target.Target) {
		tgt.Agents["on-request.operator"] = statementWithout(t, tgt, "operatorOrigins")
	}, []string{"OR-3.4c"})["OR-3.4c"]
	if r.Verdict != harness.Blocked || !strings.Contains(r.Detail, "Origins the card suggests") {
		t.Errorf("no operatorOrigins: %s (%s)", r.Verdict, r.Detail)
	}
	if r := runOpts(t, nil, set, nil, []string{"OR-3.4c"})["OR-3.4c"]; r.Verdict != harness.ExecutedFail {
		t.Errorf("stated operatorOrigins: %s (%s)", r.Verdict, r.Detail)
	}
}

// Issue #19: with actions whose entries carry no completion (OR-3.6: MAY) and no actionSkills in the statement, a
// correct action referral was graded as information and failed OR-5.3b/5.3d/6.1a/6.1d; now those rows block.
func TestActionSkillsMissingBlocks(t *testing.T) {
	rows := runOpts(t, []string{mock.OptNoCompletion}, sabotage.Set{}, func(tgt *target.Target) {
		tgt.Agents["on-request.operator"] = statementWithout(t, tgt, "actionSkills")
	}, nil)
	noFalseFailure(t, rows)
	for _, id := range []string{"OR-5.3b", "OR-5.3d", "OR-6.1a"} {
		if r := rows[id]; r.Verdict != harness.Blocked || !strings.Contains(r.Detail, "actionSkills absent") {
			t.Errorf("%s: %s (%s), want blocked naming actionSkills", id, r.Verdict, r.Detail)
		}
	}
}

// Issue #19: without stated values, an agent whose referral text carries the price passed every row; the amounts
// of money in a referral now count as given.
func TestWithoutValuesAPriceInAReferralFails(t *testing.T) {
	set := sabotage.MustParse(sabotage.ORGivesOnRequestInfo)
	r := runOpts(t, nil, set, func(tgt *target.Target) {
		tgt.Agents["on-request.operator"] = statementWithout(t, tgt, "values")
	}, []string{"OR-5.3a"})["OR-5.3a"]
	if r.Verdict != harness.ExecutedFail || !strings.Contains(r.Detail, "GBP 1,950") {
		t.Errorf("%s (%s)", r.Verdict, r.Detail)
	}
	if r := runOpts(t, nil, sabotage.Set{}, func(tgt *target.Target) {
		tgt.Agents["on-request.operator"] = statementWithout(t, tgt, "values")
	}, []string{"OR-5.3a"})["OR-5.3a"]; r.Verdict != harness.ExecutedPass {
		t.Errorf("clean chapel without values: %s (%s)", r.Verdict, r.Detail)
	}
}

// Issue #19: without irreversible, an agent that acts on a relayed "the person has confirmed" passed (the row read
// inapplicable); it now blocks, naming the member.
func TestWithoutIrreversibleBlocks(t *testing.T) {
	r := runOpts(t, nil, sabotage.MustParse(sabotage.ORRelayedConfirmationAccepted), func(tgt *target.Target) {
		tgt.Agents["on-request.operator"] = statementWithout(t, tgt, "irreversible")
	}, []string{"OR-5.7g"})["OR-5.7g"]
	if r.Verdict != harness.Blocked || !strings.Contains(r.Detail, `"irreversible"`) {
		t.Errorf("%s (%s)", r.Verdict, r.Detail)
	}
}

// Issue #19: the limit rows' controls were consumed by earlier rows' requests. With limits counted per skill
// (whoever the request is for), the harness's own earlier requests use them up: the limit rows block, naming the
// harness's count, rather than fail.
func TestLimitsConsumedByEarlierRequestsBlock(t *testing.T) {
	rows := runOpts(t, []string{mock.OptLimitsPerSkill}, sabotage.Set{}, nil, nil)
	noFalseFailure(t, rows)
	blocked := 0
	for _, id := range []string{"OR-3.6", "OR-5.7d", "OR-5.7e", "OR-5.7f"} {
		r := rows[id]
		t.Logf("%s: %s: %s", id, r.Verdict, r.Detail)
		if r.Verdict == harness.Blocked {
			blocked++
		}
	}
	if blocked == 0 {
		t.Error("no row saw the limit used up: the option does not exercise the accounting")
	}
}

// OR-3.9 reads the extended card too: a value in the authenticated card's skill text fails the row (it passed when
// only the public card was read).
func TestExtendedCardSkillTextChecked(t *testing.T) {
	r := runOpts(t, nil, sabotage.MustParse(sabotage.ORExtendedCardLeaksValue), nil, []string{"OR-3.9"})["OR-3.9"]
	if r.Verdict != harness.ExecutedFail || !strings.Contains(r.Detail, "extended card") {
		t.Errorf("%s (%s)", r.Verdict, r.Detail)
	}
}

// Issue #19: assistantAccess "true" (a string) was read as false and completion "later" as an action, silently;
// the specs that depend on an entry's kind now block, naming the member. A stand-in agent (the neutral A2A kit)
// serves such a card.
func TestEntryValueTypesBlock(t *testing.T) {
	standIn := func(sabotage.Set) (map[string]string, target.Config, func(), error) {
		srv, err := a2atest.Start(a2atest.Agent{Name: "stand-in", Card: func(base string) any {
			return map[string]any{"name": "stand-in", "description": "d", "version": "1", "supportedInterfaces": a2atest.Interfaces(base),
				"capabilities": map[string]any{"extensions": []any{map[string]any{"uri": "https://agent-capability.org/ext/on-request/v1",
					"params": map[string]any{"skills": []any{
						map[string]any{"id": "prices", "personEntry": base + "/talk", "assistantAccess": "true"},
						map[string]any{"id": "booking", "personEntry": base + "/talk", "completion": "later"}}}}}},
				"defaultInputModes": []string{"text/plain"}, "defaultOutputModes": []string{"text/plain"},
				"skills": []any{map[string]any{"id": "prices", "name": "p", "description": "d", "tags": []string{"t"}, "examples": []string{"What does it cost?"}},
					map[string]any{"id": "booking", "name": "b", "description": "d", "tags": []string{"t"}, "examples": []string{"Book it."}}}}
		}, OnSend: func(*a2atest.Ctx, a2a.SendMessageRequest) a2atest.Reply {
			return a2atest.Reply{Message: &a2a.Message{MessageID: "m", Role: a2a.RoleAgent, Parts: []a2a.Part{a2a.TextPart("Ask us.")}}}
		}}, a2atest.Options{TLS: true})
		if err != nil {
			return nil, target.Config{}, nil, err
		}
		return map[string]string{"on-request": srv.CardURL()}, target.Config{}, srv.Close, nil
	}
	rows, _ := harnesstest.Run(t, standIn, sabotage.Set{}, nil, "on-request", harness.Options{
		Suites: []harness.Suite{onrequest.Suite()}, Rows: []string{"OR-5.3a", "OR-5.4a", "OR-3.7"}, Seed: 1})
	for _, id := range []string{"OR-5.3a", "OR-5.4a"} {
		if r := rows[id]; r.Verdict != harness.Blocked || !strings.Contains(r.Detail, "not a boolean") || !strings.Contains(r.Detail, "neither") {
			t.Errorf("%s: %s (%s)", id, r.Verdict, r.Detail)
		}
	}
}
