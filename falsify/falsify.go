package falsify

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/catalog"
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
	// Jobs > 1 with a Worker: the reference run, then the toggles and latitudes, run in this process and Jobs-1
	// workers (child processes) at once; the table is the serial one. Otherwise all run in this process in turn.
	Jobs   int
	Worker Worker
	// Latitudes are run after the toggles, each over the whole of its documents; empty: every registered latitude,
	// unless NoLatitudes.
	Latitudes   []sabotage.Latitude
	NoLatitudes bool
	// Mode is ModeFull ("" too) or ModeDerived: in the derived mode every run (the reference one too) is a URL
	// target given only the operator facts, the default toggles are the agent side's and no latitude runs.
	Mode string
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
	// Derived is the table of a derived-mode falsification (Options.Mode); Table then holds no toggle.
	Derived *evidence.DerivedFalsifiability
}

// Run executes the reference run and one run per toggle. Each toggle run covers only the toggle's document: the
// other documents' agents are untouched by it.
//
// With Jobs > 1 and a Worker, the reference run, the toggles and the latitudes run at once: this process runs the
// reference and then takes items from a shared queue, as do Jobs-1 workers (child processes, started while the
// reference runs). The queue holds the costliest items first (the latitudes, which run whole documents), so the
// workers finish together. A toggle's kills are judged against the reference run only once every run is done, so
// the table is the serial one whatever ran where and when.
func Run(ctx context.Context, start Starter, o Options) (*Report, error) {
	docs := map[string]bool{}
	for _, s := range o.Suites {
		docs[s.Document] = true
	}
	derived := o.Mode == ModeDerived
	toggles := o.Toggles
	if len(toggles) == 0 {
		toggles = sabotage.All()
		if derived {
			toggles = DerivedToggles(sortedKeys(docs))
		}
	}
	if o.NoToggles {
		toggles = nil
	}
	lats := o.Latitudes
	if len(lats) == 0 {
		lats = sabotage.Latitudes()
	}
	if o.NoLatitudes || derived {
		lats = nil
	}
	job := Job{Documents: sortedKeys(docs), Seed: o.Seed, WholeDocument: o.WholeDocument, Mode: o.Mode}
	var items []Item // the serial order: toggles, then latitudes
	for _, t := range toggles {
		items = append(items, Item{Toggle: string(t.ID)})
	}
	for _, l := range lats {
		items = append(items, Item{Latitude: string(l.ID)})
	}

	var (
		ref      *harness.Result
		outcomes map[Item]Outcome
		err      error
	)
	if o.Jobs > 1 && o.Worker != nil && len(items) > 1 {
		ref, outcomes, err = runParallel(ctx, start, o, job, items)
	} else {
		ref, outcomes, err = runSerial(ctx, start, o, job, items)
	}
	if err != nil {
		return nil, err
	}
	rep := &Report{Reference: ref, Runs: 1, Table: evidence.Falsifiability{Rows: map[string][]string{}, Toggles: []evidence.ToggleResult{}}}
	refPass, refFail := map[string]bool{}, map[string]bool{}
	for _, r := range ref.Rows {
		if r.Verdict == harness.ExecutedPass {
			refPass[r.ID] = true
		}
		if r.Verdict == harness.ExecutedFail {
			refFail[r.ID] = true
		}
		// A derived run leaves rows blocked that it cannot derive (honest); only a failure is a defect there.
		if r.Counts() && (!derived || r.Verdict == harness.ExecutedFail) {
			rep.ReferenceFails = append(rep.ReferenceFails, r)
		}
	}
	for _, oc := range outcomes {
		if oc.Ran {
			rep.Runs++
		}
	}
	if derived {
		rep.Derived = &evidence.DerivedFalsifiability{Mode: ModeDerived, Toggles: []evidence.DerivedToggleResult{}}
		for _, r := range rep.ReferenceFails {
			rep.Derived.ReferenceFailing = append(rep.Derived.ReferenceFailing, r.ID)
		}
	}
	// The table in the serial order; an item cut short or never run is left out (an interrupted run proves nothing,
	// and never reads survived).
	for _, t := range toggles {
		oc, ok := outcomes[Item{Toggle: string(t.ID)}]
		if !ok || oc.Interrupted {
			if !rep.Interrupted && ctx.Err() == nil && !ok {
				return nil, fmt.Errorf("toggle %s: no worker reported it", t.ID)
			}
			rep.Interrupted = true
			continue
		}
		if derived {
			rep.Derived.Toggles = append(rep.Derived.Toggles, judgeDerived(t, oc, refFail))
			continue
		}
		rep.Table.Toggles = append(rep.Table.Toggles, judge(t, oc, refPass))
	}
	for _, l := range lats {
		oc, ok := outcomes[Item{Latitude: string(l.ID)}]
		if !ok || oc.Interrupted || oc.LatitudeResult == nil {
			if !rep.Interrupted && ctx.Err() == nil && !ok {
				return nil, fmt.Errorf("latitude %s: no worker reported it", l.ID)
			}
			rep.Interrupted = true
			continue
		}
		rep.Table.Latitudes = append(rep.Table.Latitudes, *oc.LatitudeResult)
	}
	for _, tr := range rep.Table.Toggles {
		for _, id := range tr.Killed {
			rep.Table.Rows[id] = append(rep.Table.Rows[id], tr.ID)
		}
	}
	return rep, nil
}

