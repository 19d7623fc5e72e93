package agentcards

import (
	"crypto/hmac"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"

	fx "github.com/extconf/extconf/fixtures/agentcards"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/mockagents/crosscut"
	"github.com/extconf/extconf/sabotage"
)

// Paths of the OpenWOP surface on the host's origin: the one well-known discovery resource (capabilities.md §1) and
// the inventory.
const (
	DiscoveryPath = "/.well-known/openwop"
	InventoryPath = "/agents"
)

// Options are the reference host's permitted other choices (latitudes: no row may fail with one on) and two
// test-only variants that make the host no RFC 0202 host at all. Each is switched by a named string (ParseOptions).
type Options struct {
	// Discovery: "" serves the v1 document to a request without OpenWOP-Version and the v2 root to
	// OpenWOP-Version: 2; "v2-only" serves the v2 root whatever the header; "v1-only" (test) serves only the v1
	// document; "none" (test) answers 404.
	Discovery string
	// UniformRefusal refuses the four push-config operations with PushNotificationNotSupported (-32003) for
	// every caller that passes authentication and authorization, before R is resolved.
	UniformRefusal bool
	// MessageReply answers SendMessage (not streaming) with a Message, creating no task.
	MessageReply bool
	// RVariety mints routing values of different lengths and alphabets within the a2aTenant schema.
	RVariety bool
	// NoisyAuth: the 401 refusal quotes the request path (on HTTP+JSON it holds R) and a fresh request id.
	NoisyAuth bool
	// NoRESTPushConfig: the HTTP+JSON binding routes no push-config operation: 404 for every caller and R.
	NoRESTPushConfig bool
	// InterfacesReordered: per-agent cards list the host card's interfaces in reverse order.
	InterfacesReordered bool
	// ManifestRuntimeObject: the discovery document advertises agents.manifestRuntime as {"supported": true}.
	ManifestRuntimeObject bool
	// VersionsOnly: the a2a record says "1.0" in versions and carries no profiles member.
	VersionsOnly bool
	// GRPC (test): the public card also lists a gRPC interface (the host serves none), as a host speaking gRPC would.
	GRPC bool
}

// Option names understood by ParseOptions. The latitudes' names are their registered ids (package sabotage), so
// Start switches them from the set; test.* ones are test-only variants.
const (
	LatDiscoveryV2Only  = string(sabotage.ACLatDiscoveryV2Only)
	LatDiscoveryV1AndV2 = string(sabotage.ACLatDiscoveryV1AndV2) // the default; named so it can be registered
	LatUniformRefusal   = string(sabotage.ACLatUniformRefusal)
	LatMessageReply     = string(sabotage.LatMessageReply) // the cross-cutting latitude; RFC 0202 leaves the shape open
	LatRVariety         = string(sabotage.ACLatRVariety)
	LatNoisyAuth        = string(sabotage.ACLatNoisyAuthRefusal)
	LatNoRESTPushConfig = string(sabotage.ACLatRESTPushUnrouted)
	LatReordered        = string(sabotage.ACLatInterfacesReordered)
	LatRuntimeObject    = string(sabotage.ACLatManifestRuntimeObject)
	LatVersionsOnly     = string(sabotage.ACLatA2AVersionsOnly)
	TestDiscoveryV1Only = "test.discovery-v1-only"
	TestNoDiscovery     = "test.no-discovery"
	TestGRPCInterface   = "test.grpc-interface"
)

// ParseOptions maps option names to Options.
func ParseOptions(names ...string) (Options, error) {
	var o Options
	for _, n := range names {
		switch n {
		case LatDiscoveryV2Only:
			o.Discovery = "v2-only"
		case LatDiscoveryV1AndV2:
			o.Discovery = ""
		case LatUniformRefusal:
			o.UniformRefusal = true
		case LatMessageReply:
			o.MessageReply = true
		case LatRVariety:
			o.RVariety = true
		case LatNoisyAuth:
			o.NoisyAuth = true
		case LatNoRESTPushConfig:
			o.NoRESTPushConfig = true
		case LatReordered:
			o.InterfacesReordered = true
		case LatRuntimeObject:
			o.ManifestRuntimeObject = true
		case LatVersionsOnly:
			o.VersionsOnly = true
		case TestDiscoveryV1Only:
			o.Discovery = "v1-only"
		case TestNoDiscovery:
			o.Discovery = "none"
		case TestGRPCInterface:
			o.GRPC = true
		default:
			return o, fmt.Errorf("agent-cards reference host: unknown option %q", n)
		}
	}
	return o, nil
}

