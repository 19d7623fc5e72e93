// Package falsify runs the falsification matrix: the reference agents with no toggle (every applicable row must
// pass: the positive control), then one run per toggle, in which every targeted row must fail, then one run per
// latitude over the whole of its documents, in which no row may fail (the latitude survives). The result is the
// falsifiability table that goes into the evidence bundle.
package falsify

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

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
	// NoToggles runs no toggle (Toggles is then ignored): the reference run and the latitudes only.
	NoToggles bool
	// Jobs > 1 with a Worker: after the reference run (shared), the toggles and latitudes are dealt to Jobs
	// workers (child processes) run concurrently; the table is the serial one. Otherwise all run in this process.
	Jobs   int
	Worker Worker
	// Latitudes are run after the toggles, each over the whole of its documents; empty: every registered latitude,
	// unless NoLatitudes.
	Latitudes   []sabotage.Latitude
	NoLatitudes bool
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
	if o.NoToggles {
		toggles = nil
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

	lats := o.Latitudes
	if len(lats) == 0 {
		lats = sabotage.Latitudes()
	}
	if o.NoLatitudes {
		lats = nil
	}
	var res *ShardResult
	if o.Jobs > 1 && o.Worker != nil && len(toggles)+len(lats) > 1 {
		res, err = runSharded(ctx, o, sortedKeys(docs), refPass, toggles, lats)
	} else {
		res, err = runShard(ctx, start, o, docs, refPass, toggles, lats)
	}
	if err != nil {
		return nil, err
	}
	rep.Runs += res.Runs
	rep.Interrupted = res.Interrupted
	rep.Table.Toggles = append(rep.Table.Toggles, res.Toggles...)
	for _, tr := range rep.Table.Toggles {
		for _, id := range tr.Killed {
			rep.Table.Rows[id] = append(rep.Table.Rows[id], tr.ID)
		}
	}
	rep.Table.Latitudes = res.Latitudes
	return rep, nil
}

// Shard is a part of the matrix run by a Worker (a child process), against the shared reference run.
type Shard struct {
	Documents     []string `json:"documents"` // the documents with a suite (Options.Suites)
	Toggles       []string `json:"toggles,omitempty"`
	Latitudes     []string `json:"latitudes,omitempty"`
	RefPass       []string `json:"refPass"` // the rows the reference run passed: a kill counts only for them
	Seed          int64    `json:"seed"`
	WholeDocument bool     `json:"wholeDocument,omitempty"`
}

// ShardResult is what a shard produced, toggles and latitudes in the shard's order.
type ShardResult struct {
	Toggles     []evidence.ToggleResult   `json:"toggles"`
	Latitudes   []evidence.LatitudeResult `json:"latitudes"`
	Runs        int                       `json:"runs"`
	Interrupted bool                      `json:"interrupted,omitempty"`
}

// Worker runs a shard elsewhere and returns its result. Ginkgo keeps its tree in process globals, so runs cannot
// be parallel inside one process: a worker is another process (runsuite re-executing itself), which runs the
// shard with RunShard.
type Worker func(ctx context.Context, s Shard) (*ShardResult, error)

// RunShard runs a shard in this process (the worker's side): toggles and latitudes are looked up by id, the
// suites are o.Suites (the caller picks those of s.Documents).
func RunShard(ctx context.Context, start Starter, o Options, s Shard) (*ShardResult, error) {
	docs := map[string]bool{}
	for _, d := range s.Documents {
		docs[d] = true
	}
	refPass := map[string]bool{}
	for _, id := range s.RefPass {
		refPass[id] = true
	}
	var toggles []sabotage.Toggle
	for _, id := range s.Toggles {
		t, ok := sabotage.Lookup(id)
		if !ok {
			return nil, fmt.Errorf("unknown toggle %q", id)
		}
		toggles = append(toggles, t)
	}
	var lats []sabotage.Latitude
	for _, id := range s.Latitudes {
		l, ok := sabotage.LookupLatitude(id)
		if !ok {
			return nil, fmt.Errorf("unknown latitude %q", id)
		}
		lats = append(lats, l)
	}
	o.Seed, o.WholeDocument = s.Seed, s.WholeDocument
	return runShard(ctx, start, o, docs, refPass, toggles, lats)
}

