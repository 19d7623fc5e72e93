package agentcards

import (
	"context"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/target"
)

// Document registers this suite with the engine (cmd wires every document in suites.All).
func Document() harness.Document { return document{} }

type document struct{}

func (document) ID() string              { return "agent-cards" }
func (document) Suites() []harness.Suite { return []harness.Suite{Suite()} }

// Origins: the operator's OpenWOP discovery document and inventory, which may live off the card's origin.
func (document) Origins(cfg target.Config) []string { return []string{cfg.Discovery, cfg.Inventory} }

func (document) LimitsMember() string                { return "" }
func (document) CheckConfig(cfg target.Config) error { return nil }

// Input: the agent-cards section (principals, discovery, inventory, routing tables, canaries).
func (document) Input() any { return &Input{} }

// DeriveSection (harness.SectionDeriver): the discovery document and the inventory, where they answer on the card's
// origin at OpenWOP's paths.
func (document) DeriveSection(ctx context.Context, cl *a2a.Client, cardURL string, _ *a2a.AgentCard, _ target.Config, sec map[string]any) ([]string, []harness.Need) {
	o := origin(cardURL)
	if o == "" {
		return nil, nil
	}
	var notes []string
	for _, m := range []struct{ member, path string }{{"discovery", WellKnownPath}, {"inventory", "/agents"}} {
		if _, given := sec[m.member]; given {
			continue
		}
		if _, _, err := cl.FetchJSON(ctx, o+m.path, a2a.Call{Note: "config: " + m.member}); err == nil {
			sec[m.member] = o + m.path
			notes = append(notes, m.member+" derived: "+o+m.path+" answers with JSON")
		}
	}
	return notes, nil
}
