package suites_test

import (
	"testing"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/suites"
)

// Every input a row needs that a target may lack can be declared absent, including those outside the section
// (a credential's identifiers, a principal) and those the run derives (failedInitSkill, the shared agent); a
// combined need "a|b" reads absent when every part is; an empty actingFor or operatorPhones is a statement.
func TestEveryNeedCanBeDeclaredAbsent(t *testing.T) {
	cfg, err := prepare(t, `{
  "credentials": {"a": {"header": "Authorization", "value": "Bearer a", "tenant": "t1"}},
  "documents": {
    "agent-cards": {"principals": {"A": "a"}, "absent": {
      "credential.workspace": "the host has no workspaces",
      "credential.id": "the host shows callers no identifier",
      "principals.A-restricted": "every caller that authenticates may read every agent of its tenant",
      "sharedAgent": "agents are installed per tenant: no agent is listed to two tenants"}},
    "schema-interface": {"absent": {"failedInitSkill": "every skill's interface loaded"}},
    "on-request": {"actingFor": {}, "operator": {"operatorPhones": []}, "absent": {
      "operator.attestationLevel": "not stated", "agents.unattested": "no such agent",
      "operator.staffReachable": "not stated", "agents.unstaffed": "no such agent"}}
  }}`)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]harness.RowPrediction{}
	for _, p := range harness.PredictConfig(cfg, cfg.Documents, suites.Documents()...) {
		got[p.Row] = p
	}
	for _, row := range []string{"AC-B.2c", "AC-V2.2b", "AC-B.2d", "AC-V2.2c", "AC-D.6b", "AC-V2.5b", "OR-5.7c", "OR-5.10", "SI-10.1", "AC-B.2f"} {
		if p := got[row]; p.Verdict != harness.Inapplicable {
			t.Errorf("%s predicted %+v, want inapplicable (declared absent)", row, p)
		}
	}
	// Given: the tenant on the credential; stated by an empty value: actingFor and operatorPhones.
	for _, row := range []string{"AC-B.2b", "AC-V2.2a", "OR-3.4d", "OR-5.3a", "OR-6.1c"} {
		if p, ok := got[row]; ok {
			t.Errorf("%s predicted %+v, want nothing (given, or derived by probing)", row, p)
		}
	}
	// What the deriver finds this target lacks honours the declarations too.
	needs := map[string][]harness.Need{"schema-interface": {{Member: "failedInitSkill", Rows: []string{"SI-10.1"}}},
		"agent-cards": {{Member: "sharedAgent", Rows: []string{"AC-B.2f"}}}}
	for _, p := range harness.WithTargetNeeds(nil, needs, cfg.Documents) {
		if p.Verdict != harness.Inapplicable {
			t.Errorf("%s predicted %+v, want inapplicable (declared absent)", p.Row, p)
		}
	}
	// Without the declarations, the credential's members are named where they live.
	cfg, err = prepare(t, `{"credentials": {"a": {"header": "Authorization", "value": "Bearer a"}},
  "documents": {"agent-cards": {"principals": {"A": "a"}}}}`)
	if err != nil {
		t.Fatal(err)
	}
	got = map[string]harness.RowPrediction{}
	for _, p := range harness.PredictConfig(cfg, cfg.Documents, suites.Documents()...) {
		got[p.Row] = p
	}
	for _, row := range []string{"AC-B.2b", "AC-B.2c", "AC-B.2d", "AC-D.6b"} {
		if p := got[row]; p.Verdict != harness.Blocked {
			t.Errorf("%s predicted %+v, want blocked", row, p)
		}
	}
	// The tenant identifier is one every OpenWOP host has: it cannot be declared absent.
	if _, err := prepare(t, `{"documents": {"agent-cards": {"absent": {"credential.tenant": "none"}}}}`); err == nil {
		t.Error("credential.tenant declared absent: accepted")
	}
}
