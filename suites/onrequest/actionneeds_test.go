package onrequest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	vonrequest "github.com/extconf/extconf/refclients/onrequest"
)

func cardWith(t *testing.T, entries string) *a2a.AgentCard {
	t.Helper()
	raw := `{"name":"c","description":"d","version":"1","capabilities":{"extensions":[{"uri":"` + vonrequest.URI + `","params":{"skills":` + entries + `}}]},"skills":[{"id":"p","name":"p","description":"p","tags":[]},{"id":"b","name":"b","description":"b","tags":[]}]}`
	var c a2a.AgentCard
	if err := json.Unmarshal([]byte(raw), &c); err != nil {
		t.Fatal(err)
	}
	return &c
}

func members(ns []harness.Need) string {
	var out []string
	for _, n := range ns {
		out = append(out, n.Member)
	}
	return strings.Join(out, ",")
}

// A card that declares no action needs none of the action members (its action rows are inapplicable, and config
// check must predict that); one that declares an action, or whose operator names one, needs each member not given.
func TestActionNeedsFollowTheCard(t *testing.T) {
	info := cardWith(t, `[{"id":"p","personEntry":"tel:+12025550143"}]`)
	if got := actionNeeds(info, map[string]any{}); len(got) != 0 {
		t.Errorf("no action declared: needs %s, want none", members(got))
	}
	act := cardWith(t, `[{"id":"p","personEntry":"tel:+12025550143"},{"id":"b","personEntry":"https://x.example/t","completion":"deferred"}]`)
	want := "operator.consentToActions,operator.actionLog,operator.reverse,operator.irreversible,operator.limits"
	if got := members(actionNeeds(act, map[string]any{})); got != want {
		t.Errorf("an action declared: needs %s, want %s", got, want)
	}
	named := map[string]any{"operator": map[string]any{"actionSkills": []any{"p"}, "consentToActions": false, "limits": map[string]any{}}}
	if got := members(actionNeeds(info, named)); got != "operator.consentToActions,operator.actionLog,operator.reverse,operator.irreversible" {
		t.Errorf("actionSkills names p, consent false, limits given: needs %s", got)
	}
	consent := map[string]any{"operator": map[string]any{"consentToActions": true, "actionLog": "https://x.example/log", "reverse": "https://x.example/r", "irreversible": map[string]any{}, "limits": map[string]any{}}}
	if got := actionNeeds(act, consent); len(got) != 0 {
		t.Errorf("every action member given: needs %s, want none", members(got))
	}
}