// runSerial runs the reference, then each item in order, in this process; it stops at the first item cut short.
func runSerial(ctx context.Context, start Starter, o Options, job Job, items []Item) (*harness.Result, map[Item]Outcome, error) {
	ref, err := runReference(ctx, start, o, job)
	if err != nil {
		return nil, nil, err
	}
	outcomes := map[Item]Outcome{}
	for _, it := range items {
		if ctx.Err() != nil {
			break
		}
		oc, err := RunItem(ctx, start, o, job, it)
		if err != nil {
			return nil, nil, err
		}
		outcomes[it] = oc
		if oc.Interrupted {
			break
		}
	}
	return ref, outcomes, nil
}

func runReference(ctx context.Context, start Starter, o Options, job Job) (*harness.Result, error) {
	ref, err := runOnce(ctx, start, sabotage.Set{}, job.Documents, nil, o)
	if err != nil {
		return nil, fmt.Errorf("reference run: %w", err)
	}
	if ref.Interrupted {
		return nil, fmt.Errorf("reference run: interrupted")
	}
	return ref, nil
}

// runParallel runs the reference in this process while o.Jobs-1 workers start and take items from the queue
// (costliest first); this process joins them when the reference is done. A worker that fails stops taking items
// and the others drain the queue; the item it was running is reported missing (an error) unless ctx ended.
func runParallel(ctx context.Context, start Starter, o Options, job Job, items []Item) (*harness.Result, map[Item]Outcome, error) {
	// This process's share of the CPUs (the workers get theirs, ProcsPer): processes that each schedule on every
	// CPU spin and steal against one another.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(ProcsPer(o.Jobs)))
	queue := make(chan Item, len(items))
	for _, it := range byCost(items, job.Documents) {
		queue <- it
	}
	close(queue)
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu       sync.Mutex
		outcomes = map[Item]Outcome{}
		errs     []error
		ref      *harness.Result
		refErr   error
		wg       sync.WaitGroup
	)
	record := func(it Item, oc Outcome, err error) bool {
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", it, err))
			return false
		}
		outcomes[it] = oc
		return !oc.Interrupted
	}
	wg.Go(func() {
		if ref, refErr = runReference(runCtx, start, o, job); refErr != nil {
			cancel() // the matrix is void without its reference: stop the workers
			return
		}
		for it := range queue {
			if runCtx.Err() != nil {
				return
			}
			oc, err := RunItem(runCtx, start, o, job, it)
			if !record(it, oc, err) {
				return
			}
		}
	})
	for range min(o.Jobs, len(items)+1) - 1 {
		wg.Go(func() {
			w, err := o.Worker(runCtx, job)
			if err != nil {
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
				return
			}
			defer func() {
				if err := w.Close(); err != nil && runCtx.Err() == nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}()
			for it := range queue {
				if runCtx.Err() != nil {
					return
				}
				oc, err := w.Run(runCtx, it)
				if !record(it, oc, err) {
					return
				}
			}
		})
	}
	wg.Wait()
	if refErr != nil {
		return nil, nil, refErr
	}
	if err := errors.Join(errs...); err != nil && ctx.Err() == nil {
		return nil, nil, fmt.Errorf("falsify worker: %w", err)
	}
	return ref, outcomes, nil
}

