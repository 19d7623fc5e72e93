package falsify_test

import (
	"context"
	"testing"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/mockagents"
	"github.com/extconf/extconf/sabotage"
	"github.com/extconf/extconf/suites"
)

// BenchmarkFullRun is the cost of one pass of every suite against the reference agents, agents started included.
func BenchmarkFullRun(b *testing.B) {
	for b.Loop() {
		tgt, err := mockagents.Start(sabotage.Set{})
		if err != nil {
			b.Fatal(err)
		}
		res, err := harness.Run(context.Background(), tgt, harness.Options{Suites: suites.All(), Seed: 1})
		_ = tgt.Close()
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(res.Exchanges)), "exchanges/run")
	}
}

// BenchmarkFalsifyStep is the cost of one toggle's run as the matrix makes it (falsify.Run without
// --whole-document): the toggle's document's agents with the toggle on, and only the specs labelled with the
// toggle's target rows. It cycles through every registered toggle, so the figure is the matrix average.
func BenchmarkFalsifyStep(b *testing.B) { benchToggles(b, false) }

// BenchmarkFalsifyStepWholeDocument is the same with the toggle's whole document run (falsify --whole-document).
func BenchmarkFalsifyStepWholeDocument(b *testing.B) { benchToggles(b, true) }

func benchToggles(b *testing.B, whole bool) {
	toggles := sabotage.All()
	if len(toggles) == 0 {
		b.Skip("no toggles registered")
	}
	i := 0
	for b.Loop() {
		t := toggles[i%len(toggles)]
		i++
		set := sabotage.MustParse(t.ID)
		tgt, err := mockagents.Start(set, t.Document)
		if err != nil {
			b.Fatal(err)
		}
		rows := t.Targets
		if whole {
			rows = nil
		}
		_, err = harness.Run(context.Background(), tgt, harness.Options{Suites: suites.All(), Documents: []string{t.Document},
			Rows: rows, Sabotage: set, Seed: 1})
		_ = tgt.Close()
		if err != nil {
			b.Fatal(err)
		}
	}
}
