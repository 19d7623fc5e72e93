package terms

// Agent SoW §6 provider signatures, checked independently of the fixtures' signing code (fixtures/sow/sowdoc):
// the key decoding, checksum and signed bytes are written again here so each implementation checks the other.

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// SowSignPrefix precedes JCS(document without signatures) in the Agent SoW §6 signed bytes.
const SowSignPrefix = "agent-sow-v1\n"

// AcceptedSowKeyEncodings says which provider key spellings the harness verifies (stated in the catalog and the
// suite README): an nkey-style Ed25519 user key, an Ed25519 JWK (as an object or as a JSON string), or a bare 32-byte
// key (read as Ed25519 only when it verifies: other key types are 32 bytes too).
const AcceptedSowKeyEncodings = "Ed25519 only: nkey user public key (\"U…\", base32 of 0xA0 || key || CRC-16/XMODEM little endian), " +
	"JWK {\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"x\":…}, or the bare 32-byte key in base64, base64url or hex (optionally \"ed25519:\"-prefixed; " +
	"read as Ed25519 only when its signature verifies, since other key types are 32 bytes too); sig is base64url or standard base64 (Agent SoW §6 writes \"<base64>\"; padding tolerated) of the 64-byte signature; " +
	"a record with any other key is not checked (the row blocks; a consumer cannot accept it)"

// SowSignedBytes are the Agent SoW §6 signed bytes of doc.
func SowSignedBytes(doc []byte) ([]byte, error) {
	c, err := sowCanonicalWithout(doc, "signatures")
	if err != nil {
		return nil, err
	}
	return append([]byte(SowSignPrefix), c...), nil
}

// ErrKeyUnsupported marks a provider signature record whose key the harness cannot read (not an nkey user key, not
// an Ed25519 JWK). Agent SoW §6 names no algorithm or key encoding, so such a record is not shown invalid: a
// consumer cannot accept it (it does not verify), and a suite blocks on it instead of failing the publisher.
var ErrKeyUnsupported = errors.New("key encoding the harness does not implement")

// decodeSowSig reads a sig: Agent SoW §6 writes "<base64>" and the independent fixture base64url, so both alphabets
// are accepted, padded or not.
func decodeSowSig(sig string) ([]byte, error) {
	t := strings.TrimRight(sig, "=")
	if raw, err := base64.RawURLEncoding.DecodeString(t); err == nil {
		return raw, nil
	}
	return base64.RawStdEncoding.DecodeString(t)
}

// VerifyProviderSignature checks that doc carries at least one signature record with role provider, that at least
// one verifies over the §6 signed bytes, and that none whose key the harness reads fails to verify. The error wraps
// ErrSignatureAbsent or ErrSignatureInvalid (and ErrKeyUnsupported when no record could be checked).
func VerifyProviderSignature(doc []byte) error {
	var top struct {
		Signatures json.RawMessage `json:"signatures"`
	}
	if err := json.Unmarshal(doc, &top); err != nil {
		return fmt.Errorf("%w: %v", ErrSignatureInvalid, err)
	}
	var recs []map[string]json.RawMessage
	if len(top.Signatures) > 0 && string(top.Signatures) != "null" {
		if err := json.Unmarshal(top.Signatures, &recs); err != nil {
			return fmt.Errorf("%w: signatures is not an array of records", ErrSignatureInvalid)
		}
	}
	msg, err := SowSignedBytes(doc)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrSignatureInvalid, err)
	}
	var n, verified int
	var unsupported error
	for i, rec := range recs {
		var role string
		_ = json.Unmarshal(rec["role"], &role)
		if role != "provider" {
			continue
		}
		n++
		pub, err := ParseSowKey(rec["key"])
		_, bare := bareKey(rec["key"])
		if errors.Is(err, ErrKeyUnsupported) {
			if unsupported == nil {
				unsupported = fmt.Errorf("%w: signatures[%d].key: %w", ErrSignatureInvalid, i, err)
			}
			continue
		}
		if err != nil {
			return fmt.Errorf("%w: signatures[%d].key: %v", ErrSignatureInvalid, i, err)
		}
		var sig string
		if json.Unmarshal(rec["sig"], &sig) != nil {
			return fmt.Errorf("%w: signatures[%d].sig is not a string", ErrSignatureInvalid, i)
		}
		raw, err := decodeSowSig(sig)
		if err != nil || len(raw) != ed25519.SignatureSize {
			return fmt.Errorf("%w: signatures[%d].sig is not a base64 or base64url Ed25519 signature", ErrSignatureInvalid, i)
		}
		if !ed25519.Verify(pub, msg, raw) {
			if bare {
				// A bare key names no type: one that does not verify may be another 32-byte key type (X25519,
				// BIP-340), so the record is unreadable rather than invalid.
				if unsupported == nil {
					unsupported = fmt.Errorf("%w: signatures[%d].key: %w: %s is a bare 32-byte key that does not verify as Ed25519", ErrSignatureInvalid, i, ErrKeyUnsupported, sowClipKey(rec["key"]))
				}
				continue
			}
			return fmt.Errorf("%w: signatures[%d] (key %s) over the agent-sow-v1 signed bytes", ErrSignatureInvalid, i, sowClipKey(rec["key"]))
		}
		verified++
	}
	switch {
	case n == 0:
		return fmt.Errorf("%w: no signatures[] record has role provider", ErrSignatureAbsent)
	case verified == 0 && unsupported != nil:
		return unsupported
	}
	return nil
}

