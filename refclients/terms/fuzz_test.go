package terms

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/gowebpki/jcs"
)

// FuzzSowSignature: the Agent SoW provider-signature verifier and the proposal parsers it sits with never panic;
// a verifying document still verifies in its canonical (JCS) form, since the signed bytes are canonical; whatever
// ParseProposal accepts as I-JSON has a digest.
func FuzzSowSignature(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("..", "..", "fixtures", "sow", "proposals", "*.json"))
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	if b, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "sow", "index.json")); err == nil {
		f.Add(b)
	}
	f.Add([]byte(`{"signatures":[{"role":"provider","key":"UABC","sig":"AA=="}]}`))
	f.Add([]byte(`{"signatures":[{"role":"provider","key":{"kty":"OKP","crv":"Ed25519","x":"11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"},"sig":""}]}`))
	f.Add([]byte(`{"signatures":"x","parties":{"client":null},"starts_at":null}`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		if len(doc) > 256<<10 {
			return
		}
		err := VerifyProviderSignature(doc)
		if err != nil && !errors.Is(err, ErrSignatureAbsent) && !errors.Is(err, ErrSignatureInvalid) {
			t.Fatalf("an error of no named kind: %v", err)
		}
		if err == nil {
			canon, cerr := jcs.Transform(doc)
			if cerr == nil {
				if err := VerifyProviderSignature(canon); err != nil {
					t.Fatalf("verifies as sent but not in its JCS form: %v", err)
				}
			}
		}
		parsed, perr := ParseProposal(doc)
		if perr != nil {
			if !errors.Is(perr, ErrProposalParse) {
				t.Fatalf("ParseProposal error of no named kind: %v", perr)
			}
			return
		}
		if _, err := ProposalDigest(doc); err != nil {
			t.Fatalf("ParseProposal accepted a document JCS cannot canonicalize: %v", err)
		}
		_, _ = MintSowID(doc)
		_ = StandingProblems(parsed)
		_ = CompletenessProblems(parsed)
		_, _ = Directed(parsed)
		_ = KnownSowFormat(parsed)
	})
}
