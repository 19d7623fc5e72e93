package sabotage

// The toggles' ids, in registration order; each toggle's targets and description are registered below.
const (
	TermsDeclarationRequiredTrue           ID = "terms.declaration-required-true"
	TermsProposalsMissing                  ID = "terms.proposals-missing"
	TermsProposalsEmpty                    ID = "terms.proposals-empty"
	TermsEntryURLMissing                   ID = "terms.entry-url-missing"
	TermsEntryDigestMissing                ID = "terms.entry-digest-missing"
	TermsDigestUppercaseHex                ID = "terms.digest-uppercase-hex"
	TermsOfferingSkillName                 ID = "terms.offering-skill-name"
	TermsProposalOtherHost                 ID = "terms.proposal-other-host"
	TermsWithdrawnURL404                   ID = "terms.withdrawn-url-404"
	TermsEntryURLHTTP                      ID = "terms.entry-url-http"
	TermsURLServesNonJSON                  ID = "terms.url-serves-non-json"
	TermsURLServesOtherProposal            ID = "terms.url-serves-other-proposal"
	TermsProposalChangedCardStale          ID = "terms.proposal-changed-card-stale"
	TermsDigestOverSignedBytes             ID = "terms.digest-over-signed-bytes"
	TermsDigestOverRawBytes                ID = "terms.digest-over-raw-bytes"
	TermsSoWSpecMissing                    ID = "terms.sow-spec-missing"
	TermsProposalClauseMissing             ID = "terms.proposal-clause-missing"
	TermsProposalLanguageMissing           ID = "terms.proposal-language-missing"
	TermsProposalPartiesUngraded           ID = "terms.proposal-parties-ungraded"
	TermsProposalConfidentialityMerged     ID = "terms.proposal-confidentiality-merged"
	TermsProposalUnsigned                  ID = "terms.proposal-unsigned"
	TermsProposalSignatureInvalid          ID = "terms.proposal-signature-invalid"
	TermsProposalSignedWithoutPrefix       ID = "terms.proposal-signed-without-prefix"
	TermsProposalClientSeatFilled          ID = "terms.proposal-client-seat-filled"
	TermsDirectedProposalPublic            ID = "terms.directed-proposal-public"
	TermsDirectedProposalOtherParty        ID = "terms.directed-proposal-other-party"
	TermsCardPriceUnbacked                 ID = "terms.card-price-unbacked"
	TermsCardPriceOffByFactor              ID = "terms.card-price-off-by-factor"
	TermsCardPriceThousands                ID = "terms.card-price-thousands-unbacked"
	TermsCardPricePerUnitIsCeiling         ID = "terms.card-price-per-unit-is-ceiling"
	TermsOfferingSwapped                   ID = "terms.offering-swapped"
	TermsCardTermUnbacked                  ID = "terms.card-term-unbacked"
	TermsCardDataUseUnbacked               ID = "terms.card-data-use-unbacked"
	TermsCardNotUpdatedOnChange            ID = "terms.card-not-updated-on-change"
	TermsCardNotResignedOnChange           ID = "terms.card-not-resigned-on-change"
	TermsClientRejectsUnknownSoWSpec       ID = "terms.client-rejects-unknown-sow-spec"
	TermsClientAcceptsUnsigned             ID = "terms.client-accepts-unsigned"
	TermsRenderAsCertification             ID = "terms.render-as-certification"
	TermsRenderAsEndorsement               ID = "terms.render-as-endorsement"
	TermsRenderAsConductEvidence           ID = "terms.render-as-conduct-evidence"
	TermsRenderDropsGrades                 ID = "terms.render-drops-grades"
	TermsRenderImpliesEnforced             ID = "terms.render-implies-enforced"
	TermsClientAbsenceReadsFree            ID = "terms.client-absence-reads-free"
	TermsClientRanksAbsenceAsFree          ID = "terms.client-ranks-absence-as-free"
	TermsClientFailureReadsNoTermsApply    ID = "terms.client-failure-reads-no-terms-apply"
	TermsClientRefusesAgentOnFailure       ID = "terms.client-refuses-agent-on-failure"
	TermsClientUsesUnverifiedDocument      ID = "terms.client-uses-unverified-document"
	TermsClientEngagesOnCardSummary        ID = "terms.client-engages-on-card-summary"
	TermsClientAcceptsDigestMismatch       ID = "terms.client-accepts-digest-mismatch"
	TermsClientHashesRawBytes              ID = "terms.client-hashes-raw-bytes"
	TermsClientHashesWithoutSignatures     ID = "terms.client-hashes-without-signatures"
	TermsClientComparesIdentifiers         ID = "terms.client-compares-identifiers"
	TermsClientRejectsOnIdentifierMismatch ID = "terms.client-rejects-on-identifier-mismatch"
)

