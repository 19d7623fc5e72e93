package harnesstest

import (
	"context"
	"testing"

	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/harness/target"
)

// Agent starts a reference agent with the given toggles on and returns its roles, its target configuration and
// the function that stops it: the Start of the mockagents packages. F is the agent's own toggle set
// (sabotage.Set); the engine names it only by the harness.Faults it satisfies.
type Agent[F harness.Faults] func(F) (roles map[string]string, cfg target.Config, closeFn func(), err error)

// Run starts agent with set on, builds the in-process mock target trusting the test CA, lets edit change it (nil:
// no change), runs opts against it for document, and returns document's rows by id and the whole result. The
// agent is stopped before Run returns; a failure to start it or to run fails t.
func Run[F harness.Faults](t testing.TB, agent Agent[F], set F, edit func(*target.Target), document string, opts harness.Options) (map[string]harness.RowVerdict, *harness.Result) {
	t.Helper()
	roles, cfg, closeFn, err := agent(set)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	tgt := &target.Target{Kind: target.KindMock, Agents: roles, RootCAs: testpki.CAPool(), Config: cfg}
	if edit != nil {
		edit(tgt)
	}
	opts.Documents = []string{document}
	res, err := harness.Run(context.Background(), tgt, opts)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]harness.RowVerdict{}
	for _, r := range res.Rows {
		if r.Document == document {
			out[r.ID] = r
		}
	}
	return out, res
}

// Undeclared runs suite (of document) against agent's role reached as a plain URL target with no operator input —
// an agent that never claims document — and fails t unless every agent row reads inapplicable and every
// reference-client row (which grades the harness's own client, whatever the target) passes. Nothing may read
// blocked: a run must not fail for a document the agent never claimed.
func Undeclared[F harness.Faults](t *testing.T, agent Agent[F], role, document string, suite harness.Suite) {
	t.Helper()
	var none F // the zero set: no toggle on
	rows, _ := Run(t, agent, none, func(tgt *target.Target) {
		tgt.Kind = target.KindURL
		tgt.Agents = map[string]string{"": tgt.Agents[role]}
		tgt.Config = target.Config{}
	}, document, harness.Options{Suites: []harness.Suite{suite}, Seed: 1})
	cat := catalog.MustLoad()
	for id, r := range rows {
		row, _ := cat.Row(id)
		want := harness.Inapplicable
		if row.Witness == catalog.WitnessReferenceClient {
			want = harness.ExecutedPass
		}
		if r.Verdict != want {
			t.Errorf("%s (%s, %s): %s, want %s: %s", id, row.Subject, row.Witness, r.Verdict, want, r.Detail)
		}
	}
}
