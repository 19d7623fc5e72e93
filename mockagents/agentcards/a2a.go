package agentcards

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/sabotage"
)

// cardJSON is an A2A 1.0 card whose capabilities and securitySchemes are kept as the exact JSON they are copied
// from, so a per-agent card carries the host card's bytes for them, not a re-encoding.
type cardJSON struct {
	Name                 string                    `json:"name"`
	Description          string                    `json:"description"`
	SupportedInterfaces  []a2a.AgentInterface      `json:"supportedInterfaces"`
	Provider             *a2a.AgentProvider        `json:"provider,omitempty"`
	Version              string                    `json:"version"`
	DocumentationURL     string                    `json:"documentationUrl,omitempty"`
	Capabilities         json.RawMessage           `json:"capabilities"`
	SecuritySchemes      json.RawMessage           `json:"securitySchemes,omitempty"`
	SecurityRequirements []a2a.SecurityRequirement `json:"securityRequirements,omitempty"`
	DefaultInputModes    []string                  `json:"defaultInputModes,omitempty"`
	DefaultOutputModes   []string                  `json:"defaultOutputModes,omitempty"`
	Skills               []a2a.AgentSkill          `json:"skills"`
}

var securitySchemes = json.RawMessage(`{"bearer":{"httpAuthSecurityScheme":{"scheme":"Bearer"}},` +
	`"apiKey":{"apiKeySecurityScheme":{"location":"header","name":"X-API-Key"}}}`)

// publicCard is the host's unauthenticated card: its skills are its workflows, and it lists no routing value.
func (h *host) publicCard(base string) any {
	caps := `{"streaming":true,"extendedAgentCard":true}`
	if h.on(sabotage.ACDropExtendedCardCapability) {
		caps = `{"streaming":true}`
	}
	if !h.srvOpts.Streaming(true) { // a2a.lat.sync-only: the per-agent cards project this card, so it is honoured here
		caps = strings.Replace(caps, `"streaming":true`, `"streaming":false`, 1)
	}
	c := cardJSON{
		Name: h.fx.Host.Name, Description: h.fx.Host.Description, Provider: h.fx.Host.Provider,
		SupportedInterfaces: h.srvOpts.CardInterfaces(base), Version: h.fx.Host.Version,
		Capabilities: json.RawMessage(caps), SecuritySchemes: securitySchemes,
		SecurityRequirements: []a2a.SecurityRequirement{
			{Schemes: map[string]a2a.StringList{"bearer": {}}}, {Schemes: map[string]a2a.StringList{"apiKey": {}}}},
		DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
		Skills: h.fx.Workflows,
	}
	if h.opt.GRPC {
		c.SupportedInterfaces = append(c.SupportedInterfaces, a2a.AgentInterface{URL: strings.TrimPrefix(strings.TrimPrefix(base, "https://"), "http://") + ":grpc",
			ProtocolBinding: "GRPC", ProtocolVersion: a2a.ProtocolVersion})
	}
	if h.on(sabotage.ACPublicCardListsShortR) {
		for _, role := range []string{"A", "B"} {
			p := h.principalByRole(role)
			for _, a := range h.inventory(p) {
				if h.published(p, a) {
					c.SupportedInterfaces = append(c.SupportedInterfaces, a2a.AgentInterface{URL: base + "/a2a/" + h.mintFor(p, a),
						ProtocolBinding: a2a.BindingJSONRPC, ProtocolVersion: a2a.ProtocolVersion})
				}
			}
		}
	}
	if h.on(sabotage.ACPublicCardListsR) {
		for _, role := range []string{"A", "B"} {
			p := h.principalByRole(role)
			for _, a := range h.inventory(p) {
				if h.published(p, a) {
					c.SupportedInterfaces = append(c.SupportedInterfaces, a2a.AgentInterface{URL: base + "/jsonrpc",
						ProtocolBinding: a2a.BindingJSONRPC, ProtocolVersion: a2a.ProtocolVersion, Tenant: h.mintFor(p, a)})
				}
			}
		}
	}
	return c
}

// served returns the public card exactly as the core serves it.
func (h *host) served() cardJSON {
	var c cardJSON
	_ = json.Unmarshal(h.srv.CardBytes(), &c)
	return c
}

