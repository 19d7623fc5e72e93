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
	"sync"
)

// encodings the identifier detector looks through (RFC 0202 §B.2: R must not encode a tenant, workspace or
// principal). An encrypted or hashed encoding is indistinguishable from an opaque value, so these are the
// reversible ones an outside party can see: every family below, alone and composed with one other.
const encodingsChecked = "literal (case-folded), percent-encoded, reversed, ROT13, Atbash, base64/base64url (any offset), " +
	"base32 (case-folded, any offset), hex (case-folded), and every composition of two of these (e.g. reversed base32, base64 of ROT13)"

// maxR bounds the routing values the detector and the never-minted generator look at (the schema allows 128).
const maxR = 256

// encodes reports whether r carries id literally or in a reversible encoding (one family, or two composed), and
// how. The substitutions and compositions count only for identifiers of minSubstituted characters or more, where a
// chance match in an opaque value is rare enough not to fail a host for it.
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
	for _, c := range allDecodings(r) {
		if (c.depth == 1 && c.base || len(id) >= minSubstituted) && bytes.Contains(c.b, lid) {
			return true, c.how
		}
	}
	return false, ""
}

// minSubstituted is the shortest identifier looked for through a substitution (reversal, ROT13, Atbash) or a
// composition of two families: for shorter ones a chance match in an opaque value is too likely (about 1 in 4000
// for 4 letters), so such a match is reported by encodesWeakly, for the row to block on, never to fail.
const minSubstituted = 6

// encodesWeakly returns how r carries id through a substitution or composition when id is too short for encodes
// to count it (4 or 5 characters): "" when it does not.
func encodesWeakly(r, id string) string {
	if len(id) < 4 || len(id) >= minSubstituted {
		return ""
	}
	if len(r) > maxR {
		r = r[:maxR]
	}
	lid := []byte(strings.ToLower(id))
	for _, c := range allDecodings(r) {
		if bytes.Contains(c.b, lid) {
			return c.how
		}
	}
	return ""
}

// decoded caches every decoding of the routing values seen (one value is checked against many identifiers).
var decoded = struct {
	sync.Mutex
	m map[string][]candidate
}{m: map[string][]candidate{}}

// allDecodings returns r decoded by each family and by each composition of two, lower-cased for the comparison.
func allDecodings(r string) []candidate {
	decoded.Lock()
	if cs, ok := decoded.m[r]; ok {
		decoded.Unlock()
		return cs
	}
	decoded.Unlock()
	first := decodings(candidate{b: []byte(r)})
	out := append([]candidate(nil), first...)
	for _, c := range first {
		if len(c.b) >= 4 {
			out = append(out, decodings(c)...)
		}
	}
	for i := range out {
		out[i].b = bytes.ToLower(out[i].b)
	}
	decoded.Lock()
	if len(decoded.m) > 1024 {
		decoded.m = map[string][]candidate{}
	}
	decoded.m[r] = out
	decoded.Unlock()
	return out
}

// candidate is a decoding of r and the steps that made it ("base32-decoded, then reversed").
type candidate struct {
	b     []byte
	how   string
	depth int  // families applied
	base  bool // the last family is a base decoder (base64, base32, hex)
}

func (c candidate) then(b []byte, step string) candidate {
	how := step
	if c.how != "" {
		how = c.how + ", then " + step
	}
	return candidate{b: b, how: how, depth: c.depth + 1, base: strings.HasPrefix(step, "base") || strings.HasPrefix(step, "hex")}
}