// runSharded deals the toggles and latitudes round-robin to o.Jobs workers (toggles are listed by document, so
// each worker gets every document's share), runs them concurrently and puts the results back in the serial
// order: the table is the one the serial matrix writes.
func runSharded(ctx context.Context, o Options, docs []string, refPass map[string]bool, toggles []sabotage.Toggle, lats []sabotage.Latitude) (*ShardResult, error) {
	jobs := min(o.Jobs, len(toggles)+len(lats))
	shards := make([]Shard, jobs)
	pass := sortedKeys(refPass)
	for i := range shards {
		shards[i] = Shard{Documents: docs, RefPass: pass, Seed: o.Seed, WholeDocument: o.WholeDocument}
	}
	k := 0
	for _, t := range toggles {
		shards[k%jobs].Toggles = append(shards[k%jobs].Toggles, string(t.ID))
		k++
	}
	for _, l := range lats {
		shards[k%jobs].Latitudes = append(shards[k%jobs].Latitudes, string(l.ID))
		k++
	}
	results := make([]*ShardResult, jobs)
	errs := make([]error, jobs)
	var wg sync.WaitGroup
	for i := range shards {
		wg.Go(func() { results[i], errs[i] = o.Worker(ctx, shards[i]) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		if ctx.Err() != nil {
			return &ShardResult{Interrupted: true}, nil
		}
		return nil, err
	}
	out := &ShardResult{}
	tog := map[string]evidence.ToggleResult{}
	lat := map[string]evidence.LatitudeResult{}
	for _, r := range results {
		out.Runs += r.Runs
		out.Interrupted = out.Interrupted || r.Interrupted
		for _, tr := range r.Toggles {
			tog[tr.ID] = tr
		}
		for _, lr := range r.Latitudes {
			lat[lr.ID] = lr
		}
	}
	for _, t := range toggles {
		if tr, ok := tog[string(t.ID)]; ok {
			out.Toggles = append(out.Toggles, tr)
		} else if !out.Interrupted {
			return nil, fmt.Errorf("toggle %s: no worker reported it", t.ID)
		}
	}
	for _, l := range lats {
		if lr, ok := lat[string(l.ID)]; ok {
			out.Latitudes = append(out.Latitudes, lr)
		} else if !out.Interrupted {
			return nil, fmt.Errorf("latitude %s: no worker reported it", l.ID)
		}
	}
	return out, nil
}

// runShard runs toggles then latitudes in this process, one run each.
func runShard(ctx context.Context, start Starter, o Options, docs, refPass map[string]bool, toggles []sabotage.Toggle, lats []sabotage.Latitude) (*ShardResult, error) {
	out := &ShardResult{Toggles: []evidence.ToggleResult{}}
	for _, t := range toggles {
		if ctx.Err() != nil {
			out.Interrupted = true
			break
		}
		tr := evidence.ToggleResult{ID: string(t.ID), Document: t.Document, Side: t.Side, Targets: t.Targets,
			Killed: []string{}, Survived: []string{}}
		if !docs[t.Document] {
			tr.Error = "no suite for document " + t.Document
			tr.Survived = append(tr.Survived, t.Targets...)
			out.Toggles = append(out.Toggles, tr)
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
		out.Runs++
		if ctx.Err() != nil || (res != nil && res.Interrupted) {
			out.Interrupted = true
			break
		}
		if err != nil {
			tr.Error = err.Error()
			tr.Survived = append(tr.Survived, t.Targets...)
			out.Toggles = append(out.Toggles, tr)
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
			} else {
				tr.Survived = append(tr.Survived, id)
			}
		}
		for _, r := range res.Rows {
			if !targeted[r.ID] && r.Verdict == harness.ExecutedFail && refPass[r.ID] {
				tr.Collateral = append(tr.Collateral, r.ID)
			}
		}
		out.Toggles = append(out.Toggles, tr)
	}
	for _, l := range lats {
		if ctx.Err() != nil {
			out.Interrupted = true
			break
		}
		lr, err := runLatitude(ctx, start, l, sortedKeys(docs), o)
		if err != nil {
			return nil, err
		}
		if len(lr.Documents) > 0 {
			out.Runs++
		}
		if ctx.Err() != nil {
			// Cut short: its rows read not-tested, which proves nothing about the latitude; left out, like a toggle.
			out.Interrupted = true
			break
		}
		out.Latitudes = append(out.Latitudes, lr)
	}
	return out, nil
}

// runLatitude runs every row of the latitude's documents (those with a suite) with only the latitude on. It
// survives when no row reads executed-fail, not-tested or blocked without a reason (Survives).
func runLatitude(ctx context.Context, start Starter, l sabotage.Latitude, docs []string, o Options) (evidence.LatitudeResult, error) {
	lr := evidence.LatitudeResult{ID: string(l.ID), Documents: l.In(docs), Permits: l.Permits}
	if lr.Documents == nil {
		lr.Documents = []string{}
	}
	if len(lr.Documents) == 0 {
		lr.Error = "no suite for the latitude's documents " + strings.Join(l.Documents, ", ")
		return lr, nil
	}
	set, err := sabotage.Parse(string(l.ID))
	if err != nil {
		return lr, err
	}
	res, err := runOnce(ctx, start, set, lr.Documents, nil, o)
	if err != nil {
		lr.Error = err.Error()
		return lr, nil
	}
	for _, r := range res.Rows {
		if !l.Applies(r.Document) {
			continue // another document's row: not run
		}
		lr.Rows++
		if !Survives(r) {
			lr.Failed = append(lr.Failed, evidence.LatitudeFailure{Row: r.ID, Verdict: r.Verdict, Detail: r.Detail})
		}
	}
	lr.Survived = len(lr.Failed) == 0
	return lr, nil
}

// Survives reports whether a row's verdict is one a latitude may leave: executed-pass, inapplicable, blocked with a
// reason, unwitnessable or skipped; and, on an advisory (SHOULD-level) row, executed-fail: not following a
// recommendation is itself a latitude (design.md), so a latitude may decline a SHOULD, as long as no requirement
// row fails with it. Anything else (executed-fail on a requirement row, not-tested, an unreasoned block, any other
// status) fails the latitude.
func Survives(r harness.RowVerdict) bool {
	if r.Advisory && r.Verdict == harness.ExecutedFail {
		return true
	}
	switch r.Verdict {
	case harness.ExecutedPass, harness.Inapplicable, harness.Unwitnessable, harness.Skipped:
		return true
	case harness.Blocked:
		return strings.TrimSpace(r.Detail) != ""
	}
	return false
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
