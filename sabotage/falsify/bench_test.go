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

// BenchmarkFalsifyStep is the cost of one toggle's run: the toggle's document's agents with the toggle on, and its
// suites. It cycles through every registered toggle so the figure is the matrix average.
func BenchmarkFalsifyStep(b *testing.B) {
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
		_, err = harness.Run(context.Background(), tgt, harness.Options{Suites: suites.All(), Documents: []string{t.Document}, Sabotage: set, Seed: 1})
		_ = tgt.Close()
		if err != nil {
			b.Fatal(err)
		}
	}
}
