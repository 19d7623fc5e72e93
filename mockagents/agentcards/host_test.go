package agentcards

import (
	"crypto/tls"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/sabotage"
)

// The fixture secret must not mint a value that happens to carry an identifier (the suite's detector would then
// fail the reference host): check every value against every identifier in the encodings the suite looks for.
func TestMintedValuesCarryNoIdentifier(t *testing.T) {
	f, secret, err := load()
	if err != nil {
		t.Fatal(err)
	}
	for _, opt := range []Options{{}, {RVariety: true}} {
		checkMinted(t, &host{fx: f, secret: secret, opt: opt, minted: map[string]string{}})
	}
}

func checkMinted(t *testing.T, h *host) {
	f := h.fx
	var ids []string
	for _, p := range f.Principals {
		ids = append(ids, p.Tenant, p.Workspace, p.ID)
	}
	for _, a := range f.Agents {
		r := h.mint(a.AgentID, a.InstallTenant, "", "")
		if len(r) < 1 || len(r) > 128 || strings.Trim(r, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._~-") != "" {
			t.Errorf("R %q of %s is outside the a2aTenant schema", r, a.AgentID)
		}
		for _, id := range ids {
			if carries(r, id) {
				t.Errorf("R %q of %s carries %q: regenerate fixtures/agentcards/host-secret.txt", r, a.AgentID, id)
			}
		}
	}
}

// carries is a coarse version of the suite's detector (literal, and each encoding decoded from every offset).
func carries(r, id string) bool {
	lid := strings.ToLower(id)
	if strings.Contains(strings.ToLower(r), lid) {
		return true
	}
	for i := range len(r) {
		for end := len(r); end > i+1; end-- {
			s := r[i:end]
			for _, d := range [][]byte{b64(s), b32(s), hx(s)} {
				if strings.Contains(strings.ToLower(string(d)), lid) {
					return true
				}
			}
		}
	}
	return false
}

func b64(s string) []byte { d, _ := base64.RawURLEncoding.DecodeString(s); return d }
func b32(s string) []byte {
	d, _ := base32.StdEncoding.WithPadding(base32.NoPadding).DecodeString(s)
	return d
}
func hx(s string) []byte { d, _ := hex.DecodeString(s); return d }

// originOf is the scheme://host of the host's card URL.
func originOf(t *testing.T, roles map[string]string) string {
	u, err := url.Parse(roles["agent-cards"])
	if err != nil {
		t.Fatal(err)
	}
	return u.Scheme + "://" + u.Host
}

func TestInventoryNeedsCredentialsAndScope(t *testing.T) {
	roles, cfg, closeFn, err := Start(sabotage.Set{})
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	if cfg.Discovery != "" || cfg.Inventory != "" {
		t.Errorf("the host configures discovery %q / inventory %q: the suite must find both itself", cfg.Discovery, cfg.Inventory)
	}
	inventory := originOf(t, roles) + InventoryPath
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: tlsConfig()}}
	get := func(auth string) (int, string) {
		req, _ := http.NewRequest("GET", inventory, nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if st, _ := get(""); st != 401 {
		t.Errorf("no credential: %d, want 401", st)
	}
	if st, _ := get(cfg.Principals["A-restricted"].Value); st != 403 {
		t.Errorf("A-restricted: %d, want 403", st)
	}
	st, body := get(cfg.Principals["A"].Value)
	if st != 200 || !strings.Contains(body, `"a2aTenant"`) || strings.Contains(body, "CANARY") {
		t.Errorf("A: %d %s", st, body)
	}
	if strings.Contains(body, "vendor.beta.ledger.auditor") {
		t.Error("A's inventory lists tenant B's agent")
	}
}

func tlsConfig() *tls.Config {
	return &tls.Config{RootCAs: testpki.CAPool(), MinVersion: tls.VersionTLS12}
}

// capabilities.md §1: no OpenWOP-Version → the v1 document; OpenWOP-Version: 2 → the closed v2 root with the facet
// in the a2a record; §1.1: an ETag per representation, If-None-Match answered 304.
func TestDiscoveryNegotiatesV2AndHonoursETag(t *testing.T) {
	roles, _, closeFn, err := Start(sabotage.Set{})
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: tlsConfig()}}
	get := func(version, inm string) (int, http.Header, map[string]any) {
		req, _ := http.NewRequest("GET", originOf(t, roles)+DiscoveryPath, nil)
		if version != "" {
			req.Header.Set("OpenWOP-Version", version)
		}
		if inm != "" {
			req.Header.Set("If-None-Match", inm)
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var doc map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&doc)
		return resp.StatusCode, resp.Header, doc
	}
	st, h1, v1 := get("", "")
	if st != 200 || h1.Get("ETag") == "" || v1["a2a"] == nil || v1["a2a"].(map[string]any)["agentCards"] != nil {
		t.Errorf("v1: %d etag %q %v", st, h1.Get("ETag"), v1)
	}
	st, h2, v2 := get("2", "")
	a2aRec, _ := v2["a2a"].(map[string]any)
	agents, _ := v2["agents"].(map[string]any)
	if st != 200 || a2aRec["agentCards"] != true || agents["manifestRuntime"] != true || v2["profiles"] != nil || v2["preferredVersion"] != "2.0" {
		t.Errorf("v2: %d %v", st, v2)
	}
	if h2.Get("ETag") == "" || h2.Get("ETag") == h1.Get("ETag") {
		t.Errorf("ETags v1 %q v2 %q: each representation needs its own", h1.Get("ETag"), h2.Get("ETag"))
	}
	if st, _, _ := get("2", h2.Get("ETag")); st != http.StatusNotModified {
		t.Errorf("If-None-Match with the v2 ETag: %d, want 304", st)
	}
	if st, _, _ := get("2", h1.Get("ETag")); st != 200 {
		t.Errorf("If-None-Match with the v1 ETag on a v2 request: %d, want 200", st)
	}
}
