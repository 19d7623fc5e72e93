package mockagents

import (
	"testing"

	"github.com/extconf/extconf/sabotage"
)

// The documents' agents merge their settings in one order whatever the caller's: schema-interface's principal A
// (its ID is "A") wins over agent-cards' in both orders (given agent-cards last, it used to replace it, and
// `runsuite run --suite schema-interface,agent-cards` failed 11 rows on 401s).
func TestStartOrderDoesNotMatter(t *testing.T) {
	for _, docs := range [][]string{{"schema-interface", "agent-cards"}, {"agent-cards", "schema-interface"}} {
		tgt, err := Start(sabotage.Set{}, docs...)
		if err != nil {
			t.Fatal(err)
		}
		if id := tgt.Config.Principals["A"].ID; id != "A" {
			t.Errorf("Start(%v): principal A is %q's, want schema-interface's", docs, id)
		}
		_ = tgt.Close()
	}
}
