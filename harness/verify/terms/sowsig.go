package terms

// Agent SoW §6 provider signatures, checked independently of the fixtures' signing code (fixtures/sow/sowdoc):
// the key decoding, checksum and signed bytes are written again here so each implementation checks the other.

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base32"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// SowSignPrefix precedes JCS(document without signatures) in the Agent SoW §6 signed bytes.
const SowSignPrefix = "agent-sow-v1\n"

// AcceptedSowKeyEncodings says which provider key spellings the harness verifies (stated in the catalog and the
// suite README): an nkey-style Ed25519 user key, or an Ed25519 JWK (as an object or as a JSON string).
const AcceptedSowKeyEncodings = "Ed25519 only: nkey user public key (\"U…\", base32 of 0xA0 || key || CRC-16/XMODEM little endian) " +
	"or JWK {\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"x\":…}; sig is base64url (padding tolerated) of the 64-byte signature"

// SowSignedBytes are the Agent SoW §6 signed bytes of doc.
func SowSignedBytes(doc []byte) ([]byte, error) {
	c, err := sowCanonicalWithout(doc, "signatures")
	if err != nil {
		return nil, err
	}
	return append([]byte(SowSignPrefix), c...), nil
}

// VerifyProviderSignature checks that doc carries at least one signature record with role provider and that every
// such record verifies over the §6 signed bytes. The error wraps ErrSignatureAbsent or ErrSignatureInvalid.
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
	var n int
	for i, rec := range recs {
		var role string
		_ = json.Unmarshal(rec["role"], &role)
		if role != "provider" {
			continue
		}
		n++
		pub, err := ParseSowKey(rec["key"])
		if err != nil {
			return fmt.Errorf("%w: signatures[%d].key: %v", ErrSignatureInvalid, i, err)
		}
		var sig string
		if json.Unmarshal(rec["sig"], &sig) != nil {
			return fmt.Errorf("%w: signatures[%d].sig is not a string", ErrSignatureInvalid, i)
		}
		raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(sig, "="))
		if err != nil || len(raw) != ed25519.SignatureSize {
			return fmt.Errorf("%w: signatures[%d].sig is not a base64url Ed25519 signature", ErrSignatureInvalid, i)
		}
		if !ed25519.Verify(pub, msg, raw) {
			return fmt.Errorf("%w: signatures[%d] (key %s) over the agent-sow-v1 signed bytes", ErrSignatureInvalid, i, sowClipKey(rec["key"]))
		}
	}
	if n == 0 {
		return fmt.Errorf("%w: no signatures[] record has role provider", ErrSignatureAbsent)
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

// ParseSowKey reads a signature record's key: an nkey user public key string, a JWK object, or a JWK as a string.
func ParseSowKey(raw json.RawMessage) (ed25519.PublicKey, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if strings.HasPrefix(strings.TrimSpace(s), "{") {
			return sowParseJWK([]byte(s))
		}
		return ParseNkeyUser(s)
	}
	return sowParseJWK(raw)
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
		return nil, errors.New("neither an nkey string nor a JWK object")
	}
	if k.Kty != "OKP" || k.Crv != "Ed25519" {
		return nil, fmt.Errorf("JWK kty %q crv %q: only OKP/Ed25519 is accepted", k.Kty, k.Crv)
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

// SowClauses are the clause members of an Agent SoW v1 document the completeness check requires (read from the
// 0.11 and 0.15 drafts); each is an object carrying a grade. "reporting" (later drafts) is graded when present.
var SowClauses = []string{"scope", "inputs", "deliverables", "price", "volume", "change_control", "termination", "disputes", "confidentiality"}

// OptionalSowClauses are graded when present.
var OptionalSowClauses = []string{"reporting"}

// SowGrades are the enforcement grades of Agent SoW §3.
var SowGrades = []string{"enforced", "evidence", "recorded"}

// KnownSowFormat reports whether the harness implements the completeness check for the document's format marker.
func KnownSowFormat(parsed map[string]any) bool { return parsed["sow"] == "v1" }

// CompletenessProblems lists how parsed falls short of a complete Agent SoW v1 document: the format marker, the
// top-level members, each clause an object with a grade, and a price with exactly one valid arrangement.
func CompletenessProblems(parsed map[string]any) []string {
	var out []string
	if !KnownSowFormat(parsed) {
		return []string{fmt.Sprintf("format marker sow is %v, not \"v1\"", parsed["sow"])}
	}
	if id, _ := parsed["id"].(string); !strings.HasPrefix(id, "sow_") {
		out = append(out, "id is not a sow_ identifier")
	}
	for _, k := range []string{"version", "starts_at", "ends_at", "parties", "signatures"} {
		if _, ok := parsed[k]; !ok {
			out = append(out, k+" is absent")
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
		m, isObj := v.(map[string]any)
		if !isObj {
			out = append(out, "clause "+k+" is not an object")
			continue
		}
		if g, _ := m["grade"].(string); !slices.Contains(SowGrades, g) {
			out = append(out, fmt.Sprintf("clause %s has grade %v, not one of %v", k, m["grade"], SowGrades))
		}
	}
	if p, ok := parsed["price"].(map[string]any); ok {
		out = append(out, sowPriceProblems(p)...)
	}
	return out
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
