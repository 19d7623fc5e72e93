package verify_test

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"strings"
	"testing"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/harness/verify"
)

// A2A §8.4.3: a card signed by a retired key (no longer trusted) and by the current one is authentic; and a
// card whose signer omitted default-valued members verifies although the served card spells them out. Both were
// refused before #17 (every signature had to verify, over the card as served only).
func TestCardSignatureAnyRotationAndDefaults(t *testing.T) {
	var keys jose.JSONWebKeySet
	if err := json.Unmarshal(testpki.CardJWKS(), &keys); err != nil {
		t.Fatal(err)
	}
	_, retiredKey, _ := ed25519.GenerateKey(rand.Reader)
	retired := &a2atest.CardSigner{Key: retiredKey, Alg: "EdDSA", KID: "retired"}
	current := &a2atest.CardSigner{Key: testpki.CardKeyEd25519(), Alg: "EdDSA", KID: testpki.KIDEd25519}
	card := []byte(`{"name":"x","version":"1.0.0","capabilities":{"extensions":[{"uri":"u"}]}}`)
	two, err := retired.Sign(card, "")
	if err != nil {
		t.Fatal(err)
	}
	if two, err = current.Sign(two, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := verify.CardSignature(two, &keys); err == nil {
		t.Fatal("CardSignature now accepts an unverifiable entry: this test no longer shows the difference")
	}
	if _, err := verify.CardSignatureAny(two, &keys); err != nil {
		t.Errorf("rotation: %v", err)
	}
	signed, err := current.Sign(card, "")
	if err != nil {
		t.Fatal(err)
	}
	withDefaults := strings.Replace(string(signed), `{"uri":"u"}`, `{"uri":"u","required":false}`, 1)
	if _, err := verify.CardSignatureAny([]byte(withDefaults), &keys); err != nil {
		t.Errorf("explicit default: %v", err)
	}
	altered := strings.Replace(string(signed), `"name":"x"`, `"name":"y"`, 1)
	if _, err := verify.CardSignatureAny([]byte(altered), &keys); err == nil {
		t.Error("an altered card verifies")
	}
	unsigned, _ := retired.Sign(card, "")
	if _, err := verify.CardSignatureAny(unsigned, &keys); err == nil {
		t.Error("a card signed only by an untrusted key verifies")
	}
}
