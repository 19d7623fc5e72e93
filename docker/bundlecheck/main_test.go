package main

import (
	"strings"
	"testing"
)

// The transcript half of the loopback check: a URL or a redirect hop off loopback (addresses from the reserved
// documentation ranges, never dialled) is reported; loopback literals pass; names do not count as loopback.
func TestOffLoopback(t *testing.T) {
	in := strings.Join([]string{
		`{"seq":1,"url":"https://127.0.0.1:9400/.well-known/agent-card.json"}`,
		`{"seq":2,"url":"http://[::1]:8080/rest","redirects":["https://127.0.0.2:1/x"]}`,
		``,
		`{"seq":3,"url":"https://127.0.0.1:9401/jsonrpc","redirects":["https://203.0.113.7/next"]}`,
		`{"seq":4,"url":"https://198.51.100.9:443/jsonrpc"}`,
		`{"seq":5,"url":"http://localhost:9400/"}`,
		`{"seq":6,"url":"https://172.17.0.1:9400/"}`,
	}, "\n")
	n, off, err := offLoopback(strings.NewReader(in))
	if err != nil || n != 6 {
		t.Fatalf("n=%d err=%v, want 6 exchanges", n, err)
	}
	want := []string{"ex#3 https://203.0.113.7/next", "ex#4 https://198.51.100.9:443/jsonrpc",
		"ex#5 http://localhost:9400/", "ex#6 https://172.17.0.1:9400/"}
	if strings.Join(off, "|") != strings.Join(want, "|") {
		t.Fatalf("off loopback:\n got %q\nwant %q", off, want)
	}
	if _, _, err := offLoopback(strings.NewReader("{not json\n")); err == nil {
		t.Fatal("a broken line was accepted")
	}
}
