package interview

import (
	"context"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/gowebpki/jcs"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/refclients/terms"
	"github.com/extconf/extconf/sabotage"
)

// FuzzInterviewDiff: the §7 projection diff, fed a card and an interview answer from the target, never panics and
// never fetches (proposal sources go through a client that refuses every URL); a projection of the whole card
// with the card itself as its value is consistent whenever the card is I-JSON.
func FuzzInterviewDiff(f *testing.F) {
	card := []byte(`{"name":"Agent","description":"d","version":"1.0","skills":[{"id":"s1","name":"S","description":"x","tags":["a~b/c"]}],` +
		`"capabilities":{"extensions":[{"uri":"` + terms.URI + `","params":{"proposals":[{"url":"https://127.0.0.1:1/p.json","digest":"sha256:00"}]}}]},` +
		`"price":1.50,"n":1e2}`)
	answer := []byte(`{"question":"identity","projections":[{"source":{"document":"card","member":"/name"},"value":"Agent"},` +
		`{"source":{"document":"card","member":"/skills/0/tags/0"},"value":"a~b/c"},` +
		`{"source":{"document":"card","member":"/price"},"value":1.5},` +
		`{"source":{"document":"proposal","url":"https://127.0.0.1:1/p.json","digest":"sha256:00","member":"/id"},"value":"x"},` +
		`{"source":{"document":"proposal","url":"https://127.0.0.1:1/p.json","digest":"sha256:01","member":"/id"},"value":"x"},` +
		`{"source":{"document":"elsewhere","member":"x"},"value":null}]}`)
	f.Add(card, answer)
	f.Add(card, []byte(`{"question":"q","projections":[{"source":{"document":"card","member":"/skills/01"},"value":{}}]}`))
	f.Add([]byte(`{"a":{"":{"~":[true]}}}`), []byte(`{"question":"q","projections":[{"source":{"document":"card","member":"/a//~0/0"},"value":true}]}`))
	f.Add([]byte(`[]`), []byte(`{"refused":true,"reason":"out_of_scope","declared_skills":[]}`))
	if b, err := os.ReadFile(filepath.Join("..", "..", "fixtures", "schemaiface", "example", "extension.json")); err == nil {
		f.Add([]byte(`{"name":"x","capabilities":{"extensions":[`+string(b)+`]}}`),
			[]byte(`{"question":"q","projections":[{"source":{"document":"card","member":"/capabilities/extensions/0/params/skills/0/skill_id"},"value":"evaluate_resource_condition"}]}`))
	}
	refuse := func(*url.URL) error { return errors.New("the fuzz target fetches nothing") }
	c := a2a.NewClient(a2a.Options{CheckURL: refuse})
	ctx := context.Background()
	f.Fuzz(func(t *testing.T, cardRaw, answerRaw []byte) {
		if len(cardRaw) > 64<<10 || len(answerRaw) > 64<<10 {
			return
		}
		card, err := a2a.DecodeCard(cardRaw, a2a.Limits{})
		if err != nil {
			card = &a2a.AgentCard{} // the diff must hold up against a card the decoder refused, too
		}
		d, err := NewDeclared("https://127.0.0.1:1/.well-known/agent-card.json", cardRaw, card, nil)
		if err != nil {
			return
		}
		ans, _ := DecodeResult(answerRaw)
		if ans != nil {
			for _, p := range ans.Projections {
				kind, why := DiffProjection(ctx, c, d, p, sabotage.Set{})
				if kind != "" && why == "" {
					t.Fatalf("conflict %s without a reason", kind)
				}
			}
			_ = Diff(ctx, c, d, []*Reply{{Method: "interview/identity", Answer: ans}}, sabotage.Set{})
		}
		if a2a.CheckIJSON(cardRaw, 10000) != nil {
			return
		}
		if _, err := jcs.Transform(cardRaw); err != nil {
			return
		}
		whole := Projection{Source: Source{Document: "card", Member: ""}, Value: cardRaw}
		if kind, why := DiffProjection(ctx, c, d, whole, sabotage.Set{}); kind != "" {
			t.Fatalf("the card projected onto itself conflicts: %s: %s", kind, why)
		}
	})
}
