package terms

import (
	"context"
	"crypto/ed25519"
	"crypto/tls"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/extconf/extconf/fixtures/sow"
	"github.com/extconf/extconf/fixtures/sow/sowdoc"
	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/sabotage"
)

func TestSowKeyDecodingIndependentVectors(t *testing.T) {
	if got := sowXmodem([]byte("123456789")); got != 0x31C3 {
		t.Fatalf("CRC-16/XMODEM check value = %#04x, want 0x31c3", got)
	}
	// NATS documentation's example user key (produced by the nk tool, an independent implementation).
	if _, err := ParseNkeyUser("UDXU4RCSJNZOIQHZNWXHXORDPRTGNJAHAHFRGZNEEJCPQTT2M7NLCNF4"); err != nil {
		t.Fatal(err)
	}
	if _, err := ParseNkeyUser("UDXU4RCSJNZOIQHZNWXHXORDPRTGNJAHAHFRGZNEEJCPQTT2M7NLCNF5"); err == nil {
		t.Fatal("a corrupted checksum was accepted")
	}
	pub := sow.ProviderKey().Public().(ed25519.PublicKey)
	for _, raw := range []string{`"` + sow.ProviderPublicKeyNkey() + `"`,
		`{"kty":"OKP","crv":"Ed25519","x":"` + b64(pub) + `"}`,
		`"{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"x\":\"` + b64(pub) + `\"}"`} {
		k, err := ParseSowKey(json.RawMessage(raw))
		if err != nil || !k.Equal(pub) {
			t.Errorf("key %s: %v", raw, err)
		}
	}
}

func TestFixtureProposalsVerify(t *testing.T) {
	for _, p := range sow.Proposals() {
		if d, err := ProposalDigest(p.Doc); err != nil || d != p.Digest {
			t.Errorf("%s: digest %s %v, want %s", p.Name, d, err, p.Digest)
		}
		if err := VerifyProviderSignature(p.Doc); err != nil {
			t.Errorf("%s: %v", p.Name, err)
		}
		m, err := ParseProposal(p.Doc)
		if err != nil {
			t.Fatal(err)
		}
		if pr := append(StandingProblems(m), CompletenessProblems(m)...); len(pr) > 0 {
			t.Errorf("%s: %v", p.Name, pr)
		}
		if id, _ := MintSowID(p.Doc); id != p.ID {
			t.Errorf("%s: id %s, want %s", p.Name, id, p.ID)
		}
		if _, d := Directed(m); d != p.Directed {
			t.Errorf("%s: directed %v", p.Name, d)
		}
		// The signing side's bytes and ours agree.
		a, _ := sowdoc.SignedBytes(p.Doc)
		b, _ := SowSignedBytes(p.Doc)
		if string(a) != string(b) {
			t.Errorf("%s: signed bytes differ between sowdoc and verify", p.Name)
		}
	}
	good, _ := sow.ByName("reconcile-statement")
	tampered := []byte(strings.Replace(string(good.Doc), `"per_task":250`, `"per_task":25`, 1))
	if err := VerifyProviderSignature(tampered); !errors.Is(err, ErrSignatureInvalid) {
		t.Errorf("tampered: %v", err)
	}
	m, _ := sowdoc.Decode(good.Doc)
	delete(m, "signatures")
	unsigned, _ := sowdoc.Marshal(m)
	if err := VerifyProviderSignature(unsigned); !errors.Is(err, ErrSignatureAbsent) {
		t.Errorf("unsigned: %v", err)
	}
}

func TestParseProposalIJSON(t *testing.T) {
	for _, bad := range []string{`{"a":1,"a":2}`, `{"a":{"b":1,"b":1}}`, `[1]`, `{"n":9007199254740993}`, `{"n":1e400}`, "{\"s\":\"\xff\"}", `{} {}`} {
		if _, err := ParseProposal([]byte(bad)); !errors.Is(err, ErrProposalParse) {
			t.Errorf("%q accepted: %v", bad, err)
		}
	}
	if _, err := ParseProposal([]byte(`{"a":[{"a":1},{"a":2}],"b":{"a":{}}}`)); err != nil {
		t.Errorf("same names in different objects refused: %v", err)
	}
}

// serve starts a loopback TLS server (test CA) answering path → body.
func serve(t *testing.T, routes map[string][]byte) string {
	t.Helper()
	cert, err := testpki.IssueLeaf()
	if err != nil {
		t.Fatal(err)
	}
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert}})
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, ok := routes[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(b)
	})}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return "https://" + ln.Addr().(*net.TCPAddr).String()
}

func TestVerifyProposalSteps(t *testing.T) {
	good, _ := sow.ByName("reconcile-statement")
	other, _ := sow.ByName("categorise-transactions")
	pretty, _ := json.MarshalIndent(json.RawMessage(good.Doc), "", "    ")
	m, _ := sowdoc.Decode(good.Doc)
	m["signatures"] = []any{}
	unsigned, _ := sowdoc.Marshal(m)
	unsignedDigest, _ := sowdoc.Digest(unsigned)
	base := serve(t, map[string][]byte{"/good": pretty, "/other": other.Doc, "/html": []byte("<html>"), "/unsigned": unsigned})
	c := a2a.NewClient(a2a.Options{RootCAs: testpki.CAPool()})
	ctx := context.Background()
	none := sabotage.Set{}
	cases := []struct {
		name string
		e    Entry
		set  sabotage.Set
		step string
	}{
		{"reformatted document verifies", Entry{URL: base + "/good", Digest: good.Digest}, none, ""},
		{"404", Entry{URL: base + "/missing", Digest: good.Digest}, none, StepFetch},
		{"http url", Entry{URL: strings.Replace(base, "https", "http", 1) + "/good", Digest: good.Digest}, none, StepFetch},
		{"not json", Entry{URL: base + "/html", Digest: good.Digest}, none, StepParse},
		{"other document", Entry{URL: base + "/other", Digest: good.Digest, Sow: other.ID}, none, StepDigest},
		{"unsigned", Entry{URL: base + "/unsigned", Digest: unsignedDigest}, none, StepSignature},
		{"raw-byte hashing rejects a reformatted document", Entry{URL: base + "/good", Digest: good.Digest}, sabotage.MustParse(sabotage.TermsClientHashesRawBytes), StepDigest},
		{"identifier comparison accepts the wrong document", Entry{URL: base + "/other", Digest: good.Digest, Sow: other.ID}, sabotage.MustParse(sabotage.TermsClientComparesIdentifiers), ""},
		{"unsigned accepted by the sabotaged consumer", Entry{URL: base + "/unsigned", Digest: unsignedDigest}, sabotage.MustParse(sabotage.TermsClientAcceptsUnsigned), ""},
	}
	for _, tc := range cases {
		r := VerifyProposal(ctx, c, tc.e, tc.set)
		if r.Step != tc.step {
			t.Errorf("%s: step %q (%v), want %q", tc.name, r.Step, r.Err, tc.step)
		}
	}
}

func b64(b []byte) string { return sowdocB64(b) }

func sowdocB64(b []byte) string {
	k := sowdoc.KeyValue(ed25519.PublicKey(b), sowdoc.KeyJWK).(map[string]string)
	return k["x"]
}