func sowClipKey(b json.RawMessage) string {
	s := string(b)
	if len(s) > 24 {
		s = s[:24] + "…"
	}
	return s
}

var nkeyB32 = base32.StdEncoding.WithPadding(base32.NoPadding)

// nkeyUserPrefix is NATS's prefix byte for user keys (20 << 3: base32 "U").
const nkeyUserPrefix = 20 << 3

// ParseSowKey reads a signature record's key: an nkey user public key string, a JWK object, a JWK as a string, or
// a bare 32-byte key (bareKey).
func ParseSowKey(raw json.RawMessage) (ed25519.PublicKey, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if strings.HasPrefix(strings.TrimSpace(s), "{") {
			return sowParseJWK([]byte(s))
		}
		if k, ok := bareKey(raw); ok {
			return k, nil
		}
		if !strings.HasPrefix(s, "U") {
			return nil, fmt.Errorf("%w: %q is neither an nkey user key, a JWK nor a bare 32-byte key", ErrKeyUnsupported, sowClipKey(raw))
		}
		return ParseNkeyUser(s)
	}
	return sowParseJWK(raw)
}

// bareKey reads a key string that is the raw 32-byte public key itself: Agent SoW §6 writes "<owner public key>"
// and names no encoding, and the base64 of §6's "<base64>" sig (or hex) is the plainest spelling. An nkey (56
// characters) and a JWK never decode to 32 bytes, so the readings do not overlap.
func bareKey(raw json.RawMessage) (ed25519.PublicKey, bool) {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return nil, false
	}
	if len(s) > 8 && strings.EqualFold(s[:8], "ed25519:") {
		s = s[8:]
	}
	if b, err := hex.DecodeString(s); err == nil && len(b) == ed25519.PublicKeySize {
		return ed25519.PublicKey(b), true
	}
	if b, err := decodeSowSig(s); err == nil && len(b) == ed25519.PublicKeySize {
		return ed25519.PublicKey(b), true
	}
	return nil, false
}

// ParseNkeyUser decodes an nkey user public key, checking prefix, length and checksum.
func ParseNkeyUser(s string) (ed25519.PublicKey, error) {
	raw, err := nkeyB32.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("nkey: not base32: %v", err)
	}
	if len(raw) != 1+ed25519.PublicKeySize+2 {
		return nil, fmt.Errorf("nkey: %d bytes, want 35", len(raw))
	}
	if raw[0] != nkeyUserPrefix {
		return nil, errors.New("nkey: not a user public key (prefix U)")
	}
	body := raw[:33]
	if sowXmodem(body) != uint16(raw[33])|uint16(raw[34])<<8 {
		return nil, errors.New("nkey: checksum mismatch")
	}
	return ed25519.PublicKey(append([]byte(nil), body[1:]...)), nil
}

