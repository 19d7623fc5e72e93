// Package agentcards is the conformance suite of OpenWOP RFC 0202 (each inventoried agent published as an A2A
// Agent Card; catalog rows AC-…, aliases 0202.*). It sees the host only through the target: the OpenWOP discovery
// document and inventory named in the target configuration, the public card, and both A2A bindings. One spec per
// row; the surfaces are fetched once per run and shared (session.go). See README.md for the row → spec → toggle
// table and the operator input the gated rows need.
package agentcards

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"sort"
	"strings"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/target"
)

// ID is the catalog document id; its "URI" is the facet name a2a.agentCards.
const ID = "agent-cards"

// Suite returns the agent-cards suite.
func Suite() harness.Suite {
	return harness.Suite{Document: ID, Applicable: applicable, Register: register}
}

// applicable: the host's OpenWOP v2 discovery document (/.well-known/openwop on the card's origin, negotiated with
// OpenWOP-Version: 2; `discovery` in the target configuration overrides the location) carries the facet agentCards in
// its a2a capability record. Nothing OpenWOP at the well-known location, a v1-only host, or a v2 root without the
// facet: every row inapplicable, with that reason. A discovery document that cannot be fetched or parsed is not
// "inapplicable": the advertisement rows fail on it and the other rows are blocked.
func applicable(ctx context.Context, e *harness.Env) (bool, string) {
	d := sessionFor(e).discovery(ctx)
	switch {
	case d.absent != "":
		return false, "the target is not an OpenWOP host: no discovery document (" + d.absent + "), so it does not advertise a2a.agentCards; set `discovery` in the target configuration if the document lives elsewhere"
	case d.err != nil:
		return true, ""
	case d.v1 != "":
		return false, "the host serves only OpenWOP v1 discovery: " + d.v1 + "; a2a.agentCards is a facet of the v2 a2a record (RFC 0202 Compatibility: \"v1 is untouched\")"
	}
	if ok, obs := d.facet("a2a", "agentCards", true); !ok {
		return false, fmt.Sprintf("the v2 discovery document at %s (%s) does not advertise the facet a2a.agentCards: %s", d.url, d.ex.ID, obs)
	}
	return true, ""
}

// advertisement rows are graded on the discovery document itself; every other row needs it read first.
var advertisement = map[string]bool{"AC-A.1a": true, "AC-A.1b": true, "AC-V2.1a": true, "AC-V2.1b": true}

func register(e *harness.Env) {
	s := sessionFor(e)
	spec := func(row, text string, body func(w *harness.W, row string)) {
		harness.Spec(e, row, text, func(w *harness.W) {
			if d := s.discovery(w.Ctx()); d.err != nil && !advertisement[row] {
				w.Blocked("the OpenWOP discovery document could not be read (" + d.err.Error() + "), so whether the host advertises a2a.agentCards is unknown; the advertisement rows fail on it")
			}
			body(w, row)
		})
	}
	registerAdvertisement(s, spec)
	registerRoutingValue(s, spec)
	registerCard(s, spec)
	registerSecrets(s, spec)
	registerAuth(s, spec)
	registerRefusal(s, spec)
	registerPublic(s, spec)
}

type specFn func(row, text string, body func(w *harness.W, row string))

// ---- prerequisites shared by the specs ----

func (s *session) needDiscovery(w *harness.W, row string) *discovery {
	d := s.discovery(w.Ctx())
	if d.err != nil {
		w.Failf(d.ex, "the OpenWOP discovery document at "+d.url+" answers OpenWOP-Version: 2 with a JSON object", "%v", d.err)
	}
	return d
}

// needCard returns the public card (fetched once by the engine, unauthenticated) and the interfaces to use.
func (s *session) needCard(w *harness.W, row string) (*a2a.AgentCard, []byte, *a2a.Exchange, ifaces) {
	card, raw, ex := w.Card(role)
	ifs := s.interfaces(card)
	if len(ifs.bindings()) == 0 {
		w.Blocked("the public card lists no JSON-RPC or HTTP+JSON interface the harness may follow: " + strings.Join(ifs.skipped, "; "))
	}
	return card, raw, ex, ifs
}

