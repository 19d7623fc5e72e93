package harness

import (
	"net"
	"net/url"
	"strings"
	"testing"

	"github.com/extconf/extconf/harness/target"
)

func TestReach(t *testing.T) {
	loop := newReach(&target.Target{Kind: target.KindURL, Agents: map[string]string{"": "http://127.0.0.1:1234/.well-known/agent-card.json",
		"operator": "data:application/json,{}"}}, nil)
	priv := newReach(&target.Target{Kind: target.KindURL, Agents: map[string]string{"": "https://10.0.0.5:8443/.well-known/agent-card.json"},
		Config: target.Config{Inventory: "https://inventory.example/agents", Limits: []byte(`{"allowOrigins":["https://cdn.example"]}`)}},
		[]Suite{{Origins: func(c target.Config) []string { return []string{c.Inventory} }}})
	cases := []struct {
		r    *Reach
		url  string
		want string // "" allowed, else a substring of the refusal
	}{
		{loop, "http://127.0.0.1:1234/jsonrpc", ""},
		{loop, "http://127.0.0.1:9/other-port", ""}, // loopback: the harness's own host
		{loop, "http://localhost:9/", ""},
		{loop, "http://[::1]:9/", ""},
		{loop, "https://10.0.0.1/p.json", "off-origin private address 10.0.0.1"},
		{loop, "https://172.16.5.4/", "private address"},
		{loop, "https://192.168.1.1/", "private address"},
		{loop, "https://[fd00::1]/", "private address"},
		{loop, "https://[::ffff:10.0.0.1]/", "private address"},
		{loop, "http://169.254.169.254/latest/meta-data/", "link-local address 169.254.169.254"},
		{loop, "http://[fe80::1%25eth0]/", "link-local address fe80::1"},
		{loop, "http://0.0.0.0:1234/", ""}, // dials this host, which a local target may
		{priv, "http://0.0.0.0:1234/", "this host's own address, and the target is remote"},
		{priv, "http://127.0.0.1:9/", "this host's own address, and the target is remote"},
		{priv, "http://localhost:9/", "this host's own address, and the target is remote"},
		{priv, "http://[::1]:9/", "this host's own address, and the target is remote"},
		{loop, "http://100.64.0.1/", "shared (carrier-grade NAT)"},
		{loop, "http://8.8.8.8/", "off-origin address 8.8.8.8"},
		{loop, "https://proposals.example.com/p", `off-origin host "proposals.example.com"`},
		{loop, "http://127.1/", `off-origin host "127.1"`}, // not an IP literal to Go: a name, refused
		{priv, "https://10.0.0.5:8443/a2a", ""},            // the target's own origin, private or not
		{priv, "https://10.0.0.5/a2a", "private address 10.0.0.5"},
		{priv, "https://inventory.example/agents/x", ""}, // the configuration's URLs are the target's
		{priv, "https://cdn.example:443/p.json", ""},     // allowOrigins
		{priv, "http://cdn.example/p.json", "off-origin host"},
	}
	for _, c := range cases {
		u, err := url.Parse(c.url)
		if err != nil {
			t.Fatal(err)
		}
		err = c.r.check(u)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s refused: %v", c.url, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want a refusal naming %q", c.url, err, c.want)
		case c.want != "" && !strings.Contains(err.Error(), "limits.allowOrigins") && !strings.Contains(err.Error(), "target is remote"):
			t.Errorf("%s: the refusal does not say how to allow it: %v", c.url, err)
		}
	}
}

// A remote target never reaches this host, except the run's own listeners; a name that resolves to this host is
// refused at dial time, so DNS cannot smuggle a remote target's URL onto loopback.
func TestReachRemoteTargetAndOwnListeners(t *testing.T) {
	remote := &target.Target{Kind: target.KindURL, Agents: map[string]string{"": "https://10.0.0.5:8443/.well-known/agent-card.json"}}
	e := &Env{Target: remote}
	own, _ := url.Parse("http://127.0.0.1:4321/card.json")
	if err := e.CheckURL(own); err == nil {
		t.Fatal("a remote target reached 127.0.0.1")
	}
	e.OwnListener("http://127.0.0.1:4321/")
	if err := e.CheckURL(own); err != nil {
		t.Fatalf("the run's own listener refused: %v", err)
	}
	r := e.reachRule()
	if err := r.dial("agent.example:443", net.ParseIP("127.0.0.1")); err == nil || !strings.Contains(err.Error(), "target is remote") {
		t.Errorf("a name resolving to loopback: %v", err)
	}
	if err := r.dial("127.0.0.1:4321", net.ParseIP("127.0.0.1")); err != nil {
		t.Errorf("the own listener at dial time: %v", err)
	}
	if err := r.dial("agent.example:443", net.ParseIP("203.0.113.7")); err != nil {
		t.Errorf("a public answer: %v", err)
	}
	local := newReach(&target.Target{Kind: target.KindMock, Agents: map[string]string{"": "https://127.0.0.1:1/"}}, nil)
	if err := local.dial("agent.example:443", net.ParseIP("127.0.0.1")); err != nil {
		t.Errorf("a local target's loopback: %v", err)
	}
}
