package onrequest_test

import (
	"testing"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/harness/harnesstest"
	"github.com/extconf/extconf/harness/target"
	termsmock "github.com/extconf/extconf/mockagents/terms"
	"github.com/extconf/extconf/sabotage"
	"github.com/extconf/extconf/suites/onrequest"
)

// An agent that never claims the extension (here the terms reference agent, reached as a plain URL target with no
// operator input) must not fail an on-request run: its agent rows are inapplicable, never blocked or failed; only
// the reference-client rows, which grade the harness's own assistant, run.
func TestUndeclaringAgentIsInapplicableNotBlocked(t *testing.T) {
	rows, _ := harnesstest.Run(t, termsmock.Start, sabotage.Set{}, func(tgt *target.Target) {
		tgt.Kind = target.KindURL
		tgt.Agents = map[string]string{"": tgt.Agents["terms"]}
		tgt.Config = target.Config{}
	}, "on-request", harness.Options{Suites: []harness.Suite{onrequest.Suite()}, Seed: 1})
	cat := catalog.MustLoad()
	for id, r := range rows {
		row, _ := cat.Row(id)
		want := harness.Inapplicable
		if row.Witness == catalog.WitnessReferenceClient {
			want = harness.ExecutedPass
		}
		if r.Verdict != want {
			t.Errorf("%s (%s): %s, want %s: %s", id, row.Witness, r.Verdict, want, r.Detail)
		}
	}
}
