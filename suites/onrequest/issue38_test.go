package onrequest_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/target"
	mock "github.com/extconf/extconf/mockagents/onrequest"
	"github.com/extconf/extconf/sabotage"
)

// Issue #38, over-strict: the other wordings the document permits (a reason for the referral, "I don't have that
// information, but …", a kiosk that cannot transfer or call back, a booking "tomorrow at 10:00", a price written
// £2,400 for a stated GBP 2,400, a deferred task COMPLETED that says it is not yet done) pass every row; each
// failed or blocked before.
func TestOtherWordingsPassEveryRow(t *testing.T) {
	for _, opt := range []string{mock.OptOtherWordings, mock.OptCallbackTel} {
		rows := runOpts(t, []string{opt}, sabotage.Set{}, nil, nil)
		for id, r := range rows {
			if r.Verdict != harness.ExecutedPass && r.Verdict != harness.Inapplicable {
				t.Errorf("%s: %s: %s (%d assertions): %s", opt, id, r.Verdict, r.Assertions, r.Detail)
			}
		}
	}
}

// Issue #38, too lax: each new defect class fails its row (each passed, or blocked, before).
func TestIssue38DefectsFail(t *testing.T) {
	for id, row := range map[sabotage.ID]string{
		sabotage.ORDeferredCompletedUnworded: "OR-5.8a",
		sabotage.ORDeferredReportedSorted:    "OR-5.8a",
		sabotage.ORReferralLeaksOtherForm:    "OR-5.3a",
		sabotage.ORUnstaffedCallbackAfterBut: "OR-5.10",
		sabotage.ORTextCircumstancePage:      "OR-3.8c",
		sabotage.ORGivenInStatusMessage:      "OR-6.1c",
	} {
		r := runOpts(t, nil, sabotage.MustParse(id), nil, []string{row})[row]
		if r.Verdict != harness.ExecutedFail {
			t.Errorf("%s: %s %s, want executed-fail: %s", id, row, r.Verdict, r.Detail)
		}
	}
}

// Values stated for some skills keep the money check on for the others: with values stated only for
// service-pricing, memorial-options given to a client acting for nobody still fails OR-5.4a.
func TestValuesStatedPerSkill(t *testing.T) {
	onlyPricing := func(tgt *target.Target) {
		tgt.Agents["on-request.operator"] = "data:application/json," + url.PathEscape(
			`{"consentToActions": true, "values": {"service-pricing": ["GBP 1,950"]}}`)
	}
	r := runOpts(t, nil, sabotage.MustParse(sabotage.OROptInGivesToAnyone), onlyPricing, []string{"OR-5.4a"})["OR-5.4a"]
	if r.Verdict != harness.ExecutedFail || !strings.Contains(r.Detail, "2,400") {
		t.Errorf("OR-5.4a with values stated for another skill only: %s (%s)", r.Verdict, r.Detail)
	}
}
