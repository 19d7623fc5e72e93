package a2atest_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/extconf/extconf/harness/a2atest"
)

// A2A §8.6.1: the card carries Cache-Control with max-age, an ETag and Last-Modified; If-None-Match with the
// current tag answers 304 without a body; a card changed by Reload gets a new tag.
func TestCardCachingHeaders(t *testing.T) {
	version := "1"
	s := start(t, a2atest.Agent{Card: func(base string) any {
		return map[string]any{"name": "cached", "version": version, "supportedInterfaces": a2atest.Interfaces(base)}
	}})
	r := do(t, "GET", s.CardURL(), nil, nil)
	etag := r.header.Get("ETag")
	if r.status != 200 || !strings.Contains(r.header.Get("Cache-Control"), "max-age=") || len(etag) < 3 || etag[0] != '"' {
		t.Fatalf("card %d, Cache-Control %q, ETag %q", r.status, r.header.Get("Cache-Control"), etag)
	}
	if lm, err := http.ParseTime(r.header.Get("Last-Modified")); err != nil || time.Since(lm) > time.Minute {
		t.Fatalf("Last-Modified %q: %v", r.header.Get("Last-Modified"), err)
	}
	if again := do(t, "GET", s.CardURL(), nil, nil); again.header.Get("ETag") != etag || string(again.body) != string(r.body) {
		t.Fatal("the same card got another ETag")
	}
	for _, inm := range []string{etag, "W/" + etag, `"other", ` + etag, "*"} {
		for _, method := range []string{"GET", "HEAD"} {
			nm := do(t, method, s.CardURL(), nil, map[string]string{"If-None-Match": inm})
			if nm.status != http.StatusNotModified || len(nm.body) != 0 || nm.header.Get("ETag") != etag || nm.header.Get("Cache-Control") == "" {
				t.Fatalf("%s If-None-Match %s: %d %q ETag %q", method, inm, nm.status, nm.body, nm.header.Get("ETag"))
			}
		}
	}
	if r2 := do(t, "GET", s.CardURL(), nil, map[string]string{"If-None-Match": `"stale"`}); r2.status != 200 || string(r2.body) != string(r.body) {
		t.Fatalf("If-None-Match with another tag: %d", r2.status)
	}
	version = "2"
	s.Reload()
	r3 := do(t, "GET", s.CardURL(), nil, map[string]string{"If-None-Match": etag})
	if r3.status != 200 || !strings.Contains(string(r3.body), `"version":"2"`) || r3.header.Get("ETag") == etag {
		t.Fatalf("after a changed card: %d ETag %q %s", r3.status, r3.header.Get("ETag"), r3.body)
	}
}
