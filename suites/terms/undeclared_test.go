package terms_test

import (
	"testing"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/harness/harnesstest"
	"github.com/extconf/extconf/harness/target"
	ormock "github.com/extconf/extconf/mockagents/onrequest"
	"github.com/extconf/extconf/sabotage"
	"github.com/extconf/extconf/suites/terms"
)

// An agent that never claims the terms extension (the on-request chapel, reached as a plain URL target with no
// operator input) must not fail a terms run: its agent rows are inapplicable, never blocked; only the reference
// consumer's rows run.
func TestUndeclaringAgentIsInapplicableNotBlocked(t *testing.T) {
	rows, _ := harnesstest.Run(t, ormock.Start, sabotage.Set{}, func(tgt *target.Target) {
		tgt.Kind = target.KindURL
		tgt.Agents = map[string]string{"": tgt.Agents["on-request"]}
		tgt.Config = target.Config{}
	}, "terms", harness.Options{Suites: []harness.Suite{terms.Suite()}, Seed: 1})
	cat := catalog.MustLoad()
	for id, r := range rows {
		row, _ := cat.Row(id)
		want := harness.Inapplicable
		if row.Subject != "agent" && row.Subject != "publisher" {
			want = harness.ExecutedPass
		}
		if r.Verdict != want {
			t.Errorf("%s (%s, %s): %s, want %s: %s", id, row.Subject, row.Witness, r.Verdict, want, r.Detail)
		}
	}
}
