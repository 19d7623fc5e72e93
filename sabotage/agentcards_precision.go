package sabotage

// Agent-cards toggles of issue #38: identifier encodings the earlier detector did not try, and a short R listed
// inside a public string, which the substring match (8 characters or more) did not read.
const (
	ACRBase32LowerTenant    ID = "ac.r-base32-lower-tenant"
	ACRRot13ReversedWS      ID = "ac.r-rot13-reversed-workspace"
	ACPublicCardListsShortR ID = "ac.public-card-lists-short-r"
	ACRunInInstallTenant    ID = "ac.run-in-install-tenant"

	ACLatNoisyAuthRefusal ID = "ac.lat.noisy-auth-refusal"
	ACLatRESTPushUnrouted ID = "ac.lat.rest-push-config-unrouted"

	ACLatInterfacesReordered   ID = "ac.lat.card-interfaces-reordered"
	ACLatManifestRuntimeObject ID = "ac.lat.manifest-runtime-object"
	ACLatA2AVersionsOnly       ID = "ac.lat.a2a-versions-only"
)

func init() {
	ac := func(id ID, desc string, targets ...string) Toggle {
		return Toggle{ID: id, Document: "agent-cards", Side: SideAgent, Targets: targets, Description: desc}
	}
	Register(
		ac(ACRBase32LowerTenant, "a2aTenant carries the caller's tenant id in lower-case base32: ag-<b32(tenant)>-<mac>",
			"AC-B.2b", "AC-V2.2a"),
		ac(ACRRot13ReversedWS, "a2aTenant carries the caller's workspace id ROT13'd and reversed: ag-<rev(rot13(workspace))>-<mac>",
			"AC-B.2c", "AC-V2.2b"),
		ac(ACPublicCardListsShortR, "a2aTenant is 5 characters (a + 4 digits) and the public card lists <base>/a2a/<R> as a JSON-RPC interface URL",
			"AC-D.8", "AC-V2.7"),
		ac(ACRunInInstallTenant, "RFC D.9: a run made through a shared agent's R is created in the agent's install tenant, not the caller's",
			"AC-D.9"),
	)
	RegisterLatitudes(
		Latitude{ID: ACLatNoisyAuthRefusal, Documents: []string{"agent-cards"},
			Permits:     `§D.6 "authenticated and authorized … before R is resolved" orders the checks and says nothing of the refusal's body; §D.7's "same body" binds refusals for a resolved-outside R, not the authentication refusal; two never-minted requests differ the same way`,
			Description: "the 401 refusal's message quotes the request path (on HTTP+JSON it holds R) and its details carry a fresh request id"},
		Latitude{ID: ACLatRESTPushUnrouted, Documents: []string{"agent-cards"},
			Permits:     `§D.6 "A request carrying R MUST be authenticated … before R is resolved": a binding that routes no push-config operation resolves no R and serves nothing (A2A 1.0 makes push notifications an optional capability)`,
			Description: "the HTTP+JSON binding routes no push-config operation: 404 for every caller and every R, with or without credentials"},
		Latitude{ID: ACLatInterfacesReordered, Documents: []string{"agent-cards"},
			Permits:     `interop.md "supportedInterfaces[] are the host card's interfaces, each carrying tenant: R" names the interfaces, not their order (the v2-reference host's own test compares them as a set)`,
			Description: "per-agent cards list the host card's interfaces in reverse order"},
		Latitude{ID: ACLatManifestRuntimeObject, Documents: []string{"agent-cards"},
			Permits:     `§A.1 "advertise agents.manifestRuntime" says the member is advertised, not its shape (the v2-reference host's own test reads it as an object)`,
			Description: `the discovery document's agents record carries manifestRuntime: {"supported": true}`},
		Latitude{ID: ACLatA2AVersionsOnly, Documents: []string{"agent-cards"},
			Permits:     `§A.1 "offer the a2a-1.0 profile" (capabilities.md §7: profiles are being replaced by versions[]; "1.0" in versions offers the same profile)`,
			Description: `the a2a record says "1.0" in versions and carries no profiles member`},
	)
}
