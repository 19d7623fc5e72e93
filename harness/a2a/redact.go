package a2a

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"sort"
	"strings"
)

// secretHeaders are redacted whatever their value: they carry credentials by definition.
var secretHeaders = []string{"Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "X-Api-Key"}

// Redactor replaces credentials in what is written (the transcript, every report, every message) with a marker,
// "[redacted hmac:…]", keyed by a per-run key that never leaves the process (children of a split run get it on
// stdin): the witness chain still verifies (exchange ids are digests of the redacted record, and verify needs no
// key), nothing secret lands in a file, and a marker cannot be tested offline against guesses of a low-entropy
// secret (a salted digest with the salt published could: a 6-digit key fell in half a second). Within one run,
// one secret has one marker, so a reader still sees which principal a request carried.
//
// A secret is found in every form an agent may echo it in: as is, JSON-escaped (any mix of \/ and \uXXXX: each
// escaped JSON string is decoded and checked), percent-encoded (any mix: an escaped string is decoded and
// checked) and base64 (standard and URL alphabets, at each of the three alignments).
type Redactor struct {
	key      []byte
	secrets  []string // longest first
	secretsB [][]byte // the same, as bytes
	shortest int      // the shortest secret's length: a shorter string cannot hold one
	forms    []form   // every encoded form searched for, longest first
}

type form struct {
	text   []byte // bytes, not a string: a conversion per search would allocate on every exchange
	secret string
}

// NewRedactor returns a redactor with a fresh key that also redacts each of secrets (configured credential values)
// wherever it appears: in any header value, any body, any message.
func NewRedactor(secrets ...string) *Redactor {
	key := make([]byte, 32)
	_, _ = rand.Read(key)
	r := &Redactor{key: key}
	seen := map[string]bool{}
	add := func(s string) {
		if len(s) >= 4 && !seen[s] { // a shorter "secret" would redact ordinary bytes everywhere
			seen[s] = true
			r.secrets = append(r.secrets, s)
		}
	}
	for _, s := range secrets {
		add(s)
		// the token of "Bearer <token>" is secret on its own too (a body may echo just the token)
		if _, tok, ok := strings.Cut(s, " "); ok && len(tok) >= 6 {
			add(tok)
		}
	}
	sort.Slice(r.secrets, func(i, j int) bool { return len(r.secrets[i]) > len(r.secrets[j]) })
	for _, s := range r.secrets {
		r.secretsB = append(r.secretsB, []byte(s))
	}
	if n := len(r.secrets); n > 0 {
		r.shortest = len(r.secrets[n-1])
	}
	fs := map[string]string{}
	for _, s := range r.secrets {
		for _, f := range encodedForms(s) {
			// An escaped form (\ or %) is found by decoding (jsonStrings, percent), which also finds any mix.
			if _, ok := fs[f]; !ok && len(f) >= 4 && (f == s || !strings.ContainsAny(f, `\%`)) {
				fs[f] = s
			}
		}
	}
	for f, s := range fs {
		r.forms = append(r.forms, form{[]byte(f), s})
	}
	sort.Slice(r.forms, func(i, j int) bool {
		if len(r.forms[i].text) != len(r.forms[j].text) {
			return len(r.forms[i].text) > len(r.forms[j].text)
		}
		return bytes.Compare(r.forms[i].text, r.forms[j].text) < 0
	})
	return r
}

// Key is the run's key, hex, for the children of a split run (passed on their stdin, never in a file).
func (r *Redactor) Key() string { return hex.EncodeToString(r.key) }

// SetKey makes r use the run's key (a child of a split run), so one secret has one marker across the run.
func (r *Redactor) SetKey(h string) {
	if k, err := hex.DecodeString(h); err == nil && len(k) >= 16 {
		r.key = k
	}
}

// Marker is the redaction marker of value.
func (r *Redactor) Marker(value string) string {
	m := hmac.New(sha256.New, r.key)
	m.Write([]byte(value))
	return "[redacted hmac:" + hex.EncodeToString(m.Sum(nil)[:8]) + "]"
}

// String redacts every configured secret, in every form, in s (failure messages, row details, notes).
func (r *Redactor) String(s string) string {
	if r == nil || len(r.secrets) == 0 {
		return s
	}
	return string(r.bytes([]byte(s)))
}

// Bytes is String for bytes; b itself is returned when nothing is replaced.
func (r *Redactor) Bytes(b []byte) []byte {
	if r == nil || len(r.secrets) == 0 {
		return b
	}
	return r.bytes(b)
}

func (r *Redactor) bytes(b []byte) []byte {
	for _, f := range r.forms {
		if bytes.Contains(b, f.text) {
			b = bytes.ReplaceAll(b, f.text, []byte(r.Marker(f.secret)))
		}
	}
	if bytes.IndexByte(b, '\\') >= 0 {
		b, _ = r.jsonStrings(b, true)
	}
	if bytes.IndexByte(b, '%') >= 0 {
		b, _ = r.percent(b, true)
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
				if r.in([]byte(v)) {
					return true
				}
			}
		}
	}
	if r.in([]byte(e.URL)) || r.in([]byte(e.Error)) || r.in([]byte(e.Note)) || r.in(e.RequestBody) || r.in(e.ResponseBody) {
		return true
	}
	for _, h := range e.Redirects {
		if r.in([]byte(h)) {
			return true
		}
	}
	for _, ev := range e.Events {
		if r.in(ev) {
			return true
		}
	}
	return false
}

// in reports whether b holds a secret in any form (the cheap test first: most records hold none).
func (r *Redactor) in(b []byte) bool {
	if len(r.secrets) == 0 || len(b) == 0 {
		return false
	}
	for _, f := range r.forms {
		if bytes.Contains(b, f.text) {
			return true
		}
	}
	if bytes.IndexByte(b, '\\') >= 0 {
		if _, found := r.jsonStrings(b, false); found {
			return true
		}
	}
	if bytes.IndexByte(b, '%') >= 0 {
		if _, found := r.percent(b, false); found {
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
	c.RequestBody = r.bytes(bytes.Clone(e.RequestBody))
	c.ResponseBody = r.bytes(bytes.Clone(e.ResponseBody))
	if len(e.Events) > 0 {
		c.Events = make([][]byte, len(e.Events))
		for i, ev := range e.Events {
			c.Events[i] = r.bytes(bytes.Clone(ev))
		}
	}
	if len(e.Redirects) > 0 {
		c.Redirects = make([]string, len(e.Redirects))
		for i, h := range e.Redirects {
			c.Redirects[i] = r.String(h)
		}
	}
	c.Error = r.String(e.Error)
	c.Note = r.String(e.Note)
	return &c
}

// withoutCredentials is h without credential headers and without any header holding a configured secret: what a
// request to an origin that gets no credentials carries.
func withoutCredentials(h http.Header, x *Redactor) http.Header {
	out := make(http.Header, len(h))
	for k, vs := range h {
		drop := false
		for _, s := range secretHeaders {
			drop = drop || strings.EqualFold(k, s)
		}
		for _, v := range vs {
			drop = drop || (x != nil && x.in([]byte(v)))
		}
		if !drop {
			out[k] = vs
		}
	}
	return out
}
