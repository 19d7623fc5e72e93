// Package terms is the reference agent of the terms extension (Agent SoW: A2A Terms Extension): a Stonework
// reconciliation agent whose signed card (A2A §8.4) declares the extension as a data-only entry and commits by
// digest to two signed standing proposals it serves over TLS, pretty-printed with members reordered (so only a
// JCS digest verifies). Principal A (the party "harbour-books") gets an extended card that also lists a directed
// standing proposal, served only to A; principal B gets the public list. A test-only change hook re-signs a
// proposal and updates (and re-signs) the card. Every sabotage toggle of the terms document is consulted at the
// one place its requirement is honoured.
package terms

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/extconf/extconf/fixtures/sow"
	"github.com/extconf/extconf/fixtures/sow/sowdoc"
	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/mockagents/crosscut"
	"github.com/extconf/extconf/sabotage"
)

// URI is the terms extension's URI.
const URI = "https://agentsow.com/extensions/a2a-terms/v1"

// SowSpec is the Agent SoW version the fixture proposals follow.
const SowSpec = "0.15.0-draft"

// Fixture proposal names.
const (
	reconcile  = "reconcile-statement"
	categorise = "categorise-transactions"
	directed   = "reconcile-statement-harbour"
)

// Party identities of the two principals the mock supplies.
const (
	PartyA = sow.DirectedHandle // the party the directed proposal is offered to
	PartyB = "ledgerline"
)

type agent struct {
	set       sabotage.Set
	srv       *a2atest.Server
	plain     *http.Server
	plainBase string
	signer    *a2atest.CardSigner
	opts      a2atest.Options // the server's options, cross-cutting latitudes included
	key       []byte          // provider key (TEST ONLY)
	hookToken string
	tokens    map[string]string // token → party

	mu       sync.Mutex
	base     string
	served   map[string][]byte // proposal name → the document served at its url
	digests  map[string]string // proposal name → the digest the card commits to
	card     []byte            // the public card as served (signed)
	initial  snapshot
	rotation int
	archive  map[string][]byte // archive path → reformatted bytes of a withdrawn proposal
}

type snapshot struct {
	served  map[string][]byte
	digests map[string]string
	card    []byte
}

// Start starts the terms reference agent. Roles: "terms" (card URL), "terms.change-hook" (the test-only hook that
// changes the standing proposal; ?revert=1 restores it), "terms.claims" (the claim map for TE-4.1b/c).
func Start(set sabotage.Set) (roles map[string]string, cfg target.Config, closeFn func(), err error) {
	a := &agent{set: set, signer: &a2atest.CardSigner{Key: testpki.CardKeyEd25519(), Alg: "EdDSA", KID: testpki.KIDEd25519},
		hookToken: token(), archive: map[string][]byte{}}
	tokA, tokB := token(), token()
	a.tokens = map[string]string{tokA: PartyA, tokB: PartyB}
	a.opts = crosscut.Options(set, "terms", a2atest.Options{TLS: true}) // the card is signed here: it honours them itself
	if err := a.prepareDocs(); err != nil {
		return nil, cfg, nil, err
	}
	if set.On(sabotage.TermsEntryURLHTTP) {
		if err := a.startPlain(); err != nil {
			return nil, cfg, nil, err
		}
	}
	a.srv, err = a2atest.Start(a2atest.Agent{
		Name:         "Stonework reconciliation agent",
		Card:         a.cardFor,
		APIKeys:      map[string]a2atest.Principal{tokA: {Name: PartyA, Tenant: PartyA}, tokB: {Name: PartyB, Tenant: PartyB}},
		ExtendedCard: a.extendedCard,
		OnSend:       a.onSend,
		Routes: map[string]http.HandlerFunc{
			"GET /terms/{file}":                   a.serveProposal,
			"GET /terms/restricted/{file}":        a.serveRestricted,
			"GET /terms/archive/{file}":           a.serveArchive,
			"POST /_extconf/terms/rotate/{token}": a.rotate,
			"GET /_extconf/terms/claims.json":     a.serveClaims,
		},
	}, a.opts)
	if err != nil {
		a.closePlain()
		return nil, cfg, nil, err
	}
	a.mu.Lock()
	a.initial = snapshot{served: maps.Clone(a.served), digests: maps.Clone(a.digests), card: a.card}
	a.mu.Unlock()
	base := a.srv.URL()
	roles = map[string]string{
		"terms":             a.srv.CardURL(),
		"terms.change-hook": base + "/_extconf/terms/rotate/" + a.hookToken,
		"terms.claims":      base + "/_extconf/terms/claims.json",
	}
	cfg = target.Config{
		Principals: map[string]target.Principal{
			"terms-A": {Header: "Authorization", Value: "Bearer " + tokA, ID: PartyA},
			"terms-B": {Header: "Authorization", Value: "Bearer " + tokB, ID: PartyB},
		},
		TrustedKeys: testpki.CardJWKS(),
	}
	return roles, cfg, func() { a.srv.Close(); a.closePlain() }, nil
}