// xmodem is CRC-16/XMODEM, table-free (a second, independent spelling of the nkey checksum).
func sowXmodem(b []byte) uint16 {
	var crc uint16
	for _, c := range b {
		x := crc>>8 ^ uint16(c)
		x ^= x >> 4
		crc = crc<<8 ^ x<<12 ^ x<<5 ^ x
	}
	return crc
}

func sowParseJWK(b []byte) (ed25519.PublicKey, error) {
	var k struct{ Kty, Crv, X, D string }
	if err := json.Unmarshal(b, &k); err != nil {
		return nil, fmt.Errorf("%w: neither an nkey string nor a JWK object", ErrKeyUnsupported)
	}
	if k.Kty != "OKP" || k.Crv != "Ed25519" {
		return nil, fmt.Errorf("%w: JWK kty %q crv %q (only OKP/Ed25519 is implemented)", ErrKeyUnsupported, k.Kty, k.Crv)
	}
	x, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(k.X, "="))
	if err != nil || len(x) != ed25519.PublicKeySize {
		return nil, errors.New("JWK x is not a base64url 32-byte key")
	}
	return ed25519.PublicKey(x), nil
}

var sowIDB32 = base32.NewEncoding("0123456789abcdefghjkmnpqrstvwxyz").WithPadding(base32.NoPadding)

// MintSowID re-derives the Agent SoW §4.1 identifier. The correct consumer never uses it to verify (§8, §4.1.1);
// it exists for reports and for the sabotaged consumer.
func MintSowID(doc []byte) (string, error) {
	c, err := sowCanonicalWithout(doc, "id", "signatures")
	if err != nil {
		return "", err
	}
	s := sha256.Sum256(c)
	return "sow_" + sowIDB32.EncodeToString(s[:10]), nil
}

// SowClauses are the clause members of an Agent SoW v1 document the completeness check requires (SPEC 0.11 §4.2,
// §5; 0.15 adds "reporting", graded when present). Their shapes differ by clause, as the SPEC writes them: see
// CompletenessProblems.
var SowClauses = []string{"parties", "scope", "inputs", "deliverables", "price", "volume", "change_control", "termination", "disputes", "confidentiality"}

// OptionalSowClauses are graded when present.
var OptionalSowClauses = []string{"reporting"}

// SowGrades are the enforcement grades of Agent SoW §3.
var SowGrades = []string{"enforced", "evidence", "recorded"}

// KnownSowFormat reports whether the harness implements the completeness check for the document's format marker.
func KnownSowFormat(parsed map[string]any) bool { return parsed["sow"] == "v1" }

// CompletenessSentences are the SPEC sentences CompletenessProblems enforces, quoted in the suite's expectations.
const CompletenessSentences = `Agent SoW §4.2 "All clause objects carry a grade field. Where a clause naturally splits across grades ` +
	`(confidentiality is the canonical case), it is expressed as multiple sub-clauses, each singly graded."; §4.3 "Every document ` +
	`therefore embeds, inside the signed bytes, a descriptor of the language it was written under"; §5.5 "Every engagement MUST ` +
	`declare exactly one pricing arrangement"`

func validGrade(v any) bool { g, _ := v.(string); return slices.Contains(SowGrades, g) }

