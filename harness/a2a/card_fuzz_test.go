package a2a_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/mockagents/hostile"
)

// cardSeeds are cards from the fixtures: the server core's reference card (signed, as the reference agents serve
// it), the worked schema-interface example's extension on a card, and the hostile agent's cards that fit a seed.
func cardSeeds(f *testing.F) [][]byte {
	f.Helper()
	var out [][]byte
	s, err := a2atest.Start(a2atest.Agent{Name: "echo", Signer: &a2atest.CardSigner{Key: testpki.CardKeyES256(), Alg: "ES256", KID: testpki.KIDES256, JKU: true}}, a2atest.Options{})
	if err != nil {
		f.Fatal(err)
	}
	out = append(out, s.CardBytes())
	s.Close()
	if ext, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "schemaiface", "example", "extension.json")); err == nil {
		out = append(out, []byte(`{"name":"n","description":"d","supportedInterfaces":[{"url":"https://127.0.0.1:1/jsonrpc","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],"version":"1","capabilities":{"extensions":[`+string(ext)+`]},"defaultInputModes":[],"defaultOutputModes":[],"skills":[{"id":"describe_skill","name":"d","description":"d","tags":[]}]}`))
	}
	for _, b := range []hostile.Behaviour{hostile.DuplicateMembers, hostile.InvalidUTF8, hostile.HugeNumbers, hostile.ProposalFile,
		hostile.SchemaRefFile, hostile.JWSAlgNone, hostile.JWSJKUOffOrigin, hostile.InterfaceMetadata} {
		a, err := hostile.Start(b)
		if err != nil {
			f.Fatal(err)
		}
		out = append(out, a.Card())
		a.Close()
	}
	return append(out, []byte(`{}`), []byte(`{"skills":[{"id":"a"},{"id":"a"}],"skills":[]}`), []byte(`[[[[[[[[[[{}]]]]]]]]]]`),
		[]byte(`{"name":"\ud800","version":1e309}`))
}

// FuzzDecodeCard: card decoding (a2a.DecodeCard, what FetchCard applies to a card's bytes) never panics, and what
// it accepts is one well-formed UTF-8 JSON object within the limits that survives a round trip.
func FuzzDecodeCard(f *testing.F) {
	for _, s := range cardSeeds(f) {
		f.Add(s)
	}
	lim := a2a.Limits{MaxJSONDepth: 16, MaxCardSkills: 50}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if len(raw) > 1<<20 {
			return
		}
		ierr := a2a.CheckIJSON(raw, lim.MaxJSONDepth)
		if ierr == nil && (!json.Valid(raw) || !utf8.Valid(raw)) {
			t.Fatalf("CheckIJSON accepted text that is not UTF-8 JSON: %q", raw)
		}
		var le *a2a.LimitError
		if ierr != nil && !errors.Is(ierr, a2a.ErrInvalidJSON) && !(errors.As(ierr, &le) && le.Limit == a2a.LimitMaxJSONDepth) {
			t.Fatalf("CheckIJSON error of an unnamed kind: %v", ierr)
		}
		card, err := a2a.DecodeCard(raw, lim)
		if err != nil {
			if card != nil {
				t.Fatal("a refused card came back non-nil")
			}
			return
		}
		if ierr != nil {
			t.Fatalf("DecodeCard accepted what CheckIJSON refused (%v)", ierr)
		}
		if len(card.Skills) > lim.MaxCardSkills {
			t.Fatalf("accepted %d skills over the limit", len(card.Skills))
		}
		if !bytes.HasPrefix(bytes.TrimLeft(raw, " \t\r\n"), []byte("{")) {
			t.Fatalf("accepted a card that is not a JSON object: %q", raw)
		}
		again, err := json.Marshal(card)
		if err != nil {
			t.Fatalf("an accepted card does not re-encode: %v", err)
		}
		if _, err := a2a.DecodeCard(again, lim); err != nil {
			t.Fatalf("the re-encoded card is refused: %v\n%s", err, again)
		}
	})
}
