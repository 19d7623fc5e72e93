package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/harness/target"
	vterms "github.com/extconf/extconf/refclients/terms"
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

// A document the card links to on another origin the run may reach (limits.allowOrigins), served from an authority
// the configuration does not trust, is asked for too: the rows reading it would block on it.
func TestConfigAsksForCAFileOfALinkedDocument(t *testing.T) {
	docs, err := a2atest.Start(a2atest.Agent{Name: "proposals"}, a2atest.Options{TLS: true})
	if err != nil {
		t.Fatal(err)
	}
	defer docs.Close()
	proposal := docs.URL() + "/terms/standard.sow.json"
	card, err := a2atest.Start(a2atest.Agent{Name: "plain",
		Card: func(base string) any {
			return map[string]any{"name": "plain", "description": "an agent", "version": "1.0",
				"supportedInterfaces": a2atest.Interfaces(base),
				"capabilities": map[string]any{"extensions": []any{map[string]any{"uri": vterms.URI,
					"params": map[string]any{"proposals": []any{map[string]any{"url": proposal}}}}}},
				"defaultInputModes": []string{"text/plain"}, "defaultOutputModes": []string{"text/plain"},
				"skills": []any{map[string]any{"id": "echo", "name": "echo", "description": "echoes", "tags": []string{"echo"}}}}
		}}, a2atest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer card.Close()
	dir := t.TempDir()
	limits := []byte(`{"allowOrigins": ["` + docs.URL() + `"]}`)
	base := writeJSON(t, filepath.Join(dir, "base.json"), target.Config{Limits: limits})
	_, _, stderr := runCLI("config", "init", "--target", card.CardURL(), "--config", base)
	if !strings.Contains(stderr, "give         caFile: "+proposal) {
		t.Errorf("no caFile asked for the proposal:\n%s", stderr)
	}
	ca, _ := filepath.Abs("../../fixtures/testpki/ca.pem")
	withCA := writeJSON(t, filepath.Join(dir, "ca.json"), target.Config{Limits: limits, CAFile: ca})
	if _, _, stderr := runCLI("config", "init", "--target", card.CardURL(), "--config", withCA); strings.Contains(stderr, "give         caFile") {
		t.Errorf("caFile given, still asked for:\n%s", stderr)
	}
}
