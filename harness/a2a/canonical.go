package a2a

import (
	"encoding/base64"
	"net/http"
	"slices"
	"strconv"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/gowebpki/jcs"
)

// appendCanonical appends the RFC 8785 (JCS) form of the record's JSON encoding, written directly: going through
// encoding/json and jcs.Transform costs more than the HTTP exchange itself. TestCanonicalMatchesJCS pins it to
// jcs.Transform(json.Marshal(e)). Members are in JCS order (UTF-16 code units, here plain ASCII order).
func (e *Exchange) appendCanonical(b []byte) []byte {
	b = append(b, `{"durationMs":`...)
	b = appendNumber(b, e.DurationMS)
	if e.Error != "" {
		b = append(b, `,"error":`...)
		b = appendString(b, e.Error)
	}
	if len(e.Events) > 0 {
		b = append(b, `,"events":[`...)
		for i, ev := range e.Events {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendBytes(b, ev)
		}
		b = append(b, ']')
	}
	b = append(b, `,"id":`...)
	b = appendString(b, e.ID)
	b = append(b, `,"method":`...)
	b = appendString(b, e.Method)
	if e.Note != "" {
		b = append(b, `,"note":`...)
		b = appendString(b, e.Note)
	}
	if len(e.Redirects) > 0 {
		b = append(b, `,"redirects":`...)
		b = appendStrings(b, e.Redirects)
	}
	if len(e.RequestBody) > 0 {
		b = append(b, `,"requestBody":`...)
		b = appendBytes(b, e.RequestBody)
	}
	b = append(b, `,"requestHeader":`...)
	b = appendHeader(b, e.RequestHeader)
	if len(e.ResponseBody) > 0 {
		b = append(b, `,"responseBody":`...)
		b = appendBytes(b, e.ResponseBody)
	}
	if len(e.ResponseHeader) > 0 {
		b = append(b, `,"responseHeader":`...)
		b = appendHeader(b, e.ResponseHeader)
	}
	b = append(b, `,"seq":`...)
	b = strconv.AppendInt(b, int64(e.Seq), 10)
	b = append(b, `,"started":"`...)
	b = e.Started.AppendFormat(b, time.RFC3339Nano) // what time.Time.MarshalJSON writes; no escapes needed
	b = append(b, `","status":`...)
	b = strconv.AppendInt(b, int64(e.Status), 10)
	if e.Truncated {
		b = append(b, `,"truncated":true`...)
	}
	b = append(b, `,"url":`...)
	b = appendString(b, e.URL)
	return append(b, '}')
}

// appendNumber writes an ECMAScript number. Integers and ordinary fractions are exact with 'f'; anything else
// goes through jcs, the reference.
func appendNumber(b []byte, f float64) []byte {
	if f == 0 {
		return append(b, '0')
	}
	if a := max(f, -f); a >= 1e-6 && a < 1e21 {
		return strconv.AppendFloat(b, f, 'f', -1, 64)
	}
	n, err := jcs.Transform(strconv.AppendFloat(nil, f, 'g', -1, 64))
	if err != nil {
		return append(b, '0') // NaN or Inf: not JSON, and not a duration
	}
	return append(b, n...)
}

// appendString writes s as JCS does: only '"', '\\' and control characters escaped, invalid UTF-8 as U+FFFD
// (what encoding/json would have written).
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c >= 0x20:
				b = append(b, c)
			case c == '\b':
				b = append(b, `\b`...)
			case c == '\f':
				b = append(b, `\f`...)
			case c == '\n':
				b = append(b, `\n`...)
			case c == '\r':
				b = append(b, `\r`...)
			case c == '\t':
				b = append(b, `\t`...)
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = utf8.AppendRune(b, utf8.RuneError)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

const hexDigits = "0123456789abcdef"

func appendBytes(b []byte, p []byte) []byte {
	if p == nil {
		return append(b, "null"...)
	}
	b = append(b, '"')
	b = base64.StdEncoding.AppendEncode(b, p)
	return append(b, '"')
}

func appendStrings(b []byte, ss []string) []byte {
	if ss == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

func appendHeader(b []byte, h http.Header) []byte {
	if h == nil {
		return append(b, "null"...)
	}
	var small [16]string // headers rarely have more: the keys are sorted without an allocation
	keys := small[:0]
	for k := range h {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, compareUTF16)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, k)
		b = append(b, ':')
		b = appendStrings(b, h[k])
	}
	return append(b, '}')
}

// compareUTF16 orders member names by UTF-16 code units, as JCS requires (byte order differs above U+FFFF).
// Invalid UTF-8 compares as the U+FFFD it is written as.
func compareUTF16(a, b string) int {
	if isASCII(a) && isASCII(b) {
		switch {
		case a < b:
			return -1
		case a > b:
			return 1
		}
		return 0
	}
	return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
