package main

import (
	"crypto/ecdsa"
	"encoding/json"
	"strings"

	"github.com/go-jose/go-jose/v4"
	"github.com/gowebpki/jcs"
)

const keyID = "library-test-1"

// signedCard returns the served card bytes, the same card decoded (what interview answers project), and the JWK Set
// of the signing key. The signature is a detached JWS over the JCS form of the card without signatures (A2A §8.4).
func signedCard(base string, key *ecdsa.PrivateKey) ([]byte, map[string]any, []byte, error) {
	unsigned, err := json.Marshal(baseCard(base))
	if err != nil {
		return nil, nil, nil, err
	}
	canonical, err := jcs.Transform(unsigned)
	if err != nil {
		return nil, nil, nil, err
	}
	opts := (&jose.SignerOptions{}).WithType("JOSE").WithHeader("jku", base+"/.well-known/jwks.json")
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.ES256, Key: jose.JSONWebKey{Key: key, KeyID: keyID}}, opts)
	if err != nil {
		return nil, nil, nil, err
	}
	obj, err := signer.Sign(canonical)
	if err != nil {
		return nil, nil, nil, err
	}
	compact, err := obj.DetachedCompactSerialize()
	if err != nil {
		return nil, nil, nil, err
	}
	parts := strings.Split(compact, ".")
	var card map[string]any
	if err := json.Unmarshal(unsigned, &card); err != nil {
		return nil, nil, nil, err
	}
	card["signatures"] = []any{map[string]any{"protected": parts[0], "signature": parts[2]}}
	served, err := json.Marshal(card)
	if err != nil {
		return nil, nil, nil, err
	}
	var decoded map[string]any
	if err := json.Unmarshal(served, &decoded); err != nil {
		return nil, nil, nil, err
	}
	jwks, err := json.Marshal(jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: &key.PublicKey, KeyID: keyID, Algorithm: "ES256", Use: "sig"}}})
	return served, decoded, jwks, err
}
