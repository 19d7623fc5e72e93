package terms

// The terms extension (Agent SoW: A2A Terms Extension 0.1.0-draft): the card entry, and the four-step
// verification of §6 plus the standing-proposal checks of §3 rule 5, as a consumer runs them.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"strings"

	"github.com/gowebpki/jcs"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/verify"
	"github.com/extconf/extconf/sabotage"
)

// URI is the extension's URI; consumers match it exactly (§2).
const URI = "https://agentsow.com/extensions/a2a-terms/v1"

// Entry is one params.proposals[] entry of the card's terms declaration. A member the card omits (or spells
// with a non-string) is "".
type Entry struct{ URL, Digest, Sow, Offering string }

// Params is the declaration's params as the consumer reads them.
type Params struct {
	SowSpec   string
	Entries   []Entry
	Required  bool
	Malformed []string // entries that are not objects, by index
}

// Errors of the card entry.
var (
	ErrNotDeclared = errors.New("the card does not declare " + URI)
	ErrParams      = errors.New("the terms declaration's params are malformed")
)

// Entries parses params.proposals of the card's terms declaration.
func Entries(card *a2a.AgentCard) ([]Entry, error) {
	p, err := ReadParams(card)
	if err != nil {
		return nil, err
	}
	return p.Entries, nil
}

// ReadParams parses the terms declaration's params: sow_spec and the proposals entries.
func ReadParams(card *a2a.AgentCard) (*Params, error) {
	if card == nil {
		return nil, ErrNotDeclared
	}
	ext, ok := card.Extension(URI)
	if !ok {
		return nil, ErrNotDeclared
	}
	var params map[string]json.RawMessage
	if err := json.Unmarshal(ext.Params, &params); err != nil || params == nil {
		return nil, fmt.Errorf("%w: params is not an object", ErrParams)
	}
	out := &Params{Required: ext.Required}
	_ = json.Unmarshal(params["sow_spec"], &out.SowSpec)
	raw, ok := params["proposals"]
	if !ok {
		return out, fmt.Errorf("%w: params.proposals is absent", ErrParams)
	}
	var list []json.RawMessage
	if err := json.Unmarshal(raw, &list); err != nil || list == nil {
		return out, fmt.Errorf("%w: params.proposals is not an array", ErrParams)
	}
	for i, item := range list {
		var m map[string]any
		if json.Unmarshal(item, &m) != nil || m == nil {
			out.Malformed = append(out.Malformed, fmt.Sprintf("proposals[%d]", i))
			continue
		}
		str := func(k string) string { s, _ := m[k].(string); return s }
		out.Entries = append(out.Entries, Entry{URL: str("url"), Digest: str("digest"), Sow: str("sow"), Offering: str("offering")})
	}
	return out, nil
}

// Steps of the verification, in order, as ProposalResult.Step names them.
const (
	StepFetch     = "fetch"     // §6 step 1: the GET failed, or the status was not 2xx
	StepParse     = "parse"     // §6 step 1: the body is not one I-JSON object
	StepDigest    = "digest"    // §6 steps 2–3: JCS of the complete document does not hash to the entry's digest
	StepSignature = "signature" // §6 step 4: no provider signature, or it does not verify (Agent SoW §6)
	StepStanding  = "standing"  // never set by VerifyProposal (§6 has four steps); kept for callers that judge §3 rule 5
)

// Errors a ProposalResult wraps, one per failure kind.
var (
	ErrProposalFetch      = errors.New("the proposal could not be fetched")
	ErrProposalParse      = errors.New("the proposal is not one I-JSON object")
	ErrDigestMismatch     = errors.New("digest mismatch")
	ErrSignatureAbsent    = errors.New("no provider signature")
	ErrSignatureInvalid   = errors.New("provider signature does not verify")
	ErrNotStanding        = errors.New("not a standing proposal")
	ErrIdentifierMismatch = errors.New("identifier mismatch") // only ever raised by a sabotaged consumer
)

// ProposalResult is the outcome of verifying one entry. Step is "" when every step passed; otherwise the step
// that failed, and Err says why. Doc and Parsed are set as soon as the body parsed, verified or not: a caller
// must not use them as terms unless Step is "".
type ProposalResult struct {
	Step     string
	Err      error
	Doc      []byte
	Parsed   map[string]any
	Exchange *a2a.Exchange
	// Digest is the canonical digest the consumer computed (for reports).
	Digest string
}

