package evidence_test

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/go-jose/go-jose/v4"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/harness/evidence"
	"github.com/extconf/extconf/harness/target"
)

const provider = "Acme Agents Inc."

// fixtureCard is a card on loopback that declares the terms extension and names its provider.
func fixtureCard(t *testing.T) string {
	t.Helper()
	terms, _ := catalog.DocumentByID("terms")
	card := map[string]any{
		"name": "fixture", "description": "evidence test agent", "version": "1.0.0",
		"supportedInterfaces": []map[string]string{{"url": "http://127.0.0.1:1/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}},
		"provider":            map[string]string{"organization": provider, "url": "https://acme.invalid"},
		"capabilities":        map[string]any{"extensions": []map[string]any{{"uri": terms.URI}}},
		"defaultInputModes":   []string{"text/plain"}, "defaultOutputModes": []string{"text/plain"},
		"skills": []map[string]any{{"id": "s", "name": "s", "description": "d", "tags": []string{"t"}}},
	}
	raw, err := json.Marshal(card)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/.well-known/agent-card.json" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(raw)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/.well-known/agent-card.json"
}

// fixtureRun runs two specs against a loopback card: TE-3.1 passes on the fetched card, TE-3.2a fails citing a
// second exchange (a 404), so the bundle has a pass, a failure, two exchanges and a card with a provider.
func fixtureRun(t *testing.T, runner harness.Runner) (*harness.Result, *target.Target) {
	t.Helper()
	cardURL := fixtureCard(t)
	s := harness.Suite{Document: "terms",
		Applicable: func(context.Context, *harness.Env) (bool, string) { return true, "" },
		Register: func(e *harness.Env) {
			harness.Spec(e, "TE-3.1", "passes", func(w *harness.W) {
				card, _, ex := w.Card("terms")
				w.Check(card != nil && card.Provider != nil, "a card naming its provider", "a card", ex)
			})
			harness.Spec(e, "TE-3.2a", "fails", func(w *harness.W) {
				_, ex, _ := w.Env().Client.FetchCard(w.Ctx(), strings.Replace(cardURL, "agent-card", "missing", 1), a2a.Call{Note: "a document that is not there"})
				w.Check(false, "the document is served", "404", ex)
			})
		}}
	tgt := &target.Target{Kind: target.KindURL, Agents: map[string]string{"terms": cardURL}}
	res, err := harness.Run(context.Background(), tgt, harness.Options{Suites: []harness.Suite{s}, Documents: []string{"terms"}, Seed: 7, Runner: runner})
	if err != nil {
		t.Fatal(err)
	}
	return res, tgt
}

// newBundle runs the fixture and assembles its bundle (signed when key is non-nil) without writing it.
func newBundle(t *testing.T, runner harness.Runner, key *jose.JSONWebKey) (*evidence.Bundle, []byte) {
	t.Helper()
	res, tgt := fixtureRun(t, runner)
	transcript, err := evidence.Transcript(res)
	if err != nil {
		t.Fatal(err)
	}
	b, err := evidence.New(res, tgt, transcript, nil)
	if err != nil {
		t.Fatal(err)
	}
	if key != nil {
		if err := evidence.Sign(b, key); err != nil {
			t.Fatal(err)
		}
	}
	return b, transcript
}

func writeBundle(t *testing.T, runner harness.Runner, key *jose.JSONWebKey) string {
	t.Helper()
	b, transcript := newBundle(t, runner, key)
	path, err := evidence.WriteDir(t.TempDir(), b, transcript)
	if err != nil {
		t.Fatal(err)
	}
	return path
}

func repoRoot(t *testing.T) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

func testKey(t *testing.T) *jose.JSONWebKey {
	t.Helper()
	k, err := evidence.ReadPrivateKey(filepath.Join(repoRoot(t), "fixtures", "evidencekeys", "test-signing.jwk.json"))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

var thirdParty = harness.Runner{Name: "Independent Test Lab", Tier: "third-party"}

func verify(t *testing.T, path string, key *jose.JSONWebKey) *evidence.Report {
	t.Helper()
	rep, err := evidence.VerifyBundle(path, evidence.VerifyOptions{Key: key})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestBundleValidatesAndVerifies(t *testing.T) {
	path := writeBundle(t, harness.Runner{}, nil)
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := evidence.Validate(raw); err != nil {
		t.Fatalf("bundle does not validate against evidence/bundle.schema.json: %v", err)
	}
	rep := verify(t, path, nil)
	if !rep.OK() {
		t.Fatalf("untouched bundle does not verify: %v", rep.Problems())
	}
	b := rep.Bundle
	if b.Kind != "claim" || !strings.Contains(b.Standing(), "CLAIM, NOT EVIDENCE") {
		t.Fatalf("self run not labelled a claim: %q %q", b.Kind, b.Standing())
	}
	if b.Status != "failed" || b.Totals["executed-pass"] != 1 || b.Totals["executed-fail"] != 1 {
		t.Fatalf("status %q totals %v: want one pass, one failure", b.Status, b.Totals)
	}
	if b.Transcript.Exchanges != 2 || len(b.Target.Cards) != 1 || b.Target.Cards[0].Provider != provider {
		t.Fatalf("transcript %d exchanges, cards %+v: want 2 exchanges and the fixture card with its provider", b.Transcript.Exchanges, b.Target.Cards)
	}
	if rep.Signature.Signed || !strings.Contains(strings.Join(rep.Checks[1].Notes, " "), "unsigned") {
		t.Fatalf("an unsigned bundle must say so: %+v", rep.Checks[1])
	}
}

func TestSignedThirdPartyBundleIsEvidence(t *testing.T) {
	key := testKey(t)
	path := writeBundle(t, thirdParty, key)
	rep := verify(t, path, nil)
	if !rep.OK() {
		t.Fatalf("untouched signed bundle does not verify: %v", rep.Problems())
	}
	b := rep.Bundle
	if b.Kind != "evidence" || b.Runner.Tier != "third-party" || !rep.Signature.Valid || rep.Signature.KeySource != "embedded" {
		t.Fatalf("kind %q tier %q signature %+v: want signed evidence", b.Kind, b.Runner.Tier, rep.Signature)
	}
	if !strings.HasPrefix(b.Standing(), "EVIDENCE") {
		t.Fatalf("standing %q", b.Standing())
	}
	if rep.Signature.TestKey == "" {
		t.Fatalf("a bundle signed with the committed test key must be flagged as such")
	}
	pub := key.Public()
	if rep := verify(t, path, &pub); !rep.OK() || rep.Signature.KeySource != "--key" {
		t.Fatalf("pinned to the signer's key: %v %+v", rep.Problems(), rep.Signature)
	}
	other, err := evidence.GenerateKey(evidence.AlgES256)
	if err != nil {
		t.Fatal(err)
	}
	otherPub := other.Public()
	rep = verify(t, path, &otherPub)
	if rep.OK() || !strings.Contains(strings.Join(rep.Problems(), "\n"), "a different signer") {
		t.Fatalf("pinned to another key, verify must fail naming the different signer: %v", rep.Problems())
	}
}

func TestES256SigningRoundTrips(t *testing.T) {
	k, err := evidence.GenerateKey(evidence.AlgES256)
	if err != nil {
		t.Fatal(err)
	}
	path := writeBundle(t, thirdParty, k)
	rep := verify(t, path, nil)
	if !rep.OK() || rep.Signature.Alg != "ES256" || rep.Signature.TestKey != "" {
		t.Fatalf("ES256 bundle: %v %+v", rep.Problems(), rep.Signature)
	}
}

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

func TestTierDecision(t *testing.T) {
	cards := []evidence.CardRef{{Role: "terms", URL: "https://a.invalid/card", Provider: "Acme  Agents Inc."}}
	cases := []struct {
		in        harness.Runner
		tier, in2 string
	}{
		{harness.Runner{}, "self", "nothing says"},
		{harness.Runner{Name: "acme agents inc.", Tier: "third-party"}, "self", "provider organization"},
		{harness.Runner{Tier: "third-party"}, "self", "no runner is named"},
		{harness.Runner{Name: "Lab", Tier: "self"}, "self", "declared by the runner"},
		{harness.Runner{Name: "Lab", Tier: "third-party"}, "third-party", "none of the cards' provider organizations"},
	}
	for _, c := range cases {
		got, basis := evidence.DecideTier(c.in, cards)
		if got.Tier != c.tier || !strings.Contains(basis, c.in2) {
			t.Errorf("%+v: tier %q basis %q, want %q (%s)", c.in, got.Tier, basis, c.tier, c.in2)
		}
	}
}

// A provider running the harness on its own agent with --tier third-party still gets a claim, even signed.
func TestProviderRunIsClaimEvenSigned(t *testing.T) {
	path := writeBundle(t, harness.Runner{Name: provider, Tier: "third-party"}, testKey(t))
	rep := verify(t, path, nil)
	b := rep.Bundle
	if !rep.OK() || b.Kind != "claim" || b.Runner.Tier != "self" || !strings.Contains(b.TierBasis, "provider organization") {
		t.Fatalf("provider run: ok=%v %v kind %q tier %q basis %q", rep.OK(), rep.Problems(), b.Kind, b.Runner.Tier, b.TierBasis)
	}
	if !strings.HasPrefix(b.Standing(), "CLAIM, NOT EVIDENCE") {
		t.Fatalf("standing %q", b.Standing())
	}
}

// TestSelfRunLabelledClaim: the terminal summary, the JUnit properties and the HTML report all call a self-run a
// claim and never evidence.
func TestSelfRunLabelledClaim(t *testing.T) {
	b, transcript := newBundle(t, harness.Runner{Name: "me"}, testKey(t)) // signed, but self: still a claim
	if b.Kind != "claim" {
		t.Fatalf("kind %q", b.Kind)
	}
	var sum bytes.Buffer
	evidence.Summary(&sum, b)
	if !strings.Contains(sum.String(), "CLAIM, NOT EVIDENCE: FAILED run by me (tier self)") || strings.Contains(sum.String(), "EVIDENCE:") && !strings.Contains(sum.String(), "NOT EVIDENCE") {
		t.Fatalf("terminal summary does not call the self-run a claim:\n%s", sum.String())
	}
	var ju bytes.Buffer
	if err := evidence.JUnit(&ju, b); err != nil {
		t.Fatal(err)
	}
	props := junitProps(t, ju.Bytes())
	if props["extconf.kind"] != "claim" || props["extconf.tier"] != "self" || !strings.HasPrefix(props["extconf.standing"], "CLAIM, NOT EVIDENCE") {
		t.Fatalf("JUnit properties: %v", props)
	}
	var page bytes.Buffer
	if err := evidence.HTML(&page, b, evidence.HTMLOptions{Transcript: transcript}); err != nil {
		t.Fatal(err)
	}
	html := page.String()
	if !strings.Contains(html, `id="standing" class="banner claim" data-kind="claim"`) || !strings.Contains(html, "CLAIM, NOT EVIDENCE: FAILED run by me") {
		t.Fatalf("HTML banner does not call the self-run a claim")
	}
	if strings.Contains(html, `class="banner evidence"`) {
		t.Fatalf("HTML shows a claim as evidence")
	}
}

func junitProps(t *testing.T, raw []byte) map[string]string {
	t.Helper()
	var doc struct {
		Suites []struct {
			Props []struct {
				Name  string `xml:"name,attr"`
				Value string `xml:"value,attr"`
			} `xml:"properties>property"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(raw, &doc); err != nil {
		t.Fatalf("JUnit is not XML: %v", err)
	}
	if len(doc.Suites) == 0 {
		t.Fatal("JUnit has no testsuite")
	}
	out := map[string]string{}
	for _, p := range doc.Suites[0].Props {
		out[p.Name] = p.Value
	}
	return out
}

func TestJUnitOneCasePerRow(t *testing.T) {
	b, _ := newBundle(t, thirdParty, testKey(t))
	var buf bytes.Buffer
	if err := evidence.JUnit(&buf, b); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
		Errors   int `xml:"errors,attr"`
		Suites   []struct {
			Name  string `xml:"name,attr"`
			Cases []struct {
				Name      string `xml:"name,attr"`
				Classname string `xml:"classname,attr"`
				Failure   *struct {
					Type    string `xml:"type,attr"`
					Message string `xml:"message,attr"`
					Body    string `xml:",chardata"`
				} `xml:"failure"`
				Error *struct {
					Type string `xml:"type,attr"`
				} `xml:"error"`
				Skipped *struct {
					Message string `xml:"message,attr"`
				} `xml:"skipped"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	var fail, pass, skipped, errs int
	for _, s := range doc.Suites {
		for _, c := range s.Cases {
			if c.Classname != s.Name {
				t.Errorf("%s: classname %q in suite %q", c.Name, c.Classname, s.Name)
			}
			seen[c.Name] = true
			switch {
			case c.Failure != nil:
				fail++
				if c.Name == "TE-3.2a" && (c.Failure.Type != "executed-fail" || !strings.Contains(c.Failure.Body, "expected: the document is served") || !strings.Contains(c.Failure.Body, "exchange sha256:")) {
					t.Errorf("TE-3.2a failure lacks verdict, expected or exchange: %+v", c.Failure)
				}
			case c.Error != nil:
				errs++
				if c.Error.Type != harness.Blocked && c.Error.Type != harness.NotTested {
					t.Errorf("%s: error of type %q", c.Name, c.Error.Type)
				}
			case c.Skipped != nil:
				skipped++
			default:
				pass++
				if c.Name != "TE-3.1" {
					t.Errorf("%s reads as passed", c.Name)
				}
			}
		}
	}
	if len(seen) != len(b.Rows) || doc.Tests != len(b.Rows) {
		t.Fatalf("%d distinct test cases, tests=%d, for %d rows", len(seen), doc.Tests, len(b.Rows))
	}
	// Advisory rows that did not pass are <skipped type="advisory"> (the run is not strict), not failures; blocked
	// and not-tested rows about the target are errors (incomplete), never failures; self-checks never count.
	all := harness.Totals(harness.RequiredRows(b.Rows))
	notTested := all["not-tested"] + all["blocked"]
	if pass != 1 || fail != 1 || errs != notTested || doc.Failures != fail || doc.Errors != errs || skipped != len(b.Rows)-1-fail-errs {
		t.Fatalf("pass %d fail %d (failures attr %d) errors %d (attr %d) skipped %d; totals %v", pass, fail, doc.Failures, errs, doc.Errors, skipped, b.Totals)
	}
	props := junitProps(t, buf.Bytes())
	if props["extconf.kind"] != "evidence" || props["extconf.catalog"] != b.Catalog.Digest || !strings.Contains(props["extconf.signature"], "TEST-ONLY") {
		t.Fatalf("properties %v", props)
	}
}

func TestHTMLReportContent(t *testing.T) {
	k := testKey(t)
	path := writeBundle(t, thirdParty, k)
	pub := k.Public()
	rep := verify(t, path, &pub) // pinned: only then does the report read as evidence
	b := rep.Bundle
	transcript, _ := os.ReadFile(filepath.Join(filepath.Dir(path), evidence.TranscriptFile))
	var buf bytes.Buffer
	if err := evidence.HTML(&buf, b, evidence.HTMLOptions{Transcript: transcript, Verification: rep}); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	for _, want := range []string{
		`class="banner evidence"`, "EVIDENCE: FAILED third-party run by &#34;Independent Test Lab&#34;",
		"TEST-ONLY key", // signed with the committed key: the page says so
		`<tr data-document="terms"><td`, `data-verdict="executed-pass">1</td>`, `data-verdict="executed-fail">1</td>`,
		`id="row-TE-3.2a"`, "expected: the document is served", // the failing row with its detail
		"/.well-known/missing.json → 404 (a document that is not there)", // the exchange it cites, from the transcript
	} {
		if !strings.Contains(html, want) {
			t.Errorf("HTML lacks %q", want)
		}
	}
	row, _ := catalog.MustLoad().Row("TE-3.2a")
	if !strings.Contains(html, template(row.Clause)) {
		t.Errorf("HTML lacks TE-3.2a's quoted clause %q", row.Clause)
	}
	// Single file, nothing fetched: no external reference of any kind.
	for _, bad := range []string{"<script", "<link", "<img", "<iframe", "src=", "@import", "url("} {
		if strings.Contains(strings.ToLower(html), bad) {
			t.Errorf("HTML contains %q: the report must load nothing", bad)
		}
	}
}

// template escapes like html/template does for text, enough for clauses.
func template(s string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;")
	return r.Replace(s)
}

func TestTestKeyThumbprintIsKnown(t *testing.T) {
	tp, err := evidence.Thumbprint(testKey(t))
	if err != nil {
		t.Fatal(err)
	}
	if evidence.TestKeyThumbprints[tp] == "" {
		t.Fatalf("the committed test key %s is not in evidence.TestKeyThumbprints: update it", tp)
	}
	raw, err := os.ReadFile(filepath.Join(repoRoot(t), "fixtures", "evidencekeys", "test-signing.pub.jwk.json"))
	if err != nil {
		t.Fatal(err)
	}
	var pub jose.JSONWebKey
	if err := pub.UnmarshalJSON(raw); err != nil || !pub.IsPublic() {
		t.Fatalf("test-signing.pub.jwk.json: %v", err)
	}
	if tp2, _ := evidence.Thumbprint(&pub); tp2 != tp {
		t.Fatalf("public file thumbprint %s, private %s", tp2, tp)
	}
}

func TestUnsignedThirdPartyIsRefused(t *testing.T) {
	path := writeBundle(t, thirdParty, nil)
	rep := verify(t, path, nil)
	if rep.OK() || !strings.Contains(strings.Join(rep.Problems(), "\n"), "a third-party result must be signed") {
		t.Fatalf("unsigned third-party bundle: %v", rep.Problems())
	}
	if rep.Bundle.Kind != "claim" || strings.HasPrefix(rep.Bundle.Standing(), "EVIDENCE") {
		t.Fatalf("an unsigned bundle reads as evidence: %q", rep.Bundle.Standing())
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

// The provider-name comparison reads names as a person would: case, punctuation and legal forms do not count.
func TestProviderNameNormalised(t *testing.T) {
	cards := []evidence.CardRef{{Role: "terms", URL: "https://a.invalid/card", Provider: "Acme Agents, Inc."}}
	for _, name := range []string{"Acme Agents Inc.", "acme agents inc", "ACME AGENTS", "Acme Agents.", "Acme-Agents LLC",
		"Acme Agents GmbH", "Acme Agents Ltd.", "The Acme Agents Company", "acme  agents, l.l.c."} {
		if _, ok := evidence.ProviderRunner(name, cards); !ok {
			t.Errorf("%q is not recognised as the provider %q", name, cards[0].Provider)
		}
		if got, _ := evidence.DecideTier(harness.Runner{Name: name, Tier: "third-party"}, cards); got.Tier != "self" {
			t.Errorf("%q keeps third-party over its own card", name)
		}
	}
	for _, name := range []string{"Independent Lab", "Acme", "Agents Inc"} {
		if _, ok := evidence.ProviderRunner(name, cards); ok {
			t.Errorf("%q taken for the provider %q", name, cards[0].Provider)
		}
	}
}

// The advisory section is recomputed from the rows: a bundle whose advisory count disagrees with its rows, or
// whose status ignores selection.strict, does not verify.
func TestVerifyRecomputesAdvisory(t *testing.T) {
	path := writeBundle(t, harness.Runner{}, nil)
	raw, _ := os.ReadFile(path)
	b, _, err := evidence.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	from := fmt.Sprintf(`"advisory":{"count":%d,`, b.Advisory.Count)
	if !bytes.Contains(raw, []byte(from)) {
		t.Fatalf("bundle lacks %s", from)
	}
	os.WriteFile(path, bytes.Replace(raw, []byte(from), []byte(fmt.Sprintf(`"advisory":{"count":%d,`, b.Advisory.Count+1)), 1), 0o644)
	if rep := verify(t, path, nil); rep.OK() || !strings.Contains(strings.Join(rep.Problems(), "\n"), "advisory.count") {
		t.Fatalf("a forged advisory count verifies: %v", rep.Problems())
	}
	os.WriteFile(path, bytes.Replace(raw, []byte(`"selection":{`), []byte(`"selection":{"strict":true,`), 1), 0o644)
	if b.Advisory.Count > 0 && b.Status == "passed" {
		if rep := verify(t, path, nil); rep.OK() {
			t.Fatalf("a strict bundle with advisory findings and status passed verifies")
		}
	}
}

// The self-check after writing (TrustWritten) reaches the same verdict as the full check: it verifies an untouched
// bundle, and a line edited after writing (id and content no longer agree) is caught either way, because the
// edited line is no longer one this process wrote and gets the full check.
func TestTrustWrittenSameVerdict(t *testing.T) {
	path := writeBundle(t, harness.Runner{}, nil)
	for _, trust := range []bool{false, true} {
		rep, err := evidence.VerifyBundle(path, evidence.VerifyOptions{TrustWritten: trust})
		if err != nil || !rep.OK() {
			t.Fatalf("TrustWritten=%v: untouched bundle does not verify: %v %v", trust, err, rep.Problems())
		}
	}
	tp := filepath.Join(filepath.Dir(path), evidence.TranscriptFile)
	raw, err := os.ReadFile(tp)
	if err != nil {
		t.Fatal(err)
	}
	edited := bytes.Replace(raw, []byte(`"method":"GET"`), []byte(`"method":"PUT"`), 1)
	if bytes.Equal(edited, raw) {
		t.Fatal("fixture transcript has no GET exchange to edit")
	}
	if err := os.WriteFile(tp, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, trust := range []bool{false, true} {
		rep, err := evidence.VerifyBundle(path, evidence.VerifyOptions{TrustWritten: trust})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(strings.Join(rep.Problems(), "\n"), "was edited") {
			t.Errorf("TrustWritten=%v: an edited line is not caught: %v", trust, rep.Problems())
		}
	}
}