func blockedPrincipal(role string) string {
	switch role {
	case roleB:
		return "needs principal B, a caller in a second tenant with an agent installed in that tenant only (the RFC's OPENWOP_TEST_TENANT_B_API_KEY): name its credential in documents.agent-cards.principals.B (credentials.<name>: {header, value})"
	case roleRestricted:
		return "needs principal A-restricted, a caller that authenticates but that GET /agents/{agentId} refuses (e.g. without runs:read): name its credential in documents.agent-cards.principals[\"A-restricted\"] (credentials.<name>: {header, value})"
	}
	return "needs principal A, a caller in tenant A: name its credential in documents.agent-cards.principals.A (credentials.<name>: {header, value})"
}

// needListing returns role's GET /agents; wantR blocks the spec when no entry carries an a2aTenant.
func (s *session) needListing(w *harness.W, row, r string, wantR bool) *listing {
	if _, ok := principalFor(s.cfg(), r); !ok {
		w.Blocked(blockedPrincipal(r))
	}
	l := s.listing(w.Ctx(), r)
	if errors.Is(l.err, errNoInventory) {
		w.Blocked(l.err.Error())
	}
	if l.err != nil {
		w.Failf(l.ex, "GET /agents as principal "+r+" answers the caller's inventory", "%v", l.err)
	}
	if wantR && len(l.withR()) == 0 {
		w.Blocked("principal " + r + "'s inventory (GET /agents) lists no entry with an a2aTenant: install an agent with a routed workflow for that caller")
	}
	return l
}

// needAgentCards returns A's per-agent cards; a card that could not be fetched fails the row.
func (s *session) needAgentCards(w *harness.W, row string, ifs ifaces) []agentCard {
	s.needListing(w, row, roleA, true)
	cards := s.agentCards(w.Ctx(), roleA, ifs)
	for _, c := range cards {
		for _, f := range []*fetched{c.rpc, c.rest} {
			if f != nil && f.raw == nil {
				w.Failf(f.ex, fmt.Sprintf("GetExtendedAgentCard with tenant R (%s) returns the agent's card", c.entry.AgentID), "%s", f.failed)
			}
		}
	}
	return cards
}

func legs(ifs ifaces) []leg {
	var out []leg
	for _, b := range ifs.bindings() {
		for _, op := range operations {
			out = append(out, leg{b, op})
		}
	}
	return out
}

// needProbes runs the setup of the operation probes (A's primary R and a task created through it).
func (s *session) needProbes(w *harness.W, row string) ifaces {
	_, _, _, ifs := s.needCard(w, row)
	s.needListing(w, row, roleA, true)
	st := s.setup(w.Ctx(), ifs)
	if st.failed != "" {
		w.Failf(st.ex, "A's SendMessage with tenant = its own R creates a task (setup of the task-addressed probes)", "%s", st.failed)
	}
	return ifs
}

// controlRMatters is the positive control of every comparison: with A's credentials, the host answers A's own R
// differently from a never-minted one on at least one operation of each binding, so R is resolved and an identical
// refusal is not a vacuous one. An operation the host refuses uniformly before resolving R (the same answer for
// both) discloses nothing and is still compared; it is no failed control (README, reading 8).
func (s *session) controlRMatters(w *harness.W, row string, ifs ifaces) {
	ctrl, never := s.answers(w.Ctx(), ifs, "ctrl"), s.answers(w.Ctx(), ifs, "never")
	for _, b := range ifs.bindings() {
		var differs []string
		var all []string
		var ex *a2a.Exchange
		for _, op := range operations {
			l := leg{b, op}
			st, cd, bd := same(ctrl[l], never[l])
			if ctrl[l].ex != nil && !(st && cd && bd) {
				differs = append(differs, op)
				if ex == nil {
					ex = ctrl[l].ex
				}
			}
			all = append(all, fmt.Sprintf("%s: own R %s | never-minted %s", op, ctrl[l].describe(), never[l].describe()))
		}
		if ex == nil {
			ex = ctrl[leg{b, "GetExtendedAgentCard"}].ex
		}
		w.Control(len(differs) > 0, fmt.Sprintf("with A's credentials, some %s operation answers A's own R differently from a never-minted R (R is resolved)", b),
			clip(strings.Join(all, "; "), 1200), ex)
	}
}