// resolverID is the agent the single-agent toggles act on.
const resolverID = "vendor.acme.support.resolver"

// summarizerID is the agent ac.r-missing-on-routed-agent lists without its a2aTenant.
const summarizerID = "vendor.acme.support.summarizer"

type fixture struct {
	Host struct {
		Name        string             `json:"name"`
		Description string             `json:"description"`
		Version     string             `json:"version"`
		Provider    *a2a.AgentProvider `json:"provider"`
	} `json:"host"`
	Workflows            []a2a.AgentSkill                         `json:"workflows"`
	ExtendedOnlyWorkflow a2a.AgentSkill                           `json:"extendedOnlyWorkflow"`
	Principals           []*principal                             `json:"principals"`
	Agents               []*agent                                 `json:"agents"`
	Workspaces           map[string]*workspace                    `json:"workspaces"`
	Foreign              struct{ Unapproved, Uninstalled string } `json:"foreign"`
}

type principal struct {
	Role      string   `json:"role"`
	ID        string   `json:"id"`
	Token     string   `json:"token"`
	Tenant    string   `json:"tenant"`
	Workspace string   `json:"workspace"`
	Scopes    []string `json:"scopes"`
}

type agent struct {
	AgentID        string   `json:"agentId"`
	InstallTenant  string   `json:"installTenant"`
	Persona        string   `json:"persona"`
	Label          string   `json:"label"`
	Description    string   `json:"description"`
	PackVersion    string   `json:"packVersion"`
	Degraded       []string `json:"degraded"`
	MemoryDegraded bool     `json:"memoryDegraded"`
	Uninstalled    bool     `json:"uninstalled"`
	Manifest       struct {
		SystemPromptRef string            `json:"systemPromptRef"`
		SystemPrompt    string            `json:"systemPrompt"`
		HandoffSchemas  []json.RawMessage `json:"handoffSchemas"`
		Credentials     map[string]string `json:"credentials"`
	} `json:"manifest"`
}

type workspace struct {
	Inventory []string            `json:"inventory"`
	Routes    map[string][]string `json:"routes"`
}

// host is one running reference host.
type host struct {
	set sabotage.Set
	opt Options
	// srvOpts are the server kit's options, cross-cutting latitudes included; the host's card (which the per-agent
	// cards project) lists what they serve.
	srvOpts a2atest.Options
	fx      fixture
	secret  []byte
	srv     *a2atest.Server

	mu     sync.Mutex
	reqSeq int
	minted map[string]string // every R ever handed out → agentId
	seq    int               // ac.r-per-request counter
}

func load() (fixture, []byte, error) {
	var f fixture
	if err := json.Unmarshal(fx.HostJSON(), &f); err != nil {
		return f, nil, fmt.Errorf("agent-cards fixture: %w", err)
	}
	secret, err := base64.RawURLEncoding.DecodeString(fx.HostSecret())
	if err != nil || len(secret) < 16 {
		return f, nil, fmt.Errorf("agent-cards fixture: bad host secret")
	}
	return f, secret, nil
}

// Start runs the reference host with the toggles in set on. It returns the roles it plays, the operator input a
// real host's operator would supply (principals, the discovery and inventory URLs, the agent-cards inputs), and
// how to stop it.
func Start(set sabotage.Set) (map[string]string, target.Config, func(), error) {
	var names []string
	for _, id := range set.Latitudes() {
		switch id {
		case sabotage.ACLatDiscoveryV2Only, sabotage.ACLatDiscoveryV1AndV2, sabotage.ACLatUniformRefusal,
			sabotage.LatMessageReply, sabotage.ACLatRVariety, sabotage.ACLatNoisyAuthRefusal, sabotage.ACLatRESTPushUnrouted,
			sabotage.ACLatInterfacesReordered, sabotage.ACLatManifestRuntimeObject, sabotage.ACLatA2AVersionsOnly:
			names = append(names, string(id))
		}
	}
	return StartWith(set, names...)
}

