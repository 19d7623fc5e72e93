package a2a

import (
	"net/http"
	"strings"
	"testing"
)

// A record holding no credential is written as it is (no copy); one with a secret header, or a configured secret
// in any field, is written as a copy with markers, and the record the specs read keeps the bytes as received.
func TestRedactorCopiesOnlyWhatItChanges(t *testing.T) {
	r := NewRedactor("Bearer tok-0123456789")
	plain := &Exchange{URL: "http://127.0.0.1/a", RequestHeader: http.Header{"Content-Type": {"application/json"}},
		RequestBody: []byte(`{"x":1}`), ResponseBody: []byte(`{}`)}
	if got := r.Exchange(plain); got != plain {
		t.Error("a record with no credential was copied")
	}
	cases := map[string]*Exchange{
		"secret header": {URL: "http://127.0.0.1/a", RequestHeader: http.Header{"Authorization": {"Basic eDp5"}}},
		"body":          {URL: "http://127.0.0.1/a", ResponseBody: []byte(`{"echo":"tok-0123456789"}`)},
		"event":         {URL: "http://127.0.0.1/a", Events: [][]byte{[]byte(`{"t":"Bearer tok-0123456789"}`)}},
		"error":         {URL: "http://127.0.0.1/a", Error: "refused tok-0123456789"},
		"header value":  {URL: "http://127.0.0.1/a", ResponseHeader: http.Header{"X-Echo": {"tok-0123456789"}}},
	}
	for name, e := range cases {
		got := r.Exchange(e)
		if got == e {
			t.Errorf("%s: not redacted", name)
			continue
		}
		if w := fields(got); strings.Contains(w, "tok-0123456789") || strings.Contains(w, "eDp5") || !strings.Contains(w, "[redacted hmac:") {
			t.Errorf("%s: written as %s", name, w)
		}
		if orig := fields(e); !strings.Contains(orig, "tok-0123456789") && !strings.Contains(orig, "eDp5") {
			t.Errorf("%s: the record the specs read was changed: %s", name, orig)
		}
	}
}

// fields is every redactable field of e, as text.
func fields(e *Exchange) string {
	var b strings.Builder
	for _, s := range []string{e.URL, e.Error, e.Note, string(e.RequestBody), string(e.ResponseBody)} {
		b.WriteString(s + "\n")
	}
	for _, ev := range e.Events {
		b.WriteString(string(ev) + "\n")
	}
	for _, h := range []http.Header{e.RequestHeader, e.ResponseHeader} {
		for k, vs := range h {
			b.WriteString(k + ": " + strings.Join(vs, ", ") + "\n")
		}
	}
	return b.String()
}
