package agentcards

import (
	"sort"
	"strings"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/target"
)

// Operator input that target.Config has no member for rides in Config.Requests under keys prefixed
// "agent-cards:", each a list of strings (see README.md):
//
//	agent-cards:routed:<role>:<agentId>   workflows the host routes to the agent for that principal (V2.3i)
//	agent-cards:workflowless:<role>       agentIds in that principal's inventory with no workflow routed (B.3a)
//	agent-cards:degraded:<role>           agentIds in that principal's inventory whose agents are degraded (V2.4b)
//	agent-cards:canary:system-prompt      strings planted in agents' system-prompt bodies (C.5a)
//	agent-cards:canary:handoff-schema     strings planted in agents' resolved handoff schemas (C.5b)
//	agent-cards:canary:credential         agents' credential material, or canaries planted in it (C.5c)
//	agent-cards:foreign-r:unapproved      R of an agent not approved for A's workspace (D.7, optional)
//	agent-cards:foreign-r:uninstalled     R an uninstalled agent had (D.7, optional)
const inputPrefix = "agent-cards:"

// Principal roles: A (required), A-restricted (authenticates, refused by GET /agents/{agentId}), B (tenant B).
const (
	roleA           = "A"
	roleRestricted  = "A-restricted"
	roleB           = "B"
	principalPrefix = "agent-cards." // "agent-cards.A" wins over "A" when several documents' settings are merged
)

func principalFor(cfg target.Config, role string) (target.Principal, bool) {
	if p, ok := cfg.Principals[principalPrefix+role]; ok && p.Value != "" {
		return p, true
	}
	p, ok := cfg.Principals[role]
	return p, ok && p.Value != ""
}

func input(cfg target.Config, key string) []string { return cfg.Requests[inputPrefix+key] }

// routedTable returns agentId → routed workflows for role, from the agent-cards:routed:<role>:… keys.
func routedTable(cfg target.Config, role string) map[string][]string {
	pre := inputPrefix + "routed:" + role + ":"
	out := map[string][]string{}
	for k, v := range cfg.Requests {
		if strings.HasPrefix(k, pre) {
			out[strings.TrimPrefix(k, pre)] = v
		}
	}
	return out
}

func sortedCopy(l []string) []string {
	c := append([]string(nil), l...)
	sort.Strings(c)
	return c
}

// credentialPath names where principal role's identifier field is given: on the named credential its section's
// principals.<role> names (credentials.<name>.<field>), or on the legacy principals.<role> entry.
func credentialPath(e *harness.Env, role, field string) string {
	if in, ok := e.Input("agent-cards").(*Input); ok {
		if name := in.Principals[role]; name != "" {
			return "credentials." + name + "." + field + " (the credential documents.agent-cards.principals." + role + " names)"
		}
	}
	if _, ok := e.Target.Config.Principals[role]; ok {
		return "principals." + role + "." + field + " (legacy)"
	}
	return "credentials.<name>." + field + ", where documents.agent-cards.principals." + role + " names the credential"
}
