package agentcards

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
)

func registerCard(s *session, spec specFn) {
	notHost := func(w *harness.W, row, b string, f fetched, c agentCard, pub []byte, host fetched) {
		w.Check(f.raw != nil, fmt.Sprintf("%s GetExtendedAgentCard with tenant %q (%s) returns a card", b, c.entry.R, c.entry.AgentID), f.failed, f.ex)
		w.Check(!jsonEqual(f.raw, pub) && !jsonEqual(f.raw, host.raw),
			fmt.Sprintf("the card returned for %s's R over %s is that agent's, not the host's public or extended card", c.entry.AgentID, b),
			"JSON-equal to the host's card: "+clip(string(f.raw), 200), f.ex)
	}
	binding := func(bs ...string) func(w *harness.W, row string) {
		return func(w *harness.W, row string) {
			_, pub, _, ifs := s.needCard(w, row)
			served := 0
			for _, b := range bs {
				if contains(ifs.bindings(), b) {
					served++
				}
			}
			if served == 0 {
				w.Inapplicable(fmt.Sprintf("the public card lists no %s interface on the target's origins", strings.Join(bs, " or ")))
			}
			host := s.hostExtended(w.Ctx(), ifs)
			for _, b := range bs {
				if h, ok := host[b]; ok {
					// A host with no extended card of its own answers ExtendedAgentCardNotConfigured (A2A: declared
					// but absent); the per-agent card is then compared with the public card alone (README, reading 20).
					w.Control(h.raw != nil || h.notConfigured, b+" GetExtendedAgentCard without tenant, as A, returns the host's extended card, or says it has none (ExtendedAgentCardNotConfigured)", h.failed, h.ex)
				}
			}
			for _, c := range s.needAgentCards(w, row, ifs) {
				if contains(bs, a2a.BindingJSONRPC) && c.rpc != nil {
					notHost(w, row, a2a.BindingJSONRPC, *c.rpc, c, pub, host[a2a.BindingJSONRPC])
				}
				if contains(bs, a2a.BindingHTTPJSON) && c.rest != nil {
					notHost(w, row, a2a.BindingHTTPJSON, *c.rest, c, pub, host[a2a.BindingHTTPJSON])
				}
			}
		}
	}
	spec("AC-C.4a", "JSON-RPC GetExtendedAgentCard with tenant R returns that agent's card, not the host's", binding(a2a.BindingJSONRPC))
	spec("AC-C.4b", "HTTP+JSON GET /{R}/extendedAgentCard returns 200 with that agent's card, not the host's", binding(a2a.BindingHTTPJSON))
	spec("AC-V2.3a", "GetExtendedAgentCard with tenant R returns that agent's card on every binding the host serves (interop.md)", binding(a2a.BindingJSONRPC, a2a.BindingHTTPJSON))

	spec("AC-C.4c", "the card returned for R is a valid A2A 1.0 AgentCard in ProtoJSON", func(w *harness.W, row string) {
		_, _, _, ifs := s.needCard(w, row)
		for _, c := range s.needAgentCards(w, row, ifs) {
			for b, f := range c.all() {
				p := cardProblems(f.raw)
				w.Check(len(p) == 0, fmt.Sprintf("the card of %s (%s) has every required AgentCard member, well-typed", c.entry.AgentID, b), strings.Join(p, "; "), f.ex)
			}
		}
	})

	// The projection rows compare each card with its inventory entry and with the public (host) card.
	projection := func(check func(w *harness.W, row, b string, f fetched, c agentCard, pub []byte, l *listing)) func(w *harness.W, row string) {
		return func(w *harness.W, row string) {
			_, pub, _, ifs := s.needCard(w, row)
			cards := s.needAgentCards(w, row, ifs)
			l := s.listing(w.Ctx(), roleA)
			for _, c := range cards {
				for _, b := range []string{a2a.BindingJSONRPC, a2a.BindingHTTPJSON} {
					if f, ok := c.all()[b]; ok {
						check(w, row, b, f, c, pub, l)
					}
				}
			}
		}
	}
	member := func(raw []byte, k string) (string, bool) {
		var m map[string]json.RawMessage
		_ = json.Unmarshal(raw, &m)
		v, ok := m[k]
		var str string
		if ok && json.Unmarshal(v, &str) != nil {
			return string(v), true
		}
		return str, ok
	}
	spec("AC-V2.3b", "the per-agent card's name is the inventory entry's persona", projection(func(w *harness.W, row, b string, f fetched, c agentCard, _ []byte, l *listing) {
		w.Check(c.entry.Persona != "", "the inventory entry of "+c.entry.AgentID+" carries a persona to project", "no persona", l.ex)
		name, _ := member(f.raw, "name")
		w.Check(name == c.entry.Persona, fmt.Sprintf("card name of %s (%s) = persona %q", c.entry.AgentID, b, c.entry.Persona), fmt.Sprintf("name %q", name), f.ex)
	}))
	spec("AC-V2.3c", "the per-agent card's version is the entry's packVersion", projection(func(w *harness.W, row, b string, f fetched, c agentCard, _ []byte, l *listing) {
		w.Check(c.entry.PackVersion != "", "the inventory entry of "+c.entry.AgentID+" carries a packVersion to project", "no packVersion", l.ex)
		v, _ := member(f.raw, "version")
		w.Check(v == c.entry.PackVersion, fmt.Sprintf("card version of %s (%s) = packVersion %q", c.entry.AgentID, b, c.entry.PackVersion), fmt.Sprintf("version %q", v), f.ex)
	}))
	spec("AC-V2.3d", "the per-agent card's description is the entry's description, or its label when it has none", projection(func(w *harness.W, row, b string, f fetched, c agentCard, _ []byte, _ *listing) {
		want, from := c.entry.Description, "description"
		if !c.entry.HasDescription || want == "" {
			want, from = c.entry.Label, "label (the entry has no description)"
		}
		d, _ := member(f.raw, "description")
		w.Check(d == want, fmt.Sprintf("card description of %s (%s) = the entry's %s %q", c.entry.AgentID, b, from, want), fmt.Sprintf("description %q", clip(d, 200)), f.ex)
	}))
	type iface struct {
		URL             string `json:"url"`
		ProtocolBinding string `json:"protocolBinding"`
		ProtocolVersion string `json:"protocolVersion"`
		Tenant          string `json:"tenant"`
	}
	interfacesOf := func(raw []byte) []iface {
		var c struct {
			SupportedInterfaces []iface `json:"supportedInterfaces"`
		}
		_ = json.Unmarshal(raw, &c)
		return c.SupportedInterfaces
	}
	// "supportedInterfaces[] are the host card's interfaces" names the interfaces, not their order: compared as a
	// multiset (README, reading 14).
	spec("AC-V2.3e", "the per-agent card's supportedInterfaces are the host card's interfaces, none added or dropped", projection(func(w *harness.W, row, b string, f fetched, c agentCard, pub []byte, _ *listing) {
		strip := func(l []iface) string {
			var parts []string
			for _, i := range l {
				parts = append(parts, i.ProtocolBinding+" "+i.URL+" v"+i.ProtocolVersion)
			}
			sort.Strings(parts)
			return "[" + strings.Join(parts, ", ") + "]"
		}
		got, want := strip(interfacesOf(f.raw)), strip(interfacesOf(pub))
		w.Check(got == want, fmt.Sprintf("the interfaces of %s's card (%s), tenant aside, are the host card's %s", c.entry.AgentID, b, want), got, f.ex)
	}))
	spec("AC-V2.3f", "every supportedInterfaces entry of the per-agent card carries tenant = R", projection(func(w *harness.W, row, b string, f fetched, c agentCard, _ []byte, _ *listing) {
		ifs := interfacesOf(f.raw)
		w.Check(len(ifs) > 0, fmt.Sprintf("the card of %s (%s) lists interfaces", c.entry.AgentID, b), "none", f.ex)
		for i, in := range ifs {
			w.Check(in.Tenant == c.entry.R, fmt.Sprintf("supportedInterfaces[%d] (%s) of %s's card carries tenant %q", i, in.ProtocolBinding, c.entry.AgentID, c.entry.R),
				fmt.Sprintf("tenant %q", in.Tenant), f.ex)
		}
	}))
	rawMember := func(raw []byte, k string) json.RawMessage {
		var m map[string]json.RawMessage
		_ = json.Unmarshal(raw, &m)
		return m[k]
	}
	spec("AC-V2.3g", "the per-agent card's capabilities equal the host card's", projection(func(w *harness.W, row, b string, f fetched, c agentCard, pub []byte, _ *listing) {
		got, want := rawMember(f.raw, "capabilities"), rawMember(pub, "capabilities")
		w.Check(jsonEqual(got, want), fmt.Sprintf("capabilities of %s's card (%s) equal the host card's %s", c.entry.AgentID, b, want), string(got), f.ex)
	}))
	spec("AC-V2.3h", "the per-agent card's securitySchemes equal the host card's", projection(func(w *harness.W, row, b string, f fetched, c agentCard, pub []byte, _ *listing) {
		got, want := rawMember(f.raw, "securitySchemes"), rawMember(pub, "securitySchemes")
		ok := jsonEqual(got, want) || len(got) == 0 && len(want) == 0
		w.Check(ok, fmt.Sprintf("securitySchemes of %s's card (%s) equal the host card's %s", c.entry.AgentID, b, show(want)), show(got), f.ex)
	}))

	spec("AC-V2.3i", "the per-agent card holds one skill per workflow routed to the agent for this caller", func(w *harness.W, row string) {
		_, _, _, ifs := s.needCard(w, row)
		table := routedTable(s.cfg(), roleA)
		if len(table) == 0 {
			w.Need("routed.A", false, "list, per agent of A's inventory, the workflows the host routes to it (the routing is on no surface of the host)")
		}
		check := func(r string, c agentCard, routed []string) {
			for b, f := range c.all() {
				var card struct {
					Skills []struct {
						ID string `json:"id"`
					} `json:"skills"`
				}
				_ = json.Unmarshal(f.raw, &card)
				var ids []string
				dup := false
				for _, sk := range card.Skills {
					dup = dup || contains(ids, sk.ID)
					ids = append(ids, sk.ID)
				}
				got, want := sortedCopy(ids), sortedCopy(routed)
				w.Check(!dup && strings.Join(got, ",") == strings.Join(want, ","),
					fmt.Sprintf("the skills of %s's card as %s (%s) are exactly the routed workflows %v, each once", c.entry.AgentID, r, b, want),
					fmt.Sprintf("skill ids %v", ids), f.ex)
			}
		}
		checked := 0
		for _, c := range s.needAgentCards(w, row, ifs) {
			if routed, ok := table[c.entry.AgentID]; ok {
				check(roleA, c, routed)
				checked++
			}
		}
		if checked == 0 {
			w.Blocked("the routing table names none of the agents with an a2aTenant in A's inventory")
		}
		// "for this caller": B's card of an agent both inventories hold, against B's routing table.
		if tb := routedTable(s.cfg(), roleB); len(tb) > 0 {
			if _, ok := principalFor(s.cfg(), roleB); ok {
				s.needListing(w, row, roleB, false)
				for _, c := range s.agentCards(w.Ctx(), roleB, ifs) {
					if routed, ok := tb[c.entry.AgentID]; ok {
						check(roleB, c, routed)
					}
				}
			}
		}
	})
}
