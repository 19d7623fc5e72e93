package a2atest

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/asn1"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"

	jose "github.com/go-jose/go-jose/v4"
	"github.com/gowebpki/jcs"
)

// CardSigner signs Agent Cards (A2A §8.4): a detached JWS over the RFC 8785 (JCS) form of the card without its
// "signatures" member, protected header {"alg","kid","typ":"JOSE"} plus "jku" when JKU is set. The server then
// also serves the public key as a JWK Set at URL()+"/.well-known/jwks.json".
type CardSigner struct {
	Key crypto.Signer
	Alg string // "ES256" | "ES384" | "ES512" (P-256, P-384, P-521 key) | "EdDSA" (Ed25519 key)
	KID string
	JKU bool
}

// JWKSPath is where a server whose signer sets JKU serves its public card-signing key.
const JWKSPath = "/.well-known/jwks.json"

// protectedHeader is the JWS protected header, members in this order on the wire.
type protectedHeader struct {
	Alg string `json:"alg"`
	KID string `json:"kid"`
	Typ string `json:"typ"`
	JKU string `json:"jku,omitempty"`
}

// Sign returns card (a JSON object) with one more signatures[] entry: existing entries are kept, so signing twice
// with two keys yields a card with two signatures. jku, when non-empty, goes into the protected header. The other
// members keep their order and bytes; only "signatures" is rewritten (appended at the end when absent).
// Agents use it directly to build deliberately broken cards (sign, then alter the bytes).
func (cs *CardSigner) Sign(card []byte, jku string) ([]byte, error) {
	if cs == nil || cs.Key == nil {
		return nil, errors.New("card signer: no key")
	}
	members, err := parseObject(card)
	if err != nil {
		return nil, fmt.Errorf("card signer: %w", err)
	}
	payload, err := CanonicalCard(card)
	if err != nil {
		return nil, err
	}
	hdr, err := json.Marshal(protectedHeader{Alg: cs.Alg, KID: cs.KID, Typ: "JOSE", JKU: jku})
	if err != nil {
		return nil, err
	}
	b64 := base64.RawURLEncoding
	protected := b64.EncodeToString(hdr)
	sig, err := jwsSign(cs.Alg, cs.Key, []byte(protected+"."+b64.EncodeToString(payload)))
	if err != nil {
		return nil, fmt.Errorf("card signer: %w", err)
	}
	entry := mustJSON(struct {
		Protected string `json:"protected"`
		Signature string `json:"signature"`
	}{protected, b64.EncodeToString(sig)})

	var sigs []json.RawMessage
	idx := -1
	for i, m := range members {
		if m.Key == "signatures" {
			idx = i
			_ = json.Unmarshal(m.Value, &sigs) // a non-array "signatures" is replaced
		}
	}
	value := mustJSON(append(sigs, entry))
	if idx >= 0 {
		members[idx].Value = value
	} else {
		members = append(members, member{Key: "signatures", Value: value})
	}
	return emitObject(members), nil
}

// PublicJWKS returns the JWK Set holding the signer's public key (kid, alg, use "sig").
func (cs *CardSigner) PublicJWKS() ([]byte, error) {
	k := jose.JSONWebKey{Key: cs.Key.Public(), KeyID: cs.KID, Algorithm: cs.Alg, Use: "sig"}
	return marshal(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{k}})
}

// CanonicalCard returns the A2A §8.4 signing payload of a card: its JCS form with the top-level "signatures"
// member removed.
func CanonicalCard(card []byte) ([]byte, error) {
	members, err := parseObject(card)
	if err != nil {
		return nil, err
	}
	kept := members[:0:0]
	for _, m := range members {
		if m.Key != "signatures" {
			kept = append(kept, m)
		}
	}
	out, err := jcs.Transform(emitObject(kept))
	if err != nil {
		return nil, fmt.Errorf("jcs: %w", err)
	}
	return out, nil
}

func jwsSign(alg string, key crypto.Signer, input []byte) ([]byte, error) {
	switch alg {
	case "ES256", "ES384", "ES512":
		curve, hash, size := elliptic.P256(), crypto.SHA256, 32
		switch alg {
		case "ES384":
			curve, hash, size = elliptic.P384(), crypto.SHA384, 48
		case "ES512":
			curve, hash, size = elliptic.P521(), crypto.SHA512, 66
		}
		pub, ok := key.Public().(*ecdsa.PublicKey)
		if !ok || pub.Curve != curve {
			return nil, fmt.Errorf("%s needs a %s key, have %T", alg, curve.Params().Name, key.Public())
		}
		h := hash.New()
		h.Write(input)
		der, err := key.Sign(rand.Reader, h.Sum(nil), hash)
		if err != nil {
			return nil, err
		}
		var rs struct{ R, S *big.Int }
		if rest, err := asn1.Unmarshal(der, &rs); err != nil || len(rest) != 0 {
			return nil, errors.New(alg + ": signer returned a malformed signature")
		}
		out := make([]byte, 2*size) // JWS wants R || S, each left-padded to the curve size (RFC 7518 §3.4)
		rs.R.FillBytes(out[:size])
		rs.S.FillBytes(out[size:])
		return out, nil
	case "EdDSA":
		if _, ok := key.Public().(ed25519.PublicKey); !ok {
			return nil, fmt.Errorf("EdDSA needs an Ed25519 key, have %T", key.Public())
		}
		return key.Sign(rand.Reader, input, crypto.Hash(0))
	}
	return nil, fmt.Errorf("unsupported alg %q (ES256, ES384, ES512 or EdDSA)", alg)
}

// member is one top-level member of a JSON object, value bytes as found.
type member struct {
	Key   string
	Value json.RawMessage
}

// parseObject splits a JSON object into its members, in order.
func parseObject(b []byte) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	var out []member
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, ok := kt.(string)
		if !ok {
			return nil, errors.New("malformed object")
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, member{Key: key, Value: v})
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("trailing data after the object")
	}
	return out, nil
}

func emitObject(ms []member) []byte {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, m := range ms {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, _ := marshal(m.Key)
		buf.Write(k)
		buf.WriteByte(':')
		buf.Write(m.Value)
	}
	buf.WriteByte('}')
	return buf.Bytes()
}
