package terms

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"encoding/base64"
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

// Options are the reference agent's latitudes: choices the terms extension or the Agent SoW SPEC leave to the
// provider. Each must leave every row passing (or inapplicable where the option removes the behaviour a row is about).
type Options struct {
	// ThirdPartyHost serves the public proposals from a second TLS origin (another loopback port). Terms §8: "url
	// SHOULD live under an authority the card's publisher controls" — a SHOULD, and "A proposal hosted elsewhere
	// adds that host to the set of parties who can make verification fail, though never to the set who can forge terms".
	ThirdPartyHost bool
	// UnreachableHost lists the fixed-fee proposal at https://192.0.2.1/… (TEST-NET-1), which the run may not reach:
	// not a latitude but the regression case of TE-3.3d (blocked naming the origin, never failed).
	UnreachableHost bool
	// InPlaceChange makes the change hook replace the proposal at its url instead of publishing the changed proposal
	// at a new url /terms/versions/<n>/… (the default, which keeps the old url's bytes: terms §8 "SHOULD keep serving
	// a withdrawn proposal's bytes"). Declining that SHOULD is a latitude for the MUST rows; TE-8.3c reports it.
	InPlaceChange bool
	// RetiredKeySignature signs the card twice: first with a retired key no trusted JWK Set holds, then with the
	// current one (A2A §8.4.3: a verifier accepts a card when at least one signature verifies).
	RetiredKeySignature bool
	// UnsignedCard serves the card without signatures (A2A §8.4: signing is optional; terms §8 "where the card is signed").
	UnsignedCard bool
	// ClientSeatAbsent leaves parties.client and starts_at out of the proposals instead of null (Agent SoW §12.1
	// "counterparty left blank"; §6 "the client seat blank and the start instant null").
	ClientSeatAbsent bool
	// NoTermProse leaves the card's prose silent about terms and data use, and offers no claim map (terms §4 binds
	// only "where the card's own prose or skill descriptions state a price, a term, or a data-use claim").
	NoTermProse bool
	// StdBase64Sig re-signs the proposals with sig in standard base64 (Agent SoW §6 writes "sig": "<base64>").
	StdBase64Sig bool
}

// OptionNames are the starter's named switches, one per Options field.
var OptionNames = map[string]func(*Options){
	"third-party-host":      func(o *Options) { o.ThirdPartyHost = true },
	"unreachable-host":      func(o *Options) { o.UnreachableHost = true },
	"in-place-change":       func(o *Options) { o.InPlaceChange = true },
	"retired-key-signature": func(o *Options) { o.RetiredKeySignature = true },
	"unsigned-card":         func(o *Options) { o.UnsignedCard = true },
	"client-seat-absent":    func(o *Options) { o.ClientSeatAbsent = true },
	"std-base64-sig":        func(o *Options) { o.StdBase64Sig = true },
	"no-term-prose":         func(o *Options) { o.NoTermProse = true },
}

// ParseOptions reads named switches (OptionNames); an unknown name is an error.
func ParseOptions(names ...string) (Options, error) {
	var o Options
	for _, n := range names {
		f, ok := OptionNames[strings.TrimSpace(n)]
		if !ok {
			return o, fmt.Errorf("terms reference agent: unknown option %q", n)
		}
		f(&o)
	}
	return o, nil
}

type agent struct {
	opt       Options
	third     *http.Server
	thirdBase string
	retired   *a2atest.CardSigner
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
	versions map[int][]byte    // unless InPlaceChange: version n → the document served at /terms/versions/<n>/
}

type snapshot struct {
	served  map[string][]byte
	digests map[string]string
	card    []byte
}

// Start starts the terms reference agent. Roles: "terms" (card URL), "terms.change-hook" (the test-only hook that
// changes the standing proposal; ?revert=1 restores it), "terms.claims" (the claim map for TE-4.1b/c). The
// terms latitudes in set (sabotage.TermsLat*) switch on the matching Options.
func Start(set sabotage.Set) (roles map[string]string, cfg target.Config, closeFn func(), err error) {
	return StartWith(set, OptionsOf(set))
}

// latitudeOptions maps each registered terms latitude to its option name (OptionNames). unreachable-host is no
// latitude: it is meant to block TE-3.3d.
var latitudeOptions = map[sabotage.ID]string{
	sabotage.TermsLatThirdPartyHost:      "third-party-host",
	sabotage.TermsLatInPlaceChange:       "in-place-change",
	sabotage.TermsLatRetiredKeySignature: "retired-key-signature",
	sabotage.TermsLatUnsignedCard:        "unsigned-card",
	sabotage.TermsLatClientSeatAbsent:    "client-seat-absent",
	sabotage.TermsLatStdBase64Sig:        "std-base64-sig",
	sabotage.TermsLatNoTermProse:         "no-term-prose",
}

