package sabotage

// Toggles of the terms extension (a2a-terms-v1). Agent toggles break the reference agent mockagents/terms; client
// toggles break the harness's reference consumer and terms renderer (harness/verify/terms*.go).
func init() {
	a := func(id, target, desc string) Toggle {
		return Toggle{ID: "terms." + id, Document: "terms", Side: SideAgent, Targets: []string{target}, Description: desc}
	}
	c := func(id, target, desc string) Toggle {
		return Toggle{ID: "terms." + id, Document: "terms", Side: SideClient, Targets: []string{target}, Description: desc}
	}
	Register(
		a("declaration-required-true", "TE-3.1", "the card declares the terms extension with \"required\": true"),
		a("proposals-missing", "TE-3.2a", "the declaration's params carry sow_spec but no proposals member"),
		a("proposals-empty", "TE-3.2b", "params.proposals is an empty array"),
		a("entry-url-missing", "TE-3.3a", "one proposals[] entry has no url"),
		a("entry-digest-missing", "TE-3.3b", "one proposals[] entry has no digest"),
		a("digest-uppercase-hex", "TE-3.3b", "an entry's digest is the right hash spelled in uppercase hex"),
		a("entry-url-http", "TE-3.3c", "an entry's url is http://, the same bytes served on a plain-HTTP loopback listener"),
		a("url-serves-non-json", "TE-3.3d", "an entry's url answers 200 with an HTML page"),
		a("url-serves-other-proposal", "TE-3.3e", "an entry's url serves the other offering's (valid, signed) proposal; the card keeps its digest"),
		a("proposal-changed-card-stale", "TE-3.3e", "the served proposal was re-signed (new signed_at) after the card was made; the card keeps the old digest"),
		a("digest-over-signed-bytes", "TE-3.3e", "the card's digest is computed over the Agent SoW §6 signed bytes (prefix, no signatures) instead of the complete document"),
		a("digest-over-raw-bytes", "TE-3.3e", "the card's digest is computed over the raw served (pretty-printed) bytes instead of their JCS form"),
		a("sow-spec-missing", "TE-3.4a", "the declaration's params carry no sow_spec"),
		a("proposal-clause-missing", "TE-3.5a", "a served proposal lacks its volume clause (re-signed by the provider, digest recomputed)"),
		a("proposal-language-missing", "TE-3.5a", "a served proposal lacks the Agent SoW §4.3 language descriptor (re-signed by the provider, digest recomputed)"),
		a("proposal-parties-ungraded", "TE-3.5a", "a served proposal's parties clause carries no grade (re-signed by the provider, digest recomputed)"),
		a("proposal-confidentiality-merged", "TE-3.5a", "a served proposal merges confidentiality into one top-level grade with flat members, which Agent SoW §5.11 forbids (re-signed, digest recomputed)"),
		a("proposal-unsigned", "TE-3.5b", "a served proposal has no provider signature record (digest recomputed)"),
		a("proposal-signature-invalid", "TE-3.5b", "a served proposal's price ceiling was edited after signing (digest recomputed)"),
		a("proposal-signed-without-prefix", "TE-3.5b", "a served proposal is signed over JCS alone, without the agent-sow-v1 line (digest recomputed)"),
		a("proposal-client-seat-filled", "TE-3.5c", "a served proposal names a client in parties.client (re-signed by the provider, digest recomputed)"),
		a("directed-proposal-public", "TE-3.5e", "the public card also lists the directed standing proposal, served without authentication"),
		a("directed-proposal-other-party", "TE-3.5f", "the extended card served to a principal who is not the named party lists the directed proposal"),
		a("card-price-unbacked", "TE-4.1a", "a skill description states GBP 1.99 per statement while the proposal prices 250 pence"),
		a("card-term-unbacked", "TE-4.1b", "the card says cancel on 7 days' notice while the termination clause states 30"),
		a("card-data-use-unbacked", "TE-4.1c", "the card says statements are retained for 1 day while the confidentiality clause states 30"),
		a("card-not-updated-on-change", "TE-8.3a", "after the standing proposal changes the agent serves the new document but keeps the old card"),
		a("card-not-resigned-on-change", "TE-8.3b", "after the standing proposal changes the card's digest is updated but its old signature is kept"),

		c("client-rejects-unknown-sow-spec", "TE-3.4b", "the reference consumer fails every entry of a card whose sow_spec it does not know"),
		c("client-accepts-unsigned", "TE-3.5d", "the reference consumer skips signature verification when a document has no provider record"),
		c("render-as-certification", "TE-7.1a", "the terms renderer heads its view \"Certified terms\""),
		c("render-as-endorsement", "TE-7.1b", "the terms renderer adds an \"Endorsed by extconf\" badge to verified proposals"),
		c("render-as-conduct-evidence", "TE-7.1c", "the terms renderer labels verified proposals \"verified track record\""),
		c("render-drops-grades", "TE-7.2a", "the terms renderer shows clauses without their grades"),
		c("render-implies-enforced", "TE-7.2b", "the terms renderer labels every clause enforced when the document came through a card"),
		c("client-absence-reads-free", "TE-7.3a", "the reference consumer reports a card without the extension as free / no terms apply"),
		c("client-ranks-absence-as-free", "TE-7.3b", "the reference ranking puts an agent without the extension first at price 0 and the no-charge filter matches it"),
		c("client-failure-reads-no-terms-apply", "TE-7.4a", "the reference consumer reports a card whose only entry failed as \"no terms apply\""),
		c("client-refuses-agent-on-failure", "TE-7.4a", "the reference consumer marks an agent whose entry failed as unusable, unlike an agent with no entry"),
		c("client-uses-unverified-document", "TE-7.4b", "the reference consumer surfaces the price of a document that failed verification"),
		c("client-engages-on-card-summary", "TE-8.1", "the reference engage gate falls back to the card's prose when no proposal verifies"),
		c("client-accepts-digest-mismatch", "TE-8.2", "the reference consumer notes a digest mismatch but accepts a validly signed document"),
		c("client-hashes-raw-bytes", "TE-8.2", "the reference consumer hashes the served bytes, not their JCS form (a reformatted committed document is rejected)"),
		c("client-hashes-without-signatures", "TE-8.2", "the reference consumer hashes the document without signatures (Agent SoW §6 bytes) instead of the complete document"),
		c("client-compares-identifiers", "TE-8.4a", "the reference consumer accepts an entry whose sow equals the document's id without comparing digests"),
		c("client-rejects-on-identifier-mismatch", "TE-8.4b", "the reference consumer fails an entry whose sow differs from the document's id, or whose id does not re-derive"),
	)
}