// CompletenessProblems lists how parsed falls short of a complete Agent SoW v1 document, reading each clause in the
// shape the SPEC gives it and accepting every shape it gives:
//   - parties, scope, price, volume, change_control, termination, disputes (and reporting): an object with a grade;
//   - inputs: an array of input objects (§5.3, §4.2; the SPEC writes the clause grade beside the array, so a grade
//     per item is accepted and none required), or an object carrying a grade;
//   - deliverables: an object {per_task, interim, grade} (§5.4) or an array (§4.2 overview), items graded or not;
//   - confidentiality: split sub-clauses, each an object with its own grade (§5.11), no top-level grade required;
//   - language: the §4.3 descriptor, an object with id, version and sha256;
//   - price: exactly one arrangement with the members §5.5.1–5.5.7 make mandatory.
//
// starts_at and the client seat may be null or absent (StandingProblems judges them).
func CompletenessProblems(parsed map[string]any) []string {
	var out []string
	if !KnownSowFormat(parsed) {
		return []string{fmt.Sprintf("format marker sow is %v, not \"v1\"", parsed["sow"])}
	}
	if id, _ := parsed["id"].(string); !strings.HasPrefix(id, "sow_") {
		out = append(out, "id is not a sow_ identifier")
	}
	for _, k := range []string{"version", "ends_at", "signatures"} {
		if _, ok := parsed[k]; !ok {
			out = append(out, k+" is absent")
		}
	}
	if l, ok := parsed["language"].(map[string]any); !ok {
		out = append(out, "language (the §4.3 contract-language descriptor) is absent or not an object")
	} else {
		for _, k := range []string{"id", "version", "sha256"} {
			if _, ok := l[k]; !ok {
				out = append(out, "language."+k+" is absent (§4.3)")
			}
		}
	}
	clauses := append(append([]string(nil), SowClauses...), OptionalSowClauses...)
	for i, k := range clauses {
		v, ok := parsed[k]
		if !ok {
			if i < len(SowClauses) {
				out = append(out, "clause "+k+" is absent")
			}
			continue
		}
		out = append(out, clauseProblems(k, v)...)
	}
	if p, ok := parsed["price"].(map[string]any); ok {
		out = append(out, sowPriceProblems(p)...)
	}
	return out
}

func clauseProblems(k string, v any) []string {
	gradedObject := func(m map[string]any, where string) []string {
		if !validGrade(m["grade"]) {
			return []string{fmt.Sprintf("%s has grade %v, not one of %v", where, m["grade"], SowGrades)}
		}
		return nil
	}
	itemsGraded := func(items []any, where string) []string {
		var out []string
		for j, it := range items {
			m, ok := it.(map[string]any)
			if !ok {
				out = append(out, fmt.Sprintf("%s[%d] is not an object", where, j))
				continue
			}
			if g, present := m["grade"]; present && !validGrade(g) {
				out = append(out, fmt.Sprintf("%s[%d] has grade %v, not one of %v", where, j, g, SowGrades))
			}
		}
		return out
	}
	switch k {
	case "inputs", "deliverables":
		switch x := v.(type) {
		case []any:
			return itemsGraded(x, "clause "+k)
		case map[string]any:
			return gradedObject(x, "clause "+k)
		}
		return []string{"clause " + k + " is neither an array nor an object"}
	case "confidentiality":
		m, ok := v.(map[string]any)
		if !ok {
			return []string{"clause confidentiality is not an object"}
		}
		var out []string
		subs := 0
		for name, sv := range m {
			sm, isObj := sv.(map[string]any)
			if !isObj {
				continue
			}
			subs++
			out = append(out, gradedObject(sm, "confidentiality."+name)...)
		}
		if subs == 0 {
			out = append(out, "clause confidentiality has no graded sub-clauses (§5.11: sub-clauses are graded separately and MUST NOT be merged)")
		}
		slices.Sort(out)
		return out
	}
	m, ok := v.(map[string]any)
	if !ok {
		return []string{"clause " + k + " is not an object"}
	}
	return gradedObject(m, "clause "+k)
}

func sowPriceProblems(p map[string]any) []string {
	var out []string
	has := func(k string) bool { _, ok := p[k]; return ok }
	switch p["arrangement"] {
	case "fixed_fee":
		if c, _ := p["currency"].(string); c == "" || !has("rates") {
			out = append(out, "price fixed_fee needs currency and rates")
		}
	case "time_and_materials":
		r, _ := p["reservation"].(map[string]any)
		if c, _ := p["currency"].(string); c == "" || !has("schedule") || !has("cap") || r == nil || r["window_days"] == nil {
			out = append(out, "price time_and_materials needs currency, schedule, cap and reservation.window_days")
		}
	case "no_charge":
		for k := range p {
			if k != "arrangement" && k != "grade" {
				out = append(out, "price no_charge carries "+k)
			}
		}
	default:
		out = append(out, fmt.Sprintf("price.arrangement %v is not fixed_fee, time_and_materials or no_charge", p["arrangement"]))
	}
	return out
}
