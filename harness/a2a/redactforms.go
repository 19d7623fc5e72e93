package a2a

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
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
// literal holding a backslash is decoded; if the decoded text holds a secret it is re-encoded redacted. With
// replace false it only reports whether one does (b is returned as is).
func (r *Redactor) jsonStrings(b []byte, replace bool) ([]byte, bool) {
	var out, dec []byte
	last, found := 0, false
	for i := bytes.IndexByte(b, '"'); i >= 0 && i < len(b); {
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
		if esc && j-i-1 >= r.shortest {
			var ok bool
			if dec, ok = unescapeJSON(dec[:0], b[i+1:j]); ok && r.holds(dec) {
				found = true
				if !replace {
					return b, true
				}
				enc, _ := json.Marshal(string(r.plain(bytes.Clone(dec))))
				out = append(append(out, b[last:i]...), enc...)
				last = j + 1
			}
		}
		next := bytes.IndexByte(b[j+1:], '"')
		if next < 0 {
			break
		}
		i = j + 1 + next
	}
	if out == nil {
		return b, found
	}
	return append(out, b[last:]...), found
}

// unescapeJSON appends the decoded content of a JSON string literal (without its quotes) to dst; false when it is
// not a valid literal.
func unescapeJSON(dst, s []byte) ([]byte, bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			dst = append(dst, c)
			continue
		}
		if i++; i >= len(s) {
			return dst, false
		}
		switch s[i] {
		case '"', '\\', '/':
			dst = append(dst, s[i])
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			if i+4 >= len(s) {
				return dst, false
			}
			v, err := strconv.ParseUint(string(s[i+1:i+5]), 16, 16)
			if err != nil {
				return dst, false
			}
			i += 4
			ru := rune(v)
			if utf16.IsSurrogate(ru) && i+6 < len(s) && s[i+1] == '\\' && s[i+2] == 'u' {
				if v2, err := strconv.ParseUint(string(s[i+3:i+7]), 16, 16); err == nil {
					if d := utf16.DecodeRune(ru, rune(v2)); d != utf8.RuneError {
						ru = d
						i += 6
					}
				}
			}
			dst = utf8.AppendRune(dst, ru)
		default:
			return dst, false
		}
	}
	return dst, true
}

// holds reports whether decoded text holds a secret as is.
func (r *Redactor) holds(b []byte) bool {
	for _, s := range r.secretsB {
		if bytes.Contains(b, s) {
			return true
		}
	}
	return false
}

// percent redacts secrets in percent-encoded runs of any mix: a run of text holding a % is decoded and, when the
// decoded text holds a secret, written decoded and redacted.
func (r *Redactor) percent(b []byte, replace bool) ([]byte, bool) {
	var out []byte
	found := false
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
		if e-s >= r.shortest {
			if dec, err := url.QueryUnescape(string(b[s:e])); err == nil && r.holds([]byte(dec)) {
				found = true
				if !replace {
					return b, true
				}
				out = append(append(out, b[last:s]...), r.plain([]byte(dec))...)
				last = e
			}
		}
		i = e
	}
	if out == nil {
		return b, found
	}
	return append(out, b[last:]...), found
}

func pctStop(c byte) bool {
	return c == '"' || c == ' ' || c == '&' || c == '?' || c == '=' || c == '\n' || c == '\t' || c == '<' || c == '>' || c == '\''
}

// plain replaces secrets in decoded text (raw forms only: what an escape decodes to).
func (r *Redactor) plain(b []byte) []byte {
	for i, s := range r.secretsB {
		if bytes.Contains(b, s) {
			b = bytes.ReplaceAll(b, s, []byte(r.Marker(r.secrets[i])))
		}
	}
	return b
}
