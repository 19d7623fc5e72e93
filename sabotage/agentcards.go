package sabotage

// The toggles' ids, in registration order; each toggle's targets and description are registered below.
const (
	ACNoA2AProfile                  ID = "ac.no-a2a-profile"
	ACNoManifestRuntime             ID = "ac.no-manifest-runtime"
	ACDropExtendedCardCapability    ID = "ac.drop-extended-card-capability"
	ACRPerRequest                   ID = "ac.r-per-request"
	ACREncodesTenant                ID = "ac.r-encodes-tenant"
	ACRBase64Tenant                 ID = "ac.r-base64-tenant"
	ACREncodesWorkspace             ID = "ac.r-encodes-workspace"
	ACREncodesPrincipal             ID = "ac.r-encodes-principal"
	ACRMissingOnRoutedAgent         ID = "ac.r-missing-on-routed-agent"
	ACRPerCaller                    ID = "ac.r-per-caller"
	ACROverSchemaLength             ID = "ac.r-over-schema-length"
	ACROnWorkflowlessAgent          ID = "ac.r-on-workflowless-agent"
	ACCardEmptySkills               ID = "ac.card-empty-skills"
	ACHostCardForR                  ID = "ac.host-card-for-r"
	ACRestIgnoresTenantPrefix       ID = "ac.rest-ignores-tenant-prefix"
	ACCardMissingDefaultModes       ID = "ac.card-missing-default-modes"
	ACCardNameNotPersona            ID = "ac.card-name-not-persona"
	ACCardVersionFromHost           ID = "ac.card-version-from-host"
	ACCardDescriptionAlwaysLabel    ID = "ac.card-description-always-label"
	ACCardInterfacesDropBinding     ID = "ac.card-interfaces-drop-binding"
	ACCardInterfaceTenantMissing    ID = "ac.card-interface-tenant-missing"
	ACCardCapabilitiesDiffer        ID = "ac.card-capabilities-differ"
	ACCardSecuritySchemesDiffer     ID = "ac.card-security-schemes-differ"
	ACCardSkillsAllWorkflows        ID = "ac.card-skills-all-workflows"
	ACCardSystemPromptInDescription ID = "ac.card-system-prompt-in-description"
	ACCardHandoffSchemaInSkill      ID = "ac.card-handoff-schema-in-skill"
	ACCardCredentialInDocsURL       ID = "ac.card-credential-in-docs-url"
	ACDegradedOffEntry              ID = "ac.degraded-off-entry"
	ACRServesUnauthenticated        ID = "ac.r-serves-unauthenticated"
	ACRAuthzWeakerThanGetAgent      ID = "ac.r-authz-weaker-than-get-agent"
	ACResolveBeforeAuth             ID = "ac.resolve-before-auth"
	ACForeignRDistinctStatus        ID = "ac.foreign-r-distinct-status"
	ACForeignRDistinctCode          ID = "ac.foreign-r-distinct-code"
	ACForeignRDistinctMessage       ID = "ac.foreign-r-distinct-message"
	ACForeignRDistinctHeader        ID = "ac.foreign-r-distinct-header"
	ACRefusalEchoesR                ID = "ac.refusal-echoes-r"
	ACRestForeignRDistinct          ID = "ac.rest-foreign-r-distinct"
	ACGetTaskForeignRLeaks          ID = "ac.gettask-foreign-r-leaks"
	ACPublicCardListsR              ID = "ac.public-card-lists-r"
	ACCardNamesForeignAgent         ID = "ac.card-names-foreign-agent"
)