// hostExtendedCard is the host's own authenticated card: the public one plus an authenticated-only workflow.
func (h *host) hostExtendedCard() cardJSON {
	c := h.served()
	c.Skills = append(append([]a2a.AgentSkill{}, c.Skills...), h.fx.ExtendedOnlyWorkflow)
	return c
}

func (h *host) workflow(id string) (a2a.AgentSkill, bool) {
	for _, w := range h.fx.Workflows {
		if w.ID == id {
			return w, true
		}
	}
	return a2a.AgentSkill{}, false
}

// agentCard is RFC 0202 §C / interop.md "Per-agent cards": name = persona, version = packVersion, description =
// description or else label, the host card's interfaces each with tenant R, the host card's capabilities and
// securitySchemes, and one skill per workflow routed to the agent for this caller. Nothing from the manifest.
func (h *host) agentCard(p *principal, a *agent, r string) any {
	if h.on(sabotage.ACHostCardForR) {
		return h.hostExtendedCard()
	}
	pub := h.served()
	c := cardJSON{
		Name: a.Persona, Version: a.PackVersion, Description: a.Description,
		Capabilities: pub.Capabilities, SecuritySchemes: pub.SecuritySchemes,
		DefaultInputModes: pub.DefaultInputModes, DefaultOutputModes: pub.DefaultOutputModes,
		Skills: []a2a.AgentSkill{},
	}
	if c.Description == "" || h.on(sabotage.ACCardDescriptionAlwaysLabel) {
		c.Description = a.Label
	}
	if h.on(sabotage.ACCardSystemPromptInDescription) {
		c.Description = a.Manifest.SystemPrompt
	}
	if h.on(sabotage.ACCardNameNotPersona) {
		c.Name = a.Label
	}
	if h.on(sabotage.ACCardVersionFromHost) {
		c.Version = pub.Version
	}
	if h.on(sabotage.ACCardMissingDefaultModes) {
		c.DefaultInputModes, c.DefaultOutputModes = nil, nil
	}
	for _, in := range pub.SupportedInterfaces {
		if h.on(sabotage.ACCardInterfacesDropBinding) && in.ProtocolBinding != a2a.BindingJSONRPC {
			continue
		}
		in.Tenant = r
		if h.on(sabotage.ACCardInterfaceTenantMissing) && in.ProtocolBinding == a2a.BindingHTTPJSON {
			in.Tenant = ""
		}
		c.SupportedInterfaces = append(c.SupportedInterfaces, in)
	}
	if h.opt.InterfacesReordered {
		slices.Reverse(c.SupportedInterfaces)
	}
	if h.on(sabotage.ACCardCapabilitiesDiffer) {
		var m map[string]any
		_ = json.Unmarshal(pub.Capabilities, &m)
		m["streaming"] = false
		c.Capabilities, _ = json.Marshal(m)
	}
	if h.on(sabotage.ACCardSecuritySchemesDiffer) {
		var m map[string]json.RawMessage
		_ = json.Unmarshal(pub.SecuritySchemes, &m)
		delete(m, "apiKey")
		c.SecuritySchemes, _ = json.Marshal(m)
	}
	routed := h.routes(p, a.AgentID)
	if h.on(sabotage.ACCardSkillsAllWorkflows) {
		routed = nil
		for _, w := range h.fx.Workflows {
			routed = append(routed, w.ID)
		}
	}
	for _, id := range routed {
		if w, ok := h.workflow(id); ok {
			c.Skills = append(c.Skills, w)
		}
	}
	if a.AgentID == resolverID && h.on(sabotage.ACCardEmptySkills) {
		c.Skills = []a2a.AgentSkill{}
	}
	if h.on(sabotage.ACCardHandoffSchemaInSkill) && len(a.Manifest.HandoffSchemas) > 0 && len(c.Skills) > 0 {
		c.Skills[0].Examples = []string{string(a.Manifest.HandoffSchemas[0])}
	}
	if h.on(sabotage.ACCardCredentialInDocsURL) {
		for _, v := range a.Manifest.Credentials {
			c.DocumentationURL = h.srv.URL() + "/docs/agents/" + url.PathEscape(a.AgentID) + "?token=" + url.QueryEscape(v)
			break
		}
	}
	if a.AgentID == resolverID && h.on(sabotage.ACCardNamesForeignAgent) && len(c.Skills) > 0 {
		for _, o := range h.fx.Agents {
			if o.InstallTenant != p.Tenant && !h.inInventory(p, o.AgentID) {
				c.Skills[0].Description += " Hands off to " + o.AgentID + " when a ledger question comes up."
				break
			}
		}
	}
	return c
}

