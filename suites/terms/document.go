package terms

import (
	"context"

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
// where the card's prose states a claim the lexicon flags (TE-4.1b/c read inapplicable otherwise, as the spec does).
func (document) DeriveSection(_ context.Context, _ *a2a.Client, _ string, card *a2a.AgentCard, cfg target.Config, sec map[string]any) ([]string, []harness.Need) {
	if _, given := sec["claims"]; given || cfg.Agents[RoleClaims] != "" || card == nil {
		return nil, nil
	}
	var rows []string
	for _, c := range []struct {
		row string
		lex func() []string
	}{
		{"TE-4.1b", func() []string { return flaggedTexts(card, "term") }},
		{"TE-4.1c", func() []string { return flaggedTexts(card, "data-use") }},
	} {
		if len(c.lex()) > 0 {
			rows = append(rows, c.row)
		}
	}
	if len(rows) == 0 {
		return nil, nil
	}
	for _, n := range (document{}).Needs() {
		if n.Member == "claims" {
			n.Rows = rows
			return nil, []harness.Need{n}
		}
	}
	return nil, nil
}

// flaggedTexts are the card's sentences the lexicon of kind flags.
func flaggedTexts(card *a2a.AgentCard, kind string) []string {
	lex := vterms.TermLexicon
	if kind == "data-use" {
		lex = vterms.DataUseLexicon
	}
	var out []string
	for _, f := range vterms.FlaggedSentences(card, lex) {
		out = append(out, f.Text)
	}
	return out
}
