package evidence

import (
	"bytes"
	"crypto/sha256"
	"path/filepath"
	"sync"
)

// The lines of the transcript this process last wrote with WriteDir, by SHA-256. Every one of them is the
// canonical form (a2a's appendCanonical) of an exchange whose id was computed over that same form with the id
// blanked, so the self-check after writing (VerifyOptions.TrustWritten) need not decode, re-encode and
// canonicalise them again (85 % of the self-check): a line read back byte-identical to one written is checked
// by hashing it with its id blanked. One transcript is kept (the last), so nothing accumulates across runs.
var written struct {
	mu    sync.Mutex
	path  string
	lines map[[32]byte]bool
}

func rememberWritten(path string, transcript []byte) {
	lines := map[[32]byte]bool{}
	for line := range bytes.Lines(transcript) {
		lines[sha256.Sum256(bytes.TrimSuffix(line, []byte("\n")))] = true
	}
	abs, _ := filepath.Abs(path)
	written.mu.Lock()
	written.path, written.lines = abs, lines
	written.mu.Unlock()
}

// writtenLines returns the line digests of the transcript at path if this process wrote it last, else nil.
func writtenLines(path string) map[[32]byte]bool {
	abs, _ := filepath.Abs(path)
	written.mu.Lock()
	defer written.mu.Unlock()
	if abs != written.path {
		return nil
	}
	return written.lines
}