func token() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// prepareDocs sets what each url serves and what the card commits to, applying the document sabotages.
func (a *agent) prepareDocs() error {
	a.served, a.digests = map[string][]byte{}, map[string]string{}
	key := sow.ProviderKey()
	for _, p := range sow.Proposals() {
		doc := p.Doc
		var err error
		if p.Name == reconcile {
			if doc, err = a.breakReconcile(doc); err != nil {
				return err
			}
		}
		a.served[p.Name] = doc
		d, err := sowdoc.Digest(doc)
		if err != nil {
			return err
		}
		a.digests[p.Name] = d
	}
	// Sabotages of the commitment: what the url serves differs from what the card's digest names.
	rec, _ := sow.ByName(reconcile)
	switch {
	case a.set.On(sabotage.TermsURLServesOtherProposal):
		a.served[reconcile] = a.served[categorise]
	case a.set.On(sabotage.TermsProposalChangedCardStale):
		doc, err := sowdoc.Resign(rec.Doc, key, "2026-08-20T09:00:00Z", sowdoc.KeyNkey)
		if err != nil {
			return err
		}
		a.served[reconcile] = doc
	case a.set.On(sabotage.TermsDigestOverSignedBytes):
		b, err := sowdoc.SignedBytes(a.served[reconcile])
		if err != nil {
			return err
		}
		a.digests[reconcile] = sha256Digest(b)
	case a.set.On(sabotage.TermsDigestOverRawBytes):
		b, err := sowdoc.Reformat(a.served[reconcile])
		if err != nil {
			return err
		}
		a.digests[reconcile] = sha256Digest(b)
	}
	return nil
}

func sha256Digest(b []byte) string {
	s := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(s[:])
}

// breakReconcile applies the standing-proposal sabotages to the reconcile-statement document; the card's digest is
// then computed over the result, so only the targeted property breaks.
func (a *agent) breakReconcile(doc []byte) ([]byte, error) {
	k := sow.ProviderKey()
	switch {
	case a.set.On(sabotage.TermsProposalClauseMissing):
		b, err := sowdoc.Edit(doc, func(m map[string]any) { delete(m, "volume") })
		if err != nil {
			return nil, err
		}
		return sowdoc.Resign(b, k, sow.SignedAt, sowdoc.KeyNkey)
	case a.set.On(sabotage.TermsProposalUnsigned):
		return sowdoc.Edit(doc, func(m map[string]any) { m["signatures"] = []any{} })
	case a.set.On(sabotage.TermsProposalSignatureInvalid):
		return sowdoc.Edit(doc, func(m map[string]any) { m["price"].(map[string]any)["ceiling"] = 25000 })
	case a.set.On(sabotage.TermsProposalSignedWithoutPrefix):
		b, err := sowdoc.Edit(doc, func(m map[string]any) { delete(m, "signatures") })
		if err != nil {
			return nil, err
		}
		msg, err := sowdoc.CanonicalWithout(b, "signatures")
		if err != nil {
			return nil, err
		}
		return sowdoc.SignBytes(b, k, "provider", sow.SignedAt, sowdoc.KeyNkey, msg)
	case a.set.On(sabotage.TermsProposalClientSeatFilled):
		b, err := sowdoc.Edit(doc, func(m map[string]any) {
			m["parties"].(map[string]any)["client"] = map[string]any{"owner": sow.DirectedOwner, "handle": sow.DirectedHandle}
		})
		if err != nil {
			return nil, err
		}
		return sowdoc.Resign(b, k, sow.SignedAt, sowdoc.KeyNkey)
	}
	return doc, nil
}

