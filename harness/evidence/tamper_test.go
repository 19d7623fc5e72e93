package evidence_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/evidence"
)

// TestVerifyNamesTampering: each edit of a signed bundle or its transcript makes verify fail with a message
// naming what changed; the untouched bundle verifies (TestSignedThirdPartyBundleIsEvidence).
func TestVerifyNamesTampering(t *testing.T) {
	type edit func(t *testing.T, dir string)
	onBundle := func(f func(m map[string]any)) edit {
		return func(t *testing.T, dir string) {
			p := filepath.Join(dir, "bundle.json")
			raw, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Fatal(err)
			}
			f(m)
			out, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, out, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	row := func(m map[string]any, id string) map[string]any {
		for _, r := range m["rows"].([]any) {
			if r.(map[string]any)["id"] == id {
				return r.(map[string]any)
			}
		}
		t.Fatalf("no row %s", id)
		return nil
	}
	cases := []struct {
		name string
		edit edit
		want []string // every one must appear in the problems
	}{
		{"flipped verdict", onBundle(func(m map[string]any) { row(m, "TE-3.2a")["verdict"] = "executed-pass" }),
			[]string{`rows[TE-3.2a].verdict: was "executed-fail", now "executed-pass"`, "witnessSha256", "a row"}},
		{"flipped verdict with totals fixed up", onBundle(func(m map[string]any) {
			row(m, "TE-3.2a")["verdict"] = "executed-pass"
			tot := m["totals"].(map[string]any)
			tot["executed-pass"], tot["executed-fail"], m["status"] = 2.0, 0.0, "passed"
		}), []string{`rows[TE-3.2a].verdict`, `status: was "failed", now "passed"`, "witnessSha256"}},
		{"edited transcript line", func(t *testing.T, dir string) {
			p := filepath.Join(dir, evidence.TranscriptFile)
			raw, _ := os.ReadFile(p)
			if !bytes.Contains(raw, []byte(`"status":404`)) {
				t.Fatalf("no 404 in the transcript: %s", raw)
			}
			os.WriteFile(p, bytes.Replace(raw, []byte(`"status":404`), []byte(`"status":200`), 1), 0o644)
		}, []string{"GET http://127.0.0.1", "/.well-known/missing.json) was edited", "the transcript was edited", "which is not in the transcript"}},
		{"changed target card digest", onBundle(func(m map[string]any) {
			c := m["target"].(map[string]any)["cards"].([]any)[0].(map[string]any)
			c["sha256"] = "sha256:" + strings.Repeat("0", 64)
		}), []string{`target card "terms" digest`, "target.cards[terms].sha256: was"}},
		{"removed row", onBundle(func(m map[string]any) {
			rows := m["rows"].([]any)
			kept := rows[:0]
			for _, r := range rows {
				if r.(map[string]any)["id"] != "TE-3.1" {
					kept = append(kept, r)
				}
			}
			m["rows"] = kept
		}), []string{"row TE-3.1 (terms, a document the run covers) is missing", "rows[TE-3.1]: removed"}},
		{"altered runner name", onBundle(func(m map[string]any) {
			m["runner"].(map[string]any)["name"] = "Someone Else"
		}), []string{`runner.name: was "Independent Test Lab", now "Someone Else"`}},
		{"runner renamed to the provider", onBundle(func(m map[string]any) {
			m["runner"].(map[string]any)["name"] = provider
		}), []string{"runner.name", `the runner "Acme Agents Inc." is the provider organization`}},
		{"replaced signature key", onBundle(func(m map[string]any) {
			sig := m["signature"].(map[string]any)
			sig["thumbprint"] = strings.Repeat("A", 43)
		}), []string{"is not the thumbprint of signature.jwk"}},
		{"private key embedded", onBundle(func(m map[string]any) {
			m["signature"].(map[string]any)["jwk"].(map[string]any)["d"] = "AAAA"
		}), []string{"schema:", `private member "d"`}},
	}
	key := testKey(t)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			path := writeBundle(t, thirdParty, key)
			if rep := verify(t, path, nil); !rep.OK() {
				t.Fatalf("untouched bundle does not verify: %v", rep.Problems())
			}
			tc.edit(t, filepath.Dir(path))
			rep := verify(t, path, nil)
			got := strings.Join(rep.Problems(), "\n")
			if rep.OK() {
				t.Fatalf("tampered bundle verifies")
			}
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("problems do not name %q:\n%s", w, got)
				}
			}
		})
	}
}