// Toggles of the terms extension (a2a-terms-v1). Agent toggles break the reference agent mockagents/terms; client
// toggles break the harness's reference consumer and terms renderer (refclients/terms*.go).
func init() {
	a := func(id ID, target, desc string) Toggle {
		return Toggle{ID: id, Document: "terms", Side: SideAgent, Targets: []string{target}, Description: desc}
	}
	c := func(id ID, target, desc string) Toggle {
		return Toggle{ID: id, Document: "terms", Side: SideClient, Targets: []string{target}, Description: desc}
	}
	Register(
		a(TermsDeclarationRequiredTrue, "TE-3.1", "the card declares the terms extension with \"required\": true"),
		a(TermsProposalsMissing, "TE-3.2a", "the declaration's params carry sow_spec but no proposals member"),
		a(TermsProposalsEmpty, "TE-3.2b", "params.proposals is an empty array"),
		a(TermsEntryURLMissing, "TE-3.3a", "one proposals[] entry has no url"),
		a(TermsEntryDigestMissing, "TE-3.3b", "one proposals[] entry has no digest"),
		a(TermsDigestUppercaseHex, "TE-3.3b", "an entry's digest is the right hash spelled in uppercase hex"),
		a(TermsProposalOtherHost, "TE-8.5", "the categorise entry's url names the host proposals.unrelated.example instead of the card's own"),
		a(TermsOfferingSkillName, "TE-3.3f", "an entry's offering is its skill's display name (\"Reconcile statement\") instead of the skill's id"),
		a(TermsEntryURLHTTP, "TE-3.3c", "an entry's url is http://, the same bytes served on a plain-HTTP loopback listener"),
		a(TermsURLServesNonJSON, "TE-3.3d", "an entry's url answers 200 with an HTML page"),
		a(TermsURLServesOtherProposal, "TE-3.3e", "an entry's url serves the other offering's (valid, signed) proposal; the card keeps its digest"),
		a(TermsProposalChangedCardStale, "TE-3.3e", "the served proposal was re-signed (new signed_at) after the card was made; the card keeps the old digest"),
		a(TermsDigestOverSignedBytes, "TE-3.3e", "the card's digest is computed over the Agent SoW §6 signed bytes (prefix, no signatures) instead of the complete document"),
		a(TermsDigestOverRawBytes, "TE-3.3e", "the card's digest is computed over the raw served (pretty-printed) bytes instead of their JCS form"),
		a(TermsSoWSpecMissing, "TE-3.4a", "the declaration's params carry no sow_spec"),
		a(TermsProposalClauseMissing, "TE-3.5a", "a served proposal lacks its volume clause (re-signed by the provider, digest recomputed)"),
		a(TermsProposalLanguageMissing, "TE-3.5a", "a served proposal lacks the Agent SoW §4.3 language descriptor (re-signed by the provider, digest recomputed)"),
		a(TermsProposalPartiesUngraded, "TE-3.5a", "a served proposal's parties clause carries no grade (re-signed by the provider, digest recomputed)"),
		a(TermsProposalConfidentialityMerged, "TE-3.5a", "a served proposal merges confidentiality into one top-level grade with flat members, which Agent SoW §5.11 forbids (re-signed, digest recomputed)"),
		a(TermsProposalUnsigned, "TE-3.5b", "a served proposal has no provider signature record (digest recomputed)"),
		a(TermsProposalSignatureInvalid, "TE-3.5b", "a served proposal's price ceiling was edited after signing (digest recomputed)"),
		a(TermsProposalSignedWithoutPrefix, "TE-3.5b", "a served proposal is signed over JCS alone, without the agent-sow-v1 line (digest recomputed)"),
		a(TermsProposalClientSeatFilled, "TE-3.5c", "a served proposal names a client in parties.client (re-signed by the provider, digest recomputed)"),
		a(TermsDirectedProposalPublic, "TE-3.5e", "the public card also lists the directed standing proposal, served without authentication"),
		a(TermsDirectedProposalOtherParty, "TE-3.5f", "the extended card served to a principal who is not the named party lists the directed proposal"),
		a(TermsCardPriceUnbacked, "TE-4.1a", "a skill description states GBP 1.99 per statement while the proposal prices 250 pence"),
		a(TermsCardPriceOffByFactor, "TE-4.1a", "a skill description states GBP 25 per statement while the proposal prices 250 pence (GBP 2.50): off by a factor of ten"),
		a(TermsCardPriceThousands, "TE-4.1a", "a skill description states GBP 1,999 per statement (a thousands separator) while the proposal prices 250 pence"),
		a(TermsCardPricePerUnitIsCeiling, "TE-4.1a", "a skill description states GBP 2,500 per statement: the proposal's monthly ceiling, not a rate"),
		a(TermsOfferingSwapped, "TE-3.3g", "the two entries' offerings are swapped: the fixed-fee proposal is labelled categorise-transactions and the no-charge one reconcile-statement"),
		a(TermsCardTermUnbacked, "TE-4.1b", "the card says cancel on 7 days' notice while the termination clause states 30"),
		a(TermsCardDataUseUnbacked, "TE-4.1c", "the card says statements are retained for 1 day while the confidentiality clause states 30"),
		a(TermsCardNotUpdatedOnChange, "TE-8.3a", "after the standing proposal changes the agent serves the new document but keeps the old card"),
		a(TermsWithdrawnURL404, "TE-8.3c", "after the standing proposal changes (published at a new url) the old url answers a bare 404"),
		a(TermsCardNotResignedOnChange, "TE-8.3b", "after the standing proposal changes the card's digest is updated but its old signature is kept"),

		c(TermsClientRejectsUnknownSoWSpec, "TE-3.4b", "the reference consumer fails every entry of a card whose sow_spec it does not know"),
		c(TermsClientAcceptsUnsigned, "TE-3.5d", "the reference consumer skips signature verification when a document has no provider record"),
		c(TermsRenderAsCertification, "TE-7.1a", "the terms renderer heads its view \"Certified terms\""),
		c(TermsRenderAsEndorsement, "TE-7.1b", "the terms renderer adds an \"Endorsed by extconf\" badge to verified proposals"),
		c(TermsRenderAsConductEvidence, "TE-7.1c", "the terms renderer labels verified proposals \"verified track record\""),
		c(TermsRenderDropsGrades, "TE-7.2a", "the terms renderer shows clauses without their grades"),
		c(TermsRenderImpliesEnforced, "TE-7.2b", "the terms renderer labels every clause enforced when the document came through a card"),
		c(TermsClientAbsenceReadsFree, "TE-7.3a", "the reference consumer reports a card without the extension as free / no terms apply"),
		c(TermsClientRanksAbsenceAsFree, "TE-7.3b", "the reference ranking puts an agent without the extension first at price 0 and the no-charge filter matches it"),
		c(TermsClientFailureReadsNoTermsApply, "TE-7.4a", "the reference consumer reports a card whose only entry failed as \"no terms apply\""),
		c(TermsClientRefusesAgentOnFailure, "TE-7.4a", "the reference consumer marks an agent whose entry failed as unusable, unlike an agent with no entry"),
		c(TermsClientUsesUnverifiedDocument, "TE-7.4b", "the reference consumer surfaces the price of a document that failed verification"),
		c(TermsClientEngagesOnCardSummary, "TE-8.1", "the reference engage gate falls back to the card's prose when no proposal verifies"),
		c(TermsClientAcceptsDigestMismatch, "TE-8.2", "the reference consumer notes a digest mismatch but accepts a validly signed document"),
		c(TermsClientHashesRawBytes, "TE-8.2", "the reference consumer hashes the served bytes, not their JCS form (a reformatted committed document is rejected)"),
		c(TermsClientHashesWithoutSignatures, "TE-8.2", "the reference consumer hashes the document without signatures (Agent SoW §6 bytes) instead of the complete document"),
		c(TermsClientComparesIdentifiers, "TE-8.4a", "the reference consumer accepts an entry whose sow equals the document's id without comparing digests"),
		c(TermsClientRejectsOnIdentifierMismatch, "TE-8.4b", "the reference consumer fails an entry whose sow differs from the document's id, or whose id does not re-derive"),
	)
}
