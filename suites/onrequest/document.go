package onrequest

import (
	"context"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/target"
)

// Document registers this suite with the engine (cmd wires every document in suites.All).
func Document() harness.Document { return document{} }

type document struct{ harness.NoOperatorInput }

func (document) ID() string              { return "on-request" }
func (document) Suites() []harness.Suite { return []harness.Suite{Suite()} }

// Input: the on-request section (assistants' credentials, the operator statement inline, actingFor, agents).
func (document) Input() any { return &Input{} }

// DeriveSection (harness.SectionDeriver): request texts from the skills' examples, as the run asks by default, and
// the action members when the card declares an action.
func (document) DeriveSection(_ context.Context, _ *a2a.Client, _ string, card *a2a.AgentCard, _ target.Config, sec map[string]any) ([]string, []harness.Need) {
	return harness.ExampleRequests(card, sec), actionNeeds(card, sec)
}
