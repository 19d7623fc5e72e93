package a2a

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gowebpki/jcs"
)

var idPattern = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

func TestExchangeIDsAndJSONL(t *testing.T) {
	srv := echoServer(t)
	c := newTestClient(t, Options{})
	for range 3 {
		if _, _, err := c.RPC(context.Background(), srv.URL, MethodGetTask, nil, Call{ID: 1, Note: "same"}); err != nil {
			t.Fatal(err)
		}
	}
	c.HTTP(context.Background(), http.MethodGet, "http://127.0.0.1:1/", nil, Call{}) // a failed one too
	all := wantRecorded(t, c, 4)
	seen := map[string]bool{}
	for i, e := range all {
		if e.Seq != i+1 || !idPattern.MatchString(e.ID) || seen[e.ID] {
			t.Fatalf("exchange %d: seq %d id %q (duplicate %v)", i, e.Seq, e.ID, seen[e.ID])
		}
		seen[e.ID] = true
		if again := e.computeID(); again != e.ID {
			t.Fatalf("ID not stable: %s then %s", e.ID, again)
		}
		if !strings.HasPrefix(e.Summary(), fmt.Sprintf("ex#%d %s… %s ", e.Seq, e.ID[:19], e.Method)) {
			t.Fatalf("summary %q", e.Summary())
		}
	}
	if all[3].Error == "" || all[3].Status != 0 {
		t.Fatalf("failed exchange recorded as %+v", all[3])
	}

	var buf bytes.Buffer
	if err := c.Recorder().WriteJSONL(&buf); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines, want 4", len(lines))
	}
	for i, line := range lines {
		canon, err := jcs.Transform([]byte(line))
		if err != nil || string(canon) != line {
			t.Fatalf("line %d is not JCS canonical: %v", i, err)
		}
		// Anyone can recompute the ID from the line: blank it, canonicalise, hash.
		var m map[string]any
		json.Unmarshal([]byte(line), &m)
		if m["id"] != all[i].ID {
			t.Fatalf("line %d id %v", i, m["id"])
		}
		m["id"] = ""
		b, _ := json.Marshal(m)
		canon, _ = jcs.Transform(b)
		sum := sha256.Sum256(canon)
		if "sha256:"+hex.EncodeToString(sum[:]) != all[i].ID {
			t.Fatalf("line %d: ID does not recompute", i)
		}
	}
}

func TestLimitErrorMessage(t *testing.T) {
	err := error(&LimitError{Limit: LimitMaxBody, Detail: "(8388608 bytes): body is longer"})
	if err.Error() != "limit exceeded: max-body (8388608 bytes): body is longer" || !errors.Is(err, ErrBodyTooLarge) || errors.Is(err, ErrTimeout) {
		t.Fatalf("%v", err)
	}
	d := NewClient(Options{}).Limits()
	if d != DefaultLimits() || d.MaxBody != 8<<20 || d.CallTimeout != 10*time.Second {
		t.Fatalf("defaults %+v", d)
	}
}

// TestCanonicalMatchesJCS pins the hand-written canonical form to the reference: jcs over encoding/json.
func TestCanonicalMatchesJCS(t *testing.T) {
	exs := []*Exchange{
		{Method: "GET", URL: "http://x/", Started: time.Date(2026, 1, 2, 3, 4, 5, 600, time.UTC)},
		{
			ID: "sha256:00", Seq: 42, Note: "note <&> \u2028 \"q\" \\ \x01\x1f\t\n\r\b\f \x7f é 😀", Method: "POST",
			URL: "https://127.0.0.1:1/a?b=c&d=<e>", Redirects: []string{"https://127.0.0.1:1/z", "bad\xffutf8"},
			RequestHeader: http.Header{"A2a-Version": {""}, "Z": nil, "Y": {}, "\ue000": {"x"}, "😀": {"y"}, "a": {"1", "2"}},
			RequestBody:   []byte{0, 1, 2, 255}, Status: 599,
			ResponseHeader: http.Header{"Content-Type": {"text/event-stream"}, "X-Bad": {"\xc3\x28 \xed\xa0\x80"}},
			ResponseBody:   []byte("data: {}\n\n"), Events: [][]byte{[]byte("{}"), {}, nil}, Truncated: true,
			Started: time.Date(2026, 11, 30, 23, 59, 59, 0, time.UTC), Error: "limit exceeded: max-body (1 bytes)",
		},
	}
	for _, d := range []float64{0, 1, 0.5, 1.25, 123456.789, 1e-7, 3.3e-5, 1e20, 1e21, 2.5e22, 0.1 + 0.2, 1.0 / 3} {
		exs = append(exs, &Exchange{Method: "GET", URL: "u", DurationMS: d, RequestHeader: http.Header{}})
	}
	for i, e := range exs {
		j, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		want, err := jcs.Transform(j)
		if err != nil {
			t.Fatal(err)
		}
		if got := e.appendCanonical(nil); string(got) != string(want) {
			t.Fatalf("exchange %d:\n got %s\nwant %s", i, got, want)
		}
	}
}

func TestTLSRootCAs(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, rpcOK)
	}))
	defer srv.Close()
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	trusted := newTestClient(t, Options{RootCAs: pool})
	if _, _, err := trusted.RPC(context.Background(), srv.URL, MethodGetTask, nil, Call{}); err != nil {
		t.Fatalf("trusted CA: %v", err)
	}
	untrusted := newTestClient(t, Options{RootCAs: x509.NewCertPool()})
	_, ex, err := untrusted.RPC(context.Background(), srv.URL, MethodGetTask, nil, Call{})
	var uerr x509.UnknownAuthorityError
	if !errors.As(err, &uerr) || ex.Status != 0 || ex.Error == "" {
		t.Fatalf("untrusted CA: error %v, status %d", err, ex.Status)
	}
}