// StartWith is Start with the named options (ParseOptions) on.
func StartWith(set sabotage.Set, options ...string) (map[string]string, target.Config, func(), error) {
	opt, err := ParseOptions(options...)
	if err != nil {
		return nil, target.Config{}, nil, err
	}
	f, secret, err := load()
	if err != nil {
		return nil, target.Config{}, nil, err
	}
	h := &host{set: set, opt: opt, fx: f, secret: secret, minted: map[string]string{},
		srvOpts: crosscut.Options(set, "agent-cards", a2atest.Options{TLS: true})}
	srv, err := a2atest.Start(a2atest.Agent{
		Name:   f.Host.Name,
		Card:   h.publicCard,
		OnSend: h.onSend,
		Before: h.before,
		Routes: map[string]http.HandlerFunc{
			"GET " + DiscoveryPath:                h.serveDiscovery,
			"GET " + InventoryPath:                h.serveInventory,
			"GET " + InventoryPath + "/{agentId}": h.serveEntry,
		},
	}, h.srvOpts)
	if err != nil {
		return nil, target.Config{}, nil, err
	}
	h.srv = srv
	return map[string]string{"agent-cards": srv.CardURL()}, h.operatorConfig(), srv.Close, nil
}

func (h *host) on(id sabotage.ID) bool { return h.set.On(id) }

func (h *host) agent(id string) *agent {
	for _, a := range h.fx.Agents {
		if a.AgentID == id {
			return a
		}
	}
	return nil
}

func (h *host) principalByRole(role string) *principal {
	for _, p := range h.fx.Principals {
		if p.Role == role {
			return p
		}
	}
	return nil
}

// routes returns the workflows the host routes to agentID for p's workspace.
func (h *host) routes(p *principal, agentID string) []string {
	if ws := h.fx.Workspaces[p.Workspace]; ws != nil {
		return ws.Routes[agentID]
	}
	return nil
}

// inventory returns p's inventory: the agents installed and approved for p's workspace.
func (h *host) inventory(p *principal) []*agent {
	ws := h.fx.Workspaces[p.Workspace]
	if ws == nil {
		return nil
	}
	var out []*agent
	for _, id := range ws.Inventory {
		if a := h.agent(id); a != nil && !a.Uninstalled {
			out = append(out, a)
		}
	}
	return out
}

// published reports whether a's entry in p's inventory carries an a2aTenant (RFC 0202 §B rule 3).
func (h *host) published(p *principal, a *agent) bool {
	return len(h.routes(p, a.AgentID)) > 0 || h.on(sabotage.ACROnWorkflowlessAgent)
}

// ---- OpenWOP surface ----

// caller authenticates an OpenWOP request and applies GET /agents' policy (runs:read).
func (h *host) caller(w http.ResponseWriter, r *http.Request) *principal {
	p := h.authenticate(r)
	if p == nil {
		w.Header().Set("WWW-Authenticate", `Bearer realm="acme-support-host"`)
		writeJSON(w, http.StatusUnauthorized, map[string]any{"error": map[string]string{"code": "unauthenticated", "message": "authentication required"}})
		return nil
	}
	if !slices.Contains(p.Scopes, "runs:read") {
		writeJSON(w, http.StatusForbidden, map[string]any{"error": map[string]string{"code": "forbidden", "message": "runs:read is required"}})
		return nil
	}
	return p
}

func (h *host) entry(p *principal, a *agent) map[string]any {
	e := map[string]any{"agentId": a.AgentID, "persona": a.Persona, "label": a.Label, "packVersion": a.PackVersion,
		"installScope": "tenant"}
	if a.InstallTenant != p.Tenant {
		e["installScope"] = "host"
	}
	if a.Description != "" {
		e["description"] = a.Description
	}
	if len(a.Degraded) > 0 && !h.on(sabotage.ACDegradedOffEntry) {
		e["degraded"] = a.Degraded
	}
	if a.MemoryDegraded && !h.on(sabotage.ACDegradedOffEntry) {
		e["memoryDegraded"] = true
	}
	if h.published(p, a) && !(a.AgentID == summarizerID && h.on(sabotage.ACRMissingOnRoutedAgent)) {
		e["a2aTenant"] = h.mintFor(p, a)
	}
	return e
}

func (h *host) serveInventory(w http.ResponseWriter, r *http.Request) {
	p := h.caller(w, r)
	if p == nil {
		return
	}
	entries := []map[string]any{}
	for _, a := range h.inventory(p) {
		entries = append(entries, h.entry(p, a))
	}
	writeJSON(w, http.StatusOK, map[string]any{"agents": entries})
}

