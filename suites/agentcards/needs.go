package agentcards

import (
	"errors"
	"fmt"
	"strings"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/target"
)

// Needs is the document's static input table: which rows block without which member of documents.agent-cards (runsuite
// config check reads it; a member may be declared absent under "absent"). Measured against the reference agent
// with only credentials given; a row is listed under the first member it misses.
// canariesAny is the member of a row that searches for every kind of canary: any one of them unblocks it.
const canariesAny = "canaries.systemPrompt|canaries.handoffSchema|canaries.credential"

func (document) Needs() []harness.Need {
	return []harness.Need{
		// The principals come first: a row is predicted under the first member it misses, and without A nothing
		// about R can be asked (the run blocks these rows naming principals.A or principals.B).
		// Whether A's and B's inventories share an agent is the host's state: config check --target lists both.
		// First: declared absent, AC-B.2f is inapplicable whatever else is missing (the spec asks it first).
		{Member: "sharedAgent", Derived: true, What: "an agent in both A's and B's inventories with an a2aTenant (declare it absent when no agent is listed to two callers)", Rows: []string{"AC-B.2f", "AC-D.9"}},
		{Member: "principals.A", Always: true, Given: principalGiven(roleA), What: "principal A, a caller of tenant A: the name of its credential (credentials.<name>: {header, value, tenant, workspace, id})", Rows: rowsNeedingA},
		{Member: "principals.B", Always: true, Given: principalGiven(roleB), What: "principal B, a caller of a second tenant with an agent installed there only (the RFC's OPENWOP_TEST_TENANT_B_API_KEY): the name of its credential", Rows: rowsNeedingB},
		{Member: "inventory", Always: true, Derived: true, What: inventoryWhat, Rows: rowsNeedingA},
		{Member: "routed.A", What: "per agent of A's inventory, the workflows the host routes to it", Rows: []string{"AC-B.2e", "AC-V2.3i"}},
		{Member: "workflowless.A", What: "agentIds of A's inventory with no workflow routed", Rows: []string{"AC-B.3a"}},
		{Member: "canaries.systemPrompt", What: "strings planted in agents' system prompts", Rows: []string{"AC-C.5a"}},
		{Member: "canaries.handoffSchema", What: "strings planted in agents' resolved handoff schemas", Rows: []string{"AC-C.5b"}},
		{Member: "canaries.credential", What: "agents' credential material, or canaries planted in it", Rows: []string{"AC-C.5c"}},
		{Member: canariesAny, What: "any canary: strings planted in agents' system prompts, handoff schemas or credentials", Rows: []string{"AC-V2.4"}},
		{Member: "credential.tenant", Always: true, Given: credentialGiven("tenant"), What: "principal A's tenant identifier as the host knows it: credentials.<name>.tenant of the credential principals.A names", Rows: []string{"AC-B.2b", "AC-V2.2a"}},
		{Member: "credential.workspace", Given: credentialGiven("workspace"), What: "principal A's workspace identifier as the host knows it: credentials.<name>.workspace of the credential principals.A names (declare it absent on a host without workspaces)", Rows: []string{"AC-B.2c", "AC-V2.2b"}},
		{Member: "credential.id", Given: credentialGiven("id"), What: "principal A's own identifier as the host knows it: credentials.<name>.id of the credential principals.A names (declare it absent when the host shows callers none)", Rows: []string{"AC-B.2d", "AC-V2.2c"}},
		{Member: "principals.A-restricted", Given: func(cfg target.Config) bool { _, ok := principalFor(cfg, roleRestricted); return ok },
			What: "a caller that authenticates but GET /agents/{agentId} refuses (declare it absent when the host has no such caller)", Rows: []string{"AC-D.6b", "AC-V2.5b"}},
		{Member: "degraded.A", What: "agentIds of A's inventory whose agents are degraded", Rows: []string{"AC-V2.4b"}},
	}
}

// rowsNeedingA block without principal A (measured: the independent host's run without it); rowsNeedingB
// block without principal B once A is given.
var (
	rowsNeedingA = []string{"AC-B.2a", "AC-B.2b", "AC-B.2c", "AC-B.2d", "AC-B.2e", "AC-B.2f", "AC-B.2g", "AC-B.3a", "AC-B.3b",
		"AC-C.4a", "AC-C.4b", "AC-C.4c", "AC-C.5a", "AC-C.5b", "AC-C.5c", "AC-D.6a", "AC-D.6b", "AC-D.6c", "AC-D.7a",
		"AC-D.7b", "AC-D.7c", "AC-D.8", "AC-D.9", "AC-V2.2a", "AC-V2.2b", "AC-V2.2c", "AC-V2.3a", "AC-V2.3b", "AC-V2.3c",
		"AC-V2.3d", "AC-V2.3e", "AC-V2.3f", "AC-V2.3g", "AC-V2.3h", "AC-V2.3i", "AC-V2.4", "AC-V2.4b", "AC-V2.5a",
		"AC-V2.5b", "AC-V2.5c", "AC-V2.6", "AC-V2.7", "AC-INV.1a", "AC-INV.1b"}
	rowsNeedingB = []string{"AC-B.2f", "AC-D.7a", "AC-D.7b", "AC-D.7c", "AC-D.9", "AC-V2.6", "AC-INV.1a", "AC-INV.1b"}
)

func principalGiven(role string) func(cfg target.Config) bool {
	return func(cfg target.Config) bool { _, ok := principalFor(cfg, role); return ok }
}

// credentialGiven reports whether principal A's credential carries the identifier field.
func credentialGiven(field string) func(cfg target.Config) bool {
	return func(cfg target.Config) bool {
		p, _ := principalFor(cfg, roleA)
		switch field {
		case "tenant":
			return p.Tenant != ""
		case "workspace":
			return p.Workspace != ""
		}
		return p.ID != ""
	}
}

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

// blockedPrincipal leads with the member to give, so that a headline cut short still names it.
func blockedPrincipal(role string) string {
	switch role {
	case roleB:
		return "documents.agent-cards.principals.B: needs principal B, a caller in a second tenant with an agent installed in that tenant only (the RFC's OPENWOP_TEST_TENANT_B_API_KEY): name its credential there (credentials.<name>: {header, value})"
	case roleRestricted:
		return "documents.agent-cards.principals.A-restricted: needs principal A-restricted, a caller that authenticates but that GET /agents/{agentId} refuses (e.g. without runs:read): name its credential there (credentials.<name>: {header, value})"
	}
	return "documents.agent-cards.principals.A: needs principal A, a caller in tenant A: name its credential there (credentials.<name>: {header, value})"
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
	if errors.Is(l.err, errInventoryElsewhere) {
		w.Need("inventory", false, inventoryWhat+": "+l.err.Error())
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
	ctrl, never, never2 := s.answers(w.Ctx(), ifs, "ctrl"), s.answers(w.Ctx(), ifs, "never"), s.answers(w.Ctx(), ifs, "never2")
	rA, rn := s.rOf(w.Ctx(), ifs, "ctrl"), s.rOf(w.Ctx(), ifs, "never")
	for _, b := range ifs.bindings() {
		var differs []string
		var all []string
		var ex *a2a.Exchange
		for _, op := range operations {
			l := leg{b, op}
			// Against the baseline: a fresh SSE event id or timestamp is no sign that R was resolved.
			st, cd, bd := sameAsBaseline(ctrl[l], never[l], never2[l], rA, rn)
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
