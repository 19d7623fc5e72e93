package schemaiface

import (
	"encoding/json"
	"testing"

	"github.com/extconf/extconf/harness/a2a"
)

// SI-10.1 is predicted blocked (and so declarable absent) only when no AgentSkill of the card lies outside
// params.skills and the operator names no failed skill: where the run derives a candidate, nothing is predicted.
func TestFailedInitSkillNeedIsDerived(t *testing.T) {
	var params map[string]any
	json.Unmarshal([]byte(`{"skills": [{"skill_id": "a"}]}`), &params)
	card := &a2a.AgentCard{Skills: []a2a.AgentSkill{{ID: "a"}}}
	if n := failedInitNeeds(card, params, false); len(n) != 1 || n[0].Member != "failedInitSkill" || n[0].Rows[0] != "SI-10.1" {
		t.Errorf("every skill listed: %+v, want the failedInitSkill need", n)
	}
	if n := failedInitNeeds(card, params, true); len(n) != 0 {
		t.Errorf("named by the operator: %+v", n)
	}
	card.Skills = append(card.Skills, a2a.AgentSkill{ID: "b"})
	if n := failedInitNeeds(card, params, false); len(n) != 0 {
		t.Errorf("b is outside params.skills (a candidate): %+v", n)
	}
}