// byCost orders items costliest first, by an estimate: a latitude runs every row of its documents (those with a
// suite), a toggle only the specs of its targets. Ties keep the serial order.
func byCost(items []Item, docs []string) []Item {
	rows := map[string]int{}
	cat := catalog.MustLoad()
	for _, d := range docs {
		rows[d] = len(cat.ByDocument(d))
	}
	cost := func(it Item) int {
		if it.Latitude != "" {
			l, ok := sabotage.LookupLatitude(it.Latitude)
			if !ok {
				return 0
			}
			c := 0
			for _, d := range l.In(docs) {
				c += runBase + rows[d]
			}
			return c
		}
		t, ok := sabotage.Lookup(it.Toggle)
		if !ok {
			return 0
		}
		return runBase + len(t.Targets)
	}
	out := slices.Clone(items)
	slices.SortStableFunc(out, func(a, b Item) int { return cmp.Compare(cost(b), cost(a)) })
	return out
}

// runBase is a run's fixed cost (agents started, the spec tree built) in rows' worth of work.
const runBase = 10

// Job is what every item a worker runs shares.
type Job struct {
	Documents     []string `json:"documents"` // the documents with a suite (Options.Suites)
	Seed          int64    `json:"seed"`
	WholeDocument bool     `json:"wholeDocument,omitempty"`
	Mode          string   `json:"mode,omitempty"` // ModeFull ("") or ModeDerived
}

// Item is one run of the matrix: a toggle or a latitude, by id.
type Item struct {
	Toggle   string `json:"toggle,omitempty"`
	Latitude string `json:"latitude,omitempty"`
}

func (it Item) String() string {
	if it.Latitude != "" {
		return "latitude " + it.Latitude
	}
	return "toggle " + it.Toggle
}

// Outcome is what an item's run produced, before a toggle's kills are judged against the reference run (which
// may still be running elsewhere when the item runs).
type Outcome struct {
	Ran         bool `json:"ran,omitempty"`         // agents were started and specs run (counted in Report.Runs)
	Interrupted bool `json:"interrupted,omitempty"` // cut short: left out of the table
	// A toggle: the run's error, or the rows it read executed-fail, in the run's row order.
	Error  string   `json:"error,omitempty"`
	Failed []string `json:"failed,omitempty"`
	// Targets are the toggle's target rows' verdicts (the derived mode judges abstentions and passes too).
	Targets map[string]evidence.RowOutcome `json:"targets,omitempty"`
	// A latitude: its result (it does not depend on the reference run).
	LatitudeResult *evidence.LatitudeResult `json:"latitudeResult,omitempty"`
}

// ProcsPer is the GOMAXPROCS of each of jobs processes sharing this machine's CPUs.
func ProcsPer(jobs int) int { return max(1, runtime.NumCPU()/max(jobs, 1)) }

// Worker starts a worker for the job: another process (runsuite re-executing itself) that runs items with RunItem.
// Ginkgo keeps its tree in process globals, so runs cannot be parallel inside one process.
type Worker func(ctx context.Context, j Job) (Session, error)

