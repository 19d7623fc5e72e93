package a2a

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"sort"
	"strings"
)

// secretHeaders are redacted whatever their value: they carry credentials by definition.
var secretHeaders = []string{"Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "X-Api-Key"}

// Redactor replaces credentials in what is written (the transcript, every report) with a marker carrying a salted
// digest, "[redacted sha256:…]": the witness chain still verifies (exchange ids are digests of the redacted
// record), nothing secret lands in a file, and whoever holds the secret and the salt can show which one was used.
type Redactor struct {
	Salt    string // hex; per run
	secrets []string
}

// NewRedactor returns a redactor with a fresh salt that also redacts each of secrets (configured credential values)
// wherever it appears: in any header value and in any body.
func NewRedactor(secrets ...string) *Redactor {
	var b [16]byte
	_, _ = rand.Read(b[:])
	r := &Redactor{Salt: hex.EncodeToString(b[:])}
	for _, s := range secrets {
		if len(s) >= 4 { // a shorter "secret" would redact ordinary bytes everywhere
			r.secrets = append(r.secrets, s)
		}
		// the token of "Bearer <token>" is secret on its own too (a body may echo just the token)
		if _, tok, ok := strings.Cut(s, " "); ok && len(tok) >= 8 {
			r.secrets = append(r.secrets, tok)
		}
	}
	// Longest first, so a secret that contains another is replaced whole.
	sort.Slice(r.secrets, func(i, j int) bool { return len(r.secrets[i]) > len(r.secrets[j]) })
	return r
}

// Marker is the redaction marker of value.
func (r *Redactor) Marker(value string) string {
	salt, _ := hex.DecodeString(r.Salt)
	s := sha256.Sum256(append(salt, value...))
	return "[redacted sha256:" + hex.EncodeToString(s[:]) + "]"
}

// String redacts every configured secret in s (failure messages, row details).
func (r *Redactor) String(s string) string {
	if r == nil {
		return s
	}
	for _, sec := range r.secrets {
		if strings.Contains(s, sec) {
			s = strings.ReplaceAll(s, sec, r.Marker(sec))
		}
	}
	return s
}

func (r *Redactor) bytes(b []byte) []byte {
	for _, sec := range r.secrets {
		if bytes.Contains(b, []byte(sec)) {
			b = bytes.ReplaceAll(b, []byte(sec), []byte(r.Marker(sec)))
		}
	}
	return b
}

func (r *Redactor) header(h http.Header) http.Header {
	if h == nil {
		return nil
	}
	out := make(http.Header, len(h))
	for k, vs := range h {
		secret := false
		for _, s := range secretHeaders {
			secret = secret || strings.EqualFold(k, s)
		}
		nv := make([]string, len(vs))
		for i, v := range vs {
			if secret {
				nv[i] = r.Marker(v)
			} else {
				nv[i] = r.String(v)
			}
		}
		out[k] = nv
	}
	return out
}

// touches reports whether redacting e would change anything: a secret header, or a configured secret anywhere.
func (r *Redactor) touches(e *Exchange) bool {
	for _, h := range []http.Header{e.RequestHeader, e.ResponseHeader} {
		for k, vs := range h {
			for _, s := range secretHeaders {
				if strings.EqualFold(k, s) {
					return true
				}
			}
			for _, v := range vs {
				if r.inString(v) {
					return true
				}
			}
		}
	}
	if r.inString(e.URL) || r.inString(e.Error) || r.inString(e.Note) || r.inBytes(e.RequestBody) || r.inBytes(e.ResponseBody) {
		return true
	}
	for _, ev := range e.Events {
		if r.inBytes(ev) {
			return true
		}
	}
	return false
}

func (r *Redactor) inString(s string) bool {
	for _, sec := range r.secrets {
		if strings.Contains(s, sec) {
			return true
		}
	}
	return false
}

func (r *Redactor) inBytes(b []byte) bool {
	for _, sec := range r.secrets {
		if bytes.Contains(b, []byte(sec)) {
			return true
		}
	}
	return false
}

// Exchange returns the record as it may be written: a copy with credentials replaced (e itself, which the specs
// read, keeps the bytes as received), or e itself when it holds no credential. Callers only read the result.
func (r *Redactor) Exchange(e *Exchange) *Exchange {
	if r == nil || !r.touches(e) {
		return e // nothing to replace: no copy (it is only read)
	}
	c := *e
	c.URL = r.String(e.URL)
	c.RequestHeader = r.header(e.RequestHeader)
	c.ResponseHeader = r.header(e.ResponseHeader)
	c.RequestBody = r.bytes(e.RequestBody)
	c.ResponseBody = r.bytes(e.ResponseBody)
	if len(e.Events) > 0 {
		c.Events = make([][]byte, len(e.Events))
		for i, ev := range e.Events {
			c.Events[i] = r.bytes(ev)
		}
	}
	c.Error = r.String(e.Error)
	c.Note = r.String(e.Note)
	return &c
}
