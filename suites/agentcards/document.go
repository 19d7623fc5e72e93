package agentcards

import (
	"context"
	"strings"

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
// A path-only inventory lies on the discovery document's origin and adds none.
func (document) Origins(cfg target.Config) []string {
	if strings.HasPrefix(cfg.Inventory, "/") {
		return []string{cfg.Discovery}
	}
	return []string{cfg.Discovery, cfg.Inventory}
}

func (document) LimitsMember() string                { return "" }
func (document) CheckConfig(cfg target.Config) error { return nil }

// Input: the agent-cards section (principals, discovery, inventory, routing tables, canaries).
func (document) Input() any { return &Input{} }

// DeriveSection (harness.SectionDeriver): the discovery document and the inventory, where they answer on the card's
// origin at OpenWOP's paths.
// It also lists A's and B's inventories as the run does, so that AC-B.2f is predicted blocked where no agent is
// in both.
func (document) DeriveSection(ctx context.Context, cl *a2a.Client, cardURL string, _ *a2a.AgentCard, cfg target.Config, sec map[string]any) ([]string, []harness.Need) {
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
	_, had := sec["inventory"]
	needs := inventoryNeed(ctx, cl, cfg, sec, o+"/agents")
	if _, now := sec["inventory"]; now && !had {
		notes = append(notes, "inventory derived: "+o+"/agents answers principal A's inventory")
	}
	return notes, append(needs, sharedAgentNeeds(ctx, cl, cfg, sec)...)
}

// sharedAgentNeeds is AC-B.2f's need on this host: none unless principals A and B are both configured, their
// inventories can be read, and no agent with an a2aTenant is in both (the spec's own test).
func sharedAgentNeeds(ctx context.Context, cl *a2a.Client, cfg target.Config, sec map[string]any) []harness.Need {
	inv, _ := sec["inventory"].(string)
	if inv == "" {
		disc, _ := sec["discovery"].(string)
		if disc == "" {
			disc = cfg.Discovery
		}
		inv = resolveInventory(cfg.Inventory, disc)
	}
	if inv == "" {
		return nil
	}
	list := func(role string) *listing {
		p, ok := principalFor(cfg, role)
		if !ok {
			return nil
		}
		h := p.Header
		if h == "" {
			h = "Authorization"
		}
		raw, _, err := cl.WithHeader(h, p.Value).FetchJSON(ctx, inv, a2a.Call{Note: "config: GET /agents as principal " + role})
		if err != nil {
			return nil
		}
		l := &listing{}
		if l.entries, err = parseInventory(raw); err != nil || len(l.withR()) == 0 {
			return nil
		}
		return l
	}
	lA, lB := list(roleA), list(roleB)
	if lA == nil || lB == nil {
		return nil // the row blocks (or fails) on something else first
	}
	for _, eA := range lA.withR() {
		if eB, ok := lB.byID(eA.AgentID); ok && eB.HasR {
			return nil
		}
	}
	for _, n := range (document{}).Needs() {
		if n.Member == "sharedAgent" {
			return []harness.Need{n}
		}
	}
	return nil
}
