package onrequest

import (
	"context"

	"github.com/extconf/extconf/harness"
)

// Suite returns the On Request suite.
func Suite() harness.Suite {
	return harness.Suite{
		Document: "on-request",
		// Applicability is decided per spec from the card (loadAgent): a card declaring only a near miss of the URI
		// is still read, so that OR-3.1a can fail it instead of every row reading inapplicable.
		Applicable: func(context.Context, *harness.Env) (bool, string) { return true, "" },
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
