package hostile

import (
	"bufio"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/harnesstest"
	"github.com/extconf/extconf/harness/target"
)

// Issue 37.1: every HTTP client the harness builds comes from harness.NewClient, which always applies the reach
// rule at URL and dial time. This test reads the module and fails on any other http.Client, http.Transport or
// a2a.NewClient outside the files listed here, each with why it is not a client of the target.
func TestOneClientConstructor(t *testing.T) {
	exempt := map[string]string{
		"harness/a2a/client.go":                 "the transport harness.NewClient configures",
		"harness/client.go":                     "harness.NewClient, the one constructor",
		"harness/a2atest/front.go":              "the reference agents' patching proxy: dials loopback only (DialLoopbackOnly)",
		"harness/target/container/container.go": "polls the card of the container the run started, on loopback, before any run",
		"mockagents/announce.go":                "a reference agent announcing itself, not the harness",
		"cmd/refclient/main.go":                 "the reference client under certification, not the harness",
		"interop/serve/main.go":                 "the interop test bed's server",
	}
	patterns := []string{"http.Client{", "http.Transport{", "a2a.NewClient(", "http.DefaultClient", "http.DefaultTransport",
		"http.Get(", "http.Post(", "http.Head(", "http.PostForm("}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	err = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "evidence" && filepath.Dir(p) == root || strings.HasPrefix(n, ".") && p != root || n == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for n := 1; sc.Scan(); n++ {
			line := sc.Text()
			if strings.HasPrefix(strings.TrimSpace(line), "//") {
				continue
			}
			for _, pat := range patterns {
				if strings.Contains(line, pat) {
					found++
					if _, ok := exempt[rel]; !ok {
						t.Errorf("%s:%d builds an HTTP client outside harness.NewClient (%s): the reach rule is not applied to it", rel, n, pat)
					}
				}
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	if found < 2 {
		t.Fatalf("found %d constructions in the module: the scan is not reading it", found)
	}
}

// Issue 37.1: a remote target's data points at this host under every spelling; each is refused, at URL time or at
// dial time (a name the operator listed in allowOrigins that resolves here: hosts-file names, localhost), and no
// listener on this host sees a request (the constructor every client comes from; cmd/runsuite's
// TestConfigInitObeysReach runs config init through it).
func TestEveryClientObeysReach(t *testing.T) {
	local := newRecorder(t)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(local.url, "http://"))
	hostAddr := hostAddress(t)
	host6 := harnesstest.Listen(t, "[::1]:0", func(w http.ResponseWriter, r *http.Request) { local.add("::1 " + r.URL.Path) })
	onHost := harnesstest.Listen(t, net.JoinHostPort(hostAddr, "0"), func(w http.ResponseWriter, r *http.Request) {
		local.add("host " + r.URL.Path)
	})
	spellings := []string{local.url, "http://localhost:" + port, "http://127.1:" + port, "http://2130706433:" + port,
		"http://0x7f.0.0.1:" + port, "http://127.0.0.01:" + port, "http://0.0.0.0:" + port, "http://[::ffff:127.0.0.1]:" + port,
		host6, onHost}
	names := hostsFileNames()
	var allow []string
	for _, n := range names {
		allow = append(allow, "http://"+net.JoinHostPort(n, port))
	}
	allow = append(allow, local.url, onHost, host6)
	spellings = append(spellings, allow...)
	card := harnesstest.RemoteListen(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"name":"r","supportedInterfaces":[{"url":"` + local.url + `/rpc","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]}`))
	})
	lim, _ := json.Marshal(map[string]any{"allowOrigins": allow})
	cfg := target.Config{Limits: lim, Principals: map[string]target.Principal{"A": {Header: "Authorization", Value: "Bearer reach-test-secret-0123"}}}
	tgt, err := target.URL(card+"/card.json", cfg)
	if err != nil {
		t.Fatal(err)
	}
	l := a2a.DefaultLimits()
	l.ConnectTimeout = time.Second
	cl := harness.NewClient(harness.ReachOf(tgt, nil), a2a.Options{Limits: l}).WithHeader("Authorization", "Bearer reach-test-secret-0123")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, _, err := cl.FetchCard(ctx, card+"/card.json", a2a.Call{}); err != nil {
		t.Fatalf("the remote card itself is refused: %v", err)
	}
	start := time.Now()
	for _, s := range spellings {
		_, ex, err := cl.FetchCard(ctx, s+"/x", a2a.Call{})
		if err == nil || ex.Status != 0 {
			t.Errorf("%s: reached (status %d)", s, ex.Status)
			continue
		}
		t.Logf("%-40s refused: %.120s", s, err)
	}
	if got := local.requests(); len(got) > 0 {
		t.Fatalf("this host's listeners were reached by a remote target: %v", got)
	}
	t.Logf("%d spellings (%d hosts-file names) refused in %s", len(spellings), len(names), time.Since(start).Round(time.Millisecond))
}

// hostsFileNames are the names /etc/hosts maps to this host (besides "localhost", which the URL check names).
func hostsFileNames() []string {
	b, err := os.ReadFile("/etc/hosts")
	if err != nil {
		return nil
	}
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if ip := net.ParseIP(f[0]); ip == nil || !ip.IsLoopback() {
			continue
		}
		for _, n := range f[1:] {
			if n != "localhost" && !strings.Contains(n, ":") && len(out) < 4 {
				out = append(out, n)
			}
		}
	}
	return out
}

func (r *recorder) add(s string) {
	r.mu.Lock()
	r.seen = append(r.seen, s)
	r.mu.Unlock()
}
