// Command schema-interface is a network management agent written from the Schema Interfaces document
// (schema-interface-v1.txt) and the A2A 1.0 wire facts alone, on a2a-go v2: a branch network's interface agent
// that reads an interface's state (observe_only, with a counters record) and sets an interface administratively
// up or down (execute). The NOC operator's token may use both skills; the monitoring token only the read.
//
//	go run ./examples/agents/schema-interface -addr 127.0.0.1:0
//
// prints "agent <card URL>" once it listens. Callers authenticate with "Authorization: Bearer <token>"; the tokens
// come from EDGE_NOC_TOKEN and EDGE_MONITOR_TOKEN (test defaults otherwise).
package main

import (
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

// extURI is the schema-interface extension's URI.
const extURI = "https://agentic-network-management.github.io/agent-schema-interfaces/extensions/schema-interface/v1"

var specs = []spec{
	{id: "get_interface_status", version: "1.0", input: "status-request.json", output: "status-result.json",
		inputURN: "urn:example-net:interface-status:request:1.0", outputURN: "urn:example-net:interface-status:result:1.0",
		records: map[string]string{"interface-counters": "interface-counters.json"},
		modes:   []string{"sync", "stream"}, authority: "observe_only"},
	{id: "set_interface_admin_status", version: "1.0", input: "admin-request.json", output: "admin-result.json",
		inputURN: "urn:example-net:interface-admin:request:1.0", outputURN: "urn:example-net:interface-admin:result:1.0",
		records: map[string]string{"interface-change": "interface-change.json"},
		modes:   []string{"sync"}, authority: "execute"},
}

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "listen address (loopback)")
	flag.Parse()
	tokens := map[string]string{ // bearer token → principal
		env("EDGE_NOC_TOKEN", "test-only-noc-token"):         "noc",
		env("EDGE_MONITOR_TOKEN", "test-only-monitor-token"): "monitor",
	}
	ag := &agent{skills: map[string]*skill{}, routers: newInventory(), tokens: tokens, policies: map[string]policy{
		"noc":     {"pol-noc-full", map[string]bool{"get_interface_status": true, "set_interface_admin_status": true}},
		"monitor": {"pol-monitor-readonly", map[string]bool{"get_interface_status": true}},
	}}
	for _, s := range specs {
		sk, err := assemble(s)
		if err != nil {
			log.Printf("not advertised: %v", err) // a skill whose interface fails is never advertised
			continue
		}
		ag.skills[sk.id], ag.order = sk, append(ag.order, sk.id)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	mux := http.NewServeMux()
	mux.Handle("/.well-known/agent-card.json", a2asrv.NewStaticAgentCardHandler(ag.card(base)))
	h := a2asrv.NewHandler(ag)
	mux.Handle("/a2a/v1", ag.guard(a2asrv.NewJSONRPCHandler(h), false))
	mux.Handle("/rest/", http.StripPrefix("/rest", ag.guard(a2asrv.NewRESTHandler(h), true)))
	fmt.Printf("agent %s/.well-known/agent-card.json\n", base)
	log.Fatal(http.Serve(ln, mux))
}

func env(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

// card advertises describe_skill, each assembled skill, and the extension binding each to its version and digest.
func (ag *agent) card(base string) *a2a.AgentCard {
	skills := []a2a.AgentSkill{{ID: "describe_skill", Name: "Describe skill",
		Description: "Returns the Skill Interface Document of an advertised skill and its digest.", Tags: []string{"schema-interface"},
		Examples: []string{`{"skill_id": "get_interface_status"}`}}}
	var bindings []any
	for _, id := range ag.order {
		sk := ag.skills[id]
		bindings = append(bindings, map[string]any{"skill_id": id, "skill_version": sk.version, "interface_digest": sk.digest})
		skills = append(skills, about[id])
	}
	return &a2a.AgentCard{
		Name:        "Branch edge interface agent",
		Description: "Reads and sets the interfaces of the branch's edge and core routers.",
		Version:     "1.0.0",
		SupportedInterfaces: []*a2a.AgentInterface{a2a.NewAgentInterface(base+"/a2a/v1", a2a.TransportProtocolJSONRPC),
			a2a.NewAgentInterface(base+"/rest", a2a.TransportProtocolHTTPJSON)},
		Provider: &a2a.AgentProvider{Org: "Example Branch Networks", URL: base},
		Capabilities: a2a.AgentCapabilities{Streaming: true, Extensions: []a2a.AgentExtension{{
			URI: extURI, Description: "Schema interfaces for advertised skills", Required: false,
			Params: map[string]any{"interface_version": "1.0", "skills": bindings},
		}}},
		SecuritySchemes: a2a.NamedSecuritySchemes{"bearer": a2a.HTTPAuthSecurityScheme{Scheme: "Bearer",
			Description: "A token issued by the network operations centre."}},
		SecurityRequirements: a2a.SecurityRequirementsOptions{{"bearer": {}}},
		DefaultInputModes:    []string{"application/json"},
		DefaultOutputModes:   []string{"application/json"},
		Skills:               skills,
	}
}

var about = map[string]a2a.AgentSkill{
	"get_interface_status": {ID: "get_interface_status", Name: "Interface status",
		Description: "Reads an interface's administrative and operational state, with the counters it was read from.",
		Tags:        []string{"interfaces", "observe"}, Examples: []string{`{"router": "edge-1", "interface": "ge-0/0/1"}`}},
	"set_interface_admin_status": {ID: "set_interface_admin_status", Name: "Set interface admin status",
		Description: "Sets an interface administratively up or down on the router.",
		Tags:        []string{"interfaces", "change"}},
}
