package hostile

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/harnesstest"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/suites"
)

// hostAddress is one of this machine's own non-loopback IPv4 addresses: packets to it never leave the host.
func hostAddress(t *testing.T) string {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Skip("no interface addresses:", err)
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() && !n.IP.IsLinkLocalUnicast() {
			return n.IP.String()
		}
	}
	t.Skip("this host has no non-loopback IPv4 address")
	return ""
}

// recorder is a listener that must never be reached: it records every request and its Authorization header.
type recorder struct {
	mu   sync.Mutex
	seen []string
	srv  *http.Server
	url  string
}

func newRecorder(t *testing.T) *recorder {
	r := &recorder{}
	r.url = harnesstest.Listen(t, "127.0.0.1:0", func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.seen = append(r.seen, req.Method+" "+req.URL.Path+" auth="+req.Header.Get("Authorization"))
		r.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{"secret":"the operator's local service"}}`))
	})
	return r
}

func (r *recorder) requests() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.seen...)
}

// A truly remote card (harnesstest.RemoteListen: 203.0.113.7 to every rule) points its
// interfaces, its proposals and its discovery at services on loopback: the harness refuses every such URL before
// dialing, names the rule, and the configured credential reaches no listener but the card's own origin.
func TestRemoteTargetNeverReachesLoopback(t *testing.T) {
	local := newRecorder(t)
	const secret = "Bearer remote-target-token-0123456789"
	cardURL := ""
	base := harnesstest.RemoteListen(t, func(w http.ResponseWriter, req *http.Request) {
		if req.URL.Path != "/.well-known/agent-card.json" {
			http.NotFound(w, req)
			return
		}
		card := map[string]any{
			"name": "remote", "description": "points everything at the operator's loopback", "version": "1.0.0",
			"supportedInterfaces": []any{
				map[string]any{"url": local.url + "/jsonrpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
				map[string]any{"url": local.url + "/rest", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"}},
			"capabilities": map[string]any{"streaming": true, "extensions": []any{
				map[string]any{"uri": "https://agentsow.com/extensions/a2a-terms/v1", "params": map[string]any{
					"sow_spec": "0.11", "proposals": []any{map[string]any{"url": local.url + "/p.sow.json", "digest": "sha256:" + strings.Repeat("0", 64)}}}},
				map[string]any{"uri": "https://agentsow.com/extensions/a2a-interview/v1"}}},
			"defaultInputModes": []string{"text/plain"}, "defaultOutputModes": []string{"text/plain"},
			"skills": []any{map[string]any{"id": "s", "name": "s", "description": "d", "tags": []string{"t"}}},
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(card)
	})
	cardURL = base + "/.well-known/agent-card.json"
	cfg := target.Config{Principals: map[string]target.Principal{"A": {Header: "Authorization", Value: secret}}}
	tgt, err := target.URL(cardURL, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := harness.Run(ctx, tgt, harness.Options{Suites: suites.All(), Seed: 1, SpecTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if got := local.requests(); len(got) > 0 {
		t.Fatalf("the loopback service was reached by a remote target's URLs: %v", got)
	}
	named := 0
	for _, r := range res.Rows {
		if strings.Contains(r.Detail, "the target is remote") {
			named++
		}
	}
	if named == 0 {
		t.Error("no row names the rule that refused the loopback URLs")
	}
	// The configured credential goes nowhere but the card's origin (the run's own stand-ins get none either).
	for _, ex := range res.Exchanges {
		if ex.RequestHeader.Get("Authorization") != "" && !strings.HasPrefix(ex.URL, base) {
			t.Errorf("a credential was sent off the target's origin %s: %s", base, ex.Summary())
		}
		if strings.HasPrefix(ex.URL, local.url) && ex.Status != 0 {
			t.Errorf("an exchange reached the loopback service: %s", ex.Summary())
		}
	}
	t.Logf("%d rows name the rule; card origin %s; %d exchanges", named, base, len(res.Exchanges))
}

// Issue 37.3: a target named by this host's own non-loopback address is refused at dial by the reach rule (a
// remote target never reaches this host); the run blocks every row with the rule and the remedy, and fails none.
func TestOwnHostTargetBlocks(t *testing.T) {
	host := hostAddress(t)
	card := harnesstest.Listen(t, net.JoinHostPort(host, "0"), func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"name":"x"}`))
	})
	tgt, err := target.URL(card+"/.well-known/agent-card.json", target.Config{})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	res, err := harness.Run(context.Background(), tgt, harness.Options{Suites: suites.All(), Seed: 1, SpecTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	blocked := 0
	for _, r := range res.Rows {
		if r.SelfCheck {
			continue // self-checks run on the harness's own fixtures whatever the target (issue #35 item 5)
		}
		switch r.Verdict {
		case harness.ExecutedFail, harness.ExecutedPass:
			t.Fatalf("%s %s against a target the harness may not reach: %s", r.ID, r.Verdict, r.Detail)
		case harness.Blocked:
			blocked++
			if !strings.Contains(r.Detail, "reach rule refuses") {
				t.Fatalf("%s blocked without the rule: %s", r.ID, r.Detail)
			}
		}
	}
	if blocked == 0 {
		t.Fatal("no row blocked")
	}
	t.Logf("%d rows blocked in %s", blocked, time.Since(start).Round(time.Millisecond))
}
