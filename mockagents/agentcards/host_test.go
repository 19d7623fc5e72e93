package agentcards

import (
	"crypto/tls"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"io"
	"net/http"
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
	h := &host{fx: f, secret: secret, minted: map[string]string{}}
	var ids []string
	for _, p := range f.Principals {
		ids = append(ids, p.Tenant, p.Workspace, p.ID)
	}
	for _, a := range f.Agents {
		r := h.mint(a.AgentID, a.InstallTenant, "", "")
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

func TestInventoryNeedsCredentialsAndScope(t *testing.T) {
	_, cfg, closeFn, err := Start(sabotage.Set{})
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: tlsConfig()}}
	get := func(auth string) (int, string) {
		req, _ := http.NewRequest("GET", cfg.Inventory, nil)
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
