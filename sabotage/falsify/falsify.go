// Package falsify runs the falsification matrix: the reference agents with no toggle (every applicable row must
// pass: the positive control), then one run per toggle, in which every targeted row must fail. The result is the
// falsifiability table that goes into the evidence bundle.
package falsify

import (
	"context"
	"fmt"
	"sort"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/evidence"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/sabotage"
)

// Starter starts the reference agents of docs with set on (mockagents.Start).
type Starter func(set sabotage.Set, docs ...string) (*target.Target, error)

// Options shape a falsification.
type Options struct {
	Suites  []harness.Suite
	Toggles []sabotage.Toggle // empty: every registered toggle
	Seed    int64
	// WholeDocument runs the toggle's whole document per toggle, so collateral is measured across every row of it;
	// by default only the specs labelled with the toggle's targets run, which keeps the matrix fast and still proves
	// each kill (collateral is then measured among the rows those specs carry).
	WholeDocument bool
}

// Report is the outcome of a falsification.
type Report struct {
	Reference      *harness.Result
	ReferenceFails []harness.RowVerdict // rows that did not pass (or honestly abstain) against the unsabotaged agents
	Table          evidence.Falsifiability
	Runs           int
	// Interrupted: the matrix was stopped (ctx ended) before every toggle ran. The toggle whose run was cut short
	// and those never run are left out of the table: an interrupted run proves nothing, and never reads survived.
	Interrupted bool
}

// Run executes the reference run and one run per toggle. Each toggle run covers only the toggle's document: the
// other documents' agents are untouched by it.
func Run(ctx context.Context, start Starter, o Options) (*Report, error) {
	docs := map[string]bool{}
	for _, s := range o.Suites {
		docs[s.Document] = true
	}
	toggles := o.Toggles
	if len(toggles) == 0 {
		toggles = sabotage.All()
	}
	rep := &Report{Table: evidence.Falsifiability{Rows: map[string][]string{}, Toggles: []evidence.ToggleResult{}}}

	ref, err := runOnce(ctx, start, sabotage.Set{}, sortedKeys(docs), nil, o)
	if err != nil {
		return nil, fmt.Errorf("reference run: %w", err)
	}
	if ref.Interrupted {
		return nil, fmt.Errorf("reference run: interrupted")
	}
	rep.Reference, rep.Runs = ref, 1
	refPass := map[string]bool{}
	for _, r := range ref.Rows {
		if r.Verdict == harness.ExecutedPass {
			refPass[r.ID] = true
		}
		if r.Counts() {
			rep.ReferenceFails = append(rep.ReferenceFails, r)
		}
	}

	for _, t := range toggles {
		if ctx.Err() != nil {
			rep.Interrupted = true
			break
		}
		tr := evidence.ToggleResult{ID: string(t.ID), Document: t.Document, Side: t.Side, Targets: t.Targets,
			Killed: []string{}, Survived: []string{}}
		if !docs[t.Document] {
			tr.Error = "no suite for document " + t.Document
			tr.Survived = append(tr.Survived, t.Targets...)
			rep.Table.Toggles = append(rep.Table.Toggles, tr)
			continue
		}
		set, err := sabotage.Parse(string(t.ID))
		if err != nil {
			return nil, err
		}
		var rows []string
		if !o.WholeDocument {
			rows = t.Targets
		}
		res, err := runOnce(ctx, start, set, []string{t.Document}, rows, o)
		rep.Runs++
		if ctx.Err() != nil || (res != nil && res.Interrupted) {
			rep.Interrupted = true
			break
		}
		if err != nil {
			tr.Error = err.Error()
			tr.Survived = append(tr.Survived, t.Targets...)
			rep.Table.Toggles = append(rep.Table.Toggles, tr)
			continue
		}
		verdict := map[string]string{}
		for _, r := range res.Rows {
			verdict[r.ID] = r.Verdict
		}
		targeted := map[string]bool{}
		for _, id := range t.Targets {
			targeted[id] = true
			// Killed for the right reason only: the row failed here and passed in the reference run.
			if verdict[id] == harness.ExecutedFail && refPass[id] {
				tr.Killed = append(tr.Killed, id)
				rep.Table.Rows[id] = append(rep.Table.Rows[id], string(t.ID))
			} else {
				tr.Survived = append(tr.Survived, id)
			}
		}
		for _, r := range res.Rows {
			if !targeted[r.ID] && r.Verdict == harness.ExecutedFail && refPass[r.ID] {
				tr.Collateral = append(tr.Collateral, r.ID)
			}
		}
		rep.Table.Toggles = append(rep.Table.Toggles, tr)
	}
	return rep, nil
}

func runOnce(ctx context.Context, start Starter, set sabotage.Set, docs, rows []string, o Options) (*harness.Result, error) {
	tgt, err := start(set, docs...)
	if err != nil {
		return nil, err
	}
	defer tgt.Close()
	return harness.Run(ctx, tgt, harness.Options{Suites: o.Suites, Documents: docs, Rows: rows, Sabotage: set, Seed: o.Seed})
}

// Unkilled returns the witnessable rows of the given documents that no toggle killed.
func (r *Report) Unkilled(rows []string) []string {
	var out []string
	for _, id := range rows {
		if len(r.Table.Rows[id]) == 0 {
			out = append(out, id)
		}
	}
	return out
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
