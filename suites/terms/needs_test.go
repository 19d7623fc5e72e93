package terms

import (
	"strings"
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

// The independent terms agent's card is unsigned: TE-8.3b reads inapplicable there before asking for the change
// hook, so config check must not predict it blocked (it did: 8.3a/b/c from the static table).
func TestChangeHookRowsFollowTheCard(t *testing.T) {
	card := &a2a.AgentCard{Capabilities: a2a.AgentCapabilities{Extensions: []a2a.AgentExtension{{URI: "https://agentsow.com/extensions/a2a-terms/v1"}}}}
	rows := func() []string {
		_, needs := (document{}).DeriveSection(t.Context(), nil, "", card, target.Config{}, map[string]any{})
		for _, n := range needs {
			if n.Member == "changeHook" {
				return n.Rows
			}
		}
		return nil
	}
	if got := rows(); len(got) != 2 || got[0] != "TE-8.3a" || got[1] != "TE-8.3c" {
		t.Errorf("unsigned card: changeHook rows %v, want TE-8.3a TE-8.3c", got)
	}
	card.Signatures = []a2a.AgentCardSignature{{Protected: "e30", Signature: "AA"}}
	if got := rows(); len(got) != 3 {
		t.Errorf("signed card: changeHook rows %v, want TE-8.3a TE-8.3b TE-8.3c", got)
	}
	card.Capabilities.Extensions = nil
	if got := rows(); got != nil {
		t.Errorf("a card without the extension: changeHook rows %v, want none (the rows are inapplicable)", got)
	}
}

// A listed principal whose credential carries no id blocks TE-3.5f in the run; config check says so, naming
// credentials.<name>.id (it predicted 0 against the independent terms agent's configuration without Berger's id).
func TestPrincipalWithoutIDIsNeeded(t *testing.T) {
	card := &a2a.AgentCard{Capabilities: a2a.AgentCapabilities{ExtendedAgentCard: true}}
	cfg := target.Config{Credentials: map[string]target.Credential{"kfue.berger": {Header: "Authorization"}, "kfue.rheinwerk": {Header: "Authorization", ID: "einkauf@rheinwerk.example"}}}
	sec := map[string]any{"principals": []any{"kfue.rheinwerk", "kfue.berger"}}
	_, needs := (document{}).DeriveSection(t.Context(), nil, "", card, cfg, sec)
	if len(needs) != 1 || needs[0].Member != "principals" || !strings.Contains(needs[0].What, "credentials.kfue.berger.id") {
		t.Fatalf("needs %+v, want principals naming credentials.kfue.berger.id", needs)
	}
	cr := cfg.Credentials["kfue.berger"]
	cr.ID = "kanzlei@berger-partner.example"
	cfg.Credentials["kfue.berger"] = cr
	if _, needs := (document{}).DeriveSection(t.Context(), nil, "", card, cfg, sec); len(needs) != 0 {
		t.Errorf("every id given: needs %+v, want none", needs)
	}
}

// Leaving one flagged sentence of the independent terms agent's card out of the claim map made the run FAILED
// (exit 1) on a correct agent while config check predicted 0: the map is the operator's statement, so the row
// blocks naming documents.terms.claims and config check predicts it.
func TestIncompleteClaimMapIsPredicted(t *testing.T) {
	card := &a2a.AgentCard{Skills: []a2a.AgentSkill{{ID: "translate-contract", Description: "Translates a contract. " +
		"Orders can be cancelled with 48 hours' notice. Source documents are deleted 14 days after delivery."}}}
	dataUse := map[string]any{"kind": "data-use", "span": "deleted 14 days after delivery"}
	needsFor := func(claims ...any) []string {
		_, needs := (document{}).DeriveSection(t.Context(), nil, "", card, target.Config{}, map[string]any{"claims": claims})
		for _, n := range needs {
			if n.Member == "claims" {
				return n.Rows
			}
		}
		return nil
	}
	if rows := needsFor(dataUse); len(rows) != 1 || rows[0] != "TE-4.1b" {
		t.Errorf("the term sentence unmapped: rows %v, want TE-4.1b", rows)
	}
	if rows := needsFor(dataUse, map[string]any{"kind": "none", "span": "cancelled with 48 hours' notice"}); rows != nil {
		t.Errorf("every sentence mapped (one as none): rows %v, want none", rows)
	}
	if rows := needsFor(dataUse, map[string]any{"kind": "term", "span": ""}); len(rows) != 1 {
		t.Errorf("an empty span maps nothing: rows %v, want TE-4.1b", rows)
	}
}