// Card prose. The spans are what the claim map (TE-4.1b/c) points at.
func (a *agent) termSpan() (string, int) {
	if a.set.On(sabotage.TermsCardTermUnbacked) {
		return "cancel on 7 days' notice", 7
	}
	return "cancel on 30 days' notice", 30
}

func (a *agent) dataSpan() (string, int) {
	if a.set.On(sabotage.TermsCardDataUseUnbacked) {
		return "retained for 1 day", 1
	}
	return "retained for 30 days", 30
}

func (a *agent) entry(name, url string) map[string]any {
	p, _ := sow.ByName(name)
	e := map[string]any{"url": url, "digest": a.digests[name], "sow": p.ID, "offering": p.Offering}
	if name == reconcile {
		switch {
		case a.set.On(sabotage.TermsEntryURLMissing):
			delete(e, "url")
		case a.set.On(sabotage.TermsEntryDigestMissing):
			delete(e, "digest")
		case a.set.On(sabotage.TermsDigestUppercaseHex):
			e["digest"] = "sha256:" + strings.ToUpper(strings.TrimPrefix(a.digests[name], "sha256:"))
		}
	}
	return e
}

// buildCard is the card for a caller: the public one (party "") or an extended one.
func (a *agent) buildCard(party string) a2a.AgentCard {
	base := a.base
	recURL := base + "/terms/" + reconcile + ".sow.json"
	if a.set.On(sabotage.TermsEntryURLHTTP) {
		recURL = a.plainBase + "/terms/" + reconcile + ".sow.json"
	}
	proposals := []any{a.entry(reconcile, recURL), a.entry(categorise, base+"/terms/"+categorise+".sow.json")}
	if party == PartyA || (party == "" && a.set.On(sabotage.TermsDirectedProposalPublic)) ||
		(party == PartyB && a.set.On(sabotage.TermsDirectedProposalOtherParty)) {
		proposals = append(proposals, a.entry(directed, base+"/terms/restricted/"+directed+".sow.json"))
	}
	params := map[string]any{"sow_spec": SowSpec, "proposals": proposals}
	switch {
	case a.set.On(sabotage.TermsProposalsMissing):
		delete(params, "proposals")
	case a.set.On(sabotage.TermsProposalsEmpty):
		params["proposals"] = []any{}
	case a.set.On(sabotage.TermsSoWSpecMissing):
		delete(params, "sow_spec")
	}
	pb, _ := json.Marshal(params)
	price := "GBP 2.50 per statement"
	if a.set.On(sabotage.TermsCardPriceUnbacked) {
		price = "GBP 1.99 per statement"
	}
	term, _ := a.termSpan()
	data, _ := a.dataSpan()
	return a2a.AgentCard{
		Name: "Stonework reconciliation agent",
		Description: "Stonework reconciles bank statements against ledger exports and categorises transactions. " +
			"Customers may " + term + ". Statements are " + data + ".",
		SupportedInterfaces: a.opts.CardInterfaces(base),
		Provider:            &a2a.AgentProvider{Organization: sow.ProviderOwner, URL: base},
		Version:             "1.0.0",
		Capabilities: a2a.AgentCapabilities{ExtendedAgentCard: true, Extensions: []a2a.AgentExtension{{
			URI:         URI,
			Description: "Published terms: signed Agent SoW standing proposals, committed by digest",
			Required:    a.set.On(sabotage.TermsDeclarationRequiredTrue),
			Params:      pb,
		}}},
		SecuritySchemes:    map[string]json.RawMessage{"bearer": json.RawMessage(`{"httpAuthSecurityScheme":{"scheme":"Bearer"}}`)},
		DefaultInputModes:  []string{"text/plain", "text/csv"},
		DefaultOutputModes: []string{"application/json"},
		Skills: []a2a.AgentSkill{
			{ID: reconcile, Name: "Reconcile statement", Description: "Reconciles one bank statement against a ledger export: " + price + ".",
				Tags: []string{"reconciliation", "bookkeeping"}, Examples: []string{"Reconcile the March statement against the ledger export"}},
			{ID: categorise, Name: "Categorise transactions", Description: "Assigns each transaction of a statement to a ledger category, free of charge.",
				Tags: []string{"categorisation", "bookkeeping"}, Examples: []string{"Categorise the transactions of the March statement"}},
		},
	}
}