// OK reports whether every step passed.
func (r ProposalResult) OK() bool { return r.Step == "" && r.Err == nil }

func (r ProposalResult) fail(step string, err error) ProposalResult {
	r.Step, r.Err = step, err
	return r
}

// VerifyProposal runs the §6 verification of one entry: fetch over HTTPS and parse as I-JSON; JCS of the whole
// document; SHA-256 compared exactly with the entry's digest; the provider signature per Agent SoW §6. Those four
// steps and nothing else: the §3 rule 5 standing-proposal checks are the TE-3.5 rows'. Identifiers are never
// compared (§8).
// set carries the client-side sabotage toggles of the terms document; pass sabotage.Set{} for the correct consumer.
func VerifyProposal(ctx context.Context, c *a2a.Client, e Entry, set sabotage.Faults) ProposalResult {
	var r ProposalResult
	u, err := url.Parse(e.URL)
	if e.URL == "" || err != nil || !strings.EqualFold(u.Scheme, "https") || u.Host == "" {
		return r.fail(StepFetch, fmt.Errorf("%w: url %q is not an absolute https URL (§3 rule 3)", ErrProposalFetch, e.URL))
	}
	body, ex, err := FetchProposal(ctx, c, e.URL, a2a.Call{})
	r.Exchange = ex
	if err != nil {
		if errors.Is(err, ErrProposalParse) {
			r.Doc = body
			return r.fail(StepParse, err)
		}
		return r.fail(StepFetch, err)
	}
	r.Doc = body
	r.Parsed, _ = ParseProposal(body) // FetchProposal parsed it already

	// Steps 2–3: the commitment is the complete document's canonical digest, never the identifier.
	var digest string
	switch {
	case sabotage.From(set).On(sabotage.TermsClientHashesRawBytes):
		s := sha256.Sum256(body)
		digest = "sha256:" + hex.EncodeToString(s[:])
	case sabotage.From(set).On(sabotage.TermsClientHashesWithoutSignatures):
		digest, err = termsDigestWithout(body, "signatures")
	default:
		digest, err = ProposalDigest(body)
	}
	if err != nil {
		return r.fail(StepParse, fmt.Errorf("%w: %v", ErrProposalParse, err))
	}
	r.Digest = digest
	id, _ := r.Parsed["id"].(string)
	if sabotage.From(set).On(sabotage.TermsClientRejectsOnIdentifierMismatch) {
		if minted, err := MintSowID(body); (e.Sow != "" && e.Sow != id) || err != nil || minted != id {
			return r.fail(StepDigest, fmt.Errorf("%w: entry sow %q, document id %q, re-derived %q", ErrIdentifierMismatch, e.Sow, id, minted))
		}
	}
	sameID := sabotage.From(set).On(sabotage.TermsClientComparesIdentifiers) && e.Sow != "" && e.Sow == id
	if digest != e.Digest && !sameID && !sabotage.From(set).On(sabotage.TermsClientAcceptsDigestMismatch) {
		return r.fail(StepDigest, fmt.Errorf("%w: the entry commits to %q, the served document hashes to %q", ErrDigestMismatch, e.Digest, digest))
	}

	// Step 4: the provider's signature over the Agent SoW §6 signed bytes.
	if err := VerifyProviderSignature(body); err != nil {
		if !(errors.Is(err, ErrSignatureAbsent) && sabotage.From(set).On(sabotage.TermsClientAcceptsUnsigned)) {
			return r.fail(StepSignature, err)
		}
	}

	// §6 has four steps and no fifth: whether the document is a complete standing proposal (§3 rule 5) binds the
	// publisher and is judged on the TE-3.5 rows (StandingProblems, CompletenessProblems), never by the consumer.
	return r
}

