package terms

import (
	"crypto/ed25519"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"testing"

	"github.com/extconf/extconf/fixtures/sow"
	"github.com/extconf/extconf/fixtures/sow/sowdoc"
)

// The independent terms agent (examples/agents/terms) writes its provider key as the bare 32-byte Ed25519 key in
// standard base64: Agent SoW §6 writes "<owner public key>" and names no encoding, so the plainest spellings of the
// key itself verify, and one that does not verify blocks (it may be another 32-byte key type), never fails.
func TestBareKeyVerifies(t *testing.T) {
	key := sow.ProviderKey()
	pub := key.Public().(ed25519.PublicKey)
	msg, err := sowdoc.SignedBytes([]byte(specShapeDoc))
	if err != nil {
		t.Fatal(err)
	}
	sig := base64.StdEncoding.EncodeToString(ed25519.Sign(key, msg))
	record := func(k string, sig string) []byte {
		doc, err := sowdoc.AddRecord([]byte(specShapeDoc), sowdoc.Record{Role: "provider", Key: k, SignedAt: "2026-08-04T14:02:11Z", Sig: sig})
		if err != nil {
			t.Fatal(err)
		}
		return doc
	}
	for name, k := range map[string]string{
		"base64":          base64.StdEncoding.EncodeToString(pub),
		"base64 unpadded": base64.RawStdEncoding.EncodeToString(pub),
		"base64url":       base64.RawURLEncoding.EncodeToString(pub),
		"hex":             hex.EncodeToString(pub),
		"prefixed":        "ed25519:" + base64.StdEncoding.EncodeToString(pub),
	} {
		if err := VerifyProviderSignature(record(k, sig)); err != nil {
			t.Errorf("%s key %q: %v", name, k, err)
		}
	}
	other, _, _ := ed25519.GenerateKey(nil)
	err = VerifyProviderSignature(record(base64.StdEncoding.EncodeToString(other), sig))
	if !errors.Is(err, ErrKeyUnsupported) || !errors.Is(err, ErrSignatureInvalid) {
		t.Errorf("a bare key that does not verify: %v (want ErrKeyUnsupported: blocked for the publisher, failing for the consumer)", err)
	}
	// An nkey whose signature does not verify is still invalid: its spelling names the type.
	err = VerifyProviderSignature(record(sow.ProviderPublicKeyNkey(), base64.StdEncoding.EncodeToString(make([]byte, 64))))
	if !errors.Is(err, ErrSignatureInvalid) || errors.Is(err, ErrKeyUnsupported) {
		t.Errorf("an nkey with a bad signature: %v (want invalid)", err)
	}
}
