package terms

import (
	"testing"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/target"
)

// The independent terms agent (examples/agents/terms) serves an extended card with a directed proposal: config
// init and check must ask for documents.terms.principals there (TE-3.5f blocked on them, predicted 0), and only
// there; declared absent, the row reads inapplicable (harness: Need).
func TestPrincipalsNeededWhereTheExtendedCardIs(t *testing.T) {
	card := &a2a.AgentCard{}
	if _, needs := (document{}).DeriveSection(t.Context(), nil, "", card, target.Config{}, map[string]any{}); len(needs) != 0 {
		t.Errorf("a card without an extended card: needs %+v, want none", needs)
	}
	card.Capabilities.ExtendedAgentCard = true
	_, needs := (document{}).DeriveSection(t.Context(), nil, "", card, target.Config{}, map[string]any{})
	if len(needs) != 1 || needs[0].Member != "principals" || len(needs[0].Rows) != 1 || needs[0].Rows[0] != "TE-3.5f" {
		t.Errorf("an extended card, no principals: needs %+v, want principals for TE-3.5f", needs)
	}
	given := map[string]any{"principals": []any{"terms.A"}}
	if _, needs := (document{}).DeriveSection(t.Context(), nil, "", card, target.Config{}, given); len(needs) != 0 {
		t.Errorf("principals given: needs %+v, want none", needs)
	}
}
