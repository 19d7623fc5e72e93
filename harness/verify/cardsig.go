package verify

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/gowebpki/jcs"
)

// SigResult is the outcome of one signatures[] entry of an Agent Card.
type SigResult struct {
	KID, Alg, JKU string
	OK            bool
	Err           string // the failed step and why; "" when OK
}

// Algorithms a card signature may use: every asymmetric JWS algorithm (RFC 7518 §3.1, RFC 8037) go-jose verifies.
// A2A §8.4 names no allow-list, so an algorithm outside this set is not a bad signature but one the harness cannot
// check (StepUnsupportedAlg: callers block, naming it). HMAC needs a secret shared with every verifier, so it is in
// that class too; "none" is no signature at all and fails.
var cardSigAlgs = []jose.SignatureAlgorithm{jose.ES256, jose.ES384, jose.ES512, jose.EdDSA,
	jose.RS256, jose.RS384, jose.RS512, jose.PS256, jose.PS384, jose.PS512}

// CardSigAlgs names the algorithms the harness verifies, for reports.
const CardSigAlgs = "ES256, ES384, ES512, EdDSA, RS256, RS384, RS512, PS256, PS384, PS512"

// Card signature verification steps, as they appear at the start of errors.
const (
	StepNoSignatures    = "no signatures"
	StepBadCard         = "bad card"
	StepBadProtected    = "bad protected header"
	StepUnknownKID      = "unknown kid"
	StepSignatureFailed = "signature mismatch"
	StepUnsupportedAlg  = "unsupported alg" // a JWS algorithm the harness cannot verify: never the agent's fault
)

// CardSignature verifies every signatures[] entry of the raw card bytes (A2A §8.4): payload = JCS (RFC 8785) of the
// card minus its top-level "signatures" member, each entry a detached JWS (go-jose DetachedVerify) whose "alg"
// comes from the protected header (any of CardSigAlgs; "none" fails, any other is StepUnsupportedAlg) and
// whose key is found by "kid" in keys. Keys are never fetched here: a "jku" is reported, not followed.
//
// It returns one result per entry and, when any entry fails (or there is none), an error naming the first failed
// step: "no signatures", "bad card", "bad protected header", "unknown kid", "signature mismatch", "unsupported alg".
func CardSignature(rawCard []byte, keys *jose.JSONWebKeySet) ([]SigResult, error) {
	var card map[string]json.RawMessage
	if err := json.Unmarshal(rawCard, &card); err != nil || card == nil {
		return nil, fmt.Errorf("%s: not a JSON object", StepBadCard)
	}
	var entries []json.RawMessage
	if raw, ok := card["signatures"]; ok {
		if err := json.Unmarshal(raw, &entries); err != nil {
			return nil, fmt.Errorf("%s: signatures is not an array", StepBadCard)
		}
	}
	if len(entries) == 0 {
		return nil, errors.New(StepNoSignatures)
	}
	delete(card, "signatures")
	unsigned, err := json.Marshal(card)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", StepBadCard, err)
	}
	payload, err := jcs.Transform(unsigned)
	if err != nil {
		return nil, fmt.Errorf("%s: canonicalization (JCS): %v", StepBadCard, err)
	}

	results := make([]SigResult, len(entries))
	var first error
	for i, e := range entries {
		r, err := verifyEntry(e, payload, keys)
		if err != nil {
			r.Err = err.Error()
			if first == nil {
				first = fmt.Errorf("signatures[%d]: %w", i, err)
			}
		} else {
			r.OK = true
		}
		results[i] = r
	}
	return results, first
}

func verifyEntry(entry json.RawMessage, payload []byte, keys *jose.JSONWebKeySet) (SigResult, error) {
	var r SigResult
	var sig struct {
		Protected string          `json:"protected"`
		Signature string          `json:"signature"`
		Header    json.RawMessage `json:"header"`
	}
	if err := json.Unmarshal(entry, &sig); err != nil {
		return r, fmt.Errorf("%s: entry is not {protected, signature, header?}", StepBadProtected)
	}
	hdrBytes, err := base64.RawURLEncoding.DecodeString(sig.Protected)
	if err != nil || sig.Protected == "" {
		return r, fmt.Errorf("%s: protected is not base64url", StepBadProtected)
	}
	var hdr struct {
		Alg *string `json:"alg"`
		KID *string `json:"kid"`
		JKU string  `json:"jku"`
		B64 *bool   `json:"b64"`
	}
	if err := json.Unmarshal(hdrBytes, &hdr); err != nil {
		return r, fmt.Errorf("%s: not a JSON object: %v", StepBadProtected, err)
	}
	if hdr.Alg != nil {
		r.Alg = *hdr.Alg
	}
	if hdr.KID != nil {
		r.KID = *hdr.KID
	}
	r.JKU = hdr.JKU
	switch {
	case hdr.Alg == nil:
		return r, fmt.Errorf("%s: no alg", StepBadProtected)
	case strings.EqualFold(r.Alg, "none"):
		return r, fmt.Errorf("%s: alg %q is refused", StepBadProtected, r.Alg)
	case !allowedAlg(r.Alg):
		return r, fmt.Errorf("%s: alg %q (the harness verifies %s; A2A §8.4 names no allow-list, so this signature is unchecked, not invalid)", StepUnsupportedAlg, r.Alg, CardSigAlgs)
	case hdr.KID == nil || r.KID == "":
		return r, fmt.Errorf("%s: no kid", StepBadProtected)
	case hdr.B64 != nil && !*hdr.B64:
		return r, fmt.Errorf("%s: b64=false (unencoded payload) is not the A2A signing input", StepBadProtected)
	}
	if keys == nil {
		return r, fmt.Errorf("%s: %q (no keys given)", StepUnknownKID, r.KID)
	}
	found := keys.Key(r.KID)
	if len(found) == 0 {
		return r, fmt.Errorf("%s: %q", StepUnknownKID, r.KID)
	}
	obj, err := jose.ParseDetached(sig.Protected+".."+sig.Signature, payload, []jose.SignatureAlgorithm{jose.SignatureAlgorithm(r.Alg)})
	if err != nil {
		return r, fmt.Errorf("%s: %v", StepBadProtected, err)
	}
	var last error
	for _, k := range found {
		if k.Algorithm != "" && k.Algorithm != r.Alg {
			last = fmt.Errorf("%s: key %q is for %s, header says %s", StepSignatureFailed, r.KID, k.Algorithm, r.Alg)
			continue
		}
		pub := k.Public()
		if !pub.Valid() {
			last = fmt.Errorf("%s: key %q is not a usable public key", StepSignatureFailed, r.KID)
			continue
		}
		if err := obj.DetachedVerify(payload, pub.Key); err != nil {
			last = fmt.Errorf("%s: %v", StepSignatureFailed, err)
			continue
		}
		return r, nil
	}
	return r, last
}

func allowedAlg(alg string) bool {
	for _, a := range cardSigAlgs {
		if string(a) == alg {
			return true
		}
	}
	return false
}
