package main

import (
	"crypto/tls"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness/harnesstest"
)

// Issue 37.1 (HIGH): config init derives schema-interface's section by POSTing describe_skill as principal A to the
// card's interface. A remote card whose interfaces point at this host (127.0.0.1, this host's address) must not
// get the credential there: the probe's client is harness.NewClient, with the run's reach rule.
func TestConfigInitObeysReach(t *testing.T) {
	dir := t.TempDir()
	base, agents := baseFromMock(t, dir)
	var bm map[string]any
	if b, err := os.ReadFile(base); err != nil || json.Unmarshal(b, &bm) != nil {
		t.Fatal("base config unreadable", err)
	}
	delete(bm, "agents") // the remote card is the target
	base = writeJSON(t, base, bm)
	var mu sync.Mutex
	var seen []string
	rec := func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Method+" "+r.Host+r.URL.Path+" auth="+r.Header.Get("Authorization"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{}}`)
	}
	loop := harnesstest.Listen(t, "127.0.0.1:0", rec)
	onHost := loop
	if a := ownAddress(); a != "" {
		onHost = harnesstest.Listen(t, net.JoinHostPort(a, "0"), rec)
	}
	// The reference schema-interface card, its interfaces moved to this host's listeners.
	hc := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: testpki.CAPool()}}}
	resp, err := hc.Get(agents["schema-interface"])
	if err != nil {
		t.Fatal(err)
	}
	var card map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&card)
	resp.Body.Close()
	ifs, _ := card["supportedInterfaces"].([]any)
	if len(ifs) == 0 {
		t.Fatal("the reference card has no interfaces")
	}
	for i, x := range ifs {
		m := x.(map[string]any)
		m["url"] = []string{loop, onHost}[i%2] + "/a2a"
	}
	body, _ := json.Marshal(card)
	cardGets := 0
	remote := harnesstest.RemoteListen(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		cardGets++
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	})
	code, stdout, stderr := runCLI("config", "init", "--target", remote+"/card.json", "--config", base,
		"--suite", "schema-interface", "--out", filepath.Join(dir, "out.json"))
	mu.Lock()
	defer mu.Unlock()
	if cardGets == 0 {
		t.Fatalf("the remote card was never read (exit %d): nothing was tested\n%s\n%s", code, stdout, stderr)
	}
	if len(seen) > 0 {
		t.Fatalf("config init sent %d requests to this host for a remote card: %v", len(seen), seen)
	}
	if !strings.Contains(stdout+stderr, "this host's own address") && !strings.Contains(stdout+stderr, "refused") {
		t.Logf("(the refusal is not named on stdout/stderr)\n%s\n%s", stdout, stderr)
	}
}

func ownAddress() string {
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.To4() != nil && !n.IP.IsLoopback() && !n.IP.IsLinkLocalUnicast() {
			return n.IP.String()
		}
	}
	return ""
}

// Issue 37.6: config init --config BASE printing to stdout never prints BASE's plain credential values.
func TestConfigInitPrintsNoPlainCredential(t *testing.T) {
	dir := t.TempDir()
	base, agents := baseFromMock(t, dir)
	b, _ := os.ReadFile(base)
	var bm struct {
		Credentials map[string]struct {
			Value any `json:"value"`
		} `json:"credentials"`
	}
	_ = json.Unmarshal(b, &bm)
	var plain []string
	for _, c := range bm.Credentials {
		if s, ok := c.Value.(string); ok && len(s) >= 8 {
			plain = append(plain, s)
		}
	}
	if len(plain) == 0 {
		t.Fatal("the base holds no plain credential: nothing tested")
	}
	code, stdout, stderr := runCLI("config", "init", "--target", agents["terms"], "--config", base, "--suite", "terms")
	if code != exitPass {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, s := range plain {
		if strings.Contains(stdout+stderr, s) {
			t.Errorf("a plain credential value was printed (%q…)", s[:4])
		}
	}
	if !strings.Contains(stdout, `"fromEnv"`) {
		t.Errorf("the printed configuration names no fromEnv in place of the values:\n%s", stdout)
	}
}

// Issue 37.6: a run holds an exclusive lock on --out for its whole length: a second run into the same new --out
// exits 2 naming the other run, instead of one bundle silently replacing the other's.
func TestOutIsLockedForTheRun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	release, err := lockOut(dir) // the first run, still writing
	if err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI("run", "--quiet", "--suite", "terms", "--out", dir)
	if code != exitUsage || !strings.Contains(stderr, "another runsuite run is writing into it") {
		t.Fatalf("a second run into a locked --out: exit %d\n%s", code, stderr)
	}
	release()
	if code, _, stderr := runCLI("run", "--quiet", "--suite", "terms", "--jobs", "1", "--out", dir); code != exitPass {
		t.Fatalf("after the first run ended: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, ".runsuite.lock")); err == nil {
		t.Error("the lock file stays in the bundle directory")
	}
}
