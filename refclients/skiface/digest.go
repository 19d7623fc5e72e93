package skiface

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sync"

	"github.com/gowebpki/jcs"
)

// JCS returns the RFC 8785 canonical form of one JSON value. Duplicate member names, invalid UTF-8 and numbers
// outside IEEE 754 double are refused: the document requires JCS-able input ("The embedded schema MUST satisfy
// the JCS input requirements"). The result is the caller's to keep (a copy of the cached form).
func JCS(b []byte) ([]byte, error) {
	e := canonical(b)
	if e.err != nil {
		return nil, e.err
	}
	return append([]byte(nil), e.canon...), nil
}

func digestJCS(b []byte) (string, error) {
	e := canonical(b)
	return e.digest, e.err
}

// canonEntry is the canonical form of one input, its digest, or why it has none.
type canonEntry struct {
	canon  []byte
	digest string
	err    error
	n      int // bytes held on its account: the input's and the canonical form's length
}

// The same skill-interface documents and schemas are canonicalised at every agent start, stand-in start and
// describe call; JCS is a pure function of the bytes, so its result is kept, keyed by the SHA-256 of the input
// (hashing is several times cheaper than parsing and re-serialising). Bounded by entries and bytes, oldest
// evicted first; inputs over canonMaxInput are not kept.
const (
	canonMaxEntries = 1024
	canonMaxBytes   = 16 << 20
	canonMaxInput   = 1 << 20
)

var canonCache = struct {
	mu    sync.Mutex
	m     map[[32]byte]*canonEntry
	order [][32]byte
	bytes int
}{m: map[[32]byte]*canonEntry{}}

func canonical(b []byte) *canonEntry {
	if len(b) > canonMaxInput {
		return transform(b)
	}
	k := sha256.Sum256(b)
	c := &canonCache
	c.mu.Lock()
	e := c.m[k]
	c.mu.Unlock()
	if e != nil {
		return e
	}
	e = transform(b)
	e.n = len(b) + len(e.canon)
	size := e.n
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[k]; ok {
		return e
	}
	for len(c.order) > 0 && (len(c.m)+1 > canonMaxEntries || c.bytes+size > canonMaxBytes) {
		old := c.order[0]
		c.order = c.order[1:]
		if o := c.m[old]; o != nil {
			c.bytes -= o.n
		}
		delete(c.m, old)
	}
	c.m[k] = e
	c.order = append(c.order, k)
	c.bytes += size
	return e
}

func transform(b []byte) *canonEntry {
	out, err := jcs.Transform(b)
	if err != nil {
		return &canonEntry{err: fmt.Errorf("JCS: %w", err)}
	}
	return &canonEntry{canon: out, digest: DigestBytes(out)}
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
