package terms

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"strings"
	"sync"

	"github.com/extconf/extconf/fixtures/sow"
	"github.com/extconf/extconf/fixtures/testpki"
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
	// AmountsNotPrices adds amounts that state no price: a threshold and a referenced amount in a skill description,
	// amounts and arithmetic in examples (terms §4 binds where prose "state[s] a price").
	AmountsNotPrices bool
	// CapabilitySentences adds capability sentences using the lexicons' words (deletes, cancels, shares).
	CapabilitySentences bool
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
	"amounts-not-prices":    func(o *Options) { o.AmountsNotPrices = true },
	"capability-sentences":  func(o *Options) { o.CapabilitySentences = true },
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
	sabotage.TermsLatAmountsNotPrices:    "amounts-not-prices",
	sabotage.TermsLatCapabilitySentences: "capability-sentences",
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

// String names the agent in errors.
func (a *agent) String() string { return fmt.Sprintf("terms reference agent at %s", a.base) }
