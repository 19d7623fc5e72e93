package verify

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/gowebpki/jcs"
)

// DecodeJSONDoc decodes one JSON value keeping numbers as written, so canonicalization sees the declared bytes.
func DecodeJSONDoc(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("trailing data after the JSON value")
	}
	return v, nil
}

// CanonicalValue is the JCS (RFC 8785) form of a decoded value.
func CanonicalValue(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return jcs.Transform(b)
}

// CanonicalJSON is the JCS form of raw JSON bytes (nil and error when they are not JSON).
func CanonicalJSON(raw []byte) ([]byte, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, errors.New("empty")
	}
	return jcs.Transform(raw)
}

// JCSDigest is "sha256:" + the lowercase hex SHA-256 of the JCS (RFC 8785) form of raw JSON bytes, the digest
// form the terms and schema-interface documents share. The error is "JCS: " + why the bytes have no JCS form.
func JCSDigest(raw []byte) (string, error) {
	c, err := jcs.Transform(raw)
	if err != nil {
		return "", fmt.Errorf("JCS: %w", err)
	}
	return Digest(c), nil
}

// Digest is "sha256:" + the lowercase hex SHA-256 of b.
func Digest(b []byte) string {
	s := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(s[:])
}
