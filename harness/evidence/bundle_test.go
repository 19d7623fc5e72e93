package evidence_test

import (
	"bytes"
	"context"
	"encoding/json"
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
