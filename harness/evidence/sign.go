package evidence

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/go-jose/go-jose/v4"
	"github.com/gowebpki/jcs"
)

// Signing algorithms a bundle may be signed with.
const (
	AlgEdDSA = "EdDSA"
	AlgES256 = "ES256"
)

// JWSType is the "typ" header of a bundle signature.
const JWSType = "extconf-evidence+jws"

// TestKeyThumbprints are the RFC 7638 thumbprints of the committed TEST-ONLY signing keys
// (fixtures/evidencekeys). Their private halves are public, so a signature by one of them says nothing about who
// ran the harness: verify and the renderers say so.
var TestKeyThumbprints = map[string]string{
	"KeZkuhEOUUuMyvw_aK_O_Z1hHNnueQlTRIaBwMQqj9Y": "fixtures/evidencekeys/test-signing.jwk.json",
}

var sigAlgs = []jose.SignatureAlgorithm{jose.EdDSA, jose.ES256}

// GenerateKey makes a fresh private signing key (EdDSA over Ed25519, or ES256 over P-256) as a JWK whose kid is
// its RFC 7638 thumbprint.
func GenerateKey(alg string) (*jose.JSONWebKey, error) {
	var priv any
	switch alg {
	case AlgEdDSA, "":
		_, k, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			return nil, err
		}
		priv, alg = k, AlgEdDSA
	case AlgES256:
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return nil, err
		}
		priv = k
	default:
		return nil, fmt.Errorf("signing algorithm %q: want %s or %s", alg, AlgEdDSA, AlgES256)
	}
	k := &jose.JSONWebKey{Key: priv, Algorithm: alg, Use: "sig"}
	tp, err := Thumbprint(k)
	if err != nil {
		return nil, err
	}
	k.KeyID = tp
	return k, nil
}

// Thumbprint is the RFC 7638 SHA-256 thumbprint of a key's public half, base64url without padding.
func Thumbprint(k *jose.JSONWebKey) (string, error) {
	pub := k.Public()
	raw, err := pub.Thumbprint(crypto.SHA256)
	if err != nil {
		return "", fmt.Errorf("thumbprint: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(raw), nil
}

// keyAlg is the one JWS algorithm a key may sign with.
func keyAlg(k *jose.JSONWebKey) (string, error) {
	switch key := k.Key.(type) {
	case ed25519.PrivateKey, ed25519.PublicKey:
		return AlgEdDSA, nil
	case *ecdsa.PrivateKey:
		if key.Curve == elliptic.P256() {
			return AlgES256, nil
		}
	case *ecdsa.PublicKey:
		if key.Curve == elliptic.P256() {
			return AlgES256, nil
		}
	}
	return "", fmt.Errorf("unsupported key type %T: want an Ed25519 (EdDSA) or P-256 (ES256) key", k.Key)
}

// ReadPrivateKey reads a private JWK (Ed25519 or P-256) from a file.
func ReadPrivateKey(path string) (*jose.JSONWebKey, error) {
	k, err := readJWK(path)
	if err != nil {
		return nil, err
	}
	if k.IsPublic() {
		return nil, fmt.Errorf("%s holds a public key; signing needs the private JWK", path)
	}
	if _, err := keyAlg(k); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return k, nil
}

// ReadPublicKey reads a JWK from a file and returns its public half (a private JWK is accepted: only its public
// half is used).
func ReadPublicKey(path string) (*jose.JSONWebKey, error) {
	k, err := readJWK(path)
	if err != nil {
		return nil, err
	}
	if _, err := keyAlg(k); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	pub := k.Public()
	return &pub, nil
}

// readJWK reads one JWK, public or private, from a file.
func readJWK(path string) (*jose.JSONWebKey, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var k jose.JSONWebKey
	if err := k.UnmarshalJSON(raw); err != nil {
		return nil, fmt.Errorf("%s: not a JWK: %w", path, err)
	}
	return &k, nil
}

// PublicJWK is the JSON of a key's public half (kid = thumbprint, alg and use set).
func PublicJWK(k *jose.JSONWebKey) (json.RawMessage, error) {
	pub := k.Public()
	if !pub.Valid() {
		return nil, errors.New("key has no valid public half")
	}
	alg, err := keyAlg(&pub)
	if err != nil {
		return nil, err
	}
	tp, err := Thumbprint(&pub)
	if err != nil {
		return nil, err
	}
	out := jose.JSONWebKey{Key: pub.Key, KeyID: tp, Algorithm: alg, Use: "sig"}
	raw, err := out.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return jcs.Transform(raw)
}

// parseEmbeddedJWK reads the public key a bundle carries. The bundle is untrusted input: a JWK with private
// members or of another key type is refused before go-jose sees it.
func parseEmbeddedJWK(raw json.RawMessage) (*jose.JSONWebKey, error) {
	var members map[string]any
	if err := json.Unmarshal(raw, &members); err != nil {
		return nil, fmt.Errorf("signature.jwk is not a JSON object: %w", err)
	}
	for _, priv := range []string{"d", "p", "q", "dp", "dq", "qi", "k"} {
		if _, ok := members[priv]; ok {
			return nil, fmt.Errorf("signature.jwk carries private member %q: a bundle must never hold a private key", priv)
		}
	}
	if kty, _ := members["kty"].(string); kty != "OKP" && kty != "EC" {
		return nil, fmt.Errorf("signature.jwk: kty %q, want OKP (Ed25519) or EC (P-256)", kty)
	}
	var k jose.JSONWebKey
	if err := k.UnmarshalJSON(raw); err != nil {
		return nil, fmt.Errorf("signature.jwk: %w", err)
	}
	if !k.IsPublic() {
		return nil, errors.New("signature.jwk is not a public key")
	}
	if _, err := keyAlg(&k); err != nil {
		return nil, fmt.Errorf("signature.jwk: %w", err)
	}
	return &k, nil
}

// Sign signs the bundle with a private JWK: a JWS (compact serialization, payload attached) over the JCS form of
// the bundle without its signature member. The payload is attached so that a verifier can name, member by
// member, what changed after signing. Kind becomes "evidence" only for a third-party run; any other signed bundle
// stays a claim. The public key and its RFC 7638 thumbprint go into the signature member, so verification needs
// no network.
func Sign(b *Bundle, key *jose.JSONWebKey) error {
	if key == nil || key.IsPublic() {
		return errors.New("signing needs a private key")
	}
	alg, err := keyAlg(key)
	if err != nil {
		return err
	}
	tp, err := Thumbprint(key)
	if err != nil {
		return err
	}
	pub, err := PublicJWK(key)
	if err != nil {
		return err
	}
	b.Kind = "claim"
	if b.Runner.Tier == "third-party" {
		b.Kind = "evidence"
	}
	payload, err := b.Canonical()
	if err != nil {
		return err
	}
	opts := (&jose.SignerOptions{}).WithType(JWSType).WithContentType("application/json").WithHeader("kid", tp)
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.SignatureAlgorithm(alg), Key: key.Key}, opts)
	if err != nil {
		return err
	}
	obj, err := signer.Sign(payload)
	if err != nil {
		return err
	}
	compact, err := obj.CompactSerialize()
	if err != nil {
		return err
	}
	b.Signature = &Signature{JWS: compact, Thumbprint: tp, Alg: alg, JWK: pub}
	return nil
}

