package agentcards

import (
	"fmt"
	"sort"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/target"
)

// Input is the agent-cards section of the target configuration (documents["agent-cards"]).
type Input struct {
	harness.Absences
	// Principals names the credentials (target configuration "credentials") of the principals: "A" (required),
	// "A-restricted" (authenticates, refused by GET /agents/{agentId}), "B" (a second tenant).
	Principals map[string]string `json:"principals,omitempty"`
	Discovery  string            `json:"discovery,omitempty"` // the OpenWOP discovery document URL
	Inventory  string            `json:"inventory,omitempty"` // the OpenWOP inventory URL, or its path on the discovery document's origin ("/v2/agents")
	// Routed: per principal, agentId → the workflows the host routes to the agent for that principal (V2.3i).
	Routed map[string]map[string][]string `json:"routed,omitempty"`
	// Workflowless: per principal, agentIds in its inventory with no workflow routed (B.3a).
	Workflowless map[string][]string `json:"workflowless,omitempty"`
	// Degraded: per principal, agentIds in its inventory whose agents are degraded (V2.4b).
	Degraded map[string][]string `json:"degraded,omitempty"`
	Canaries *Canaries           `json:"canaries,omitempty"`
	ForeignR *ForeignR           `json:"foreignR,omitempty"`
}

// Canaries are strings planted where no card may show them (C.5a–c).
type Canaries struct {
	SystemPrompt  []string `json:"systemPrompt,omitempty"`
	HandoffSchema []string `json:"handoffSchema,omitempty"`
	Credential    []string `json:"credential,omitempty"`
}

// ForeignR are routing values of agents principal A may not reach (D.7, optional).
type ForeignR struct {
	// Unapproved are routing values of agents that exist on the host but are not approved for principal A.
	Unapproved []string `json:"unapproved,omitempty"`
	// Uninstalled are routing values of agents installed in no workspace principal A can reach.
	Uninstalled []string `json:"uninstalled,omitempty"`
}

// Apply writes the section into the members the suite reads (principals "agent-cards.<role>", inventory,
// discovery, the "agent-cards:" requests keys).
func (in *Input) Apply(cfg *target.Config) error {
	const path = "$.documents.agent-cards"
	for _, role := range sortedKeys(in.Principals) {
		if role != roleA && role != roleB && role != roleRestricted {
			return fmt.Errorf("principals: unknown principal %q (want A, A-restricted, B)", role)
		}
		if err := cfg.SetPrincipal(principalPrefix+role, in.Principals[role], path+".principals."+role); err != nil {
			return err
		}
	}
	if in.Discovery != "" {
		cfg.Discovery = in.Discovery
	}
	if in.Inventory != "" {
		cfg.Inventory = in.Inventory
	}
	set := func(k string, v []string) {
		if v == nil {
			return
		}
		if cfg.Requests == nil {
			cfg.Requests = map[string][]string{}
		}
		cfg.Requests[inputPrefix+k] = v
	}
	for role, m := range in.Routed {
		for agent, wf := range m {
			set("routed:"+role+":"+agent, wf)
		}
	}
	for role, v := range in.Workflowless {
		set("workflowless:"+role, v)
	}
	for role, v := range in.Degraded {
		set("degraded:"+role, v)
	}
	if c := in.Canaries; c != nil {
		set("canary:system-prompt", c.SystemPrompt)
		set("canary:handoff-schema", c.HandoffSchema)
		set("canary:credential", c.Credential)
	}
	if f := in.ForeignR; f != nil {
		set("foreign-r:unapproved", f.Unapproved)
		set("foreign-r:uninstalled", f.Uninstalled)
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// camelKind spells a canary kind ("system-prompt") as its section member ("systemPrompt").
func camelKind(k string) string {
	switch k {
	case "system-prompt":
		return "systemPrompt"
	case "handoff-schema":
		return "handoffSchema"
	}
	return k
}
