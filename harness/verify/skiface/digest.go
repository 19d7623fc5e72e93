package skiface

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/gowebpki/jcs"
)

// JCS returns the RFC 8785 canonical form of one JSON value. Duplicate member names, invalid UTF-8 and numbers
// outside IEEE 754 double are refused: the document requires JCS-able input ("The embedded schema MUST satisfy
// the JCS input requirements").
func JCS(b []byte) ([]byte, error) {
	out, err := jcs.Transform(b)
	if err != nil {
		return nil, fmt.Errorf("JCS: %w", err)
	}
	return out, nil
}

func digestJCS(b []byte) (string, error) {
	c, err := JCS(b)
	if err != nil {
		return "", err
	}
	return DigestBytes(c), nil
}

// DigestBytes is "sha256:" + the lowercase hex SHA-256 of b, the only digest form of version 1.0.
func DigestBytes(b []byte) string {
	s := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(s[:])
}

// SchemaDigest is a Schema Reference digest: SHA-256 over the UTF-8 JCS form of the resolution.schema value.
func SchemaDigest(schema []byte) (string, error) { return digestJCS(schema) }

// InterfaceDigest is the Skill Interface Document Digest: SHA-256 over the UTF-8 JCS form of the whole document.
func InterfaceDigest(doc []byte) (string, error) { return digestJCS(doc) }

// IsDigest reports whether s has the only form version 1.0 allows: sha256: and 64 lowercase hex digits.
func IsDigest(s string) bool {
	if len(s) != len("sha256:")+64 || s[:7] != "sha256:" {
		return false
	}
	for _, c := range s[7:] {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}
