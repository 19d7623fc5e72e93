package verify_test

import (
	"bytes"
	"crypto/tls"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/harness/verify"
)

func testKeys(t *testing.T) *jose.JSONWebKeySet {
	t.Helper()
	var set jose.JSONWebKeySet
	if err := json.Unmarshal(testpki.CardJWKS(), &set); err != nil {
		t.Fatal(err)
	}
	return &set
}

func es256() *a2atest.CardSigner {
	return &a2atest.CardSigner{Key: testpki.CardKeyES256(), Alg: "ES256", KID: testpki.KIDES256}
}

func ed25519Signer() *a2atest.CardSigner {
	return &a2atest.CardSigner{Key: testpki.CardKeyEd25519(), Alg: "EdDSA", KID: testpki.KIDEd25519}
}

func sampleCard(t *testing.T) []byte {
	t.Helper()
	b, err := json.Marshal(&a2a.AgentCard{
		Name:                "Signed <agent> & co",
		Description:         "ünïcode, \u2028 and numbers survive canonicalization",
		SupportedInterfaces: a2atest.Interfaces("https://127.0.0.1:1"),
		Version:             "1.2.3",
		Capabilities: a2a.AgentCapabilities{Streaming: true, Extensions: []a2a.AgentExtension{{
			URI: "https://example.test/ext/v1", Params: json.RawMessage(`{"limit":1.50,"big":1e3,"list":[3,2,1]}`)}}},
		DefaultInputModes:  []string{"text/plain"},
		DefaultOutputModes: []string{"text/plain"},
		Skills:             []a2a.AgentSkill{{ID: "s", Name: "S", Description: "d", Tags: []string{"t"}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func sign(t *testing.T, card []byte, s *a2atest.CardSigner) []byte {
	t.Helper()
	out, err := s.Sign(card, "")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func wantOK(t *testing.T, card []byte, keys *jose.JSONWebKeySet, n int) []verify.SigResult {
	t.Helper()
	res, err := verify.CardSignature(card, keys)
	if err != nil {
		t.Fatalf("verification failed: %v\ncard: %s", err, card)
	}
	if len(res) != n {
		t.Fatalf("got %d results, want %d", len(res), n)
	}
	for _, r := range res {
		if !r.OK || r.Err != "" {
			t.Fatalf("result %+v not OK", r)
		}
	}
	return res
}

func wantFail(t *testing.T, card []byte, keys *jose.JSONWebKeySet, step string) {
	t.Helper()
	_, err := verify.CardSignature(card, keys)
	if err == nil {
		t.Fatalf("verification passed, want failure %q", step)
	}
	if !strings.Contains(err.Error(), step) {
		t.Fatalf("error %q does not name the step %q", err, step)
	}
}

// The card the core serves (TLS, fetched over the wire) verifies against the test JWKS, and its jku is reported.
func TestCoreSignedCardVerifies(t *testing.T) {
	sg := es256()
	sg.JKU = true
	s, err := a2atest.Start(a2atest.Agent{Signer: sg}, a2atest.Options{TLS: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: testpki.CAPool()}}}
	get := func(url string) []byte {
		resp, err := client.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %d", url, resp.StatusCode)
		}
		return b
	}
	card := get(s.CardURL())
	res := wantOK(t, card, testKeys(t), 1)
	if res[0].KID != testpki.KIDES256 || res[0].Alg != "ES256" || res[0].JKU != s.JWKSURL() {
		t.Fatalf("result %+v", res[0])
	}
	// The JWKS the core serves at jku is enough on its own, and holds no private member.
	served := get(res[0].JKU)
	if bytes.Contains(served, []byte(`"d"`)) {
		t.Fatalf("served JWKS leaks a private key: %s", served)
	}
	var set jose.JSONWebKeySet
	if err := json.Unmarshal(served, &set); err != nil {
		t.Fatal(err)
	}
	wantOK(t, card, &set, 1)
}

func TestTwoSignaturesBothVerify(t *testing.T) {
	card := sign(t, sign(t, sampleCard(t), es256()), ed25519Signer())
	res := wantOK(t, card, testKeys(t), 2)
	if res[0].Alg != "ES256" || res[1].Alg != "EdDSA" {
		t.Fatalf("results %+v", res)
	}
}

func TestChangedMemberFails(t *testing.T) {
	for _, s := range []*a2atest.CardSigner{es256(), ed25519Signer()} {
		card := sign(t, sampleCard(t), s)
		wantOK(t, card, testKeys(t), 1)
		tampered := bytes.Replace(card, []byte(`"version":"1.2.3"`), []byte(`"version":"1.2.4"`), 1)
		if bytes.Equal(tampered, card) {
			t.Fatal("tampering did not change the card")
		}
		wantFail(t, tampered, testKeys(t), verify.StepSignatureFailed)
		// A number written differently but equal under JCS is not a change; a different number is.
		same := bytes.Replace(card, []byte(`"limit":1.50`), []byte(`"limit":1.5`), 1)
		wantOK(t, same, testKeys(t), 1)
		other := bytes.Replace(card, []byte(`"limit":1.50`), []byte(`"limit":1.51`), 1)
		wantFail(t, other, testKeys(t), verify.StepSignatureFailed)
	}
}

func TestPrettyPrintedAndReorderedStillVerifies(t *testing.T) {
	card := sign(t, sampleCard(t), es256())
	var m map[string]any // a map re-encodes members in sorted order, unlike the signed struct order
	if err := json.Unmarshal(card, &m); err != nil {
		t.Fatal(err)
	}
	pretty, err := json.MarshalIndent(m, "", "    ")
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(pretty, card) || !bytes.Contains(pretty, []byte("\n    ")) {
		t.Fatal("re-encoding did not change the bytes")
	}
	if bytes.Index(pretty, []byte(`"capabilities"`)) > bytes.Index(pretty, []byte(`"name"`)) == (bytes.Index(card, []byte(`"capabilities"`)) > bytes.Index(card, []byte(`"name"`))) {
		t.Fatal("members were not reordered")
	}
	wantOK(t, pretty, testKeys(t), 1)
}

// forge builds a signatures[] entry with the given protected header and signature bytes.
func forge(t *testing.T, card []byte, header string, sig []byte) []byte {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(card, &m); err != nil {
		t.Fatal(err)
	}
	b64 := base64.RawURLEncoding
	entry, _ := json.Marshal(map[string]string{"protected": b64.EncodeToString([]byte(header)), "signature": b64.EncodeToString(sig)})
	m["signatures"] = json.RawMessage("[" + string(entry) + "]")
	out, _ := json.Marshal(m)
	return out
}

func TestAlgNoneRefused(t *testing.T) {
	card := sampleCard(t)
	wantFail(t, forge(t, card, `{"alg":"none","kid":"extconf-test-es256","typ":"JOSE"}`, nil), testKeys(t), verify.StepBadProtected)
	wantFail(t, forge(t, card, `{"alg":"HS256","kid":"extconf-test-es256"}`, []byte("x")), testKeys(t), verify.StepUnsupportedAlg)
	wantFail(t, forge(t, card, `{"kid":"extconf-test-es256"}`, []byte("x")), testKeys(t), verify.StepBadProtected)
	wantFail(t, forge(t, card, `not json`, []byte("x")), testKeys(t), verify.StepBadProtected)
}

func TestUnknownKIDRefused(t *testing.T) {
	s := es256()
	s.KID = "somebody-else"
	wantFail(t, sign(t, sampleCard(t), s), testKeys(t), verify.StepUnknownKID)
	wantFail(t, sign(t, sampleCard(t), es256()), &jose.JSONWebKeySet{}, verify.StepUnknownKID)
	wantFail(t, sign(t, sampleCard(t), es256()), nil, verify.StepUnknownKID)
}

func TestKIDBoundToWrongKeyFails(t *testing.T) {
	s := ed25519Signer()
	s.KID = testpki.KIDES256 // the Ed25519 key claiming the ES256 kid
	s.Alg = "EdDSA"
	wantFail(t, sign(t, sampleCard(t), s), testKeys(t), verify.StepSignatureFailed)
}

func TestNoSignatures(t *testing.T) {
	wantFail(t, sampleCard(t), testKeys(t), verify.StepNoSignatures)
	wantFail(t, []byte(`{"name":"x","signatures":[]}`), testKeys(t), verify.StepNoSignatures)
	wantFail(t, []byte(`[1,2]`), testKeys(t), verify.StepBadCard)
}
