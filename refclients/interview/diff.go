package interview

// The consistency diff of interview §7: every projection is resolved in the declared document it names and
// compared, under JCS, byte for byte.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/gowebpki/jcs"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/jsonptr"
	"github.com/extconf/extconf/harness/verify"
	"github.com/extconf/extconf/refclients/terms"
	"github.com/extconf/extconf/sabotage"
)

// Kinds of conflict the diff reports.
const (
	ConflictBadSource   = "bad-source"   // source.document is neither "card" nor "proposal", or the member is no pointer
	ConflictUnresolved  = "unresolved"   // source.member does not resolve in the source document
	ConflictUncommitted = "uncommitted"  // a proposal source whose url no terms entry of the card lists
	ConflictNotAnEntry  = "not-an-entry" // the url is listed, but url and digest are not byte for byte one entry's
	ConflictUnverified  = "unverified"   // the committed proposal fails the terms verification (terms §6)
	ConflictValue       = "value"        // JCS(value) differs from JCS(resolved)
)

// Conflict is one failed comparison of §7.
type Conflict struct {
	Kind     string
	Method   string
	Index    int // projections[] index
	Source   Source
	Detail   string
	Exchange *a2a.Exchange // the answer's exchange
	// Unreached: the declared source could not be fetched at all (a transport failure, not the agent's answer):
	// the conflict cannot be judged.
	Unreached *a2a.Unreachable
}

func (c Conflict) String() string {
	return fmt.Sprintf("%s projections[%d] (%s %s): %s: %s", c.Method, c.Index, c.Source.Document, c.Source.Member, c.Kind, c.Detail)
}

// Declared is what the verifier fetched: the card (verified per §8 step 1) and, lazily, the proposals
// its terms entries commit to.
type Declared struct {
	CardURL      string
	CardRaw      []byte
	Card         *a2a.AgentCard
	CardExchange *a2a.Exchange
	cardDoc      any
	Entries      []terms.Entry
	EntriesErr   error
	proposals    map[string]*terms.ProposalResult // url + " " + digest
	proposalDocs map[string]any
	// TrustedKeys are the operator's card-signing keys (a jku on the card's origin is added when needed): a
	// /signatures projection that differs from the fetch is accepted when it verifies over this card (resigned).
	TrustedKeys *jose.JSONWebKeySet
	keys        *jose.JSONWebKeySet
}

// NewDeclared wraps a fetched card. The card's terms entries are read here; a card without the terms
// extension has none.
func NewDeclared(cardURL string, raw []byte, card *a2a.AgentCard, ex *a2a.Exchange) (*Declared, error) {
	doc, err := verify.DecodeJSONDoc(raw)
	if err != nil {
		return nil, fmt.Errorf("card: %w", err)
	}
	d := &Declared{CardURL: cardURL, CardRaw: raw, Card: card, CardExchange: ex, cardDoc: doc,
		proposals: map[string]*terms.ProposalResult{}, proposalDocs: map[string]any{}}
	if _, ok := card.Extension(terms.URI); ok {
		d.Entries, d.EntriesErr = terms.Entries(card)
	}
	return d, nil
}

// CardDoc is the card decoded for pointer resolution (numbers kept as written).
func (d *Declared) CardDoc() any { return d.cardDoc }

// Entry returns the terms entry whose url and digest are byte for byte those given.
func (d *Declared) Entry(url, digest string) (terms.Entry, bool) {
	for _, e := range d.Entries {
		if e.URL == url && e.Digest == digest {
			return e, true
		}
	}
	return terms.Entry{}, false
}

// EntryByURL returns the first terms entry listing url.
func (d *Declared) EntryByURL(url string) (terms.Entry, bool) {
	for _, e := range d.Entries {
		if e.URL == url {
			return e, true
		}
	}
	return terms.Entry{}, false
}

// Proposal verifies a committed proposal once (terms §6: fetch, JCS, digest, provider signature) and returns the
// result and the decoded document.
func (d *Declared) Proposal(ctx context.Context, c *a2a.Client, e terms.Entry, set sabotage.Faults) (*terms.ProposalResult, any) {
	key := e.URL + " " + e.Digest
	if r, ok := d.proposals[key]; ok {
		return r, d.proposalDocs[key]
	}
	// The terms toggles belong to the terms document's runs: the interview always verifies as a correct consumer.
	r := terms.VerifyProposal(ctx, c, e, sabotage.Set{})
	d.proposals[key] = &r
	if r.Err == nil {
		if doc, err := verify.DecodeJSONDoc(r.Doc); err == nil {
			d.proposalDocs[key] = doc
		}
	}
	return &r, d.proposalDocs[key]
}

// Diff runs §7 rules 1 and 2 over every projection of replies and returns the conflicts.
func Diff(ctx context.Context, c *a2a.Client, d *Declared, replies []*Reply, set sabotage.Faults) []Conflict {
	var out []Conflict
	for _, r := range replies {
		if r == nil || r.Answer == nil {
			continue
		}
		for i, p := range r.Answer.Projections {
			if k, why := DiffProjection(ctx, c, d, p, set); k != "" {
				cf := Conflict{Kind: k, Method: r.Method, Index: i, Source: p.Source, Detail: why, Exchange: r.Exchange}
				if e, ok := d.Entry(p.Source.URL, p.Source.Digest); ok && k == ConflictUnverified {
					res, _ := d.Proposal(ctx, c, e, set) // cached: the fetch DiffProjection made
					cf.Unreached = res.Exchange.Unreached()
				}
				out = append(out, cf)
			}
		}
	}
	return out
}

