package main

// The standing proposal (Agent SoW 0.11 §12.1) and the three byte strings over it: the identifier's (§4.1), the
// signed bytes (§6) and the card's commitment (terms §5).

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"strings"
	"time"

	"github.com/gowebpki/jcs"
)

// languageText is the contract language this office writes its documents under (§4.3: the descriptor hashes it).
const languageText = "Kölner Fachübersetzungen standard terms, version 1. The provider translates the documents the client " +
	"furnishes under the clauses below; each clause binds at the grade it states."

// offer is what differs between the public offer and one negotiated with a single client (§12.1.1).
type offer struct {
	centsPer100Words int            // the schedule line's per_unit, in euro cents per 100 source words
	offeredTo        map[string]any // parties.offered_to: nil for the public offer
}

// standingProposal is the office's offer for contract translation: every clause complete, the client seat blank
// (no parties.client member at all) and no start instant (starts_at null), signed by the owner's key.
func standingProposal(owner ed25519.PrivateKey, agent ed25519.PublicKey, signedAt time.Time, o offer) (map[string]any, error) {
	lang := sha256.Sum256([]byte(languageText))
	parties := map[string]any{
		"provider": map[string]any{"agent": b64(agent), "handle": "auftrag@koeln-fachuebersetzungen.example", "owner": "Kölner Fachübersetzungen GmbH"},
		"grade":    "evidence",
	}
	if o.offeredTo != nil {
		parties["offered_to"] = o.offeredTo
	}
	doc := map[string]any{
		"sow":       "v1",
		"version":   1,
		"starts_at": nil,
		"ends_at":   "2027-12-31T23:59:59Z",
		"language":  map[string]any{"id": "kfue-standard-terms", "version": 1, "sha256": hex.EncodeToString(lang[:])},
		"parties":   parties,
		"scope": map[string]any{
			"offerings": []any{"translate-contract"},
			"examples": map[string]any{
				"in_scope":     []any{"Translate our German supply agreement into English."},
				"out_of_scope": []any{"Certify the translation for a court filing."},
			},
			"grade": "enforced",
		},
		"inputs": []any{
			map[string]any{"name": "source-document", "media_type": "text/plain", "when": "per_task", "grade": "enforced"},
		},
		"deliverables": map[string]any{
			"per_task": []any{map[string]any{"name": "translation", "media_type": "text/plain"}},
			"interim":  []any{},
			"grade":    "enforced",
		},
		// Rated per 100 source words (§5.5.2 "per" is the divisor): 1200 cents per 100 words is 12 cents a word.
		"price": map[string]any{
			"arrangement": "time_and_materials",
			"currency":    "EUR",
			"schedule":    []any{map[string]any{"meter": "source_words", "per": 100, "unit": "100 source words", "per_unit": o.centsPer100Words}},
			"cap":         map[string]any{"amount": 150000},
			"reservation": map[string]any{"window_days": 30},
			"grade":       "enforced",
		},
		"volume":         map[string]any{"per_day": 40, "grade": "enforced"},
		"change_control": map[string]any{"review_window_days": 14, "approval": map[string]any{"formation": "agent", "amendment": "person"}, "grade": "enforced"},
		"termination":    map[string]any{"convenience_notice_hours": 48, "grade": "enforced"},
		"disputes":       map[string]any{"posture": "refund_on_failed_task", "grade": "evidence"},
		"confidentiality": map[string]any{
			"transport": map[string]any{"sealed": true, "grade": "enforced"},
			"retention": map[string]any{"max_days": 14, "grade": "enforced"},
			"promises":  map[string]any{"no_training": true, "no_third_party_sharing": true, "grade": "recorded"},
		},
	}
	// §4.1: minted once, over the version-1 document without id and signatures.
	idBytes, err := canonical(doc)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(idBytes)
	doc["id"] = "sow_" + crockford(sum[:])[:16]
	// §6: "agent-sow-v1", a newline, then the JCS form without signatures (id kept).
	signed, err := canonical(doc)
	if err != nil {
		return nil, err
	}
	sig := ed25519.Sign(owner, append([]byte("agent-sow-v1\n"), signed...))
	doc["signatures"] = []any{map[string]any{
		"role": "provider", "key": b64(owner.Public().(ed25519.PublicKey)),
		"signed_at": signedAt.UTC().Format(time.RFC3339), "sig": base64.StdEncoding.EncodeToString(sig),
	}}
	return doc, nil
}

// digest is the card's commitment (terms §5): SHA-256 over the JCS form of the whole document.
func digest(doc map[string]any) (string, error) {
	b, err := canonical(doc)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

func canonical(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return jcs.Transform(b)
}

// b64 is how this office writes keys: the raw 32-byte Ed25519 key, standard base64 (§6 names no encoding).
func b64(k ed25519.PublicKey) string { return base64.StdEncoding.EncodeToString(k) }

// crockford is lowercase Crockford base32, most significant bit first, unpadded (§4.1 point 2).
func crockford(b []byte) string {
	const alphabet = "0123456789abcdefghjkmnpqrstvwxyz"
	var sb strings.Builder
	var acc, bits uint
	for _, c := range b {
		acc = acc<<8 | uint(c)
		bits += 8
		for bits >= 5 {
			bits -= 5
			sb.WriteByte(alphabet[(acc>>bits)&31])
		}
	}
	if bits > 0 {
		sb.WriteByte(alphabet[(acc<<(5-bits))&31])
	}
	return sb.String()
}