// OptionsOf returns the options the terms latitudes switched on in set select.
func OptionsOf(set sabotage.Set) Options {
	var o Options
	for _, name := range set.OptionNames(latitudeOptions) {
		OptionNames[name](&o)
	}
	return o
}

// StartWith starts the terms reference agent with latitude options.
func StartWith(set sabotage.Set, opt Options) (roles map[string]string, cfg target.Config, closeFn func(), err error) {
	a := &agent{set: set, opt: opt, signer: &a2atest.CardSigner{Key: testpki.CardKeyEd25519(), Alg: "EdDSA", KID: testpki.KIDEd25519},
		hookToken: token(), archive: map[string][]byte{}, versions: map[int][]byte{}}
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
	if opt.ThirdPartyHost {
		if err := a.startThird(); err != nil {
			return nil, cfg, nil, err
		}
	}
	if opt.RetiredKeySignature {
		_, k, _ := ed25519.GenerateKey(rand.Reader)
		a.retired = &a2atest.CardSigner{Key: k, Alg: "EdDSA", KID: "extconf-test-retired"}
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
			"GET /terms/versions/{n}/{file}":      a.serveVersion,
			"POST /_extconf/terms/rotate/{token}": a.rotate,
			"GET /_extconf/terms/claims.json":     a.serveClaims,
		},
	}, a.opts)
	if err != nil {
		a.closePlain()
		a.closeThird()
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
	if opt.NoTermProse {
		delete(roles, "terms.claims")
	}
	cfg = target.Config{
		Principals: map[string]target.Principal{
			"terms-A": {Header: "Authorization", Value: "Bearer " + tokA, ID: PartyA},
			"terms-B": {Header: "Authorization", Value: "Bearer " + tokB, ID: PartyB},
		},
		TrustedKeys: testpki.CardJWKS(),
	}
	if opt.ThirdPartyHost {
		// The operator names the proposals' host, as a real deployment's operator would (terms README: "origins of
		// third-party proposal hosts | limits.allowOrigins").
		cfg.Limits = json.RawMessage(`{"allowOrigins":["` + a.thirdBase + `"]}`)
	}
	return roles, cfg, func() { a.srv.Close(); a.closePlain(); a.closeThird() }, nil
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
		if doc, err = a.latitudeDoc(doc, key); err != nil {
			return err
		}
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

// latitudeDoc re-signs a fixture in the shape an option asks for (the provider signs again: never a hand edit).
func (a *agent) latitudeDoc(doc []byte, key ed25519.PrivateKey) ([]byte, error) {
	if !a.opt.ClientSeatAbsent && !a.opt.StdBase64Sig {
		return doc, nil
	}
	form := sowdoc.KeyFormOf(doc)
	b, err := sowdoc.Edit(doc, func(m map[string]any) {
		m["signatures"] = []any{}
		if a.opt.ClientSeatAbsent {
			delete(m, "starts_at")
			delete(m["parties"].(map[string]any), "client")
		}
	})
	if err != nil {
		return nil, err
	}
	b, err = sowdoc.Edit(b, func(m map[string]any) { delete(m, "signatures") })
	if err != nil {
		return nil, err
	}
	if !a.opt.StdBase64Sig {
		return sowdoc.Sign(b, key, "provider", sow.SignedAt, form)
	}
	msg, err := sowdoc.SignedBytes(b)
	if err != nil {
		return nil, err
	}
	return sowdoc.AddRecord(b, sowdoc.Record{Role: "provider", Key: sowdoc.KeyValue(key.Public().(ed25519.PublicKey), form),
		SignedAt: sow.SignedAt, Sig: base64.StdEncoding.EncodeToString(ed25519.Sign(key, msg))})
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
	case a.set.On(sabotage.TermsProposalLanguageMissing), a.set.On(sabotage.TermsProposalPartiesUngraded), a.set.On(sabotage.TermsProposalConfidentialityMerged):
		b, err := sowdoc.Edit(doc, func(m map[string]any) {
			switch {
			case a.set.On(sabotage.TermsProposalLanguageMissing):
				delete(m, "language")
			case a.set.On(sabotage.TermsProposalPartiesUngraded):
				delete(m["parties"].(map[string]any), "grade")
			default:
				m["confidentiality"] = map[string]any{"grade": "evidence", "retention_days": 30, "no_training": true, "sealed_transport": true}
			}
		})
		if err != nil {
			return nil, err
		}
		return sowdoc.Resign(b, k, sow.SignedAt, sowdoc.KeyNkey)
	case a.set.On(sabotage.TermsProposalUnsigned):
		return sowdoc.Edit(doc, func(m map[string]any) { m["signatures"] = []any{} })
	case a.set.On(sabotage.TermsProposalSignatureInvalid):
		return sowdoc.Edit(doc, func(m map[string]any) {
			m["price"].(map[string]any)["ceiling"] = map[string]any{"amount": 25000, "period": "month"}
		})
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
		return "cancel on 7 days' notice", 7 * 24
	}
	return "cancel on 30 days' notice", 30 * 24 // termination.convenience_notice_hours (Agent SoW §5.9)
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
		case a.set.On(sabotage.TermsOfferingSkillName):
			e["offering"] = "Reconcile statement" // the skill's name, not its id (terms §3 rule 3, SHOULD)
		}
	}
	return e
}

