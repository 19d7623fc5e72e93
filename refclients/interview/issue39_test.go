package interview

import (
	"context"
	"errors"
	"net/url"
	"testing"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/sabotage"
)

// A projection whose source names no member was read as the whole document and accepted for anything (#39); the
// empty pointer "" still names the whole document.
func TestProjectionWithoutMember(t *testing.T) {
	card := []byte(`{"name":"x","version":"1.0.0"}`)
	d, err := NewDeclared("https://127.0.0.1:1/.well-known/agent-card.json", card, &a2a.AgentCard{Name: "x"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := a2a.NewClient(a2a.Options{CheckURL: func(*url.URL) error { return errors.New("no fetch") }})
	for raw, want := range map[string]string{
		`{"question":"identity","projections":[{"source":{"document":"card"},"value":{"name":"x","version":"1.0.0"}}]}`:             ConflictBadSource,
		`{"question":"identity","projections":[{"source":{"document":"card","member":""},"value":{"name":"x","version":"1.0.0"}}]}`: "",
		`{"question":"identity","projections":[{"source":{"document":"card","member":"/name"},"value":"x"}]}`:                       "",
	} {
		ans, _ := DecodeResult([]byte(raw))
		if ans == nil || len(ans.Projections) != 1 {
			t.Fatalf("%s: not decoded", raw)
		}
		if kind, why := DiffProjection(context.Background(), c, d, ans.Projections[0], sabotage.Set{}); kind != want {
			t.Errorf("%s: conflict %q (%s), want %q", raw, kind, why, want)
		}
	}
}