// Toggles of the agent-cards reference host (OpenWOP RFC 0202). The RFC's own falsifiability list ("how each row
// can fail") is the first eight marked RFC; the rest split its rules into the single behaviours a host can get wrong.
func init() {
	ac := func(id ID, desc string, targets ...string) Toggle {
		return Toggle{ID: id, Document: "agent-cards", Side: SideAgent, Targets: targets, Description: desc}
	}
	Register(
		// §A Advertisement
		ac(ACNoA2AProfile, "the discovery document drops the a2a-1.0 profile but keeps a2a.agentCards",
			"AC-A.1a", "AC-V2.1a"),
		ac(ACNoManifestRuntime, "the discovery document drops agents.manifestRuntime but keeps a2a.agentCards",
			"AC-A.1b", "AC-V2.1b"),
		ac(ACDropExtendedCardCapability, "RFC A.1: the public card omits capabilities.extendedAgentCard (the operation is still served)",
			"AC-A.1c", "AC-V2.1c"),
		// §B The routing value
		ac(ACRPerRequest, "RFC B.2: every GET /agents mints a fresh a2aTenant (all values ever minted keep resolving)",
			"AC-B.2a"),
		ac(ACREncodesTenant, "a2aTenant is tenant-<tenant id>-<agent slug> (the RFC's negative example)",
			"AC-B.2b", "AC-V2.2a"),
		ac(ACRBase64Tenant, "a2aTenant carries the caller's tenant id base64url-encoded: ag-<b64(tenant)>-<mac>",
			"AC-B.2b", "AC-V2.2a"),
		ac(ACREncodesWorkspace, "a2aTenant carries the caller's workspace id base64url-encoded: ag-<b64(workspace)>.<mac>",
			"AC-B.2c", "AC-V2.2b"),
		ac(ACREncodesPrincipal, "a2aTenant carries the caller's principal id hex-encoded: ag-<hex(principal)>-<mac>",
			"AC-B.2d", "AC-V2.2c"),
		ac(ACRMissingOnRoutedAgent, "the Summarizer's entry (workflows routed to it) is listed without an a2aTenant",
			"AC-B.2e"),
		ac(ACRPerCaller, "a2aTenant is a MAC of the agent and the caller's tenant: stable per caller, different for A and B",
			"AC-B.2f"),
		ac(ACROverSchemaLength, "a2aTenant is 129 characters, over the inventory schema's maxLength 128",
			"AC-B.2g"),
		ac(ACROnWorkflowlessAgent, "the entry of an agent with no routed workflow gets an a2aTenant, and its card has no skill",
			"AC-B.3a", "AC-B.3b"),
		// §C The card
		ac(ACCardEmptySkills, "the Resolver's per-agent card carries skills: []",
			"AC-B.3b", "AC-V2.3i"),
		ac(ACHostCardForR, "RFC C.4: GetExtendedAgentCard with tenant R returns the host's extended card unchanged, on both bindings",
			"AC-C.4a", "AC-C.4b", "AC-V2.3a"),
		ac(ACRestIgnoresTenantPrefix, "HTTP+JSON GET /{R}/extendedAgentCard answers a resolvable R with the host's extended card, as if the prefix were absent (JSON-RPC is right)",
			"AC-C.4b", "AC-V2.3a"),
		ac(ACCardMissingDefaultModes, "per-agent cards omit defaultInputModes and defaultOutputModes",
			"AC-C.4c"),
		ac(ACCardNameNotPersona, "per-agent card name is the entry's label, not its persona",
			"AC-V2.3b"),
		ac(ACCardVersionFromHost, "per-agent card version is the host card's version, not the entry's packVersion",
			"AC-V2.3c"),
		ac(ACCardDescriptionAlwaysLabel, "per-agent card description is the entry's label even when the entry has a description",
			"AC-V2.3d"),
		ac(ACCardInterfacesDropBinding, "per-agent cards list only the JSON-RPC interface of the host",
			"AC-V2.3e"),
		ac(ACCardInterfaceTenantMissing, "the HTTP+JSON interface of per-agent cards carries no tenant",
			"AC-V2.3f"),
		ac(ACCardCapabilitiesDiffer, "per-agent cards declare streaming: false while the host card declares true",
			"AC-V2.3g"),
		ac(ACCardSecuritySchemesDiffer, "per-agent cards drop the host's apiKey security scheme",
			"AC-V2.3h"),
		ac(ACCardSkillsAllWorkflows, "per-agent cards list every host workflow, not only those routed to the agent for the caller",
			"AC-V2.3i"),
		ac(ACCardSystemPromptInDescription, "RFC C.5: the per-agent card's description is the manifest's systemPromptRef body",
			"AC-C.5a", "AC-V2.4", "AC-V2.3d"),
		ac(ACCardHandoffSchemaInSkill, "the resolved handoff schema (JSON) is the first example of the card's first skill",
			"AC-C.5b", "AC-V2.4"),
		ac(ACCardCredentialInDocsURL, "the card's documentationUrl carries the agent's credential as ?token=",
			"AC-C.5c", "AC-V2.4"),
		// §D Non-disclosure
		ac(ACDegradedOffEntry, "inventory entries drop degraded[] and memoryDegraded, as if the per-agent card replaced them",
			"AC-V2.4b"),
		ac(ACRServesUnauthenticated, "a request carrying a minted R is served without (or with invalid) credentials",
			"AC-D.6a", "AC-V2.5a", "AC-D.6c", "AC-V2.5c", "AC-INV.1b"),
		ac(ACRAuthzWeakerThanGetAgent, "a request carrying R skips the runs:read check GET /agents/{agentId} applies",
			"AC-D.6b", "AC-V2.5b"),
		ac(ACResolveBeforeAuth, "RFC D.6: R is resolved before authentication: an unknown R without credentials gets the not-found refusal, a minted one 401",
			"AC-D.6c", "AC-V2.5c", "AC-INV.1b"),
		ac(ACForeignRDistinctStatus, "a foreign R gets the never-minted refusal's JSON-RPC body with HTTP 403 instead of 200",
			"AC-D.7a", "AC-V2.6", "AC-INV.1b"),
		ac(ACForeignRDistinctCode, "RFC D.7: a foreign R gets -32001 (HTTP+JSON NOT_FOUND, same HTTP status) where a never-minted one gets -32007 / -32602",
			"AC-D.7b", "AC-D.7c", "AC-V2.6", "AC-INV.1b"),
		ac(ACForeignRDistinctMessage, "a foreign R gets the never-minted refusal with the message 'agent not available in this workspace'",
			"AC-D.7c", "AC-V2.6", "AC-INV.1b"),
		ac(ACForeignRDistinctHeader, "a foreign R gets the never-minted refusal byte for byte, plus the response header X-Acme-Scope: workspace",
			"AC-V2.6", "AC-INV.1b"),
		ac(ACRefusalEchoesR, "the refusal of an unresolvable R quotes R in its message, so a foreign and a never-minted R get different bodies (a literal difference: D.7c; it discloses nothing, so V2.6 and INV.1b read it against the baseline)",
			"AC-D.7c"),
		ac(ACRestForeignRDistinct, "on HTTP+JSON only, a foreign R gets 404 NOT_FOUND where a never-minted one gets the 400 refusal",
			"AC-D.7a", "AC-D.7b", "AC-D.7c", "AC-V2.6", "AC-INV.1b"),
		ac(ACGetTaskForeignRLeaks, "GetTask alone answers a foreign R with TaskNotFound (HTTP+JSON 404) where a never-minted R gets the refusal",
			"AC-D.7a", "AC-D.7b", "AC-D.7c", "AC-V2.6", "AC-INV.1b"),
		ac(ACPublicCardListsR, "RFC D.8: the public card lists one JSON-RPC interface per agent with tenant: R",
			"AC-D.8", "AC-V2.7"),
		ac(ACCardNamesForeignAgent, "the Resolver's first skill description names an agent only tenant B has installed",
			"AC-INV.1a"),
	)
}
