package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/extconf/extconf/harness/evidence"
)

const (
	testKeyFile = "../../fixtures/evidencekeys/test-signing.jwk.json"
	testPubFile = "../../fixtures/evidencekeys/test-signing.pub.jwk.json"
)

func cliRun(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestKeygen(t *testing.T) {
	for _, alg := range []string{"EdDSA", "ES256"} {
		t.Run(alg, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "k.jwk.json")
			code, stdout, stderr := cliRun(t, "keygen", "--alg", alg, "--out", out)
			if code != exitPass {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			st, err := os.Stat(out)
			if err != nil || st.Mode().Perm() != 0o600 {
				t.Fatalf("private key file: %v mode %v, want 0600", err, st.Mode())
			}
			var pub map[string]any
			if err := json.Unmarshal([]byte(stdout), &pub); err != nil {
				t.Fatalf("stdout is not the public JWK: %q", stdout)
			}
			if _, hasD := pub["d"]; hasD || pub["alg"] != alg || pub["kid"] == "" {
				t.Fatalf("public JWK %v", pub)
			}
			k, err := evidence.ReadPrivateKey(out)
			if err != nil {
				t.Fatal(err)
			}
			if tp, _ := evidence.Thumbprint(k); tp != pub["kid"] {
				t.Fatalf("kid %v is not the thumbprint %s", pub["kid"], tp)
			}
			if code, _, _ := cliRun(t, "keygen", "--alg", alg, "--out", out); code == exitPass {
				t.Fatalf("keygen overwrote an existing key")
			}
		})
	}
	if code, _, _ := cliRun(t, "keygen", "--alg", "RS256", "--out", filepath.Join(t.TempDir(), "x")); code != exitUsage {
		t.Fatalf("RS256: exit %d, want %d", code, exitUsage)
	}
}

func TestStandingFlagsAreUsageErrors(t *testing.T) {
	cases := map[string]struct {
		args []string
		want string
	}{
		"third-party unsigned": {[]string{"run", "--tier", "third-party", "--as", "Lab"}, "needs --sign-key"},
		"third-party unnamed":  {[]string{"run", "--tier", "third-party", "--sign-key", testKeyFile}, "needs --as"},
		"unknown tier":         {[]string{"run", "--tier", "independent"}, "want self or third-party"},
		"public key to sign":   {[]string{"run", "--sign-key", testPubFile}, "public key"},
		"falsify third-party":  {[]string{"falsify", "--out", "x", "--tier", "third-party", "--as", "Lab"}, "needs --sign-key"},
		"verify two bundles":   {[]string{"verify", "a", "b"}, "want one bundle path"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			code, _, stderr := cliRun(t, tc.args...)
			if code != exitUsage || !strings.Contains(stderr, tc.want) {
				t.Fatalf("exit %d stderr %q, want %d and %q", code, stderr, exitUsage, tc.want)
			}
		})
	}
}

// TestRunSignVerifyRender drives the CLI end to end against the terms reference agent: a signed third-party run
// writes bundle, JUnit and HTML; verify (pinned to the signer) exits 0; render re-makes the reports; an edited
// runner name makes verify exit 1 naming it; a self-run is a claim in every output.
func TestRunSignVerifyRender(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "run")
	junit, html := filepath.Join(dir, "junit.xml"), filepath.Join(dir, "report.html")
	code, stdout, stderr := cliRun(t, "run", "--suite", "terms", "--out", out, "--as", "Independent Lab", "--tier", "third-party",
		"--sign-key", testKeyFile, "--junit", junit, "--html", html, "--seed", "3")
	if code != exitPass && code != exitFail {
		t.Fatalf("run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if strings.Contains(stderr, "HARNESS DEFECT") {
		t.Fatalf("the bundle the run wrote does not verify:\n%s", stderr)
	}
	bundle := filepath.Join(out, "bundle.json")
	if !strings.Contains(stdout, `EVIDENCE: `) || !strings.Contains(stdout, "bundle: "+bundle) {
		t.Fatalf("summary:\n%s", stdout)
	}
	for _, f := range []string{junit, html} {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Fatalf("%s not written: %v", f, err)
		}
	}
	code, stdout, _ = cliRun(t, "verify", bundle, "--key", testPubFile)
	if code != exitPass || !strings.Contains(stdout, "checked with the --key key") || !strings.Contains(stdout, "TEST-ONLY") {
		t.Fatalf("verify: exit %d\n%s", code, stdout)
	}
	html2, junit2 := filepath.Join(dir, "r2.html"), filepath.Join(dir, "r2.xml")
	code, stdout, _ = cliRun(t, "render", bundle, "--html", html2, "--junit", junit2, "--key", testPubFile)
	if code != exitPass {
		t.Fatalf("render: exit %d\n%s", code, stdout)
	}
	page, _ := os.ReadFile(html2)
	if !bytes.Contains(page, []byte(`class="banner evidence"`)) || !bytes.Contains(page, []byte(`id="verification"`)) {
		t.Fatalf("rendered HTML lacks the evidence banner or the verification table")
	}
	// Without --key the embedded key proves integrity only: no renderer says EVIDENCE.
	code, stdout, _ = cliRun(t, "render", bundle, "--html", html2, "--junit", junit2)
	page, _ = os.ReadFile(html2)
	ju, _ := os.ReadFile(junit2)
	if code != exitPass || strings.Contains(stdout, "EVIDENCE:") || bytes.Contains(page, []byte(`class="banner evidence"`)) ||
		bytes.Contains(ju, []byte("EVIDENCE:")) || !strings.Contains(stdout, "signed by an unpinned key: integrity only") {
		t.Fatalf("render without --key: exit %d\n%s", code, stdout)
	}

	raw, _ := os.ReadFile(bundle)
	os.WriteFile(bundle, bytes.Replace(raw, []byte(`"name":"Independent Lab"`), []byte(`"name":"Another Lab"`), 1), 0o644)
	code, stdout, _ = cliRun(t, "verify", bundle)
	if code != exitFail || !strings.Contains(stdout, `runner.name: was "Independent Lab", now "Another Lab"`) {
		t.Fatalf("verify of an edited bundle: exit %d\n%s", code, stdout)
	}

	self := filepath.Join(dir, "self")
	selfHTML, selfJUnit := filepath.Join(dir, "self.html"), filepath.Join(dir, "self.xml")
	code, stdout, stderr = cliRun(t, "run", "--suite", "terms", "--out", self, "--html", selfHTML, "--junit", selfJUnit, "--seed", "3")
	if code != exitPass && code != exitFail {
		t.Fatalf("self run: exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stdout, "CLAIM, NOT EVIDENCE") || !strings.Contains(stdout, "signature: unsigned") {
		t.Fatalf("self-run summary is not labelled a claim:\n%s", stdout)
	}
	if x, _ := os.ReadFile(selfJUnit); !bytes.Contains(x, []byte(`<property name="extconf.kind" value="claim">`)) {
		t.Fatalf("self-run JUnit lacks extconf.kind=claim")
	}
	if x, _ := os.ReadFile(selfHTML); !bytes.Contains(x, []byte(`class="banner claim"`)) || !bytes.Contains(x, []byte("CLAIM, NOT EVIDENCE")) {
		t.Fatalf("self-run HTML lacks the claim banner")
	}
	if code, stdout, _ := cliRun(t, "verify", filepath.Join(self, "bundle.json")); code != exitPass || !strings.Contains(stdout, "unsigned") {
		t.Fatalf("verify of the self run: exit %d\n%s", code, stdout)
	}
}