// signedPublicCard encodes and signs the public card. keepSigs, when set, replaces the fresh signature with the
// card's previous signatures (the not-resigned sabotage).
func (a *agent) signedPublicCard(keepSigs json.RawMessage) ([]byte, error) {
	b, err := json.Marshal(a.buildCard(""))
	if err != nil {
		return nil, err
	}
	if keepSigs != nil {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(b, &m); err != nil {
			return nil, err
		}
		m["signatures"] = keepSigs
		return json.Marshal(m)
	}
	return a.signer.Sign(b, "")
}

func (a *agent) cardFor(base string) any {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.card == nil {
		a.base = base
		card, err := a.signedPublicCard(nil)
		if err != nil {
			return map[string]any{"error": err.Error()} // never served as a valid card: the suite fails on it
		}
		a.card = card
	}
	return json.RawMessage(a.card)
}

func (a *agent) extendedCard(c *a2atest.Ctx) (any, *a2a.RPCError) {
	a.mu.Lock()
	defer a.mu.Unlock()
	party := ""
	if c.Principal != nil {
		party = c.Principal.Name
	}
	card := a.buildCard(party)
	return &card, nil
}

func (a *agent) onSend(c *a2atest.Ctx, req a2a.SendMessageRequest) a2atest.Reply {
	return a2atest.Reply{Message: &a2a.Message{Role: a2a.RoleAgent, Parts: []a2a.Part{a2a.TextPart(
		"Send a bank statement and a ledger export to reconcile. The terms are the signed standing proposals the card's terms extension lists.")}}}
}

// serveProposal serves a public proposal, reformatted (pretty-printed, members reversed, "/" escaped).
func (a *agent) serveProposal(w http.ResponseWriter, r *http.Request) {
	name, ok := strings.CutSuffix(r.PathValue("file"), ".sow.json")
	if !ok || (name != reconcile && name != categorise) {
		http.NotFound(w, r)
		return
	}
	if name == reconcile && a.set.On(sabotage.TermsURLServesNonJSON) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte("<!doctype html><html><body><h1>Stonework terms</h1><p>Ask us for a quote.</p></body></html>"))
		return
	}
	a.writeDoc(w, name)
}

func (a *agent) writeDoc(w http.ResponseWriter, name string) {
	a.mu.Lock()
	doc := a.served[name]
	a.mu.Unlock()
	b, err := sowdoc.Reformat(doc)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(b)
}

// serveRestricted serves the directed proposal only to the party it names (§3 rule 5).
func (a *agent) serveRestricted(w http.ResponseWriter, r *http.Request) {
	if r.PathValue("file") != directed+".sow.json" {
		http.NotFound(w, r)
		return
	}
	party := a.party(r)
	allowed := party == PartyA || a.set.On(sabotage.TermsDirectedProposalPublic) ||
		(party == PartyB && a.set.On(sabotage.TermsDirectedProposalOtherParty))
	switch {
	case allowed:
		a.writeDoc(w, directed)
	case party == "":
		w.Header().Set("WWW-Authenticate", "Bearer")
		http.Error(w, "authentication required", http.StatusUnauthorized)
	default:
		http.Error(w, "not offered to you", http.StatusForbidden)
	}
}

func (a *agent) party(r *http.Request) string {
	scheme, tok, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return ""
	}
	return a.tokens[strings.TrimSpace(tok)]
}

func (a *agent) serveArchive(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	b, ok := a.archive[r.PathValue("file")]
	a.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}

