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

	SILatExtraMembers            ID = "si.lat.document-extra-members"
	SILatUpperReasons            ID = "si.lat.upper-case-reasons"
	SILatECMAPatterns            ID = "si.lat.ecma-patterns"
	SILatCodelessPreTask         ID = "si.lat.codeless-pre-task"
	SILatAuthorizeFirst          ID = "si.lat.authorize-before-validate"
	SILatStatus413               ID = "si.lat.payload-413"
	SILatDescribeRefusedB        ID = "si.lat.describe-refused-to-b"
	SILatSummaryArtifact         ID = "si.lat.summary-artifact"
	SILatOneOfOperations         ID = "si.lat.oneof-operations"
	SILatNestedConstraints       ID = "si.lat.nested-constraints"
	SILatDraft07Dialect          ID = "si.lat.draft07-dialect"
	SILatErrorTextPart           ID = "si.lat.error-text-part"
	SILatNoRecords               ID = "si.lat.no-records"
	SILatResolutionMediaType     ID = "si.lat.resolution-media-type"
	SILatCurrentNamedURI         ID = "si.lat.current-named-uri"
	SILatNestingInArguments      ID = "si.lat.nesting-in-arguments"
	SILatEmbeddedDialectFragment ID = "si.lat.embedded-dialect-fragment"
	SILatComposedInput           ID = "si.lat.composed-input"

	TermsLatThirdPartyHost      ID = "terms.lat.third-party-host"
	TermsLatInPlaceChange       ID = "terms.lat.in-place-change"
	TermsLatRetiredKeySignature ID = "terms.lat.retired-key-signature"
	TermsLatUnsignedCard        ID = "terms.lat.unsigned-card"
	TermsLatClientSeatAbsent    ID = "terms.lat.client-seat-absent"
	TermsLatStdBase64Sig        ID = "terms.lat.std-base64-sig"
	TermsLatNoTermProse         ID = "terms.lat.no-term-prose"
	TermsLatAmountsNotPrices    ID = "terms.lat.amounts-not-prices"
	TermsLatCapabilitySentences ID = "terms.lat.capability-sentences"

	IVLatRefusalDetailWorded ID = "iv.lat.refusal-detail-worded"
	IVLatHTTPJSONFirst       ID = "iv.lat.http-json-first"
	IVLatSkillIDInstructions ID = "iv.lat.skill-id-instructions"
	IVLatRetiredKeySignature ID = "iv.lat.retired-key-signature"
	IVLatES512Signature      ID = "iv.lat.es512-signature"
	IVLatResignPerFetch      ID = "iv.lat.resign-per-fetch"

	ORLatLevel1RefersActions   ID = "or.lat.level1-refers-actions"
	ORLatActingForMessage      ID = "or.lat.acting-for-message-metadata"
	ORLatPersonEntryNormalised ID = "or.lat.person-entry-normalised-copy"
	ORLatNationalPhone         ID = "or.lat.national-phone"
	ORLatPassiveWording        ID = "or.lat.passive-wording"
	ORLatActionReferralMessage ID = "or.lat.action-referral-message"
	ORLatNoStaff               ID = "or.lat.no-staff"
	ORLatNoCompletion          ID = "or.lat.no-completion"
	ORLatLimitsPerSkill        ID = "or.lat.limits-per-skill"
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
			Description: "only the HTTP+JSON binding is served; supportedInterfaces lists only it; POST /jsonrpc answers 404",
			Unstatable:  map[string]string{"no JSONRPC interface": "the interview and GetExtendedAgentCard rows need the JSON-RPC binding the card does not list; no operator statement adds one"}},
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
		Latitude{ID: SILatECMAPatterns, Documents: []string{"schema-interface"},
			Permits:     `the draft's schema dialect is JSON Schema 2020-12, whose patterns "SHOULD be valid according to the regular expression dialect described in ECMA-262"`,
			Description: "manage_resource's input and output schemas carry ECMA-262 patterns RE2 rejects (lookahead, a \\u escape)"},
		Latitude{ID: SILatCodelessPreTask, Documents: []string{"schema-interface"},
			Permits:     `"A server-side error detected before task creation MUST be carried using the error mechanism of the selected A2A protocol binding and SHOULD expose the same machine-readable code when that binding permits it" (a SHOULD)`,
			Description: "describe_skill or an invocation naming an unadvertised skill, and a caller without a skill grant, are refused before any task with the binding's error and no condition code"},
		Latitude{ID: SILatAuthorizeFirst, Documents: []string{"schema-interface"},
			Permits:     `the draft orders one check only: "Before validating arguments or invoking domain logic, the receiving agent MUST compare both values"; authorization must come "Before processing an invocation"`,
			Description: "resource, operation and constraint grants are decided before argument validation; a request naming no resource_id is refused with authorization_failed"},
		Latitude{ID: SILatStatus413, Documents: []string{"schema-interface"},
			Permits:     `"When an operation is rejected because one of these limits would be exceeded, the implementation MUST report the resource_limit_exceeded machine-readable condition … through the applicable binding"; a pre-task error "SHOULD expose the same machine-readable code when that binding permits it"; RFC 9110 §15.5.14 (413 Content Too Large)`,
			Description: "a request over the payload limit is refused with a plain HTTP 413, no JSON body"},
		Latitude{ID: SILatDescribeRefusedB, Documents: []string{"schema-interface"},
			Permits:     `silence: no sentence of the draft obliges an agent to serve describe_skill to every authenticated caller`,
			Description: "describe_skill is refused to principal B with authorization_failed"},
		Latitude{ID: SILatSummaryArtifact, Documents: []string{"schema-interface"},
			Permits:     `the draft requires "exactly one primary result Artifact" and names records after declared kinds; other Artifacts are unmentioned (base A2A permits any)`,
			Description: "a completed Task also carries a human-readable summary Artifact (a Text Part named summary)"},
		Latitude{ID: SILatOneOfOperations, Documents: []string{"schema-interface"},
			Permits:     `"its input_schema MUST require an unambiguous operation selector, enumerate the permitted operations, and define any operation-specific input requirements" (no schema construct named)`,
			Description: "manage_resource's input_schema is a oneOf with one branch per operation (operation fixed by const) instead of a root enum with if/then"},
		Latitude{ID: SILatNestedConstraints, Documents: []string{"schema-interface"},
			Permits:     `"The names, structures, and semantics of transmitted constraints are defined by the domain-specific input schema rather than by this framework"`,
			Description: "measure_link_bandwidth nests its constraints (/constraints/scope, /constraints/window/seconds) and shows them as /measured_scope, /aggregation_window_seconds in its output"},
		Latitude{ID: SILatComposedInput, Documents: []string{"schema-interface"},
			Permits:     `"input_schema: Schema Reference for the skill's arguments object" with "dialect" 2020-12, whose $ref/$defs are its own: the draft names no schema construct the input must use`,
			Description: "evaluate_resource_condition's input_schema is {\"$ref\": \"#/$defs/input\", \"$defs\": {\"input\": …}}: the same input, composed"},
		Latitude{ID: SILatDraft07Dialect, Documents: []string{"schema-interface"},
			Permits:     `"dialect: schema language and version" (the draft fixes no dialect) and "The only schema content a validator may use from outside resolution.schema is a locally trusted copy of the meta-schema identified by the Schema Reference's dialect": the harness holds 2020-12, 2019-09 and draft-07 and compiles and derives from each`,
			Description: "propose_remediation's Schema References declare the draft-07 dialect"},
		Latitude{ID: SILatErrorTextPart, Documents: []string{"schema-interface"},
			Permits:     `"the Task's final status Message MUST contain exactly one Data Part whose data value has this form" counts Data Parts; a Text Part is not one`,
			Description: "refusals' final status Messages carry a human-readable Text Part before the one error Data Part"},
		Latitude{ID: SILatNoRecords, Documents: []string{"schema-interface"},
			Permits:     `"Each supporting record, when present, MUST be carried in a separate Artifact"; "This document does not mandate a common property name or reference structure within every domain output"`,
			Description: "evaluate_resource_condition publishes no supporting record; its output's supporting_record_refs is an empty list"},
		Latitude{ID: SILatResolutionMediaType, Documents: []string{"schema-interface"},
			Permits:     `"They MUST NOT contain an external schema locator in place of the embedded content": a media type beside the inline schema locates nothing`,
			Description: "every Schema Reference's resolution also carries \"media_type\": \"application/schema+json\""},
		Latitude{ID: SILatCurrentNamedURI, Documents: []string{"schema-interface"},
			Permits:     `"the document assembler MUST select an exact version and digest; it MUST NOT substitute a mutable latest value": a schema_uri is an identity, and its version stays exact`,
			Description: "evaluate_resource_condition's output schema_uri is urn:example:resource-condition:output:current with version 1.0"},
		Latitude{ID: SILatNestingInArguments, Documents: []string{"schema-interface"},
			Permits:     `"An implementation MUST enforce limits on schema size, nesting, reference depth, …, payload size" says not where a request's nesting is counted`,
			Description: "the nesting limit is counted on the request's arguments only; message and part metadata may nest freely"},
		Latitude{ID: SILatEmbeddedDialectFragment, Documents: []string{"schema-interface"},
			Permits:     `"Embedded schema resources MUST use that same dialect": "https://json-schema.org/draft/2020-12/schema#" and the dialect without the empty fragment name the same meta-schema`,
			Description: "manage_resource's embedded schema resource declares $schema with an empty fragment while the Schema Reference's dialect has none"},

		Latitude{ID: TermsLatThirdPartyHost, Documents: []string{"terms"},
			Permits:     `terms §8: "url SHOULD live under an authority the card's publisher controls" (a SHOULD) and "A proposal hosted elsewhere adds that host to the set of parties who can make verification fail, though never to the set who can forge terms"`,
			Description: "the public proposals are served from a second TLS origin, which the operator's limits.allowOrigins lists"},
		Latitude{ID: TermsLatInPlaceChange, Documents: []string{"terms"},
			Permits:     `terms §8: "SHOULD keep serving a withdrawn proposal's bytes long enough for holders of old cards to learn what happened" (a SHOULD declined: only the advisory TE-8.3c may fail; every requirement row must still pass)`,
			Description: "a changed proposal replaces the old one at its url (the reference agent's default publishes it at a new versioned url and keeps the old bytes)"},
		Latitude{ID: TermsLatRetiredKeySignature, Documents: []string{"terms"},
			Permits:     `A2A 1.0 §8.4.3: a verifier accepts a card when at least one of its signatures verifies`,
			Description: "the card is signed twice: first by a retired key no trusted JWK Set holds, then by the current one"},
		Latitude{ID: TermsLatUnsignedCard, Documents: []string{"terms"},
			Permits:     `A2A 1.0 §8.4: card signing is optional; terms §8 "re-sign it, where the card is signed" (TE-8.3b inapplicable)`,
			Description: "the card is served without signatures"},
		Latitude{ID: TermsLatClientSeatAbsent, Documents: []string{"terms"},
			Permits:     `Agent SoW §12.1 "signed with the counterparty left blank"; §6 "the client seat blank and the start instant null" (blank, not necessarily present as null)`,
			Description: "parties.client and starts_at are left out of the proposals instead of null"},
		Latitude{ID: TermsLatStdBase64Sig, Documents: []string{"terms"},
			Permits:     `Agent SoW §6 writes "sig": "<base64>" (no alphabet fixed)`,
			Description: "the proposals are signed with sig in standard (not URL-safe) base64"},
		Latitude{ID: TermsLatNoTermProse, Documents: []string{"terms"},
			Permits:     `terms §4 binds only "where the card's own prose or skill descriptions state a price, a term, or a data-use claim" (TE-4.1b/c inapplicable)`,
			Description: "the card's prose is silent about terms and data use, and no claim map is offered"},
		Latitude{ID: TermsLatAmountsNotPrices, Documents: []string{"terms"},
			Permits:     `terms §4 binds "where the card's own prose or skill descriptions state a price": a threshold the agent applies, an amount the work is about, arithmetic and skill examples state none`,
			Description: "a skill description says \"Flags every transaction above GBP 500 for review.\" and \"Splits a GBP 1,200 invoice into its VAT and net parts.\"; examples say \"Categorise the EUR 45 taxi receipt from March\" and \"Compute $2 + 3$\""},
		Latitude{ID: TermsLatCapabilitySentences, Documents: []string{"terms"},
			Permits:     `terms §4 binds "a term, or a data-use claim": a sentence describing the work ("Deletes duplicate transactions …") states neither, whatever words it uses`,
			Description: "skill descriptions say \"Deletes duplicate transactions before categorising.\", \"Cancels duplicate payment instructions before export.\" and \"Shares a reconciliation report with your accountant on request.\""},

		Latitude{ID: IVLatRefusalDetailWorded, Documents: []string{"interview"},
			Permits:     `interview §6 shows "detail": "no declared skill matches" only in an example; rule 2 closes the set of reason values only, rule 3 asks the refusal be "produced … from the declaration alone" (suite reading 2)`,
			Description: "the standard refusal's detail is the agent's own constant wording"},
		Latitude{ID: IVLatHTTPJSONFirst, Documents: []string{"interview"},
			Permits:     `A2A 1.0: supportedInterfaces is ordered by preference only; interview §3 binds no interface position (suite reading 7)`,
			Description: "the HTTP+JSON interface is listed before the JSON-RPC one; the interview is served over the card's second binding"},
		Latitude{ID: IVLatSkillIDInstructions, Documents: []string{"interview"},
			Permits:     `silence: A2A leaves skill ids to the agent, and interview §6's refusal lists the declared ones (suite reading 3: declared bytes are not an echo)`,
			Description: "a skill whose id contains the word \"instructions\" is declared"},
		Latitude{ID: IVLatRetiredKeySignature, Documents: []string{"interview"},
			Permits:     `A2A 1.0 §8.4.3: a verifier accepts a card when at least one of its signatures verifies (interview §7 rule 1 and §8 step 1 defer to A2A §8.4)`,
			Description: "each card is also signed by a retired key no trusted JWK Set holds, besides the current one"},
		Latitude{ID: IVLatES512Signature, Documents: []string{"interview"},
			Permits:     `A2A 1.0 §8.4 signs the card with JWS (RFC 7515) and names no algorithm allow-list; ES512 is a JWS algorithm (RFC 7518 §3.1)`,
			Description: "each card is signed with ES512 (a P-521 key published at the card origin's jku) instead of ES256"},
		Latitude{ID: IVLatResignPerFetch, Documents: []string{"interview"},
			Permits:     `A2A 1.0 §8.4: the signature covers the card without "signatures", so re-signing changes no declared byte; interview §4 rule 2 "SHOULD serve them from cache" (the cached identity answer carries an earlier, equally valid signature; suite reading on IV-5.2)`,
			Description: "each card is signed afresh (ES256, randomised) on every fetch, while the interview answers are served from the cache built at start"},

		Latitude{ID: ORLatLevel1RefersActions, Documents: []string{"on-request"},
			Permits:     `OR-5.6 "MAY carry it out … only if … (a) … level-2" (Annex A.3's level-1 operator refers every action)`,
			Description: "the chapel's operator holds a level-1 attestation: every action is referred; the statement says attestationLevel 1",
			Operator:    `the statement of Annex A.3's chapel: attestationLevel 1 (consent to test actions, acting-for and limits as without the latitude)`},
		Latitude{ID: ORLatActingForMessage, Documents: []string{"on-request"},
			Permits:     `OR-5.5 "How an assistant shows … is not yet defined"`,
			Description: "the chapel reads the acting-for assertion from Message.metadata[URI] and its configuration leaves actingFor to the harness default"},
		Latitude{ID: ORLatPersonEntryNormalised, Documents: []string{"on-request"},
			Permits:     `OR-5.3 "give the personEntry address" (RFC 3986 §6: HTTPS://<host>/talk/ is the same address after normalisation)`,
			Description: "referral texts give the personEntry as HTTPS://<host>/talk/, not byte-identical"},
		Latitude{ID: ORLatNationalPhone, Documents: []string{"on-request"},
			Permits:     `OR-5.3 "give the personEntry address" (a tel: address is a number a person dials)`,
			Description: "referral texts give a tel: personEntry in national format, (202) 555-0143"},
		Latitude{ID: ORLatPassiveWording, Documents: []string{"on-request"},
			Permits:     `OR-5.3 "MUST say, in the reply text, that …" (and OR-6.2, OR-5.8) say what the reply says, not in which words`,
			Description: "passive wordings: \"prices are given to the person who asks\", \"I'm not able to book this\", \"scheduled for staff to action\""},
		Latitude{ID: ORLatActionReferralMessage, Documents: []string{"on-request"},
			Permits:     `§6.2 "Task state, if the agent made a task"`,
			Description: "action referrals are answered as a Message, no task"},
		Latitude{ID: ORLatNoStaff, Documents: []string{"on-request"},
			Permits:     `OR-5.10 "Where a person can be reached, the card SHOULD …"`,
			Description: "nobody can be reached at the chapel: no escalation skill, it says so when asked, the statement says staffReachable false"},
		Latitude{ID: ORLatNoCompletion, Documents: []string{"on-request"},
			Permits:     `OR-3.6 "MAY have completion"`,
			Description: "action entries carry no completion; the operator statement names them in actionSkills"},
		Latitude{ID: ORLatLimitsPerSkill, Documents: []string{"on-request"},
			Permits:     `OR-5.6(c) "repeated or duplicate requests are limited per calling assistant as well as in total" (what counts as a repeat is the operator's)`,
			Description: "the limits count every request for a skill in the window, whoever it is for, so the harness's other rows use them up",
			Unstatable:  map[string]string{"OR-3.6": runOrder, "OR-5.7d": runOrder, "OR-5.7e": runOrder, "OR-5.7f": runOrder, "OR-5.7g": runOrder, "OR-5.8a": runOrder}},
	)
}

// runOrder is why or.lat.limits-per-skill's blocked rows name nothing its operator can state: the limits are stated,
// but the harness's own earlier probes in the same run use up the window (run the row alone to grade it).
const runOrder = "the stated per-skill limit is used up by the harness's own earlier probes in the run; no statement changes the run's order"