// TestVerifyNamesTamperingUnsigned: without a signature the digests alone still catch and name each edit.
func TestVerifyNamesTamperingUnsigned(t *testing.T) {
	cases := map[string]struct {
		file, from, to, want string
	}{
		"flipped verdict":   {"bundle.json", `"verdict":"executed-fail"`, `"verdict":"executed-pass"`, "the transcript is intact, so a row"},
		"edited totals":     {"bundle.json", `"executed-pass":1`, `"executed-pass":2`, "totals: executed-pass is 2 in the bundle but 1 rows carry it"},
		"card digest":       {"bundle.json", `"role":"terms","sha256":"sha256:`, `"role":"terms","sha256":"sha256:0`, `target card "terms" digest`},
		"edited transcript": {evidence.TranscriptFile, `"status":404`, `"status":500`, "/.well-known/missing.json) was edited"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			path := writeBundle(t, harness.Runner{}, nil)
			p := filepath.Join(filepath.Dir(path), tc.file)
			raw, _ := os.ReadFile(p)
			if !strings.Contains(string(raw), tc.from) {
				t.Fatalf("%s lacks %s", tc.file, tc.from)
			}
			_ = os.WriteFile(p, []byte(strings.Replace(string(raw), tc.from, tc.to, 1)), 0o644)
			problems, err := evidence.Verify(path)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(strings.Join(problems, "\n"), tc.want) {
				t.Fatalf("problems %v do not name %s", problems, tc.want)
			}
		})
	}
}

func TestDiffJSONNamesPaths(t *testing.T) {
	a := `{"rows":[{"id":"A","verdict":"x"},{"id":"B","verdict":"y"}],"runner":{"name":"n"},"n":1}`
	b := `{"rows":[{"id":"B","verdict":"z"}],"runner":{"name":"m"},"n":1,"extra":true}`
	got := strings.Join(evidence.DiffJSON([]byte(a), []byte(b), 0), "\n")
	for _, want := range []string{"rows[A]: removed", `rows[B].verdict: was "y", now "z"`, `runner.name: was "n", now "m"`, "extra: added"} {
		if !strings.Contains(got, want) {
			t.Errorf("diff lacks %q:\n%s", want, got)
		}
	}
}

func TestVerifyReportsMalformedBundles(t *testing.T) {
	path := writeBundle(t, harness.Runner{}, nil)
	raw, _ := os.ReadFile(path)
	// An unknown member: every check still runs, and the schema names it.
	os.WriteFile(path, bytes.Replace(raw, []byte(`{"advisory"`), []byte(`{"approvedBy":"me","advisory"`), 1), 0o644)
	rep := verify(t, path, nil)
	if rep.OK() || rep.Bundle == nil || !strings.Contains(strings.Join(rep.Problems(), "\n"), "approvedBy") || len(rep.Checks) < 5 {
		t.Fatalf("unknown member: %v", rep.Problems())
	}
	// A doubled status (decoders disagree on which one wins) and a case variant: each refused by name.
	for from, to := range map[string]string{`"status":`: `"status":"passed","status":`, `{"advisory"`: `{"AssertionCount":0,"advisory"`} {
		os.WriteFile(path, bytes.Replace(raw, []byte(from), []byte(to), 1), 0o644)
		if _, _, err := evidence.Load(path); err == nil || !(strings.Contains(err.Error(), `duplicate member "status"`) || strings.Contains(err.Error(), `unknown member "AssertionCount"`)) {
			t.Errorf("%s: Load = %v, want the member named", to, err)
		}
	}
	// Not a bundle at all.
	os.WriteFile(path, []byte(`[1,2,3]`), 0o644)
	rep = verify(t, path, nil)
	if rep.OK() || rep.Bundle != nil || !strings.Contains(strings.Join(rep.Problems(), "\n"), "is not an extconf bundle") {
		t.Fatalf("not a bundle: %v", rep.Problems())
	}
}