// Session is a started worker: Run runs one item there; Close ends it.
type Session interface {
	Run(ctx context.Context, it Item) (Outcome, error)
	Close() error
}

// RunItem runs one item in this process (the worker's side too): o.Suites are those of j.Documents.
func RunItem(ctx context.Context, start Starter, o Options, j Job, it Item) (Outcome, error) {
	o.Seed, o.WholeDocument, o.Mode = j.Seed, j.WholeDocument, j.Mode
	if it.Latitude != "" {
		l, ok := sabotage.LookupLatitude(it.Latitude)
		if !ok {
			return Outcome{}, fmt.Errorf("unknown latitude %q", it.Latitude)
		}
		if ctx.Err() != nil {
			return Outcome{Interrupted: true}, nil
		}
		lr, err := runLatitude(ctx, start, l, j.Documents, o)
		if err != nil {
			return Outcome{}, err
		}
		// Cut short: its rows read not-tested, which proves nothing about the latitude; left out, like a toggle.
		return Outcome{Ran: len(lr.Documents) > 0, Interrupted: ctx.Err() != nil, LatitudeResult: &lr}, nil
	}
	t, ok := sabotage.Lookup(it.Toggle)
	if !ok {
		return Outcome{}, fmt.Errorf("unknown toggle %q", it.Toggle)
	}
	if ctx.Err() != nil {
		return Outcome{Interrupted: true}, nil
	}
	if !slices.Contains(j.Documents, t.Document) {
		return Outcome{Error: "no suite for document " + t.Document}, nil
	}
	set, err := sabotage.Parse(string(t.ID))
	if err != nil {
		return Outcome{}, err
	}
	var rows []string
	if !o.WholeDocument {
		rows = t.Targets
	}
	res, err := runOnce(ctx, start, set, []string{t.Document}, rows, o)
	if ctx.Err() != nil || (res != nil && res.Interrupted) {
		return Outcome{Ran: true, Interrupted: true}, nil
	}
	if err != nil {
		return Outcome{Ran: true, Error: err.Error()}, nil
	}
	oc := Outcome{Ran: true, Failed: []string{}, Targets: map[string]evidence.RowOutcome{}}
	for _, r := range res.Rows {
		if r.Verdict == harness.ExecutedFail {
			oc.Failed = append(oc.Failed, r.ID)
		}
		if slices.Contains(t.Targets, r.ID) {
			oc.Targets[r.ID] = evidence.RowOutcome{Row: r.ID, Verdict: r.Verdict, Detail: r.Detail}
		}
	}
	return oc, nil
}

// judge reads a toggle's outcome against the reference run: a target row is killed for the right reason only when
// it failed here and passed in the reference run; collateral is any other row that did the same.
func judge(t sabotage.Toggle, oc Outcome, refPass map[string]bool) evidence.ToggleResult {
	tr := evidence.ToggleResult{ID: string(t.ID), Document: t.Document, Side: t.Side, Targets: t.Targets,
		Killed: []string{}, Survived: []string{}}
	if oc.Error != "" {
		tr.Error = oc.Error
		tr.Survived = append(tr.Survived, t.Targets...)
		return tr
	}
	failed := map[string]bool{}
	for _, id := range oc.Failed {
		failed[id] = true
	}
	targeted := map[string]bool{}
	for _, id := range t.Targets {
		targeted[id] = true
		if failed[id] && refPass[id] {
			tr.Killed = append(tr.Killed, id)
		} else {
			tr.Survived = append(tr.Survived, id)
		}
	}
	for _, id := range oc.Failed {
		if !targeted[id] && refPass[id] {
			tr.Collateral = append(tr.Collateral, id)
		}
	}
	return tr
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
		if !Survives(r) || statableBlock(l, r) != "" {
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
	if o.Mode == ModeDerived {
		if tgt, err = derivedTarget(tgt, docs); err != nil {
			return nil, err
		}
	}
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