// buildCard is the card for a caller: the public one (party "") or an extended one.
func (a *agent) buildCard(party string) a2a.AgentCard {
	base := a.base
	recURL, catURL := a.recURL(), a.docBase()+"/terms/"+categorise+".sow.json"
	if a.set.On(sabotage.TermsProposalOtherHost) {
		catURL = "https://proposals.unrelated.example/terms/" + categorise + ".sow.json" // not the publisher's (terms §8, SHOULD)
	}
	proposals := []any{a.entry(reconcile, recURL), a.entry(categorise, catURL)}
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
	desc := "Stonework reconciles bank statements against ledger exports and categorises transactions. " +
		"Customers may " + term + ". Statements are " + data + "."
	if a.opt.NoTermProse {
		desc = "Stonework reconciles bank statements against ledger exports and categorises transactions."
	}
	return a2a.AgentCard{
		Name:                "Stonework reconciliation agent",
		Description:         desc,
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

// docBase is the origin the public proposals are listed at.
func (a *agent) docBase() string {
	if a.opt.ThirdPartyHost {
		return a.thirdBase
	}
	return a.base
}

// recURL is the fixed-fee proposal's listed url (a versioned path after a change, unless InPlaceChange).
func (a *agent) recURL() string {
	switch {
	case a.set.On(sabotage.TermsEntryURLHTTP):
		return a.plainBase + "/terms/" + reconcile + ".sow.json"
	case a.opt.UnreachableHost:
		return "https://192.0.2.1/terms/" + reconcile + ".sow.json"
	case a.versioned() && a.rotation > 0:
		return fmt.Sprintf("%s/terms/versions/%d/%s.sow.json", a.docBase(), a.rotation+1, reconcile)
	}
	return a.docBase() + "/terms/" + reconcile + ".sow.json"
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
	if a.opt.UnsignedCard {
		return b, nil
	}
	if a.retired != nil {
		if b, err = a.retired.Sign(b, ""); err != nil {
			return nil, err
		}
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
	if name == reconcile && a.set.On(sabotage.TermsWithdrawnURL404) {
		a.mu.Lock()
		withdrawn := a.rotation > 0 && a.versioned()
		a.mu.Unlock()
		if withdrawn {
			http.NotFound(w, r) // a bare 404 where §8 asks to keep serving the withdrawn bytes
			return
		}
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
		a.versions = map[int][]byte{}
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
	if a.versioned() {
		// The old url keeps the withdrawn bytes (unless terms.withdrawn-url-404); the changed proposal lives at
		// /terms/versions/<n>/.
		a.versions[a.rotation+1] = doc
	} else {
		a.served[reconcile] = doc
	}
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

// versioned reports whether a change publishes the changed proposal at a new url, keeping the old url's bytes: the
// default, unless InPlaceChange, and unless terms.card-not-updated-on-change, whose fault is serving the new document
// at the url the stale card still lists.
func (a *agent) versioned() bool {
	return !a.opt.InPlaceChange && !a.set.On(sabotage.TermsCardNotUpdatedOnChange)
}

// serveVersion serves a changed proposal at its versioned url (unless InPlaceChange).
func (a *agent) serveVersion(w http.ResponseWriter, r *http.Request) {
	var n int
	if _, err := fmt.Sscanf(r.PathValue("n"), "%d", &n); err != nil || r.PathValue("file") != reconcile+".sow.json" {
		http.NotFound(w, r)
		return
	}
	a.mu.Lock()
	doc, ok := a.versions[n]
	a.mu.Unlock()
	if !ok {
		http.NotFound(w, r)
		return
	}
	b, err := sowdoc.Reformat(doc)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}

// startThird serves the public proposals from a second TLS origin (ThirdPartyHost).
func (a *agent) startThird() error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	cert, err := testpki.IssueLeaf()
	if err != nil {
		_ = ln.Close()
		return err
	}
	a.thirdBase = "https://" + ln.Addr().String()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /terms/{file}", a.serveProposal)
	mux.HandleFunc("GET /terms/versions/{n}/{file}", a.serveVersion)
	a.third = &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	tln := tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
	go func() { _ = a.third.Serve(tln) }()
	return nil
}

func (a *agent) closeThird() {
	if a.third != nil {
		_ = a.third.Close()
	}
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
	u := a.recURL()
	a.mu.Unlock()
	writeJSONValue(w, ClaimMap{Claims: []Claim{
		{Kind: "term", Span: term, Proposal: u, Path: "termination.convenience_notice_hours", Value: tv},
		{Kind: "data-use", Span: data, Proposal: u, Path: "confidentiality.retention.max_days", Value: dv},
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