// rotate is the test-only change hook: the reconcile-statement standing proposal is re-signed (a new signed_at,
// so a new digest), the old bytes archived (§8 SHOULD), and the card updated and re-signed (§8 MUST).
func (a *agent) rotate(w http.ResponseWriter, r *http.Request) {
	if r.PathValue("token") != a.hookToken {
		http.NotFound(w, r)
		return
	}
	a.mu.Lock()
	if r.URL.Query().Get("revert") == "1" {
		a.served, a.digests, a.card, a.rotation = maps.Clone(a.initial.served), maps.Clone(a.initial.digests), a.initial.card, 0
		a.mu.Unlock()
		a.srv.Reload()
		writeJSONValue(w, map[string]any{"reverted": true})
		return
	}
	old := a.served[reconcile]
	oldDigest, _ := sowdoc.Digest(old)
	if b, err := sowdoc.Reformat(old); err == nil {
		a.archive[strings.TrimPrefix(oldDigest, "sha256:")+".sow.json"] = b
	}
	a.rotation++
	signedAt := time.Date(2026, 9, 1, 9, 0, 0, 0, time.UTC).AddDate(0, 0, a.rotation).Format(time.RFC3339)
	doc, err := sowdoc.Resign(old, sow.ProviderKey(), signedAt, sowdoc.KeyFormOf(old))
	if err != nil {
		a.mu.Unlock()
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	a.served[reconcile] = doc
	newDigest, _ := sowdoc.Digest(doc)
	if !a.set.On(sabotage.TermsCardNotUpdatedOnChange) {
		a.digests[reconcile] = newDigest
		var keep json.RawMessage
		if a.set.On(sabotage.TermsCardNotResignedOnChange) {
			var m map[string]json.RawMessage
			_ = json.Unmarshal(a.card, &m)
			keep = m["signatures"]
		}
		if card, err := a.signedPublicCard(keep); err == nil {
			a.card = card
		}
	}
	a.mu.Unlock()
	a.srv.Reload()
	writeJSONValue(w, map[string]any{"changed": a.base + "/terms/" + reconcile + ".sow.json", "digest": newDigest,
		"archived": a.base + "/terms/archive/" + strings.TrimPrefix(oldDigest, "sha256:") + ".sow.json"})
}

// ClaimMap is the operator input for TE-4.1b/c: each span of the card's prose that states a term or a data-use
// claim, the clause of a listed proposal that backs it, and the value the span states.
type ClaimMap struct {
	Claims []Claim `json:"claims"`
}

// Claim maps one prose span to a clause path.
type Claim struct {
	Kind     string `json:"kind"` // "term" | "data-use"
	Span     string `json:"span"`
	Proposal string `json:"proposal"` // the entry url
	Path     string `json:"path"`     // dotted path in the proposal
	Value    any    `json:"value"`    // what the span states
}

func (a *agent) serveClaims(w http.ResponseWriter, r *http.Request) {
	term, tv := a.termSpan()
	data, dv := a.dataSpan()
	a.mu.Lock()
	u := a.base + "/terms/" + reconcile + ".sow.json"
	if a.set.On(sabotage.TermsEntryURLHTTP) {
		u = a.plainBase + "/terms/" + reconcile + ".sow.json"
	}
	a.mu.Unlock()
	writeJSONValue(w, ClaimMap{Claims: []Claim{
		{Kind: "term", Span: term, Proposal: u, Path: "termination.notice_days", Value: tv},
		{Kind: "data-use", Span: data, Proposal: u, Path: "confidentiality.retention_days", Value: dv},
	}})
}

func writeJSONValue(w http.ResponseWriter, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}

// startPlain serves the public proposals on plain HTTP (only for the entry-url-http sabotage).
func (a *agent) startPlain() error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	a.plainBase = "http://" + ln.Addr().String()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /terms/{file}", a.serveProposal)
	a.plain = &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = a.plain.Serve(ln) }()
	return nil
}

func (a *agent) closePlain() {
	if a.plain != nil {
		_ = a.plain.Close()
	}
}

// String names the agent in errors.
func (a *agent) String() string { return fmt.Sprintf("terms reference agent at %s", a.base) }
