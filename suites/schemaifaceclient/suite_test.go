package schemaifaceclient

import (
	"context"
	"os"
	"strings"
	"testing"

	sfx "github.com/extconf/extconf/fixtures/schemaifaceclient"
	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/refclients/skiface"
	"github.com/extconf/extconf/sabotage"
)

// runAgainstStandin runs this suite with a stand-in (serving the worked example, with operator arguments) as the
// target's schema-interface agent: the suite's own wiring, independent of the reference agent.
func runAgainstStandin(t *testing.T, set sabotage.Set) map[string]harness.RowVerdict {
	t.Helper()
	s := &standin{skills: []*skill{exampleSkill()}}
	if err := s.start(); err != nil {
		t.Fatal(err)
	}
	defer s.close()
	tgt := &target.Target{Kind: target.KindURL, Agents: map[string]string{Role: s.cardURL()},
		Config: target.Config{Requests: map[string][]string{sfx.ExampleSkill: {string(sfx.ExampleArguments())}}}}
	res, err := harness.Run(context.Background(), tgt, harness.Options{Suites: []harness.Suite{Suite()}, Documents: []string{"schema-interface"}, Sabotage: set, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]harness.RowVerdict{}
	for _, r := range res.Rows {
		out[r.ID] = r
	}
	return out
}

func clientRows() []string {
	var out []string
	for _, r := range catalog.MustLoad().ByDocument("schema-interface") {
		if r.Witness == "reference-client" {
			out = append(out, r.ID)
		}
	}
	return out
}

func TestSuitePassesAgainstStandin(t *testing.T) {
	got := runAgainstStandin(t, sabotage.Set{})
	for _, id := range clientRows() {
		if v := got[id]; v.Verdict != harness.ExecutedPass {
			t.Errorf("%s: %s: %s", id, v.Verdict, v.Detail)
		}
	}
}

// Every client toggle kills every row it targets, here against the stand-in target (the falsification gate does
// the same against the reference agent). One suite run per toggle: SI_TOGGLE=all, or one toggle id.
func TestClientTogglesKill(t *testing.T) {
	if os.Getenv("SI_TOGGLE") == "" {
		t.Skip("set SI_TOGGLE=all (or a toggle id)")
	}
	for _, tg := range sabotage.All() {
		if tg.Document != "schema-interface" || tg.Side != sabotage.SideClient {
			continue
		}
		if only := os.Getenv("SI_TOGGLE"); only != "all" && only != string(tg.ID) {
			continue
		}
		got := runAgainstStandin(t, sabotage.MustParse(tg.ID))
		var collateral []string
		for _, id := range tg.Targets {
			if got[id].Verdict != harness.ExecutedFail {
				t.Errorf("%s: target %s is %s", tg.ID, id, got[id].Verdict)
			}
		}
		for id, v := range got {
			if v.Verdict == harness.ExecutedFail && !contains(tg.Targets, id) {
				collateral = append(collateral, id)
			}
		}
		if len(collateral) > 0 {
			t.Logf("%s: collateral %s", tg.ID, strings.Join(collateral, ", "))
		}
	}
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

var _ = skiface.ExtensionURI
