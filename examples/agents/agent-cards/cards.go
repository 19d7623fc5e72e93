package main

import (
	"github.com/a2aproject/a2a-go/v2/a2a"
)

// publicCard is the host's card: its workflows as skills, no tenant anywhere (§D.8), and the extended card
// declared (§A.1).
func (h *host) publicCard() *a2a.AgentCard {
	var skills []a2a.AgentSkill
	for _, id := range []string{"plan-route", "reschedule-drop", "check-invoice", "translate-notice", "triage-claim"} {
		skills = append(skills, skill(workflows[id]))
	}
	return &a2a.AgentCard{
		Name:        "Northwind Freight workflow host",
		Description: "Runs freight workflows for the tenants of Northwind Freight's platform.",
		Version:     hostVersion,
		SupportedInterfaces: []*a2a.AgentInterface{
			a2a.NewAgentInterface(h.base+"/a2a/http", a2a.TransportProtocolHTTPJSON),
			a2a.NewAgentInterface(h.base+"/a2a", a2a.TransportProtocolJSONRPC),
		},
		Provider:             &a2a.AgentProvider{Org: "Northwind Freight Platform", URL: h.base},
		Capabilities:         a2a.AgentCapabilities{Streaming: true, ExtendedAgentCard: true},
		SecuritySchemes:      a2a.NamedSecuritySchemes{"platformToken": a2a.HTTPAuthSecurityScheme{Scheme: "Bearer", Description: "A token the platform issues to a tenant's user or service."}},
		SecurityRequirements: a2a.SecurityRequirementsOptions{{"platformToken": {}}},
		DefaultInputModes:    []string{"text/plain", "application/json"},
		DefaultOutputModes:   []string{"text/plain"},
		Skills:               skills,
	}
}

// agentCard projects an inventory entry (interop.md §"Per-agent cards"): name the persona, version the pack
// version, description the description or else the label; the host card's interfaces each with tenant R, its
// capabilities and security schemes; one skill per workflow routed to the agent for this caller.
func (h *host) agentCard(p *principal, a *agent) *a2a.AgentCard {
	host, r := h.publicCard(), h.routingValue(a)
	for _, in := range host.SupportedInterfaces {
		in.Tenant = r
	}
	desc := a.description
	if desc == "" {
		desc = a.label
	}
	var skills []a2a.AgentSkill
	for _, id := range a.routed[p.tenant] {
		skills = append(skills, skill(workflows[id]))
	}
	return &a2a.AgentCard{
		Name: a.persona, Version: a.packVersion, Description: desc,
		SupportedInterfaces: host.SupportedInterfaces, Provider: host.Provider, Capabilities: host.Capabilities,
		SecuritySchemes: host.SecuritySchemes, SecurityRequirements: host.SecurityRequirements,
		DefaultInputModes: host.DefaultInputModes, DefaultOutputModes: host.DefaultOutputModes, Skills: skills,
	}
}

func skill(w workflow) a2a.AgentSkill {
	return a2a.AgentSkill{ID: w.id, Name: w.name, Description: w.description, Tags: []string{"workflow"}}
}