func (h *host) serveEntry(w http.ResponseWriter, r *http.Request) {
	p := h.caller(w, r)
	if p == nil {
		return
	}
	id := r.PathValue("agentId")
	for _, a := range h.inventory(p) {
		if a.AgentID == id {
			writeJSON(w, http.StatusOK, h.entry(p, a))
			return
		}
	}
	// RFC 0074: an agent outside the caller's inventory is indistinguishable from one never installed.
	writeJSON(w, http.StatusNotFound, map[string]any{"error": map[string]string{"code": "not_found", "message": "agent not found"}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// authenticate returns the principal of the request's credential (Bearer or X-API-Key), nil when absent or unknown.
func (h *host) authenticate(r *http.Request) *principal {
	tok := ""
	if v := r.Header.Get("Authorization"); v != "" {
		scheme, rest, ok := strings.Cut(v, " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") {
			return nil
		}
		tok = strings.TrimSpace(rest)
	} else {
		tok = strings.TrimSpace(r.Header.Get("X-API-Key"))
	}
	if tok == "" {
		return nil
	}
	for _, p := range h.fx.Principals {
		if hmac.Equal([]byte(p.Token), []byte(tok)) {
			return p
		}
	}
	return nil
}

// operatorConfig is what an operator supplies for this host: three principals and the agent-cards inputs that no
// surface of the host exposes (routing tables, workflowless agents, canaries, foreign routing values).
func (h *host) operatorConfig() target.Config {
	base := h.srv.URL()
	_ = base // the discovery document and the inventory are found from the card's origin, not configured
	cfg := target.Config{
		Principals: map[string]target.Principal{},
		Requests:   map[string][]string{},
	}
	for _, p := range h.fx.Principals {
		tp := target.Principal{Header: "Authorization", Value: "Bearer " + p.Token, Tenant: p.Tenant, Workspace: p.Workspace, ID: p.ID}
		cfg.Principals[p.Role] = tp
		cfg.Principals["agent-cards."+p.Role] = tp // survives another document's mock supplying its own "A"
	}
	for _, role := range []string{"A", "B"} {
		p := h.principalByRole(role)
		for _, a := range h.inventory(p) {
			if rs := h.routes(p, a.AgentID); len(rs) > 0 {
				cfg.Requests["agent-cards:routed:"+role+":"+a.AgentID] = rs
			} else {
				cfg.Requests["agent-cards:workflowless:"+role] = append(cfg.Requests["agent-cards:workflowless:"+role], a.AgentID)
			}
		}
	}
	for _, a := range h.inventory(h.principalByRole("A")) {
		if len(a.Degraded) > 0 || a.MemoryDegraded {
			cfg.Requests["agent-cards:degraded:A"] = append(cfg.Requests["agent-cards:degraded:A"], a.AgentID)
		}
	}
	for _, a := range h.fx.Agents {
		if m := a.Manifest.SystemPrompt; m != "" {
			if i := strings.Index(m, "CANARY-"); i >= 0 {
				cfg.Requests["agent-cards:canary:system-prompt"] = append(cfg.Requests["agent-cards:canary:system-prompt"], strings.Fields(m[i:])[0])
			}
		}
		for _, s := range a.Manifest.HandoffSchemas {
			var sch struct {
				ID         string                     `json:"$id"`
				Properties map[string]json.RawMessage `json:"properties"`
			}
			_ = json.Unmarshal(s, &sch)
			if i := strings.Index(sch.ID, "CANARY-"); i >= 0 {
				cfg.Requests["agent-cards:canary:handoff-schema"] = append(cfg.Requests["agent-cards:canary:handoff-schema"], sch.ID[i:])
			}
			for k := range sch.Properties {
				cfg.Requests["agent-cards:canary:handoff-schema"] = append(cfg.Requests["agent-cards:canary:handoff-schema"], k)
			}
		}
		for _, v := range a.Manifest.Credentials {
			cfg.Requests["agent-cards:canary:credential"] = append(cfg.Requests["agent-cards:canary:credential"], v)
		}
	}
	for kind, id := range map[string]string{"unapproved": h.fx.Foreign.Unapproved, "uninstalled": h.fx.Foreign.Uninstalled} {
		if a := h.agent(id); a != nil {
			cfg.Requests["agent-cards:foreign-r:"+kind] = []string{h.mint(a.AgentID, a.InstallTenant, "", "")}
		}
	}
	for _, w := range h.fx.Workflows {
		if len(w.Examples) > 0 {
			cfg.Requests[w.ID] = w.Examples[:1]
		}
	}
	return cfg
}
