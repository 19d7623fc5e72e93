package sabotage

// The latitudes' ids. Cross-cutting ones ("a2a.lat.…") are choices A2A 1.0 (or the HTTP specification it rides on)
// leaves open; the shared server kit (harness/a2atest) implements them and every reference agent's starter switches
// them on from the set. Per-document ones ("<prefix>.lat.…") are options of that document's reference agent.
const (
	LatSyncOnly     ID = "a2a.lat.sync-only"
	LatJSONRPCOnly  ID = "a2a.lat.jsonrpc-only"
	LatHTTPJSONOnly ID = "a2a.lat.http-json-only"
	LatMessageReply ID = "a2a.lat.message-reply"
	LatTaskReply    ID = "a2a.lat.task-reply"
	LatNoCardCache  ID = "a2a.lat.no-card-cache"
	LatPlain401     ID = "a2a.lat.plain-401"

	ACLatDiscoveryV2Only  ID = "ac.lat.discovery-v2-only"
	ACLatDiscoveryV1AndV2 ID = "ac.lat.discovery-v1-and-v2"
	ACLatUniformRefusal   ID = "ac.lat.uniform-refusal-before-resolve"
	ACLatRVariety         ID = "ac.lat.r-alphabet-variety"

	SILatExtraMembers ID = "si.lat.document-extra-members"
	SILatUpperReasons ID = "si.lat.upper-case-reasons"
)

func init() {
	RegisterLatitudes(
		Latitude{ID: LatSyncOnly, Documents: []string{AllDocuments},
			Permits:     `A2A 1.0 §3.3.1: "If AgentCard.capabilities.streaming is false or not present, attempts to use SendStreamingMessage or SubscribeToTask operations MUST return UnsupportedOperationError" (streaming is a declared capability, not a requirement); schema-interface: "The client MUST invoke the A2A Send Message or Send Streaming Message operation"`,
			Description: "capabilities.streaming false on every card; SendStreamingMessage and SubscribeToTask refused with UnsupportedOperationError (-32004)"},
		Latitude{ID: LatJSONRPCOnly, Documents: []string{AllDocuments},
			Permits:     `A2A 1.0 §5.1 "When an agent supports multiple protocols, all supported protocols MUST …" and §5.2 "Agents MUST declare all supported protocols in their AgentCard": one binding is enough, as long as the card lists exactly what is served`,
			Description: "only the JSON-RPC binding is served; supportedInterfaces lists only it; the HTTP+JSON routes answer 404"},
		Latitude{ID: LatHTTPJSONOnly, Documents: []string{AllDocuments},
			Permits:     `A2A 1.0 §5.1 "When an agent supports multiple protocols, all supported protocols MUST …" and §5.2 "Agents MUST declare all supported protocols in their AgentCard": one binding is enough, as long as the card lists exactly what is served`,
			Description: "only the HTTP+JSON binding is served; supportedInterfaces lists only it; POST /jsonrpc answers 404"},
		Latitude{ID: LatMessageReply, Documents: []string{"agent-cards", "interview"},
			Permits:     `A2A 1.0 §3.1.1: "The agent MAY create a new Task to process the provided message asynchronously or MAY return a direct Message response for simple interactions"; only where the document leaves the reply's shape open: RFC 0202 and the interview extension (whose five methods "MUST NOT create tasks" but which leaves ordinary traffic alone) say nothing of it; on-request (reply metadata on the Task and its Artifacts) and schema-interface (the section 9 mapping) prescribe it`,
			Description: "SendMessage (not streaming) is answered with a Message where the reference agent answers a completed Task; no task is created"},
		Latitude{ID: LatTaskReply, Documents: []string{"terms"},
			Permits:     `A2A 1.0 §3.1.1: "The agent MAY create a new Task to process the provided message asynchronously or MAY return a direct Message response for simple interactions"; the terms extension says nothing of ordinary replies (it "requires nothing of an A2A deployment beyond serving one JSON document and one card entry")`,
			Description: "SendMessage (not streaming) is answered with a completed Task (the Message as its status message, its parts as the artifact) where the reference agent answers a Message"},
		Latitude{ID: LatNoCardCache, Documents: []string{AllDocuments},
			Permits:     `A2A 1.0 §8.6.1: "Agent Card HTTP endpoints SHOULD include a Cache-Control response header …", "SHOULD include an ETag response header …", "MAY include a Last-Modified response header" (SHOULDs not followed, a MAY not taken)`,
			Description: "the card is served without Cache-Control, ETag and Last-Modified (and If-None-Match is never answered 304)"},
		Latitude{ID: LatPlain401, Documents: []string{AllDocuments},
			Permits:     `A2A 1.0 §3.3.2: authentication errors "Example error codes: HTTP 401 Unauthorized, gRPC UNAUTHENTICATED, JSON-RPC custom error" and §7.4 "SHOULD use appropriate binding-specific error codes"; RFC 7235 §3.1: "The server generating a 401 response MUST send a WWW-Authenticate header field" (no body is required)`,
			Description: "every A2A authentication failure is a plain-text 401 with WWW-Authenticate and no JSON body"},

		Latitude{ID: ACLatDiscoveryV2Only, Documents: []string{"agent-cards"},
			Permits:     `capabilities.md §1 selects the representation by OpenWOP-Version; nothing in RFC 0202 requires a v1 representation ("v1 is untouched (see G2)")`,
			Description: "the discovery resource serves the v2 root whatever the OpenWOP-Version header"},
		Latitude{ID: ACLatDiscoveryV1AndV2, Documents: []string{"agent-cards"},
			Permits:     `capabilities.md §1: one resource, two representations selected by OpenWOP-Version (the reference host's default, named so it is registered)`,
			Description: "the discovery resource serves v1 without OpenWOP-Version and the v2 root with OpenWOP-Version: 2"},
		Latitude{ID: ACLatUniformRefusal, Documents: []string{"agent-cards"},
			Permits:     `RFC 0202 §D.6 orders only authentication and authorization before resolution; §D.7 asks that a foreign R get what a never-minted one gets, which a refusal that never looks at R satisfies`,
			Description: "the four push-config operations get -32003 for every authorized caller before R is resolved"},
		Latitude{ID: ACLatRVariety, Documents: []string{"agent-cards"},
			Permits:     `RFC 0202 §B.2 "an opaque routing value R"; the schema allows any 1–128 characters of ^[A-Za-z0-9._~-]+$`,
			Description: "routing values of 7, 12, 40 and 128 characters: digits only, hex, the whole alphabet, with ~"},

		Latitude{ID: SILatExtraMembers, Documents: []string{"schema-interface"},
			Permits:     `the Skill Interface prose names the members a document and a Schema Reference contain ("A Schema Reference contains: …") but never closes them`,
			Description: "documents carry a top-level description, a title per Schema Reference, interaction.timeout_seconds; manage_resource omits interaction.cancellable"},
		Latitude{ID: SILatUpperReasons, Documents: []string{"schema-interface"},
			Permits:     `the draft fixes the condition code's spelling only in a Task ("the Task's final status Message MUST contain exactly one Data Part whose data value has this form"); a binding error "SHOULD expose the same machine-readable code when that binding permits it"`,
			Description: "conditions in binding errors are ErrorInfo reasons in upper snake case (AUTHORIZATION_FAILED)"},
	)
}
