package onrequest

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	orfix "github.com/extconf/extconf/fixtures/onrequest"
	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/sabotage"
)

var update = flag.Bool("update", false, "rewrite fixtures/onrequest/replies from the running chapel")

// capture is how each fixture reply is obtained from the chapel.
var capture = map[string]struct {
	skill, note string
	person      bool
}{
	"on-request":           {"service-pricing", "information referred (A.2): activated, acting for nobody", false},
	"action-referred":      {"arrangement-booking", "action referred (A.3): activated, acting for nobody", false},
	"given-on-opt-in":      {"memorial-options", "information given on opt-in (A.4): activated, acting for a named person", true},
	"deferred-accepted":    {"callback-request", "deferred action accepted: activated, acting for a named person", true},
	"in-conversation-done": {"arrangement-booking", "in-conversation action carried out: activated, acting for a named person", true},
}

var (
	idPattern   = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{24}`) // the core's UUIDs, the chapel's ids
	timePattern = regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z`)
)

// TestReplyFixtures keeps the relay's fixtures equal to what the chapel sends (ids, times and origin folded).
func TestReplyFixtures(t *testing.T) {
	roles, _, closeFn, err := Start(sabotage.Set{})
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	ctx := context.Background()
	c := a2a.NewClient(a2a.Options{RootCAs: testpki.CAPool()})
	card, ex, err := c.FetchCard(ctx, roles["on-request"], a2a.Call{})
	if err != nil {
		t.Fatal(err)
	}
	origin := card.Provider.URL
	entries := map[string]json.RawMessage{}
	var raw struct {
		Capabilities struct {
			Extensions []struct {
				Params struct {
					Skills []json.RawMessage `json:"skills"`
				} `json:"params"`
			} `json:"extensions"`
		} `json:"capabilities"`
	}
	if err := json.Unmarshal(ex.ResponseBody, &raw); err != nil {
		t.Fatal(err)
	}
	for _, e := range raw.Capabilities.Extensions[0].Params.Skills {
		var id struct {
			ID string `json:"id"`
		}
		_ = json.Unmarshal(e, &id)
		entries[id.ID] = e
	}
	rpc, _ := card.Interface(a2a.BindingJSONRPC)
	for _, name := range orfix.Replies {
		cp := capture[name]
		sk, _ := card.Skill(cp.skill)
		req := a2a.SendMessageRequest{Message: a2a.Message{MessageID: "m-1", Role: a2a.RoleUser, Parts: []a2a.Part{a2a.TextPart(sk.Examples[0])}}}
		if cp.person {
			req.Metadata = json.RawMessage(`{"` + URI + `":{"actingFor":{"name":"Alex Example"}}}`)
		}
		_, _, ex, err := c.SendMessage(ctx, rpc.URL, req, a2a.Call{Extensions: []string{URI}})
		if err != nil {
			t.Fatal(err)
		}
		var resp struct {
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal(ex.ResponseBody, &resp); err != nil {
			t.Fatal(err)
		}
		got := orfix.Reply{Note: cp.note, Operator: card.Provider.Organization, SkillID: cp.skill, Entry: entries[cp.skill], Result: resp.Result}
		b, _ := json.MarshalIndent(got, "", "  ")
		b = bytes.ReplaceAll(b, []byte(origin), []byte("https://agent.example.com"))
		n := 0
		b = idPattern.ReplaceAllFunc(b, func([]byte) []byte { n++; return []byte("id-" + string(rune('a'+n-1))) })
		b = timePattern.ReplaceAll(b, []byte("2026-11-01T10:00:00.000Z"))
		b = append(b, '\n')
		path := filepath.Join("..", "..", "fixtures", "onrequest", "replies", name+".json")
		if *update {
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update to capture)", err)
		}
		if !bytes.Equal(want, b) {
			t.Errorf("fixture %s differs from the chapel's reply (run `go test ./mockagents/onrequest -run TestReplyFixtures -update`):\n%s", name, b)
		}
	}
}
