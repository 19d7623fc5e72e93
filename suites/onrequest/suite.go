package onrequest

import (
	"context"
	"fmt"

	"github.com/extconf/extconf/harness"
	vonrequest "github.com/extconf/extconf/refclients/onrequest"
)

// Suite returns the On Request suite.
func Suite() harness.Suite {
	return harness.Suite{
		Document: "on-request",
		// A card declaring only a near miss of the URI still applies, so that OR-3.1a can fail it instead of every
		// row reading inapplicable.
		Applicable: applicable,
		Register: func(e *harness.Env) {
			s := &suite{e: e}
			s.cardSpecs()
			s.behaviourSpecs()
			s.actionSpecs()
			s.metadataSpecs()
			s.clientSpecs()
		},
	}
}

// spec declares a one-row spec; the row id leads the text, as Kubernetes conformance names do.
func (s *suite) spec(row, text string, body func(w *harness.W)) {
	harness.Spec(s.e, row, text, body)
}

// applicable is the rule every agent row applies (loadAgent): the main card declares the extension, or a near miss
// of its URI (OR-2 grades the miss). A card that cannot be read or decoded leaves the rows to fail on it, and
// self-check rows run whatever the card says; config init and check read the same rule (harness.Applicability).
func applicable(ctx context.Context, e *harness.Env) (bool, string) {
	_, raw, ex, ok, err := e.RoleCard(ctx, roleMain)
	if !ok {
		return false, "the target has no agent for " + roleMain
	}
	if err != nil {
		return true, ""
	}
	decl, err := vonrequest.FindDeclaration(raw)
	if err != nil || decl != nil {
		return true, ""
	}
	return false, fmt.Sprintf("the card of role %s (%s) does not declare %s", roleMain, ex.Summary(), vonrequest.URI)
}
