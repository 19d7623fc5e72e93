package harness

import (
	"fmt"
	"time"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/harness/target"
)

// BlockedRun is the run against a target that could not be reached at all (target.Target.Blocked, e.g. no
// container engine): no spec runs, every selected witnessable row is blocked with reason, and nothing passes.
// Rows outside the selection are skipped and unwitnessable rows keep their catalog verdict, as in Run.
func BlockedRun(tgt *target.Target, o Options, reason string) (*Result, error) {
	cat, err := catalog.Load()
	if err != nil {
		return nil, err
	}
	for _, id := range o.Rows {
		if _, ok := cat.Row(id); !ok {
			return nil, fmt.Errorf("unknown row %q (see `runsuite catalog`)", id)
		}
	}
	if reason == "" {
		reason = "the target could not be reached"
	}
	limits := a2a.DefaultLimits()
	if o.Limits != nil {
		limits = *o.Limits
	}
	if o.Runner.Tier == "" {
		o.Runner.Tier = "self"
	}
	rch := newReach(tgt, o.Suites)
	client := NewClient(rch, a2a.Options{Limits: limits, RootCAs: tgt.RootCAs, Recorder: a2a.NewRecorder()})
	env := &Env{Target: tgt, Catalog: cat, Client: client, Sabotage: o.Sabotage, Runner: o.Runner,
		cards: map[string]*cardFetch{}, applicable: map[string]*applicability{}, suites: map[string]Suite{},
		SpecTimeout: o.SpecTimeout, reach: rch}
	sel := Selection{Documents: o.Documents, Rows: o.Rows, Strict: o.Strict}
	if len(sel.Documents) == 0 {
		for _, d := range catalog.Documents {
			sel.Documents = append(sel.Documents, d.ID)
		}
	}
	now := time.Now()
	res := &Result{Seed: o.Seed, Selection: sel, Started: now, Finished: now, Env: env, Cards: map[string]CardSeen{}}
	for _, r := range cat.Rows {
		v := RowVerdict{ID: r.ID, Document: r.Document, Aliases: r.Aliases, SelfCheck: r.SelfCheck(), Advisory: r.Advisory() && !r.SelfCheck()}
		switch {
		case !contains(sel.Documents, r.Document) || (len(sel.Rows) > 0 && !contains(sel.Rows, r.ID)):
			v.Verdict, v.Detail = Skipped, "not in the run's selection"
		case !r.Witnessable():
			v.Verdict, v.Detail = Unwitnessable, r.Why
		default:
			v.Verdict, v.Detail = Blocked, reason
		}
		res.Rows = append(res.Rows, v)
	}
	return res, nil
}
