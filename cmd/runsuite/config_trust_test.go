package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/harness/target"
	vterms "github.com/extconf/extconf/harness/verify/terms"
)

// config init and check ask for caFile when the card is served from an authority the configuration does not trust,
// and for trustedKeys when the card's signature names a key neither trustedKeys nor its origin gives.
func TestConfigAsksForCAFileAndTrustedKeys(t *testing.T) {
	srv, err := a2atest.Start(a2atest.Agent{Name: "signed",
		Card: func(base string) any {
			return &a2a.AgentCard{Name: "signed", Description: "a signed agent", Version: "1.0",
				SupportedInterfaces: a2atest.Interfaces(base),
				Capabilities:        a2a.AgentCapabilities{Extensions: []a2a.AgentExtension{{URI: vterms.URI}}},
				DefaultInputModes:   []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
				Skills: []a2a.AgentSkill{{ID: "echo", Name: "echo", Description: "echoes", Tags: []string{"echo"}}}}
		},
		Signer: &a2atest.CardSigner{Key: testpki.CardKeyES256(), Alg: "ES256", KID: testpki.KIDES256}}, a2atest.Options{TLS: true})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dir := t.TempDir()
	none := writeJSON(t, filepath.Join(dir, "none.json"), target.Config{})
	_, _, stderr := runCLI("config", "init", "--target", srv.CardURL(), "--config", none)
	if !strings.Contains(stderr, "give         caFile: "+srv.CardURL()) {
		t.Errorf("no caFile asked for:\n%s", stderr)
	}
	ca, _ := filepath.Abs("../../fixtures/testpki/ca.pem")
	withCA := writeJSON(t, filepath.Join(dir, "ca.json"), target.Config{CAFile: ca})
	_, _, stderr = runCLI("config", "init", "--target", srv.CardURL(), "--config", withCA)
	if strings.Contains(stderr, "give         caFile") || !strings.Contains(stderr, "give         trustedKeys: the signature of the card at "+srv.CardURL()) {
		t.Errorf("want trustedKeys asked for, not caFile:\n%s", stderr)
	}
	code, out, _ := runCLI("config", "check", withCA, "--target", srv.CardURL())
	if code != exitFail || !strings.Contains(out, "give         trustedKeys") {
		t.Errorf("config check: exit %d:\n%s", code, out)
	}
	withKeys := writeJSON(t, filepath.Join(dir, "keys.json"), target.Config{CAFile: ca, TrustedKeys: testpki.CardJWKS()})
	_, _, stderr = runCLI("config", "init", "--target", srv.CardURL(), "--config", withKeys)
	if strings.Contains(stderr, "give         ") {
		t.Errorf("trust given, still asked for:\n%s", stderr)
	}
}
