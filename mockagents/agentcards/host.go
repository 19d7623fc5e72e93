package agentcards

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
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

// mint returns the routing value of agentID for a caller in tenant / workspace / principal id, and records it.
// The spec-correct value is a keyed MAC of agentId ‖ host version: the same for every caller, encoding nothing.
func (h *host) mint(agentID, tenant, ws, pid string) string {
	if h.on(sabotage.ACRPerCaller) {
		agentID += "\x00" + tenant // a MAC per (agent, caller's tenant): encodes nothing, but differs per caller
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	mac := func(parts ...string) string {
		m := hmac.New(sha256.New, h.secret)
		m.Write([]byte(strings.Join(parts, "\x00")))
		return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
	}
	base := mac(agentID, h.fx.Host.Version)
	var r string
	switch {
	case h.on(sabotage.ACRPerRequest):
		h.seq++
		r = "ag-" + mac(agentID, h.fx.Host.Version, fmt.Sprint(h.seq))[:22]
	case h.on(sabotage.ACREncodesTenant):
		r = "tenant-" + tenant + "-" + agentID[strings.LastIndexByte(agentID, '.')+1:]
	case h.on(sabotage.ACRBase64Tenant):
		r = "ag-" + base64.RawURLEncoding.EncodeToString([]byte(tenant)) + "-" + base[:12]
	case h.on(sabotage.ACREncodesWorkspace):
		r = "ag-" + base64.RawURLEncoding.EncodeToString([]byte(ws)) + "." + base[:12]
	case h.on(sabotage.ACRBase32LowerTenant):
		r = "ag-" + strings.ToLower(strings.TrimRight(base32.StdEncoding.EncodeToString([]byte(tenant)), "=")) + "-" + base[:12]
	case h.on(sabotage.ACRRot13ReversedWS):
		r = "ag-" + reverseROT13(ws) + "-" + base[:12]
	case h.on(sabotage.ACPublicCardListsShortR):
		sum := sha256.Sum256([]byte(base))
		r = fmt.Sprintf("a%04d", (int(sum[0])<<8|int(sum[1]))%10000)
	case h.on(sabotage.ACREncodesPrincipal):
		r = "ag-" + hex.EncodeToString([]byte(pid)) + "-" + base[:12]
	case h.on(sabotage.ACROverSchemaLength):
		r = "ag-" + strings.Repeat(base, 3)[:126] // 129 characters: over the schema's maxLength 128
	case h.opt.RVariety:
		r = variedR(base)
	default:
		r = "ag-" + base[:22]
	}
	h.minted[r] = agentID
	return r
}

// variedR is the RVariety latitude: values of different lengths and alphabets, all inside the a2aTenant schema
// (1–128 characters of ^[A-Za-z0-9._~-]+$), chosen by the MAC so each agent keeps its value.
func variedR(mac string) string {
	sum := sha256.Sum256([]byte(mac))
	stream := hex.EncodeToString(sum[:])
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._~-"
	switch sum[0] % 4 {
	case 0: // digits only
		var b strings.Builder
		for i := 0; i < 12; i++ {
			b.WriteByte('0' + sum[i+1]%10)
		}
		return b.String()
	case 1: // lower-case hex, 40 characters
		return stream[:40]
	case 2: // the whole alphabet, the maximum length
		var b strings.Builder
		for i := 0; b.Len() < 128; i++ {
			x := sha256.Sum256([]byte(fmt.Sprint(mac, i)))
			for _, c := range x {
				if b.Len() < 128 {
					b.WriteByte(alphabet[int(c)%len(alphabet)])
				}
			}
		}
		return b.String()
	}
	return "a~" + mac[:5] // short, with a tilde
}

func (h *host) mintFor(p *principal, a *agent) string {
	return h.mint(a.AgentID, p.Tenant, p.Workspace, p.ID)
}

// requestID is a fresh per-response id.
func (h *host) requestID() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.reqSeq++
	m := hmac.New(sha256.New, h.secret)
	fmt.Fprint(m, "request", h.reqSeq)
	return hex.EncodeToString(m.Sum(nil))[:16]
}

// mintedAgent returns the agent a minted R names ("" when the host never minted it).
func (h *host) mintedAgent(r string) string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.minted[r]
}

