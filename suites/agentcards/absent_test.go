package agentcards_test

import (
	"strings"
	"testing"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/suites/agentcards"
)

// A host without workspaces, without caller identifiers and without a caller GET /agents/{agentId} refuses: the
// operator declares each absent and the rows that need them read inapplicable quoting the declaration; without the
// declarations they are blocked naming the credential member (never the removed principals.A.workspace).
func TestIdentifiersAndRestrictedPrincipalCanBeDeclaredAbsent(t *testing.T) {
	// The operator's form: named credentials, which the section's principals name.
	strip := func(c *target.Config) {
		in := &agentcards.Input{Principals: map[string]string{}}
		c.Credentials = map[string]target.Credential{}
		for _, role := range []string{"A", "B"} {
			p := c.Principals["agent-cards."+role]
			c.Credentials["cred"+role] = target.Credential{Header: p.Header, Value: target.Secret{Literal: p.Value}, Tenant: p.Tenant}
			in.Principals[role] = "cred" + role
		}
		c.Principals = nil
		if err := in.Apply(c); err != nil {
			t.Fatal(err)
		}
		c.Inputs = map[string]any{agentcards.ID: in}
	}
	rows := []string{"AC-B.2c", "AC-V2.2b", "AC-B.2d", "AC-V2.2c", "AC-D.6b", "AC-V2.5b"}
	blocked := run(t, strip)
	for _, id := range rows {
		r := blocked[id]
		if r.Verdict != harness.Blocked || !strings.Contains(r.Detail, "credentials.credA.") && id != "AC-D.6b" && id != "AC-V2.5b" || !strings.Contains(r.Detail, "documents.agent-cards.absent") {
			t.Errorf("%s: %s (%s), want blocked naming where to give it and how to declare it absent", id, r.Verdict, r.Detail)
		}
	}
	declared := run(t, func(c *target.Config) {
		strip(c)
		c.Inputs[agentcards.ID].(*agentcards.Input).Absent = map[string]string{
			"credential.workspace":    "the host has no workspaces",
			"credential.id":           "the host shows callers no identifier",
			"principals.A-restricted": "every caller that authenticates may read every agent of its tenant",
		}
	})
	for _, id := range rows {
		r := declared[id]
		if r.Verdict != harness.Inapplicable || !strings.Contains(r.Detail, "the operator declares: documents.agent-cards.absent.") {
			t.Errorf("%s: %s (%s), want inapplicable quoting the declaration", id, r.Verdict, r.Detail)
		}
	}
	for id, r := range declared {
		if r.Verdict == harness.ExecutedFail || r.Verdict == harness.Blocked {
			t.Errorf("%s: %s (%s)", id, r.Verdict, r.Detail)
		}
	}
}
