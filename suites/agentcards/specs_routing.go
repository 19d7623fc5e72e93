package agentcards

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/target"
)

func registerRoutingValue(s *session, spec specFn) {
	spec("AC-B.2a", "a2aTenant is stable: repeated GET /agents return the same R per agent, and an R read earlier keeps resolving", func(w *harness.W, row string) {
		_, _, _, ifs := s.needCard(w, row)
		first := s.needListing(w, row, roleA, true)
		c, _ := s.client(roleA)
		later := []*listing{s.list(w.Ctx(), c, "B.2a: GET /agents as A, again"), s.list(w.Ctx(), c, "B.2a: GET /agents as A, a third time")}
		for _, l := range later {
			if l.err != nil {
				w.Failf(l.ex, "a repeated GET /agents as A answers the inventory", "%v", l.err)
			}
			for _, e := range first.withR() {
				e2, ok := l.byID(e.AgentID)
				w.Check(ok && e2.R == e.R, fmt.Sprintf("%s keeps a2aTenant %q", e.AgentID, e.R),
					fmt.Sprintf("listed: %v, a2aTenant now %q", ok, e2.R), l.ex)
			}
		}
		e := first.withR()[0]
		var f fetched
		if ifs.rpc != "" {
			f = getCardRPC(w.Ctx(), c, ifs.rpc, e.R, "B.2a: the first R read, after the later listings")
		} else {
			f = getCardREST(w.Ctx(), c, ifs.rest, e.R, "B.2a: the first R read, after the later listings")
		}
		w.Check(f.raw != nil, fmt.Sprintf("the R first read for %s (%q) still resolves: GetExtendedAgentCard returns a card", e.AgentID, e.R), f.failed, f.ex)
	})

	identifier := func(kind, field string, get func(target.Principal) string) func(w *harness.W, row string) {
		return func(w *harness.W, row string) {
			pA, _ := principalFor(s.cfg(), roleA)
			missing := fmt.Sprintf("the caller's %s identifier as the host knows it is not configured: set %s in the target configuration", kind, credentialPath(s.e, roleA, field))
			if field == "tenant" {
				if get(pA) == "" {
					w.Blocked(missing) // every OpenWOP host has tenants: not declarable absent
				}
			} else {
				w.NeedStated("credential."+field, get(pA) != "", missing)
			}
			for _, r := range []string{roleA, roleB} {
				p, ok := principalFor(s.cfg(), r)
				id := get(p)
				if !ok || id == "" {
					continue // B's leg runs when B and its identifiers are configured
				}
				l := s.needListing(w, row, r, r == roleA)
				for _, form := range plantedForms(id) {
					found, _ := encodes(form, id)
					w.Control(found, fmt.Sprintf("the detector finds %s identifier %q planted in %q", kind, id, form), "not found", nil)
				}
				for _, e := range l.withR() {
					found, how := encodes(e.R, id)
					if weak := encodesWeakly(e.R, id); !found && weak != "" {
						w.Blocked(fmt.Sprintf("a2aTenant %q of %s (as %s) holds the caller's %s identifier %q %s: the identifier is too short to tell that from chance (RFC 0202 §B.2; substitutions and compositions count from %d characters)", e.R, e.AgentID, r, kind, id, weak, minSubstituted))
					}
					w.Negative(!found, fmt.Sprintf("a2aTenant %q of %s (as %s) does not encode the caller's %s identifier %q (checked: %s)", e.R, e.AgentID, r, kind, id, encodingsChecked),
						fmt.Sprintf("it carries %q %s", id, how), l.ex)
				}
			}
		}
	}
	tenant := identifier("tenant", "tenant", func(p target.Principal) string { return p.Tenant })
	wsID := identifier("workspace", "workspace", func(p target.Principal) string { return p.Workspace })
	pid := identifier("principal", "id", func(p target.Principal) string { return p.ID })
	spec("AC-B.2b", "a2aTenant does not encode the caller's tenant identifier", tenant)
	spec("AC-V2.2a", "a2aTenant does not encode a tenant (interop.md)", tenant)
	spec("AC-B.2c", "a2aTenant does not encode the caller's workspace identifier", wsID)
	spec("AC-V2.2b", "a2aTenant does not encode a workspace (interop.md)", wsID)
	spec("AC-B.2d", "a2aTenant does not encode the caller's principal identifier", pid)
	spec("AC-V2.2c", "a2aTenant does not encode a principal (interop.md)", pid)

	spec("AC-B.2e", "every inventory entry whose agent has a routed workflow carries an a2aTenant", func(w *harness.W, row string) {
		table := routedTable(s.cfg(), roleA)
		if len(table) == 0 {
			w.Need("routed.A", false, "list, per agent of A's inventory, the workflows the host routes to it (the routing is on no surface of the host)")
		}
		l := s.needListing(w, row, roleA, false)
		ids := make([]string, 0, len(table))
		for id := range table {
			ids = append(ids, id)
		}
		sort.Strings(ids)
		for _, id := range ids {
			if len(table[id]) == 0 {
				continue
			}
			e, ok := l.byID(id)
			w.Control(ok, fmt.Sprintf("A's GET /agents lists %s, to which the operator says %v are routed", id, table[id]), "not listed", l.ex)
			w.Check(e.HasR && e.R != "", "the entry of "+id+" (workflows routed to it) carries an a2aTenant", "no a2aTenant: "+clip(string(jsonOfFields(e.fields)), 300), l.ex)
		}
	})

	spec("AC-B.2f", "a2aTenant is stable for the agent: two callers who both list an agent read the same R for it", func(w *harness.W, row string) {
		w.UnlessAbsent("sharedAgent") // the operator's word that no agent is listed to two callers
		if _, ok := principalFor(s.cfg(), roleB); !ok {
			w.Blocked(blockedPrincipal(roleB))
		}
		lA := s.needListing(w, row, roleA, true)
		lB := s.needListing(w, row, roleB, false)
		shared := 0
		for _, eA := range lA.withR() {
			eB, ok := lB.byID(eA.AgentID)
			if !ok || !eB.HasR {
				continue
			}
			shared++
			w.Control(eA.AgentID == eB.AgentID, "A's and B's GET /agents both list "+eA.AgentID+" with an a2aTenant", "not both", lB.ex)
			w.Check(eA.R == eB.R, fmt.Sprintf("%s has one a2aTenant for A and for B (same agent, same host version)", eA.AgentID),
				fmt.Sprintf("A reads %q, B reads %q", eA.R, eB.R), lB.ex)
		}
		w.NeedStated("sharedAgent", shared > 0, "documents.agent-cards.sharedAgent: no agent is in both A's and B's inventories with an a2aTenant; install one agent in tenant B that A's workspace also holds (host-scoped, or installed in both tenants)")
	})

	spec("AC-B.2g", "every a2aTenant is 1 to 128 characters of ^[A-Za-z0-9._~-]+$", func(w *harness.W, row string) {
		if _, ok := principalFor(s.cfg(), roleA); !ok {
			w.Blocked(blockedPrincipal(roleA)) // without it the row asserted nothing and read not-tested
		}
		for _, r := range []string{roleA, roleB} {
			if _, ok := principalFor(s.cfg(), r); !ok {
				continue
			}
			l := s.needListing(w, row, r, r == roleA)
			for _, e := range l.entries {
				if !e.HasR {
					continue
				}
				raw := e.fields["a2aTenant"]
				var str string
				isString := json.Unmarshal(raw, &str) == nil
				ok := isString && len(str) >= 1 && len(str) <= 128 && tenantPattern.MatchString(str)
				w.Check(ok, fmt.Sprintf("the a2aTenant of %s (as %s) is a string of 1-128 characters of ^[A-Za-z0-9._~-]+$", e.AgentID, r),
					fmt.Sprintf("%s (%d characters)", clip(string(raw), 200), len(str)), l.ex)
			}
		}
	})

	spec("AC-B.3a", "an inventory entry whose agent has no routed workflow carries no a2aTenant", func(w *harness.W, row string) {
		ids := input(s.cfg(), "workflowless:"+roleA)
		if len(ids) == 0 {
			w.Need("workflowless.A", false, "list agentIds of A's inventory with no workflow routed (the routing is on no surface of the host)")
		}
		l := s.needListing(w, row, roleA, false)
		for _, id := range ids {
			e, ok := l.byID(id)
			w.Control(ok, "A's GET /agents lists the workflowless agent "+id, "not listed", l.ex)
			w.Negative(!e.HasR, "the entry of "+id+" (no workflow routed) has no a2aTenant member", fmt.Sprintf("a2aTenant = %q", e.R), l.ex)
		}
	})

	spec("AC-B.3b", "every per-agent card carries at least one skill", func(w *harness.W, row string) {
		_, _, _, ifs := s.needCard(w, row)
		for _, c := range s.needAgentCards(w, row, ifs) {
			for b, f := range c.all() {
				var card struct {
					Skills []json.RawMessage `json:"skills"`
				}
				_ = json.Unmarshal(f.raw, &card)
				w.Check(len(card.Skills) > 0, fmt.Sprintf("the card of %s (%s) carries skills with at least one skill", c.entry.AgentID, b),
					fmt.Sprintf("%d skills", len(card.Skills)), f.ex)
			}
		}
	})
}