// decodings applies each family once to c: the substitutions to the whole value, the base decoders to every
// maximal run of their alphabet at each alignment (an encoded identifier may sit after a prefix).
func decodings(c candidate) []candidate {
	s := c.b
	out := []candidate{c.then(reversed(s), "reversed"), c.then(rot13(s), "ROT13"), c.then(atbash(s), "Atbash")}
	if u, err := url.PathUnescape(string(s)); err == nil && u != string(s) {
		out = append(out, c.then([]byte(u), "percent-decoded"))
	}
	for _, run := range runs(s, isB64URL) {
		for k := 0; k < 4 && k < len(run); k++ {
			x := run[k:]
			if b, err := base64.RawURLEncoding.DecodeString(string(x[:len(x)-len(x)%4+b64Tail(len(x)%4)])); err == nil {
				out = append(out, c.then(b, "base64url-decoded"))
			}
		}
	}
	for _, run := range runs(s, isB64Std) {
		if !bytes.ContainsAny(run, "+/") { // the same bytes as a base64url run
			continue
		}
		for k := 0; k < 4 && k < len(run); k++ {
			x := bytes.TrimRight(run[k:], "=")
			if b, err := base64.RawStdEncoding.DecodeString(string(x[:len(x)-len(x)%4+b64Tail(len(x)%4)])); err == nil {
				out = append(out, c.then(b, "base64-decoded"))
			}
		}
	}
	for _, run := range runs(s, isB32Folded) {
		for k := 0; k < 8 && k < len(run); k++ {
			x := bytes.ToUpper(run[k:])
			if b, err := base32.StdEncoding.WithPadding(base32.NoPadding).DecodeString(string(x[:len(x)-len(x)%8+b32Tail(len(x)%8)])); err == nil {
				out = append(out, c.then(b, "base32-decoded"))
			}
		}
	}
	for _, run := range runs(s, isHex) {
		for k := 0; k < 2 && k < len(run); k++ {
			x := run[k:]
			if b, err := hex.DecodeString(string(x[:len(x)-len(x)%2])); err == nil {
				out = append(out, c.then(b, "hex-decoded"))
			}
		}
	}
	return out
}

// runs returns the maximal runs of at least 2 bytes of s in the alphabet.
func runs(s []byte, in func(byte) bool) [][]byte {
	var out [][]byte
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && in(s[j]) {
			j++
		}
		if j-i >= 2 {
			out = append(out, s[i:j])
		}
		i = max(j, i+1)
	}
	return out
}

func reversed(s []byte) []byte {
	out := make([]byte, len(s))
	for i, c := range s {
		out[len(s)-1-i] = c
	}
	return out
}

func rot13(s []byte) []byte {
	out := make([]byte, len(s))
	for i, c := range s {
		switch {
		case c >= 'a' && c <= 'z':
			c = 'a' + (c-'a'+13)%26
		case c >= 'A' && c <= 'Z':
			c = 'A' + (c-'A'+13)%26
		}
		out[i] = c
	}
	return out
}

func atbash(s []byte) []byte {
	out := make([]byte, len(s))
	for i, c := range s {
		switch {
		case c >= 'a' && c <= 'z':
			c = 'z' - (c - 'a')
		case c >= 'A' && c <= 'Z':
			c = 'Z' - (c - 'A')
		}
		out[i] = c
	}
	return out
}

func isB64Std(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '='
}
func isB32Folded(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '2' && c <= '7'
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

func isB64URL(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}
func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// plantedForms are the encodings of id the detector must find: its positive control (one per family, and
// compositions of two).
func plantedForms(id string) []string {
	b := []byte(id)
	b32 := strings.TrimRight(base32.StdEncoding.EncodeToString(b), "=")
	b64 := base64.RawURLEncoding.EncodeToString(b)
	forms := []string{
		"ag-" + id + "-x1",
		"ag-" + strings.ToUpper(id) + "-x1",
		"ag-" + url.PathEscape(id) + "~x1",
		"ag-" + b64 + ".k3Zq",
		"Zx" + b64,
		"ag-" + b32 + "-q",
		"ag-" + hex.EncodeToString(b) + "-z9",
	}
	if len(id) >= minSubstituted {
		forms = append(forms,
			"ag-"+strings.ToLower(b32)+"-x1",                           // case-folded base32
			"ag-"+string(reversed(b))+"-x1",                            // reversed
			"ag-"+string(rot13(b))+"-x1",                               // ROT13
			"ag-"+string(atbash(b))+"-x1",                              // Atbash
			"ag-"+string(reversed([]byte(b32)))+"-x1",                  // reversed base32
			"ag-"+base64.RawURLEncoding.EncodeToString(rot13(b))+"-x1", // base64 of ROT13
			"ag-"+hex.EncodeToString(reversed(b))+"-x1",                // hex of the reversal
			"ag-"+string(rot13([]byte(b64)))+"-x1",                     // ROT13 of base64
		)
	}
	return forms
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