// A signed self-run, re-signed by an impostor as a third-party run with a fresh key, verifies on integrity but is
// never rendered as evidence without --key; a tampered bundle's JUnit and HTML say UNVERIFIED at the top.
func TestResignedSelfRunIsNotEvidenceWithoutKey(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "self")
	if code, stdout, stderr := cliRun(t, "run", "--suite", "terms", "--out", out, "--sign-key", testKeyFile, "--seed", "3", "--quiet"); code != exitPass {
		t.Fatalf("self run: exit %d\n%s\n%s", code, stdout, stderr)
	}
	bundle := filepath.Join(out, "bundle.json")
	b, _, err := evidence.Load(bundle)
	if err != nil {
		t.Fatal(err)
	}
	b.Kind, b.Runner.Name, b.Runner.Tier = "evidence", "Impostor", "third-party"
	b.TierBasis = "third-party: declared by \"Impostor\"; no card names a provider organization"
	fresh, err := evidence.GenerateKey(evidence.AlgEdDSA)
	if err != nil {
		t.Fatal(err)
	}
	if err := evidence.Sign(b, fresh); err != nil {
		t.Fatal(err)
	}
	transcript, _ := os.ReadFile(filepath.Join(out, evidence.TranscriptFile))
	if _, err := evidence.WriteDir(out, b, transcript); err != nil {
		t.Fatal(err)
	}
	code, stdout, _ := cliRun(t, "verify", bundle)
	if code != exitPass || strings.Contains(stdout, "EVIDENCE") || !strings.Contains(stdout, "signed by an unpinned key: integrity only") {
		t.Fatalf("verify without --key: exit %d\n%s", code, stdout)
	}
	html, junit := filepath.Join(dir, "r.html"), filepath.Join(dir, "r.xml")
	code, stdout, _ = cliRun(t, "render", bundle, "--html", html, "--junit", junit)
	page, _ := os.ReadFile(html)
	ju, _ := os.ReadFile(junit)
	if code != exitPass || strings.Contains(stdout, "EVIDENCE:") || bytes.Contains(page, []byte("EVIDENCE:")) ||
		bytes.Contains(page, []byte(`class="banner evidence"`)) || bytes.Contains(ju, []byte("EVIDENCE:")) {
		t.Fatalf("render without --key reads as evidence: exit %d\n%s", code, stdout)
	}
	// The impostor's bundle checked against the key the reader trusts: a different signer, exit 1.
	if code, stdout, _ := cliRun(t, "verify", bundle, "--key", testPubFile); code != exitFail || strings.Contains(stdout, "EVIDENCE") {
		t.Fatalf("verify pinned to the real key: exit %d\n%s", code, stdout)
	}

	// Tampered: a verdict edited after signing.
	raw, _ := os.ReadFile(bundle)
	os.WriteFile(bundle, bytes.Replace(raw, []byte(`"name":"Impostor"`), []byte(`"name":"Mallory"`), 1), 0o644)
	code, _, _ = cliRun(t, "render", bundle, "--html", html, "--junit", junit)
	page, _ = os.ReadFile(html)
	ju, _ = os.ReadFile(junit)
	if code != exitFail || !bytes.Contains(page, []byte("<title>extconf UNVERIFIED")) || !bytes.Contains(page, []byte(`class="banner unverified"`)) {
		t.Fatalf("tampered HTML: exit %d\n%.800s", code, page)
	}
	head := ju[:bytes.Index(ju, []byte("<testsuite "))]
	if !bytes.Contains(head, []byte("<!-- UNVERIFIED: ")) || !bytes.Contains(head, []byte(`name="UNVERIFIED extconf`)) || bytes.Contains(ju, []byte("EVIDENCE:")) {
		t.Fatalf("tampered JUnit:\n%.800s", ju)
	}
}
