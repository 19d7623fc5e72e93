// Package harnesstest runs a suite against a reference agent inside a Go test: the shared opening of the suites'
// run tests (start the agent, build the in-process target, run, read one document's rows).
package harnesstest

import (
	"context"
	"testing"

	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/sabotage"
)

// Agent starts a reference agent with the given toggles on and returns its roles, its target configuration and
// the function that stops it: the Start of the mockagents packages.
type Agent func(sabotage.Set) (roles map[string]string, cfg target.Config, closeFn func(), err error)

// Run starts agent with set on, builds the in-process mock target trusting the test CA, lets edit change it (nil:
// no change), runs opts against it for document, and returns document's rows by id and the whole result. The
// agent is stopped before Run returns; a failure to start it or to run fails t.
func Run(t testing.TB, agent Agent, set sabotage.Set, edit func(*target.Target), document string, opts harness.Options) (map[string]harness.RowVerdict, *harness.Result) {
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