// SignatureCheck is the outcome of checking a bundle's signature.
type SignatureCheck struct {
	Signed     bool
	Valid      bool   // the JWS verifies and its payload is the bundle as it stands
	KeySource  string // "--key" or "embedded"
	Thumbprint string // of the key the signature was checked with
	Alg        string
	TestKey    string // non-empty: the key is a committed TEST-ONLY key (this names its file)
	Problems   []string
}

// CheckSignature verifies a bundle's signature against pinned (when non-nil) or the public key embedded in the
// bundle. raw is the bundle file as read: the signed payload is compared with the JCS form of the file's own
// members (without signature), so nothing a Go struct drops can slip past. When the payload differs, the
// problems name each changed member with its signed and current value.
func CheckSignature(raw []byte, sig *Signature, pinned *jose.JSONWebKey) SignatureCheck {
	c := SignatureCheck{KeySource: "embedded"}
	add := func(format string, a ...any) { c.Problems = append(c.Problems, fmt.Sprintf(format, a...)) }
	if sig == nil {
		return c
	}
	c.Signed = true
	obj, err := jose.ParseSignedCompact(sig.JWS, sigAlgs)
	if err != nil {
		add("signature.jws is not a compact JWS signed with EdDSA or ES256: %v", err)
		return c
	}
	if len(obj.Signatures) != 1 {
		add("signature.jws carries %d signatures, want 1", len(obj.Signatures))
		return c
	}
	hdr := obj.Signatures[0].Protected
	c.Alg = hdr.Algorithm
	if sig.Alg != "" && sig.Alg != hdr.Algorithm {
		add("signature.alg says %s but the JWS header says %s", sig.Alg, hdr.Algorithm)
	}
	var embedded *jose.JSONWebKey
	if len(sig.JWK) > 0 {
		if embedded, err = parseEmbeddedJWK(sig.JWK); err != nil {
			add("%v", err)
		}
	}
	if embedded != nil {
		tp, err := Thumbprint(embedded)
		if err != nil {
			add("%v", err)
		} else if tp != sig.Thumbprint {
			add("signature.thumbprint %s is not the thumbprint of signature.jwk (%s)", sig.Thumbprint, tp)
		}
	}
	key := embedded
	if pinned != nil {
		c.KeySource = "--key"
		key = pinned
	}
	if key == nil {
		add("no key to check the signature with: the bundle embeds none and no --key was given")
		return c
	}
	tp, err := Thumbprint(key)
	if err != nil {
		add("%v", err)
		return c
	}
	c.Thumbprint = tp
	c.TestKey = TestKeyThumbprints[tp]
	if pinned != nil && sig.Thumbprint != "" && sig.Thumbprint != tp {
		add("signed by key %s, but --key is %s (a different signer)", sig.Thumbprint, tp)
	}
	if hdr.KeyID != "" && hdr.KeyID != tp {
		add("the JWS header names key %s, but it is checked with %s key %s", hdr.KeyID, c.KeySource, tp)
	}
	if alg, err := keyAlg(key); err == nil && alg != hdr.Algorithm {
		add("the JWS is %s but the %s key is for %s", hdr.Algorithm, c.KeySource, alg)
		return c
	}
	payload, err := obj.Verify(key.Key)
	if err != nil {
		add("the JWS does not verify with the %s key %s: %v", c.KeySource, tp, err)
		return c
	}
	current, err := canonicalWithoutSignature(raw)
	if err != nil {
		add("%v", err)
		return c
	}
	if !bytes.Equal(payload, current) {
		diffs := DiffJSON(payload, current, 12)
		if len(diffs) == 0 {
			diffs = []string{"(the canonical forms differ but no member differs: the file is not JCS-equivalent)"}
		}
		for _, d := range diffs {
			add("changed after signing: %s", d)
		}
		return c
	}
	c.Valid = len(c.Problems) == 0
	return c
}

// canonicalWithoutSignature is the JCS form of a bundle file's members, signature removed.
func canonicalWithoutSignature(raw []byte) ([]byte, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("bundle is not a JSON object: %w", err)
	}
	delete(m, "signature")
	out, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	return jcs.Transform(out)
}