// ---- §A Advertisement ----

func registerAdvertisement(s *session, spec specFn) {
	facetCheck := func(w *harness.W, row string, d *discovery) {
		ok, obs := d.facet("a2a", "agentCards", true)
		w.Check(ok, "the v2 discovery document's a2a record carries agentCards: true", obs, d.ex)
	}
	profile := func(w *harness.W, row string) {
		d := s.needDiscovery(w, row)
		facetCheck(w, row, d)
		ok, obs := d.a2a10()
		w.Check(ok, "a host advertising a2a.agentCards offers the a2a-1.0 profile (\"a2a-1.0\" in a2a.profiles or \"1.0\" in a2a.versions)", obs, d.ex)
	}
	runtime := func(w *harness.W, row string) {
		d := s.needDiscovery(w, row)
		facetCheck(w, row, d)
		ok, obs := d.facet("agents", "manifestRuntime", false)
		w.Check(ok, "a host advertising a2a.agentCards advertises agents.manifestRuntime (the key present in the v2 root's agents record)", obs, d.ex)
	}
	extended := func(w *harness.W, row string) {
		for _, pc := range s.publicCards(w, row) {
			var c struct {
				Capabilities map[string]json.RawMessage `json:"capabilities"`
			}
			_ = json.Unmarshal(pc.raw, &c)
			v := string(c.Capabilities["extendedAgentCard"])
			if v == "" {
				v = "absent"
			}
			w.Check(v == "true", "the public card at "+pc.url+" declares capabilities.extendedAgentCard: true (the JSON boolean)",
				"capabilities.extendedAgentCard is "+v, pc.ex)
		}
	}
	spec("AC-A.1a", "a host advertising a2a.agentCards offers the a2a-1.0 profile", profile)
	spec("AC-V2.1a", "a host advertising a2a.agentCards offers the a2a-1.0 profile (interop.md)", profile)
	spec("AC-A.1b", "a host advertising a2a.agentCards advertises agents.manifestRuntime", runtime)
	spec("AC-V2.1b", "a host advertising a2a.agentCards offers agents.manifestRuntime (interop.md)", runtime)
	spec("AC-A.1c", "a host advertising a2a.agentCards declares capabilities.extendedAgentCard: true on its public card", extended)
	spec("AC-V2.1c", "a host advertising a2a.agentCards declares capabilities.extendedAgentCard: true on its public card (interop.md)", extended)
}

// publicCard is one location of the unauthenticated card.
type publicCard struct {
	url string
	raw []byte
	ex  *a2a.Exchange
}

// publicCards returns every distinct location of the public card: the target's card URL and the discovery
// document's agentCardUrl (when it names another URL on the target's origins).
func (s *session) publicCards(w *harness.W, row string) []publicCard {
	_, raw, ex := w.Card(role)
	u, _ := s.e.Target.CardURL(role)
	out := []publicCard{{url: u, raw: raw, ex: ex}}
	d := s.discovery(w.Ctx())
	if d.err != nil {
		return out
	}
	other := d.agentCardURL()
	if other == "" || other == u || !s.allowed(other) {
		return out
	}
	f := memo(s, "card-at:"+other, func() publicCard {
		_, ex, err := s.e.Client.FetchCard(w.Ctx(), other, a2a.Call{Note: "public card at the discovery document's agentCardUrl"})
		pc := publicCard{url: other, ex: ex}
		if err == nil && ex != nil {
			pc.raw = ex.ResponseBody
		}
		return pc
	})
	if f.raw == nil {
		w.Failf(f.ex, "the public card at agentCardUrl "+other+" can be fetched", "no card")
	}
	return append(out, f)
}

