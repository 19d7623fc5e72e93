package a2a

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
)

// encodedForms are the fixed encodings of s an echo may carry: as is, JSON-escaped (Go's and the all-\u form,
// \/ for /), percent-encoded (query, path, every byte), base64 at each alignment (the part of the encoding that
// depends on s alone, so s inside a longer encoded value is found too).
func encodedForms(s string) []string {
	out := []string{s}
	if b, err := json.Marshal(s); err == nil {
		q := string(b[1 : len(b)-1])
		out = append(out, q, strings.ReplaceAll(q, "/", `\/`))
	}
	var lo, up, pct, pctLo strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if alnum || c >= 0x80 {
			lo.WriteByte(c)
			up.WriteByte(c)
		} else {
			fmt.Fprintf(&lo, `\u%04x`, c)
			fmt.Fprintf(&up, `\u%04X`, c)
		}
		fmt.Fprintf(&pct, "%%%02X", c)
		fmt.Fprintf(&pctLo, "%%%02x", c)
	}
	out = append(out, lo.String(), up.String(), pct.String(), pctLo.String(), url.QueryEscape(s), url.PathEscape(s))
	if len(s) >= 6 {
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
			for k := 0; k < 3; k++ {
				e := enc.EncodeToString(append(make([]byte, k), s...))
				from, to := (8*k+5)/6, (8*(k+len(s)))/6
				if to-from >= 6 {
					out = append(out, e[from:to])
				}
			}
		}
	}
	return out
}

// jsonStrings redacts secrets inside JSON string literals written with escapes (`\/`, `\u002B`, any mix): each
// literal holding a backslash is decoded; if the decoded text holds a secret it is re-encoded redacted.
func (r *Redactor) jsonStrings(b []byte) []byte {
	var out []byte
	last := 0
	for i := 0; i < len(b); i++ {
		if b[i] != '"' {
			continue
		}
		j, esc := i+1, false
		for ; j < len(b) && b[j] != '"'; j++ {
			if b[j] == '\\' {
				esc = true
				j++
			}
		}
		if j >= len(b) {
			break
		}
		if esc {
			var s string
			if json.Unmarshal(b[i:j+1], &s) == nil {
				if red := string(r.plain([]byte(s))); red != s {
					enc, _ := json.Marshal(red)
					out = append(append(out, b[last:i]...), enc...)
					last = j + 1
				}
			}
		}
		i = j
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

// percent redacts secrets in percent-encoded runs of any mix: a run of text holding a % is decoded and, when the
// decoded text holds a secret, written decoded and redacted.
func (r *Redactor) percent(b []byte) []byte {
	var out []byte
	last := 0
	for i := 0; i < len(b); {
		if b[i] != '%' {
			i++
			continue
		}
		// the run: back to the last separator, on to the next one
		s := i
		for s > last && !pctStop(b[s-1]) {
			s--
		}
		e := i
		for e < len(b) && !pctStop(b[e]) {
			e++
		}
		if dec, err := url.QueryUnescape(string(b[s:e])); err == nil {
			if red := r.plain([]byte(dec)); !bytes.Equal(red, []byte(dec)) {
				out = append(append(out, b[last:s]...), red...)
				last = e
			}
		}
		i = e
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

func pctStop(c byte) bool {
	return c == '"' || c == ' ' || c == '&' || c == '?' || c == '=' || c == '\n' || c == '\t' || c == '<' || c == '>' || c == '\''
}

// plain replaces secrets in decoded text (raw forms only: what an escape decodes to).
func (r *Redactor) plain(b []byte) []byte {
	for _, s := range r.secrets {
		if bytes.Contains(b, []byte(s)) {
			b = bytes.ReplaceAll(b, []byte(s), []byte(r.Marker(s)))
		}
	}
	return b
}
