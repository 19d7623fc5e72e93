package agentcards_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/suites/agentcards"
)

// config check predicts exactly the rows a run blocks when principal A or B is left out: the independent RFC 0202
// host's operator, starting from config init, was told 16 rows were missing and the run blocked 44 (and read
// AC-B.2g not-tested).
func TestWithoutAPrincipalPredictionEqualsRun(t *testing.T) {
	for _, role := range []string{"A", "B"} {
		t.Run("without "+role, func(t *testing.T) {
			var cfg target.Config
			rows := run(t, func(c *target.Config) {
				delete(c.Principals, role)
				delete(c.Principals, "agent-cards."+role)
				cfg = *c
			})
			var blocked, predicted []string
			for id, r := range rows {
				if r.Verdict == harness.NotTested {
					t.Errorf("%s: not-tested (%s), want blocked or graded", id, r.Detail)
				}
				if r.Verdict == harness.Blocked {
					blocked = append(blocked, id)
				}
			}
			for _, p := range harness.PredictConfig(cfg, cfg.Documents, agentcards.Document()) {
				// The reference host states its other inputs in the legacy requests map, which the static
				// prediction does not read: compare the principals' rows.
				if p.Verdict == harness.Blocked && strings.HasPrefix(p.Member, "documents.agent-cards.principals.") {
					predicted = append(predicted, p.Row)
				}
			}
			// The headline quotes a cause cut short: the member comes first.
			if d := rows["AC-D.7a"].Detail; !strings.HasPrefix(strings.TrimPrefix(d, "blocked: "), "documents.agent-cards.principals."+role) {
				t.Errorf("AC-D.7a blocked detail %q does not lead with documents.agent-cards.principals.%s", d, role)
			}
			sort.Strings(blocked)
			sort.Strings(predicted)
			if len(blocked) == 0 || len(blocked) != len(predicted) {
				t.Fatalf("run blocked %v\nconfig check predicted %v", blocked, predicted)
			}
			for i := range blocked {
				if blocked[i] != predicted[i] {
					t.Fatalf("run blocked %v\nconfig check predicted %v", blocked, predicted)
				}
			}
		})
	}
}

// Declared absent, the shared agent makes AC-B.2f and AC-D.9 inapplicable even without principal B, as config check predicts
// (the statement that no agent is listed to two callers needs no second caller to be true).
func TestSharedAgentDeclaredAbsentWithoutB(t *testing.T) {
	rows := run(t, func(c *target.Config) {
		delete(c.Principals, "B")
		delete(c.Principals, "agent-cards.B")
		in, _ := c.Inputs[agentcards.ID].(*agentcards.Input)
		if in == nil {
			in = &agentcards.Input{}
			if c.Inputs == nil {
				c.Inputs = map[string]any{}
			}
			c.Inputs[agentcards.ID] = in
		}
		in.Absent = map[string]string{"sharedAgent": "agents are installed per tenant"}
	})
	for _, id := range []string{"AC-B.2f", "AC-D.9"} {
		if r := rows[id]; r.Verdict != harness.Inapplicable || !strings.Contains(r.Detail, "sharedAgent") {
			t.Errorf("%s: %s (%s), want inapplicable quoting the declaration", id, r.Verdict, r.Detail)
		}
	}
	if r := rows["AC-D.7a"]; r.Verdict != harness.Blocked || !strings.Contains(r.Detail, "principals.B") {
		t.Errorf("AC-D.7a: %s (%s), want blocked naming principals.B", r.Verdict, r.Detail)
	}
}