// FetchProposal GETs a proposal document (any scheme the client allows: the https requirement is the caller's)
// and parses it as one I-JSON object. The error wraps ErrProposalFetch (transport, non-2xx) or ErrProposalParse;
// on a parse failure the body is still returned.
func FetchProposal(ctx context.Context, c *a2a.Client, rawURL string, call a2a.Call) ([]byte, *a2a.Exchange, error) {
	if call.Note == "" {
		call.Note = "terms proposal " + rawURL
	}
	if call.Header == nil {
		call.Header = http.Header{}
	}
	if _, ok := call.Header["Accept"]; !ok {
		call.Header.Set("Accept", "application/json")
	}
	ex, err := c.HTTP(ctx, http.MethodGet, rawURL, nil, call)
	if err != nil {
		return nil, ex, fmt.Errorf("%w: GET %s: %w", ErrProposalFetch, rawURL, err)
	}
	if ex.Status < 200 || ex.Status > 299 {
		return nil, ex, fmt.Errorf("%w: GET %s answered %d", ErrProposalFetch, rawURL, ex.Status)
	}
	if _, err := ParseProposal(ex.ResponseBody); err != nil {
		return ex.ResponseBody, ex, err
	}
	return ex.ResponseBody, ex, nil
}

// termsMaxSafeInteger is the largest integer an I-JSON number carries exactly (RFC 7493 §2.2).
const termsMaxSafeInteger = 1<<53 - 1

// termsMaxDepth is the nesting ParseProposal lets through: as deep as encoding/json itself decodes (its own
// limit), so proposals keep no nesting bound of their own beyond the decoder's.
const termsMaxDepth = 10000

// ParseProposal parses body as one I-JSON object (RFC 7493): a2a.CheckIJSON (no duplicate member names, valid
// UTF-8, nothing after the value, numbers within the double range), and integers within ±2^53. JCS is defined only
// over I-JSON, so anything else cannot be committed to.
func ParseProposal(body []byte) (map[string]any, error) {
	if err := a2a.CheckIJSON(body, termsMaxDepth); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrProposalParse, err)
	}
	if err := termsSafeIntegers(body); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrProposalParse, err)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrProposalParse, err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: the top-level value is not an object", ErrProposalParse)
	}
	return m, nil
}

// termsSafeIntegers refuses, in document order, an integer literal (no ".", "e" or "E") outside ±2^53. body has
// passed a2a.CheckIJSON: member names come as strings, so every json.Number token is a value.
func termsSafeIntegers(body []byte) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if n, ok := tok.(json.Number); ok && !strings.ContainsAny(string(n), ".eE") {
			f, err := n.Float64()
			if err != nil || math.Abs(f) > termsMaxSafeInteger {
				return fmt.Errorf("integer %s is outside ±2^53", n)
			}
		}
	}
}

// ProposalDigest is the terms §5 commitment of a document: "sha256:" + lowercase hex of SHA-256 over the JCS
// (RFC 8785) form of the complete document, id and signatures included, no prefix.
func ProposalDigest(doc []byte) (string, error) { return verify.JCSDigest(doc) }

// digestWithout hashes JCS of doc with top-level members removed (the sabotaged consumer's mistake).
func termsDigestWithout(doc []byte, drop ...string) (string, error) {
	c, err := sowCanonicalWithout(doc, drop...)
	if err != nil {
		return "", err
	}
	return verify.Digest(c), nil
}

func sowCanonicalWithout(doc []byte, drop ...string) ([]byte, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(doc, &m); err != nil || m == nil {
		return nil, errors.New("not a JSON object")
	}
	for _, k := range drop {
		delete(m, k)
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	return jcs.Transform(b)
}

// StandingProblems lists how parsed fails to have the client seat blank (Agent SoW §12.1, §6: "with the client seat
// blank and the start instant null"): parties.client null or absent, starts_at null or absent (the SPEC shows null;
// absence is read as blank too), and no signature record with role client.
func StandingProblems(parsed map[string]any) []string {
	var out []string
	parties, ok := parsed["parties"].(map[string]any)
	if !ok {
		out = append(out, "parties is not an object")
	} else if v := parties["client"]; v != nil {
		out = append(out, "parties.client is filled")
	}
	if v := parsed["starts_at"]; v != nil {
		out = append(out, "starts_at is set")
	}
	sigs, _ := parsed["signatures"].([]any)
	for i, s := range sigs {
		if rec, ok := s.(map[string]any); ok && rec["role"] == "client" {
			out = append(out, fmt.Sprintf("signatures[%d] has role client", i))
		}
	}
	return out
}

// Directed reports whether parsed is a directed standing proposal (parties.offered_to, Agent SoW §12.1.1).
func Directed(parsed map[string]any) (offeredTo map[string]any, directed bool) {
	parties, _ := parsed["parties"].(map[string]any)
	v, ok := parties["offered_to"]
	if !ok || v == nil {
		return nil, false
	}
	m, _ := v.(map[string]any)
	return m, true
}
