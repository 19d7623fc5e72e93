package verify_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/json"
	"strings"
	"testing"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/harness/verify"
)

// A2A §8.4 names no algorithm allow-list: an ES512 (or ES384) card verifies; an algorithm the harness cannot
// verify (HS256, ES256K) is StepUnsupportedAlg, which callers block on, never a signature mismatch. Before #39
// ES512 failed as a bad protected header.
func TestCardSignatureAnyJWSAlgorithm(t *testing.T) {
	card := []byte(`{"name":"x","version":"1.0.0"}`)
	for _, tc := range []struct {
		alg   string
		curve elliptic.Curve
	}{{"ES384", elliptic.P384()}, {"ES512", elliptic.P521()}} {
		k, _ := ecdsa.GenerateKey(tc.curve, rand.Reader)
		sg := &a2atest.CardSigner{Key: k, Alg: tc.alg, KID: "k-" + tc.alg}
		signed, err := sg.Sign(card, "")
		if err != nil {
			t.Fatal(err)
		}
		jwks, _ := sg.PublicJWKS()
		var keys jose.JSONWebKeySet
		_ = json.Unmarshal(jwks, &keys)
		if _, err := verify.CardSignatureAny(signed, &keys); err != nil {
			t.Errorf("%s: %v", tc.alg, err)
		}
	}
	var keys jose.JSONWebKeySet
	_ = json.Unmarshal(testpki.CardJWKS(), &keys)
	for _, hdr := range []string{`{"alg":"HS256","kid":"extconf-test-es256"}`, `{"alg":"ES256K","kid":"extconf-test-es256"}`} {
		_, err := verify.CardSignatureAny(forge(t, card, hdr, []byte("x")), &keys)
		if err == nil || !strings.HasPrefix(err.Error(), verify.StepUnsupportedAlg) {
			t.Errorf("%s: %v, want %q", hdr, err, verify.StepUnsupportedAlg)
		}
	}
}

// A2A §8.4.1 omits members "left at their default and never explicitly set": a signer that set some defaults
// explicitly (kept in the signed bytes) and left others implicit verifies although the served card spells out all
// of them. Before #39 only all-or-nothing stripping was tried.
func TestCardSignatureAnyMixedDefaults(t *testing.T) {
	var keys jose.JSONWebKeySet
	_ = json.Unmarshal(testpki.CardJWKS(), &keys)
	sg := &a2atest.CardSigner{Key: testpki.CardKeyEd25519(), Alg: "EdDSA", KID: testpki.KIDEd25519}
	// Signed with streaming: false explicit; pushNotifications and the extension's required left implicit.
	signed, err := sg.Sign([]byte(`{"name":"x","capabilities":{"streaming":false,"extensions":[{"uri":"u"}]}}`), "")
	if err != nil {
		t.Fatal(err)
	}
	served := strings.Replace(string(signed), `"streaming":false,`, `"streaming":false,"pushNotifications":false,`, 1)
	served = strings.Replace(served, `{"uri":"u"}`, `{"uri":"u","required":false}`, 1)
	if _, err := verify.CardSignatureAny([]byte(served), &keys); err != nil {
		t.Errorf("mixed explicit and implicit defaults: %v", err)
	}
	altered := strings.Replace(served, `"name":"x"`, `"name":"y"`, 1)
	if _, err := verify.CardSignatureAny([]byte(altered), &keys); err == nil {
		t.Error("an altered card verifies")
	}
}

// BenchmarkCardSignatureAnyTenDefaults: the worst case of the subset search, a card with ten default-valued
// members whose signature verifies under no subset (2^10 canonicalisations).
func BenchmarkCardSignatureAnyTenDefaults(b *testing.B) {
	var keys jose.JSONWebKeySet
	_ = json.Unmarshal(testpki.CardJWKS(), &keys)
	sg := &a2atest.CardSigner{Key: testpki.CardKeyEd25519(), Alg: "EdDSA", KID: testpki.KIDEd25519}
	signed, _ := sg.Sign([]byte(`{"name":"x"}`), "")
	card := strings.Replace(string(signed), `"name":"x"`, `"name":"y","a":false,"b":false,"c":0,"d":"","e":[],"f":false,"g":0,"h":"","i":[],"j":false`, 1)
	for i := 0; i < b.N; i++ {
		if _, err := verify.CardSignatureAny([]byte(card), &keys); err == nil {
			b.Fatal("verified")
		}
	}
}