// resolve finds the agent R names within p's inventory (the caller's tenant of record, RFC 0202 §D.9).
func (h *host) resolve(p *principal, r string) *agent {
	id := h.mintedAgent(r)
	if id == "" {
		return nil
	}
	for _, a := range h.inventory(p) {
		if a.AgentID == id && h.published(p, a) {
			return a
		}
	}
	return nil
}

// ---- OpenWOP surface ----

// serveDiscovery is OpenWOP's well-known resource (capabilities.md §1): the v1 document for a request without
// OpenWOP-Version, the closed v2 root for OpenWOP-Version: 2, each with an ETag honoured by If-None-Match (§1.1).
func (h *host) serveDiscovery(w http.ResponseWriter, r *http.Request) {
	v2 := strings.TrimSpace(r.Header.Get("OpenWOP-Version")) == "2"
	switch h.opt.Discovery {
	case "none":
		writeJSON(w, http.StatusNotFound, map[string]any{"error": map[string]string{"code": "not_found", "message": "not found"}})
		return
	case "v1-only":
		v2 = false
	case "v2-only":
		v2 = true
	}
	var doc any
	if v2 {
		doc = h.discoveryV2()
		w.Header().Set("OpenWOP-Version", "2")
	} else {
		doc = h.discoveryV1()
	}
	b, _ := json.Marshal(doc)
	sum := sha256.Sum256(b)
	etag := `"` + base64.RawURLEncoding.EncodeToString(sum[:12]) + `"`
	w.Header().Set("ETag", etag)
	w.Header().Set("Vary", "OpenWOP-Version")
	w.Header().Set("Cache-Control", "max-age=60")
	for _, t := range strings.Split(r.Header.Get("If-None-Match"), ",") {
		if t = strings.TrimSpace(t); t == etag || t == "W/"+etag || t == "*" {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(b)
}

// discoveryV1 is the host's v1 discovery document (what a client that sends no OpenWOP-Version reads). It names
// no RFC 0202 facet: v1 is untouched.
func (h *host) discoveryV1() map[string]any {
	versions := []string{"1.4", "2.0"}
	if h.opt.Discovery == "v1-only" {
		versions = []string{"1.4"}
	}
	return map[string]any{
		"openwop": "1.4", "protocolVersions": versions,
		"host":     map[string]string{"name": h.fx.Host.Name, "version": h.fx.Host.Version},
		"profiles": []string{"core", "a2a"},
		"a2a":      map[string]any{"supported": true, "agentCardUrl": h.srv.CardURL()},
		"agents":   map[string]any{"supported": true},
	}
}

// discoveryV2 is the closed v2 root (capabilities.md §2, §3): metadata keys and one capability record per family;
// RFC 0202's facet is the key agentCards in the a2a record, manifestRuntime a key of the agents record.
func (h *host) discoveryV2() map[string]any {
	a2aRec := map[string]any{"status": "stable", "since": "2.0", "witness": "seam-gated",
		"versions": []string{"1.0"}, "preferredVersion": "1.0", "minimumVersion": "1.0", "refreshedAt": "2026-11-01",
		"profiles": []string{"a2a-1.0"}, "agentCardUrl": h.srv.CardURL(), "streaming": true, "agentCards": true}
	if h.on(sabotage.ACNoA2AProfile) {
		a2aRec["versions"], a2aRec["preferredVersion"], a2aRec["minimumVersion"] = []string{"0.3"}, "0.3", "0.3"
		a2aRec["profiles"] = []string{"a2a-0.3"}
	}
	if h.opt.VersionsOnly {
		delete(a2aRec, "profiles")
	}
	agents := map[string]any{"status": "stable", "since": "2.0", "witness": "witnessable-gated", "manifestRuntime": true}
	if h.opt.ManifestRuntimeObject {
		agents["manifestRuntime"] = map[string]any{"supported": true}
	}
	if h.on(sabotage.ACNoManifestRuntime) {
		delete(agents, "manifestRuntime")
	}
	return map[string]any{"protocolVersions": []string{"1.4", "2.0"}, "preferredVersion": "2.0", "a2a": a2aRec, "agents": agents}
}

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

// reverseROT13 is the ACRRot13ReversedWS encoding: ROT13, then reversed (a composition of two reversible steps).
func reverseROT13(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'z':
			b[i] = 'a' + (c-'a'+13)%26
		case c >= 'A' && c <= 'Z':
			b[i] = 'A' + (c-'A'+13)%26
		}
	}
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return string(b)
}