// A report rendered from a bundle that fails verification says so first, and never shows the evidence banner.
func TestHTMLOfTamperedBundleSaysUnverified(t *testing.T) {
	path := writeBundle(t, thirdParty, testKey(t))
	raw, _ := os.ReadFile(path)
	os.WriteFile(path, bytes.Replace(raw, []byte(`"name":"Independent Test Lab"`), []byte(`"name":"Mallory"`), 1), 0o644)
	rep := verify(t, path, nil)
	var buf bytes.Buffer
	if err := evidence.HTML(&buf, rep.Bundle, evidence.HTMLOptions{Verification: rep}); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	if !strings.Contains(html, `class="banner unverified"`) || !strings.Contains(html, "<title>extconf UNVERIFIED") ||
		!strings.Contains(html, "<strong>UNVERIFIED: the bundle does not pass offline verification") ||
		strings.Contains(html, `class="banner evidence"`) || strings.Contains(html, "EVIDENCE:") {
		t.Fatalf("tampered bundle's report does not lead with its failed verification")
	}
	if !strings.Contains(html, "runner.name: was &#34;Independent Test Lab&#34;, now &#34;Mallory&#34;") {
		t.Fatalf("the verification table does not name the change")
	}
}

// A bundle re-signed by anyone verifies with the key it embeds; without a pinned key no renderer calls it
// evidence, and with the signer's key pinned it is (the reader chose to trust that key).
func TestResignedBundleIsNeverEvidenceWithoutPinnedKey(t *testing.T) {
	impostor, err := evidence.GenerateKey(evidence.AlgEdDSA)
	if err != nil {
		t.Fatal(err)
	}
	path := writeBundle(t, harness.Runner{Name: "Impostor", Tier: "third-party"}, impostor)
	rep := verify(t, path, nil)
	if !rep.OK() || rep.Bundle.Kind != "evidence" {
		t.Fatalf("a re-signed bundle should verify on integrity: %v", rep.Problems())
	}
	b := rep.Bundle
	var sum, ju, page bytes.Buffer
	evidence.SummaryWith(&sum, b, rep)
	if err := evidence.JUnitWith(&ju, b, rep); err != nil {
		t.Fatal(err)
	}
	if err := evidence.HTML(&page, b, evidence.HTMLOptions{Verification: rep}); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"summary": sum.String(), "junit": ju.String(), "html": page.String()} {
		if strings.Contains(out, "EVIDENCE:") || strings.Contains(out, `class="banner evidence"`) {
			t.Errorf("%s of an unpinned re-signed bundle reads as evidence", name)
		}
		if !strings.Contains(out, "signed by an unpinned key: integrity only") {
			t.Errorf("%s does not say the key is unpinned:\n%.600s", name, out)
		}
	}
	if h := evidence.Headline(b, nil); strings.Contains(h, "EVIDENCE") {
		t.Errorf("unverified headline %q", h)
	}
	pub := impostor.Public()
	pinned := verify(t, path, &pub)
	if h := evidence.Headline(b, pinned); !strings.HasPrefix(h, "EVIDENCE: ") {
		t.Errorf("pinned headline %q", h)
	}
}

// The JUnit report of a tampered bundle says UNVERIFIED before anything else and carries a failing verification
// suite naming each problem.
func TestJUnitOfTamperedBundleSaysUnverified(t *testing.T) {
	path := writeBundle(t, thirdParty, testKey(t))
	raw, _ := os.ReadFile(path)
	os.WriteFile(path, bytes.Replace(raw, []byte(`"name":"Independent Test Lab"`), []byte(`"name":"Mallory"`), 1), 0o644)
	rep := verify(t, path, nil)
	var buf bytes.Buffer
	if err := evidence.JUnitWith(&buf, rep.Bundle, rep); err != nil {
		t.Fatal(err)
	}
	x := buf.String()
	head := x[:strings.Index(x, "<testsuite ")]
	if !strings.Contains(head, "<!-- UNVERIFIED: ") || !strings.Contains(head, `name="UNVERIFIED extconf`) || strings.Contains(x, "EVIDENCE:") {
		t.Fatalf("JUnit of a tampered bundle:\n%.800s", x)
	}
	if !strings.Contains(x, `<testsuite name="bundle verification"`) || !strings.Contains(x, `type="unverified"`) ||
		!strings.Contains(x, `name="extconf.verified" value="false: UNVERIFIED`) {
		t.Fatalf("JUnit lacks the failing verification suite:\n%.1500s", x)
	}
}