func (h *host) inInventory(p *principal, id string) bool {
	for _, a := range h.inventory(p) {
		if a.AgentID == id {
			return true
		}
	}
	return false
}

// before gates every A2A operation: authentication, authorization for requests carrying R, resolution of R
// within the caller's inventory. A nil reply hands the operation to the core (task store scoped by R and by the
// caller's tenant, which is what keeps runs in the caller's tenant of record).
func (h *host) before(c *a2atest.Ctx) *a2atest.Reply {
	// A per-response id, as real hosts send: a header that legitimately differs between two identical requests.
	reqID := h.requestID()
	c.RespHeader.Set("X-Acme-Request", reqID)
	r := c.Tenant
	if h.opt.NoRESTPushConfig && c.Binding == a2a.BindingHTTPJSON && isPushConfig(c.Method) {
		// Latitude: this binding serves no push-config route at all, for anyone.
		return &a2atest.Reply{Err: a2atest.NewError(a2a.CodeMethodNotFound, "no such route", nil), HTTPStatus: http.StatusNotFound}
	}
	p := h.authenticate(c.R)
	viaSabotage := false
	if p == nil {
		if r != "" && h.on(sabotage.ACResolveBeforeAuth) && h.mintedAgent(r) == "" {
			return h.unresolvable(c, r, false)
		}
		if r != "" && h.on(sabotage.ACRServesUnauthenticated) {
			if id := h.mintedAgent(r); id != "" {
				p = h.holderOf(id)
				viaSabotage = p != nil
			}
		}
		if p == nil {
			c.RespHeader.Set("WWW-Authenticate", `Bearer realm="acme-support-host"`)
			if h.opt.NoisyAuth {
				// Latitude: the refusal names the path asked for and this response's id, as many gateways do.
				return &a2atest.Reply{Err: a2atest.NewError(a2atest.CodeUnauthenticated, "authentication required for "+c.R.URL.Path,
					map[string]string{"requestId": reqID}), HTTPStatus: http.StatusUnauthorized}
			}
			return &a2atest.Reply{Err: a2atest.NewError(a2atest.CodeUnauthenticated, "authentication required", nil), HTTPStatus: http.StatusUnauthorized}
		}
	}
	c.Principal = &a2atest.Principal{Name: p.ID, Tenant: p.Tenant}
	if r == "" {
		if c.Method == a2a.MethodGetExtendedAgentCard {
			return &a2atest.Reply{Result: h.hostExtendedCard()}
		}
		return nil
	}
	// GET /agents/{agentId}'s policy, applied before R is looked at.
	if !hasScope(p, "runs:read") && !h.on(sabotage.ACRAuthzWeakerThanGetAgent) && !viaSabotage {
		return &a2atest.Reply{Err: a2atest.NewError(a2atest.CodeUnauthorized, "the caller may not use agents of this host", nil), HTTPStatus: http.StatusForbidden}
	}
	if h.opt.UniformRefusal && isPushConfig(c.Method) {
		// Latitude: push notifications are not supported, and the host says so before looking at R.
		return &a2atest.Reply{Err: a2atest.NewError(a2a.CodePushNotSupported, "push notifications are not supported", nil)}
	}
	a := h.resolve(p, r)
	if a == nil {
		return h.unresolvable(c, r, h.mintedAgent(r) != "")
	}
	if h.on(sabotage.ACRunInInstallTenant) && a.InstallTenant != "" {
		c.Principal.Tenant = a.InstallTenant // the core stores the run under the agent's install tenant
	}
	switch c.Method {
	case a2a.MethodGetExtendedAgentCard:
		if h.on(sabotage.ACRestIgnoresTenantPrefix) && c.Binding == a2a.BindingHTTPJSON {
			return &a2atest.Reply{Result: h.hostExtendedCard()}
		}
		return &a2atest.Reply{Result: h.agentCard(p, a, r)}
	}
	return nil
}

