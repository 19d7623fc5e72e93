package schemaiface

import (
	"context"
	"fmt"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
)

// Suite returns the suite.
func Suite() harness.Suite {
	return harness.Suite{Document: "schema-interface", Applicable: applicable, Register: register}
}

// applicable: the document's procedure exists at an agent whose card carries the extension or the describe_skill
// AgentSkill (the draft: absence of either means the agent does not provide it); with neither, every agent row is
// inapplicable. Either one alone is graded by SI-9.1a / SI-9.2, never excused.
func applicable(ctx context.Context, e *harness.Env) (bool, string) {
	u, ok := e.Target.CardURL(Role)
	if !ok {
		return false, "the target has no agent for role " + Role
	}
	card, ex, err := e.Client.FetchCard(ctx, u, a2a.Call{Note: "agent card (applicability)"})
	if err != nil {
		return true, "" // the specs fail on the fetch themselves
	}
	if _, ok := card.Extension(URI); ok {
		return true, ""
	}
	if _, ok := card.Skill("describe_skill"); ok {
		return true, ""
	}
	return false, fmt.Sprintf("the card at %s (%s) declares neither %s nor a describe_skill AgentSkill", u, ex.ID, URI)
}

// spec declares a one-row spec; its text starts with the row id, as Kubernetes conformance names do.
func spec(e *harness.Env, row, text string, body func(w *harness.W)) {
	harness.Spec(e, row, text, body)
}

func register(e *harness.Env) {
	registerCard(e)
	registerDocuments(e)
	registerDescribe(e)
	registerInvoke(e)
	registerErrors(e)
	registerAuthz(e)
	registerGated(e)
}
