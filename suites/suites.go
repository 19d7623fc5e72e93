package suites

import (
	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/suites/agentcards"
	"github.com/extconf/extconf/suites/interview"
	"github.com/extconf/extconf/suites/onrequest"
	"github.com/extconf/extconf/suites/schemaiface"
	"github.com/extconf/extconf/suites/terms"
)

// Documents returns every document, in catalog document-id order.
func Documents() []harness.Document {
	return []harness.Document{agentcards.Document(), interview.Document(), onrequest.Document(),
		schemaiface.Document(), terms.Document()}
}

// All returns every document's suites, in document order (what a whole run executes).
func All() []harness.Suite { return harness.Suites(Documents()...) }