// ---- §B The routing value ----

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
		w.NeedStated("sharedAgent", shared > 0, "no agent is in both A's and B's inventories with an a2aTenant: install one agent in tenant B that A's workspace also holds (host-scoped, or installed in both tenants)")
	})

	spec("AC-B.2g", "every a2aTenant is 1 to 128 characters of ^[A-Za-z0-9._~-]+$", func(w *harness.W, row string) {
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

// ---- §C The card ----

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
					w.Control(h.raw != nil, b+" GetExtendedAgentCard without tenant, as A, returns the host's extended card", h.failed, h.ex)
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
	spec("AC-V2.3e", "the per-agent card's supportedInterfaces are the host card's interfaces, in order, none added or dropped", projection(func(w *harness.W, row, b string, f fetched, c agentCard, pub []byte, _ *listing) {
		strip := func(l []iface) string {
			var parts []string
			for _, i := range l {
				parts = append(parts, i.ProtocolBinding+" "+i.URL+" v"+i.ProtocolVersion)
			}
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

// ---- §C rule 5: nothing the entry may not carry (SR-1) ----

func registerSecrets(s *session, spec specFn) {
	kinds := map[string]string{
		"system-prompt":  "system-prompt body",
		"handoff-schema": "resolved handoff schema",
		"credential":     "credential material",
	}
	search := func(w *harness.W, row string, which ...string) {
		_, _, _, ifs := s.needCard(w, row)
		type canary struct{ kind, value string }
		var cs []canary
		for _, k := range which {
			for _, v := range input(s.cfg(), "canary:"+k) {
				if v != "" {
					cs = append(cs, canary{k, v})
				}
			}
		}
		if len(cs) == 0 {
			member := canariesAny
			if len(which) == 1 {
				member = "canaries." + camelKind(which[0])
			}
			w.Need(member, false, "no canary is configured to search per-agent cards for: list strings planted in the agents' secrets")
		}
		for _, c := range s.needAgentCards(w, row, ifs) {
			for b, f := range c.all() {
				for _, cn := range cs {
					planted := plant(f.raw, cn.value)
					found, _ := findCanary(planted, cn.value)
					w.Control(found, fmt.Sprintf("the search finds the %s canary %q when it is planted (plainly and base64) in %s's card", kinds[cn.kind], cn.value, c.entry.AgentID), "not found", nil)
					found, where := findCanary(f.raw, cn.value)
					w.Negative(!found, fmt.Sprintf("the card of %s (%s) carries no %s (canary %q)", c.entry.AgentID, b, kinds[cn.kind], cn.value), "found "+where, f.ex)
				}
			}
		}
	}
	spec("AC-C.5a", "the per-agent card carries no part of the agent's system-prompt body", func(w *harness.W, row string) { search(w, row, "system-prompt") })
	spec("AC-C.5b", "the per-agent card carries none of the agent's resolved handoff schemas", func(w *harness.W, row string) { search(w, row, "handoff-schema") })
	spec("AC-C.5c", "the per-agent card carries no credential material of the agent", func(w *harness.W, row string) { search(w, row, "credential") })
	spec("AC-V2.4", "the per-agent card carries nothing the inventory entry may not carry (SR-1, interop.md)", func(w *harness.W, row string) {
		search(w, row, "system-prompt", "handoff-schema", "credential")
	})
	spec("AC-V2.4b", "degraded[] and memoryDegraded stay on the inventory entry: the card does not replace it", func(w *harness.W, row string) {
		ids := input(s.cfg(), "degraded:"+roleA)
		if len(ids) == 0 {
			w.Need("degraded.A", false, "list agentIds of A's inventory whose agents are degraded (degradation is the host's internal state)")
		}
		l := s.needListing(w, row, roleA, true)
		for _, id := range ids {
			e, ok := l.byID(id)
			w.Control(ok, "A's GET /agents lists the degraded agent "+id, "not listed", l.ex)
			var deg []json.RawMessage
			_ = json.Unmarshal(e.fields["degraded"], &deg)
			mem := string(e.fields["memoryDegraded"]) == "true"
			w.Check(len(deg) > 0 || mem, "the GET /agents entry of "+id+" (degraded, says the operator) still carries degraded[] or memoryDegraded: true",
				fmt.Sprintf("degraded = %s, memoryDegraded = %s", showRaw(e.fields["degraded"]), showRaw(e.fields["memoryDegraded"])), l.ex)
		}
	})
}

// plant returns a copy of a card with canary added as a plain and a base64 string member (the search's control).
func plant(raw []byte, canary string) []byte {
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil || m == nil {
		m = map[string]any{}
	}
	m["extconfPlanted"] = map[string]any{"plain": "x " + canary + " y", "b64": base64.StdEncoding.EncodeToString([]byte(canary))}
	b, _ := json.Marshal(m)
	return b
}

// ---- §D rule 6: authentication and authorization before resolution ----

func registerAuth(s *session, spec specFn) {
	unauthenticated := func(w *harness.W, row string) {
		ifs := s.needProbes(w, row)
		ctrl := s.answers(w.Ctx(), ifs, "ctrl")
		for _, l := range legs(ifs) {
			w.Control(ctrl[l].ex != nil && !ctrl[l].authRefused(), fmt.Sprintf("%s with A's credentials and A's own R is not refused as unauthenticated", l), ctrl[l].describe(), ctrl[l].ex)
			for _, sw := range [][2]string{{"unauth:A", "without credentials"}, {"bad:A", "with a credential the host never issued"}} {
				set, who := sw[0], sw[1]
				a := s.answers(w.Ctx(), ifs, set)[l]
				w.Negative(a.authRefused(), fmt.Sprintf("%s carrying A's R %s is refused as unauthenticated (HTTP 401 or 403) and answered with no card and no result", l, who),
					a.describe(), a.ex)
			}
		}
	}
	spec("AC-D.6a", "a request carrying R without valid credentials is refused as unauthenticated on every operation and binding", unauthenticated)
	spec("AC-V2.5a", "a request carrying R is authenticated: without valid credentials it is refused, never served (interop.md)", unauthenticated)

	authorized := func(w *harness.W, row string) {
		ifs := s.needProbes(w, row)
		_, ok := principalFor(s.cfg(), roleRestricted)
		w.NeedStated("principals.A-restricted", ok, blockedPrincipal(roleRestricted))
		st := s.setup(w.Ctx(), ifs)
		agentURL := strings.TrimRight(s.inventoryURL(), "/") + "/" + url.PathEscape(st.primary.AgentID)
		cA, _ := s.client(roleA)
		cR, _ := s.client(roleRestricted)
		getA := memo(s, "get-agent:A", func() *a2a.Exchange {
			ex, _ := cA.HTTP(w.Ctx(), "GET", agentURL, nil, a2a.Call{Note: "GET /agents/{agentId} as A"})
			return ex
		})
		getR := memo(s, "get-agent:restricted", func() *a2a.Exchange {
			ex, _ := cR.HTTP(w.Ctx(), "GET", agentURL, nil, a2a.Call{Note: "GET /agents/{agentId} as A-restricted"})
			return ex
		})
		if getR != nil && getR.Status == 200 {
			w.Blocked("the configured principal A-restricted is served by GET /agents/" + st.primary.AgentID + " (" + getR.ID + "): it cannot show a policy difference; configure a principal that endpoint refuses")
		}
		w.Control(getA != nil && getA.Status == 200, "GET /agents/"+st.primary.AgentID+" serves A", statusOf(getA), getA)
		w.Control(getR != nil && getR.Status != 200, "GET /agents/"+st.primary.AgentID+" refuses A-restricted", statusOf(getR), getR)
		ctrl := s.answers(w.Ctx(), ifs, "ctrl")
		restricted, restrictedNever := s.answers(w.Ctx(), ifs, "restricted:A"), s.answers(w.Ctx(), ifs, "restricted:never")
		for _, l := range legs(ifs) {
			w.Check(ctrl[l].ex != nil && !ctrl[l].authRefused(), fmt.Sprintf("%s carrying R is served for A, whom GET /agents/{agentId} serves", l), ctrl[l].describe(), ctrl[l].ex)
			a, n := restricted[l], restrictedNever[l]
			st, cd, bd := same(a, n)
			refused := !a.result && (a.authRefused() || st && cd && bd)
			w.Negative(refused, fmt.Sprintf("%s carrying A's R is refused for A-restricted, whom GET /agents/{agentId} refuses (an authorization refusal, or the refusal of an R outside its inventory)", l),
				fmt.Sprintf("A-restricted with R: %s | with a never-minted R: %s", a.describe(), n.describe()), a.ex)
		}
	}
	spec("AC-D.6b", "a request carrying R is authorized under GET /agents/{agentId}'s policy: refused for a principal it refuses, served for one it serves", authorized)
	spec("AC-V2.5b", "a request carrying R is authorized as GET /agents/{agentId} is (interop.md)", authorized)

	before := func(w *harness.W, row string) {
		ifs := s.needProbes(w, row)
		s.controlRMatters(w, row, ifs)
		for _, l := range legs(ifs) {
			for _, pair := range [][2]string{{"unauth:A", "unauth:never"}, {"bad:A", "bad:never"}} {
				a, n := s.answers(w.Ctx(), ifs, pair[0])[l], s.answers(w.Ctx(), ifs, pair[1])[l]
				st, cd, bd := same(a, n)
				w.Negative(st && cd && bd, fmt.Sprintf("%s without valid credentials (%s): a minted R and a never-minted R get the same refusal (status, code, body)", l, pair[0]),
					fmt.Sprintf("minted R: %s | never-minted R: %s", a.describe(), n.describe()), a.ex)
			}
		}
	}
	spec("AC-D.6c", "authentication precedes resolution: unauthenticated requests with a minted and a never-minted R get identical refusals", before)
	spec("AC-V2.5c", "authentication precedes resolution of R (interop.md)", before)
}

var tenantPattern = regexp.MustCompile(`^[A-Za-z0-9._~-]+$`)

func showRaw(r json.RawMessage) string {
	if len(r) == 0 {
		return "absent"
	}
	return clip(string(r), 120)
}

func jsonOfFields(f map[string]json.RawMessage) []byte {
	b, _ := json.Marshal(f)
	return b
}

func statusOf(ex *a2a.Exchange) string {
	if ex == nil {
		return "no exchange"
	}
	return fmt.Sprintf("HTTP %d %s", ex.Status, clip(string(ex.ResponseBody), 160))
}

// ---- §D rule 7: identical refusal; §D.9 tenant of record; the invariant ----

// foreignSets are the foreign routing values compared with the never-minted one: tenant B's (required) and the
// operator's unapproved and uninstalled ones (optional).
func (s *session) needForeign(w *harness.W, row string) (ifaces, []string) {
	ifs := s.needProbes(w, row)
	if _, ok := principalFor(s.cfg(), roleB); !ok {
		w.Blocked(blockedPrincipal(roleB))
	}
	lA := s.listing(w.Ctx(), roleA)
	s.needListing(w, row, roleB, true)
	fb := s.foreignB(w.Ctx())
	if !fb.ok {
		w.Blocked(fb.reason)
	}
	f := s.bCard(w, ifs, fb.entry)
	w.Control(f.raw != nil, fmt.Sprintf("B's GetExtendedAgentCard with its R %q returns the card of %s: the agent exists", fb.entry.R, fb.entry.AgentID), f.failed, f.ex)
	_, listed := lA.byID(fb.entry.AgentID)
	w.Control(!listed && !contains(lA.rs(), fb.entry.R), "A's GET /agents does not list "+fb.entry.AgentID+" nor its R", "listed", lA.ex)
	s.controlRMatters(w, row, ifs)
	sets := []string{"foreign:B"}
	for _, k := range []string{"unapproved", "uninstalled"} {
		if len(input(s.cfg(), "foreign-r:"+k)) > 0 {
			sets = append(sets, "foreign:"+k)
		}
	}
	return ifs, sets
}

func (s *session) bCard(w *harness.W, ifs ifaces, e entry) fetched {
	return memo(s, "b-card", func() fetched {
		c, _ := s.client(roleB)
		if ifs.rpc != "" {
			return getCardRPC(w.Ctx(), c, ifs.rpc, e.R, "positive control: B's card of its own agent "+e.AgentID)
		}
		return getCardREST(w.Ctx(), c, ifs.rest, e.R, "positive control: B's card of its own agent "+e.AgentID)
	})
}

var foreignLabel = map[string]string{"foreign:B": "tenant B's R", "foreign:unapproved": "an unapproved agent's R", "foreign:uninstalled": "an uninstalled agent's R"}

func registerRefusal(s *session, spec specFn) {
	// compare grades each foreign R against the never-minted one; withHeaders also compares the response headers
	// apart from the per-response ones (perResponse, and those the never-minted baseline shows varying).
	compare := func(what string, withHeaders bool, ok func(st, cd, bd bool) bool) func(w *harness.W, row string) {
		return func(w *harness.W, row string) {
			ifs, sets := s.needForeign(w, row)
			never := s.answers(w.Ctx(), ifs, "never")
			never2 := s.answers(w.Ctx(), ifs, "never2")
			for _, set := range sets {
				got := s.answers(w.Ctx(), ifs, set)
				for _, l := range legs(ifs) {
					st, cd, bd := same(got[l], never[l])
					good, diff := ok(st, cd, bd), ""
					if good && withHeaders {
						good, diff = sameHeaders(got[l], never[l], volatile(never[l], never2[l]))
					}
					w.Negative(good, fmt.Sprintf("as A, %s with %s gets the %s it gets with a never-minted R", l, foreignLabel[set], what),
						fmt.Sprintf("%s: %s | never-minted R: %s %s", foreignLabel[set], got[l].describe(), never[l].describe(), diff), got[l].ex)
				}
			}
		}
	}
	spec("AC-D.7a", "every operation answers an R outside the caller's inventory with the HTTP status of a never-minted R", compare("same HTTP status", false, func(st, _, _ bool) bool { return st }))
	spec("AC-D.7b", "every operation answers an R outside the caller's inventory with the error code of a never-minted R", compare("same error code", false, func(_, cd, _ bool) bool { return cd }))
	spec("AC-D.7c", "every operation answers an R outside the caller's inventory with the body of a never-minted R, byte for byte", compare("same body, byte for byte", false, func(_, _, bd bool) bool { return bd }))
	spec("AC-V2.6", "every operation returns for an R outside the caller's inventory what it returns for a never-minted R (interop.md)", compare("same status, headers and body", true, func(st, _, bd bool) bool { return st && bd }))

	spec("AC-INV.1b", "no operation addressed by R discloses whether an agent outside the caller's inventory exists, authenticated or not", func(w *harness.W, row string) {
		compare("same refusal (status, code, headers, body)", true, func(st, cd, bd bool) bool { return st && cd && bd })(w, row)
		ifs := s.needProbes(w, row)
		a, n, n2 := s.answers(w.Ctx(), ifs, "unauth:B"), s.answers(w.Ctx(), ifs, "unauth:never"), s.answers(w.Ctx(), ifs, "unauth:never2")
		for _, l := range legs(ifs) {
			st, cd, bd := same(a[l], n[l])
			good, diff := st && cd && bd, ""
			if good {
				good, diff = sameHeaders(a[l], n[l], volatile(n[l], n2[l]))
			}
			w.Negative(good, fmt.Sprintf("without credentials, %s with tenant B's R gets the refusal a never-minted R gets (status, code, headers, body)", l),
				fmt.Sprintf("tenant B's R: %s | never-minted R: %s %s", a[l].describe(), n[l].describe(), diff), a[l].ex)
		}
	})
}

func rpcOutcome(resp *a2a.RPCResponse, err error) string {
	switch {
	case err != nil:
		return err.Error()
	case resp == nil:
		return "no response"
	case resp.Error != nil:
		return fmt.Sprintf("JSON-RPC error %d %q", resp.Error.Code, resp.Error.Message)
	}
	return "result " + clip(string(resp.Result), 200)
}

func listTasks(ctx context.Context, c *a2a.Client, u, tenant, note string) ([]string, *a2a.Exchange) {
	raw, _, ex, err := c.ListTasks(ctx, u, map[string]any{"tenant": tenant}, a2a.Call{Note: note})
	if err != nil {
		return nil, ex
	}
	var res struct {
		Tasks []struct {
			ID string `json:"id"`
		} `json:"tasks"`
	}
	_ = json.Unmarshal(raw, &res)
	var ids []string
	for _, t := range res.Tasks {
		ids = append(ids, t.ID)
	}
	return ids, ex
}

// ---- §D rule 8: nothing public; the invariant's card half ----

func registerPublic(s *session, spec specFn) {
	noR := func(w *harness.W, row string) {
		cards := s.publicCards(w, row)
		known := map[string]string{}
		for _, r := range []string{roleA, roleB} {
			if _, ok := principalFor(s.cfg(), r); ok {
				for _, v := range s.needListing(w, row, r, r == roleA).rs() {
					known[v] = "an a2aTenant principal " + r + " reads from GET /agents"
				}
			}
		}
		for _, k := range []string{"unapproved", "uninstalled"} {
			for _, v := range input(s.cfg(), "foreign-r:"+k) {
				known[v] = "the operator's " + k + " agent's R"
			}
		}
		keys := make([]string, 0, len(known))
		for k := range known {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, pc := range cards {
			w.Control(pc.raw != nil && len(keys) > 0, "the public card at "+pc.url+" was fetched and the harness holds routing values to look for", fmt.Sprintf("%d routing values", len(keys)), pc.ex)
			var c struct {
				SupportedInterfaces []struct {
					Tenant string `json:"tenant"`
				} `json:"supportedInterfaces"`
			}
			_ = json.Unmarshal(pc.raw, &c)
			for i, in := range c.SupportedInterfaces {
				_, isR := known[in.Tenant]
				w.Negative(!isR, fmt.Sprintf("supportedInterfaces[%d].tenant of the public card at %s is no routing value", i, pc.url), fmt.Sprintf("tenant %q is %s", in.Tenant, known[in.Tenant]), pc.ex)
			}
			strs := jsonStrings(pc.raw)
			for _, r := range keys {
				hit := ""
				for _, v := range strs {
					if v == r || len(r) >= 8 && strings.Contains(v, r) {
						hit = v
						break
					}
				}
				w.Negative(hit == "", fmt.Sprintf("no string of the public card at %s is or contains the routing value %q (%s)", pc.url, r, known[r]), fmt.Sprintf("found in %q", clip(hit, 160)), pc.ex)
			}
		}
	}
	spec("AC-D.8", "the unauthenticated card at agentCardUrl lists no R", noR)
	spec("AC-V2.7", "the public card at agentCardUrl lists no R (interop.md)", noR)

	spec("AC-INV.1a", "a per-agent card discloses no agent outside the caller's inventory", func(w *harness.W, row string) {
		_, _, _, ifs := s.needCard(w, row)
		if _, ok := principalFor(s.cfg(), roleB); !ok {
			w.Blocked(blockedPrincipal(roleB))
		}
		lA := s.needListing(w, row, roleA, true)
		lB := s.needListing(w, row, roleB, false)
		var needles []string
		personas := map[string]bool{}
		for _, e := range lA.entries {
			personas[e.Persona] = true
		}
		var sample entry
		for _, e := range lB.entries {
			if _, inA := lA.byID(e.AgentID); inA {
				continue
			}
			needles = append(needles, e.AgentID)
			if e.HasR && e.R != "" {
				needles = append(needles, e.R)
				if sample.AgentID == "" {
					sample = e
				}
			}
			if len(e.Persona) >= 8 && !personas[e.Persona] {
				needles = append(needles, e.Persona)
			}
		}
		if sample.AgentID == "" {
			w.Blocked("tenant B's inventory (GET /agents as B) lists no agent with an a2aTenant that A's inventory lacks; install an agent in tenant B only")
		}
		f := s.bCard(w, ifs, sample)
		w.Control(f.raw != nil, "B's GetExtendedAgentCard with its R returns the card of its own agent "+sample.AgentID, f.failed, f.ex)
		for _, c := range s.needAgentCards(w, row, ifs) {
			for b, card := range c.all() {
				strs := jsonStrings(card.raw)
				for _, n := range needles {
					hit := ""
					for _, v := range strs {
						if strings.Contains(v, n) {
							hit = v
							break
						}
					}
					w.Negative(hit == "", fmt.Sprintf("the card of %s (%s), as A, names no agent only tenant B holds (%q)", c.entry.AgentID, b, n), fmt.Sprintf("found in %q", clip(hit, 200)), card.ex)
				}
			}
		}
	})
}