// DiffProjection compares one projection with its declared source; it returns the conflict kind and why, or "".
func DiffProjection(ctx context.Context, c *a2a.Client, d *Declared, p Projection, set sabotage.Faults) (kind, why string) {
	if p.SourceKeys != nil && !slices.Contains(p.SourceKeys, "member") {
		// §1: a projection is "a value copied from a named member of a declared document, together with the name of
		// that document and member"; §5 rule 2: "source.member is an RFC 6901 JSON Pointer". An absent member names
		// nothing (the empty pointer "" names the whole document, and is accepted as such).
		return ConflictBadSource, "source.member is absent: a projection names the member its value was copied from (§1, §5 rule 2)"
	}
	var doc any
	switch p.Source.Document {
	case "card":
		doc = d.cardDoc
	case "proposal":
		e, ok := d.Entry(p.Source.URL, p.Source.Digest)
		if !ok {
			if _, listed := d.EntryByURL(p.Source.URL); listed {
				return ConflictNotAnEntry, fmt.Sprintf("url %q is listed, but no terms entry has url and digest %q byte for byte", p.Source.URL, p.Source.Digest)
			}
			return ConflictUncommitted, fmt.Sprintf("no terms extension entry of the card lists %q (digest %q): the card never committed to it", p.Source.URL, p.Source.Digest)
		}
		res, pdoc := d.Proposal(ctx, c, e, set)
		if res.Err != nil {
			return ConflictUnverified, fmt.Sprintf("the committed proposal %s fails terms verification at step %q: %v", e.URL, res.Step, res.Err)
		}
		if pdoc == nil {
			return ConflictUnverified, "the committed proposal " + e.URL + " does not decode"
		}
		doc = pdoc
	default:
		return ConflictBadSource, fmt.Sprintf("source.document %q is neither \"card\" nor \"proposal\"", p.Source.Document)
	}
	resolved, err := jsonptr.Resolve(doc, p.Source.Member)
	if err != nil {
		if errors.Is(err, jsonptr.ErrSyntax) {
			return ConflictBadSource, err.Error()
		}
		return ConflictUnresolved, fmt.Sprintf("%s %q does not resolve in the %s: %v", "member", p.Source.Member, p.Source.Document, err)
	}
	want, err := verify.CanonicalValue(resolved)
	if err != nil {
		return ConflictValue, "the declared value does not canonicalize: " + err.Error()
	}
	got, err := jcs.Transform(p.Value)
	if err != nil {
		return ConflictValue, "the answer's value does not canonicalize: " + err.Error()
	}
	if !bytes.Equal(got, want) && p.Source.Document == "card" && d.resigned(ctx, c, p) {
		return "", ""
	}
	if !bytes.Equal(got, want) {
		return ConflictValue, fmt.Sprintf("JCS(value) %s differs from JCS(declared %s) %s", ivClipText(string(got), 200), p.Source.Member, ivClipText(string(want), 200))
	}
	return "", ""
}

// resigned: a projection at or under /signatures that differs from this fetch's bytes but is a valid signature of
// this very card. A card re-signed on every fetch (ECDSA is randomised) has no fixed signature bytes, and a
// re-signature changes no declared byte (A2A §8.4: the signature covers the card without "signatures"); §5 rule 2's
// "exactly the value at that pointer" is read as the value of a serving of this card. The projected signature must
// verify with the operator's keys or the card origin's jku: anything else stays a conflict.
func (d *Declared) resigned(ctx context.Context, c *a2a.Client, p Projection) bool {
	m := p.Source.Member
	if m != "/signatures" && !strings.HasPrefix(m, "/signatures/") {
		return false
	}
	var card map[string]json.RawMessage
	if json.Unmarshal(d.CardRaw, &card) != nil {
		return false
	}
	var sigs []json.RawMessage
	if m == "/signatures" {
		if json.Unmarshal(p.Value, &sigs) != nil {
			return false
		}
	} else {
		rest := strings.TrimPrefix(m, "/signatures/")
		if strings.Contains(rest, "/") {
			return false // a member of one signature: compared exactly
		}
		sigs = []json.RawMessage{p.Value}
	}
	if len(sigs) == 0 {
		return false
	}
	if d.keys == nil {
		d.keys, _, _ = verify.CardKeysWithJKU(ctx, c, d.CardURL, d.CardRaw, d.TrustedKeys)
	}
	for _, sig := range sigs {
		one, _ := json.Marshal([]json.RawMessage{sig})
		card["signatures"] = one
		b, err := json.Marshal(card)
		if err != nil {
			return false
		}
		if _, err := verify.CardSignatureAny(b, d.keys); err != nil {
			return false
		}
	}
	return true
}
