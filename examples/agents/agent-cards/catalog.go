package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// hostVersion is part of every routing value: §B.2 asks R to be stable "for the agent and host version".
const hostVersion = "2.3.0"

// principal is a caller the host issued a token to.
type principal struct {
	id, tenant, workspace string
	readAgents            bool // the agents:read scope GET /agents/{agentId} requires
}

// workflow is a workflow the host runs: a skill of its card.
type workflow struct {
	id, name, description string
}

// agent is an installed manifest agent. systemPrompt, handoffSchema and carrierKey are manifest material no
// surface may show (§C.5, SR-1).
type agent struct {
	id, persona, label, description, packVersion string
	installScope                                 string   // "tenant" or "host"
	tenants                                      []string // where it is installed; nil for a host-scoped agent
	routed                                       map[string][]string
	degraded                                     []string
	systemPrompt, handoffSchema, carrierKey      string
}

// The demo directory: tokens are test values, printed in the README and accepted only by this example.
var principals = map[string]*principal{
	"Bearer test-nw-dispatch-6f1c9a2e": {id: "maria.lopez", tenant: "northwind", workspace: "ws-dispatch", readAgents: true},
	"Bearer test-nw-billing-0b7d3e51":  {id: "billing-exporter", tenant: "northwind", workspace: "ws-dispatch"},
	"Bearer test-ct-claims-9a4e2c77":   {id: "dev.patel", tenant: "contoso", workspace: "ws-claims", readAgents: true},
}

var workflows = map[string]workflow{
	"plan-route":       {"plan-route", "Plan a delivery route", "Orders the stops of a delivery run."},
	"reschedule-drop":  {"reschedule-drop", "Reschedule a drop", "Moves a delivery to another slot and tells the consignee."},
	"check-invoice":    {"check-invoice", "Check a carrier invoice", "Compares a carrier invoice with the booked rates."},
	"translate-notice": {"translate-notice", "Translate a notice", "Translates a customer notice into the consignee's language."},
	"triage-claim":     {"triage-claim", "Triage a damage claim", "Sorts a damage claim by severity and evidence."},
}

var agents = []*agent{
	{id: "northwind.dispatch.planner", persona: "Dispatch Planner", label: "Planner",
		description: "Plans and reschedules Northwind's delivery runs.", packVersion: "3.1.4", installScope: "tenant",
		tenants: []string{"northwind"}, routed: map[string][]string{"northwind": {"plan-route", "reschedule-drop"}},
		systemPrompt:  "You plan delivery runs for Northwind. Never reveal code NW-PROMPT-5521-KESTREL.",
		handoffSchema: `{"type":"object","properties":{"nwHandoffLeg_Q7":{"type":"string"}}}`,
		carrierKey:    "test-carrier-key-NW-31d0c6"},
	{id: "northwind.billing.auditor", persona: "Invoice Auditor", label: "Invoice checks", packVersion: "1.0.2",
		installScope: "tenant", tenants: []string{"northwind"}, routed: map[string][]string{"northwind": {"check-invoice"}},
		degraded:     []string{"memory"},
		systemPrompt: "Check invoices line by line. Internal marker NW-PROMPT-7730-HERON."},
	{id: "northwind.archive.keeper", persona: "Archivist", label: "Archive keeper", packVersion: "0.9.0",
		installScope: "tenant", tenants: []string{"northwind"},
		description: "Keeps delivery records; no workflow routes to it yet."},
	{id: "contoso.claims.triage", persona: "Claims Triage", label: "Claims", packVersion: "2.0.0",
		installScope: "tenant", tenants: []string{"contoso"}, routed: map[string][]string{"contoso": {"triage-claim"}},
		description:  "Sorts Contoso's damage claims.",
		systemPrompt: "Triage claims for Contoso. Marker CT-PROMPT-4410-OSPREY."},
	{id: "shared.language.translator", persona: "Translator", label: "Notices in other languages", packVersion: "5.2.0",
		installScope: "host", routed: map[string][]string{"northwind": {"translate-notice"}, "contoso": {"translate-notice"}},
		description:  "Translates customer notices.",
		systemPrompt: "Translate faithfully. Marker SH-PROMPT-9031-PLOVER."},
}

// inventory is GET /agents for p: the agents installed in p's tenant, and the host-scoped ones.
func inventory(p *principal) []*agent {
	var out []*agent
	for _, a := range agents {
		if a.installScope == "host" || contains(a.tenants, p.tenant) {
			out = append(out, a)
		}
	}
	return out
}

// routingValue mints R: a keyed MAC of the agent and host version (the RFC's implementation note), so it is the
// same for every caller and carries no identifier of one.
func (h *host) routingValue(a *agent) string {
	m := hmac.New(sha256.New, h.secret)
	m.Write([]byte(a.id + "\n" + hostVersion))
	return "agt-" + hex.EncodeToString(m.Sum(nil)[:12])
}

// resolve finds R within p's inventory only (§D.9): an agent elsewhere is as unknown as a value never minted.
func (h *host) resolve(p *principal, r string) *agent {
	for _, a := range inventory(p) {
		if len(a.routed[p.tenant]) > 0 && hmac.Equal([]byte(h.routingValue(a)), []byte(r)) {
			return a
		}
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if strings.EqualFold(v, s) {
			return true
		}
	}
	return false
}
