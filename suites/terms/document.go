package terms

import (
	"context"
	"fmt"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/target"
	vterms "github.com/extconf/extconf/refclients/terms"
)

// Document registers this suite with the engine (cmd wires every document in suites.All).
func Document() harness.Document { return document{} }

type document struct{ harness.NoOperatorInput }

func (document) ID() string              { return "terms" }
func (document) Suites() []harness.Suite { return []harness.Suite{Suite()} }

// Input: the terms section (principals, change hook, claim map inline).
func (document) Input() any { return &Input{} }

// DeriveSection (harness.SectionDeriver) derives nothing; it reports what this card's rows need: the claim map only
// where the card's prose states a claim the lexicon flags (TE-4.1b/c read inapplicable otherwise, as the spec does),
// principals only where the card serves an extended card (TE-3.5f reads inapplicable otherwise).
func (document) DeriveSection(_ context.Context, _ *a2a.Client, _ string, card *a2a.AgentCard, cfg target.Config, sec map[string]any) ([]string, []harness.Need) {
	if card == nil {
		return nil, nil
	}
	needs := append(principalsNeed(card, cfg, sec), changeHookNeed(card, cfg, sec)...)
	if cfg.Agents[RoleClaims] != "" {
		return nil, needs // a claim map at a URL is read by the run
	}
	claims, given := sec["claims"].([]any)
	var rows, missing []string
	for _, c := range []struct{ row, kind string }{{"TE-4.1b", "term"}, {"TE-4.1c", "data-use"}} {
		texts := flaggedTexts(card, c.kind)
		if given {
			texts = unmapped(texts, claims, c.kind)
			missing = append(missing, texts...)
		}
		if len(texts) > 0 {
			rows = append(rows, c.row)
		}
	}
	if len(rows) == 0 {
		return nil, needs
	}
	n := need("claims")
	n.Rows = rows
	if given {
		n.What = fmt.Sprintf("the claim map maps no clause (or kind none) to %q", missing)
	}
	return nil, append(needs, n)
}

// unmapped are the sentences whose claims the spans of kind (or of kind none) do not all cover, as TE-4.1b/c judge
// coverage (vterms.Lexicon.Covered).
func unmapped(texts []string, claims []any, kind string) []string {
	var spans, out []string
	for _, c := range claims {
		m, _ := c.(map[string]any)
		k, _ := m["kind"].(string)
		span, _ := m["span"].(string)
		if k == kind || k == NotAClaim {
			spans = append(spans, span)
		}
	}
	for _, t := range texts {
		if !lexiconOf(kind).Covered(t, spans) {
			out = append(out, t)
		}
	}
	return out
}

// principalsNeed: TE-3.5f calls GetExtendedAgentCard as each principal when the card declares the extended card.
// A principal whose credential has no id (the party it stands for) blocks the row too.
func principalsNeed(card *a2a.AgentCard, cfg target.Config, sec map[string]any) []harness.Need {
	if !card.Capabilities.ExtendedAgentCard {
		return nil
	}
	listed, given := sec["principals"].([]any)
	if !given && len(termsPrincipals(cfg)) == 0 {
		return []harness.Need{need("principals")}
	}
	for _, name := range listed {
		n, _ := name.(string)
		if cr, ok := cfg.Credentials[n]; ok && cr.ID == "" {
			nd := need("principals")
			nd.What = fmt.Sprintf("credentials.%s.id: the Agent SoW party (parties.offered_to agent key, handle or owner) credential %s stands for", n, n)
			return []harness.Need{nd}
		}
	}
	return nil
}

// changeHookNeed: TE-8.3a/c need the hook on any card declaring the extension, TE-8.3b only on a signed card (it
// reads inapplicable on an unsigned one before asking for the hook).
func changeHookNeed(card *a2a.AgentCard, cfg target.Config, sec map[string]any) []harness.Need {
	if _, given := sec["changeHook"]; given || cfg.Agents[RoleChangeHook] != "" || !declares(card) {
		return nil
	}
	n := need("changeHook")
	n.Rows = []string{"TE-8.3a", "TE-8.3c"}
	if len(card.Signatures) > 0 {
		n.Rows = []string{"TE-8.3a", "TE-8.3b", "TE-8.3c"}
	}
	return []harness.Need{n}
}

func declares(card *a2a.AgentCard) bool {
	for _, x := range card.Capabilities.Extensions {
		if x.URI == vterms.URI {
			return true
		}
	}
	return false
}

func need(member string) harness.Need {
	for _, n := range (document{}).Needs() {
		if n.Member == member {
			return n
		}
	}
	panic("terms: no need " + member)
}

func lexiconOf(kind string) *vterms.Lexicon {
	if kind == "data-use" {
		return vterms.DataUseLexicon
	}
	return vterms.TermLexicon
}

// flaggedTexts are the card's sentences the lexicon of kind flags.
func flaggedTexts(card *a2a.AgentCard, kind string) []string {
	var out []string
	for _, f := range vterms.FlaggedSentences(card, lexiconOf(kind)) {
		out = append(out, f.Text)
	}
	return out
}