func isPushConfig(m string) bool {
	switch m {
	case a2a.MethodCreatePushConfig, a2a.MethodGetPushConfig, a2a.MethodListPushConfigs, a2a.MethodDeletePushConfig:
		return true
	}
	return false
}

func hasScope(p *principal, scope string) bool {
	for _, x := range p.Scopes {
		if x == scope {
			return true
		}
	}
	return false
}

// holderOf returns a principal whose inventory publishes the agent (ac.r-serves-unauthenticated acts as it).
func (h *host) holderOf(agentID string) *principal {
	for _, p := range h.fx.Principals {
		for _, a := range h.inventory(p) {
			if a.AgentID == agentID && h.published(p, a) {
				return p
			}
		}
	}
	return nil
}

// unresolvable is the one refusal for an R that names no agent of the caller's inventory, whether the host never
// minted it (known false) or it names another tenant's, an unapproved or an uninstalled agent (known true). It
// never quotes R and never says why R did not resolve.
func (h *host) unresolvable(c *a2atest.Ctx, r string, known bool) *a2atest.Reply {
	code, msg := -32602, "the tenant does not name an agent available to the caller"
	if c.Method == a2a.MethodGetExtendedAgentCard {
		code, msg = a2a.CodeExtendedCardNotConfigured, "extended agent card is not configured"
	}
	if h.on(sabotage.ACRefusalEchoesR) {
		msg += ": " + r
	}
	status := 0
	if known {
		if h.on(sabotage.ACForeignRDistinctHeader) {
			c.RespHeader.Set("X-Acme-Scope", "workspace")
		}
		streaming := c.Method == a2a.MethodSendStreamingMessage || c.Method == a2a.MethodSubscribeToTask
		if h.on(sabotage.ACForeignRDistinctCode) {
			code, msg = a2a.CodeTaskNotFound, "the agent is not available"
			if c.Binding == a2a.BindingHTTPJSON {
				status = http.StatusBadRequest // the never-minted refusal's status: only the code differs
			}
		}
		if h.on(sabotage.ACForeignRDistinctMessage) {
			msg = "agent not available in this workspace"
		}
		if h.on(sabotage.ACForeignRDistinctStatus) && c.Binding == a2a.BindingJSONRPC && !streaming {
			status = http.StatusForbidden
		}
		if h.on(sabotage.ACRestForeignRDistinct) && c.Binding == a2a.BindingHTTPJSON {
			code, msg, status = a2a.CodeTaskNotFound, "agent not found", 0
		}
		if h.on(sabotage.ACGetTaskForeignRLeaks) && c.Method == a2a.MethodGetTask {
			code, msg, status = a2a.CodeTaskNotFound, "task not found", 0
		}
	}
	return &a2atest.Reply{Err: a2atest.NewError(code, msg, nil), HTTPStatus: status}
}

// onSend completes every message: the workflow run is the agent's (tenant R) or the host's (no tenant).
func (h *host) onSend(c *a2atest.Ctx, req a2a.SendMessageRequest) a2atest.Reply {
	who := h.fx.Host.Name
	if id := h.mintedAgent(c.Tenant); id != "" {
		if a := h.agent(id); a != nil {
			who = a.Persona
		}
	}
	text := who + " completed the request."
	if n := len(req.Message.Parts); n > 0 && req.Message.Parts[0].Text != nil {
		text = who + " completed: " + strings.TrimSpace(*req.Message.Parts[0].Text)
	}
	if h.opt.MessageReply && c.Method == a2a.MethodSendMessage {
		// Latitude: A2A lets SendMessage answer with a Message; no task is created.
		return a2atest.Reply{Message: &a2a.Message{Role: a2a.RoleAgent, Parts: []a2a.Part{a2a.TextPart(text)}}}
	}
	return a2atest.Reply{Task: &a2a.Task{
		Status:    a2a.TaskStatus{State: a2a.StateCompleted},
		Artifacts: []a2a.Artifact{{ArtifactID: "result-1", Name: "result", Parts: []a2a.Part{a2a.TextPart(text)}}},
	}}
}
