package agentcards

import (
	"bytes"
	"crypto/rand"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"net/url"
	"strings"
)

// encodings the identifier detector looks through (RFC 0202 §B.2: R must not encode a tenant, workspace or
// principal). An encrypted or hashed encoding is indistinguishable from an opaque value, so these are the
// reversible ones an outside party can see.
const encodingsChecked = "literal (case-folded), percent-encoded, base64/base64url, base32, hex"

// maxR bounds the routing values the detector and the never-minted generator look at (the schema allows 128).
const maxR = 256

// encodes reports whether r carries id literally or in a reversible encoding, and how.
func encodes(r, id string) (bool, string) {
	if len(id) < 3 {
		return false, "" // too short to tell from chance
	}
	if len(r) > maxR {
		r = r[:maxR] // a2aTenant is at most 128 characters; a hostile value must not cost quadratic time
	}
	lid := []byte(strings.ToLower(id))
	has := func(b []byte) bool { return bytes.Contains(bytes.ToLower(b), lid) }
	if has([]byte(r)) {
		return true, "literally"
	}
	if u, err := url.PathUnescape(r); err == nil && u != r && has([]byte(u)) {
		return true, "percent-encoded"
	}
	// Every start offset: an encoded identifier may sit after a prefix, and base64 only decodes aligned.
	for i := range len(r) {
		if d := decodeRun(r[i:], isB64URL, func(s string) ([]byte, error) {
			return base64.RawURLEncoding.DecodeString(s[:len(s)-len(s)%4+b64Tail(len(s)%4)])
		}); has(d) {
			return true, "base64url-encoded"
		}
		if d := decodeRun(r[i:], isB32, func(s string) ([]byte, error) {
			return base32.StdEncoding.WithPadding(base32.NoPadding).DecodeString(s[:len(s)-len(s)%8+b32Tail(len(s)%8)])
		}); has(d) {
			return true, "base32-encoded"
		}
		if d := decodeRun(r[i:], isHex, func(s string) ([]byte, error) {
			return hex.DecodeString(s[:len(s)-len(s)%2])
		}); has(d) {
			return true, "hex-encoded"
		}
	}
	return false, ""
}

// b64Tail keeps a trailing partial quantum that still decodes (2 or 3 characters), drops a lone one.
func b64Tail(rem int) int {
	if rem >= 2 {
		return rem
	}
	return 0
}

// b32Tail keeps the trailing partial quanta base32 can decode without padding (2, 4, 5 or 7 characters).
func b32Tail(rem int) int {
	switch rem {
	case 2, 4, 5, 7:
		return rem
	case 3:
		return 2
	case 6:
		return 5
	}
	return 0
}

func decodeRun(s string, in func(byte) bool, dec func(string) ([]byte, error)) []byte {
	n := 0
	for n < len(s) && in(s[n]) {
		n++
	}
	if n < 2 {
		return nil
	}
	b, err := dec(s[:n]) // the decoders are lenient about tail bits; dec trims to a decodable length
	if err != nil {
		return nil
	}
	return b
}

func isB64URL(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}
func isB32(c byte) bool { return c >= 'A' && c <= 'Z' || c >= '2' && c <= '7' }
func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// plantedForms are the encodings of id the detector must find: its positive control.
func plantedForms(id string) []string {
	b := []byte(id)
	return []string{
		"ag-" + id + "-x1",
		"ag-" + strings.ToUpper(id) + "-x1",
		"ag-" + url.PathEscape(id) + "~x1",
		"ag-" + base64.RawURLEncoding.EncodeToString(b) + ".k3Zq",
		"Zx" + base64.RawURLEncoding.EncodeToString(b),
		"ag-" + strings.TrimRight(base32.StdEncoding.EncodeToString(b), "=") + "-q",
		"ag-" + hex.EncodeToString(b) + "-z9",
	}
}

// neverMinted returns a routing value the host cannot have minted, shaped like the ones it did: the same length,
// the common prefix of the known values kept, every other character replaced by a random one of its class
// (separators kept), inside the a2aTenant pattern. A malformed value would let a host refuse it early, for a
// reason that has nothing to do with §D.7.
func neverMinted(known []string) string {
	tpl := known[0]
	if len(tpl) > 128 {
		tpl = tpl[:128] // the a2aTenant schema's maxLength
	}
	prefix := tpl
	for _, k := range known[1:] {
		i := 0
		for i < len(prefix) && i < len(k) && prefix[i] == k[i] {
			i++
		}
		prefix = prefix[:i]
	}
	if len(known) == 1 {
		prefix = ""
		if i := strings.IndexAny(tpl, "._~-"); i >= 0 && i < 8 {
			prefix = tpl[:i+1]
		}
	}
	if keep := len(tpl) - max(4, len(tpl)/2); len(prefix) > keep {
		prefix = tpl[:max(keep, 0)]
	}
	for range 16 {
		var b strings.Builder
		b.WriteString(prefix)
		for i := len(prefix); i < len(tpl); i++ {
			c := tpl[i]
			switch {
			case c >= 'a' && c <= 'z':
				b.WriteByte(pick("abcdefghijklmnopqrstuvwxyz"))
			case c >= 'A' && c <= 'Z':
				b.WriteByte(pick("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
			case c >= '0' && c <= '9':
				b.WriteByte(pick("0123456789"))
			case strings.IndexByte("._~-", c) >= 0:
				b.WriteByte(c)
			default: // outside the pattern: replace by a letter
				b.WriteByte(pick("abcdefghijklmnopqrstuvwxyz"))
			}
		}
		v := b.String()
		if !contains(known, v) {
			return v
		}
	}
	return prefix + "extconf-never-minted"
}

func pick(alphabet string) byte {
	n, err := rand.Int(rand.Reader, big.NewInt(int64(len(alphabet))))
	if err != nil {
		return alphabet[0]
	}
	return alphabet[n.Int64()]
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// jsonStrings returns every string value (and member name) of a JSON document, unescaped.
func jsonStrings(raw []byte) []string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return nil
	}
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch t := v.(type) {
		case string:
			out = append(out, t)
		case []any:
			for _, x := range t {
				walk(x)
			}
		case map[string]any:
			for k, x := range t {
				out = append(out, k)
				walk(x)
			}
		}
	}
	walk(v)
	return out
}

// findCanary reports where in a card document canary occurs: in its raw bytes, in an unescaped string value or
// member name, percent-decoded, or inside a base64 / base64url encoded value.
func findCanary(raw []byte, canary string) (bool, string) {
	if canary == "" {
		return false, ""
	}
	if bytes.Contains(raw, []byte(canary)) {
		return true, "in the raw bytes"
	}
	for _, s := range jsonStrings(raw) {
		if strings.Contains(s, canary) {
			return true, fmt.Sprintf("in the string value %q", clip(s, 120))
		}
		if u, err := url.QueryUnescape(s); err == nil && strings.Contains(u, canary) {
			return true, fmt.Sprintf("percent-encoded in %q", clip(s, 120))
		}
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
			if d, err := enc.DecodeString(s); err == nil && bytes.Contains(d, []byte(canary)) {
				return true, fmt.Sprintf("base64-encoded in %q", clip(s, 120))
			}
		}
	}
	return false, ""
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
