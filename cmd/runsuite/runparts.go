package main

import (
	"bufio"
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/extconf/extconf/falsify"
	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/mockagents"
	"github.com/extconf/extconf/sabotage"
	"github.com/extconf/extconf/suites"
)

// A run against the reference agents can be shared by several processes (runsuite run --jobs N): Ginkgo's spec
// tree is process-global, so specs run in parallel only in separate processes. The run is cut into units (a
// document, or some of its rows) that this process and its children take from one queue; each process starts the
// reference agents of the unit it runs. All take exchange numbers from one shared sequence (a counter in shared
// memory), so their transcripts merge by Seq into the transcript one process would have written, with no exchange
// renumbered (Seq is inside each exchange's ID, and failure messages cite ex#Seq). Each row's verdict comes from
// the unit that owns it.

// partCommand is the hidden subcommand a split run re-executes runsuite with: it reads a runPart (JSON) on stdin,
// then units (partPlan) one at a time; it writes its transcript lines to runPart.Transcript and prints partLine
// objects on stdout, each unit's result after its spec events.
const partCommand = "run-part"

// partEnv marks a child started for a part (a test binary re-executed for one runs it from TestMain).
const partEnv = "EXTCONF_RUN_PART"

// runPart is what every process of a split run shares (a child reads it first, then its units).
type runPart struct {
	Sabotage   []string    `json:"sabotage,omitempty"` // toggles and latitudes switched on
	Seed       int64       `json:"seed"`
	Strict     bool        `json:"strict,omitempty"`
	Limits     *a2a.Limits `json:"limits,omitempty"`
	Deadline   time.Time   `json:"deadline"`
	SeqFile    string      `json:"seqFile"`    // the shared exchange counter
	Transcript string      `json:"transcript"` // where the child writes its exchanges, canonical lines in Seq order
	Key        string      `json:"key"`        // the run's redaction key (on the child's stdin, never in a file)
	Progress   bool        `json:"progress,omitempty"`
	Procs      int         `json:"procs"`            // GOMAXPROCS for each process: the CPUs shared out
	Target     *partTarget `json:"target,omitempty"` // a URL or container target (nil: reference agents per unit)
}

// partLine is one line a child prints: a spec event (progress), or a unit's result.
type partLine struct {
	Spec   *harness.SpecEvent `json:"spec,omitempty"`
	Result *partResult        `json:"result,omitempty"`
}

type partResult struct {
	Rows        []harness.RowVerdict        `json:"rows"`
	Cards       map[string]harness.CardSeen `json:"cards"`
	Started     time.Time                   `json:"started"`
	Finished    time.Time                   `json:"finished"`
	Interrupted bool                        `json:"interrupted,omitempty"`
	Seqs        []int                       `json:"seqs"` // the Seq of each transcript line the unit wrote, in order
	Lens        []int                       `json:"lens"` // the length of each line, '\n' included
}

// unitCost is the share of a default run of each unit (CPU seconds against the reference agents, measured): a
// document, or for schema-interface (about a third of the run) its agent rows and its self-check rows (the
// reference client against its stand-ins), which need nothing of each other. The queue hands out the costliest
// first, so the last unit taken, the only one that can leave a process waiting, is a small one.
var unitCost = map[string]float64{"schema-interface": 0.40, "schema-interface/self-check": 0.45, "interview": 0.30,
	"terms": 0.21, "on-request": 0.19, "agent-cards": 0.18}

// childStartCost is what a child process spends before its first spec (process start, agents started): a run
// costing less than two of them is not split.
const childStartCost = 0.1

// splitSelfCheck: documents whose self-check rows are a unit of their own.
var splitSelfCheck = map[string]bool{"schema-interface": true}

// partPlan is one unit of work: a document, or some of its rows (every row of the unit, unwitnessable ones too, so
// each row's verdict comes from the unit that owns it).
type partPlan struct {
	Documents []string `json:"documents"`
	Rows      []string `json:"rows,omitempty"` // nil: every row of Documents
	// Ordered: the unit's rows observe state the target's agents keep across callers, so it never runs beside
	// another unit reaching one of Origins (URL and container targets; a mock unit starts agents of its own).
	Ordered bool     `json:"-"`
	Origins []string `json:"-"`
}

// planUnits is the work of a run of docs (every document when empty), restricted to rows when given, as units,
// costliest first; nil when there is too little to share between processes (one unit, or less work than a
// child's start-up).
func planUnits(docs, rows []string, jobs int) []partPlan {
	if jobs < 2 {
		return nil
	}
	docs = everyDocument(docs)
	cat := catalog.MustLoad()
	type unit struct {
		plan partPlan
		cost float64
	}
	var units []unit
	total := 0.0
	for _, d := range docs {
		keys := []string{d}
		if splitSelfCheck[d] {
			keys = append(keys, d+"/self-check")
		}
		for _, k := range keys {
			u := unit{plan: partPlan{Documents: []string{d}}}
			all, witnessed := 0, 0
			var sel []string
			for _, r := range cat.Rows {
				if r.Document != d || (len(keys) > 1 && r.SelfCheck() != (k != d)) {
					continue
				}
				all++
				if len(rows) == 0 || slices.Contains(rows, r.ID) {
					sel = append(sel, r.ID)
					if r.Witnessable() {
						witnessed++
					}
				}
			}
			if len(keys) > 1 || len(rows) > 0 {
				u.plan.Rows = sel
			}
			u.cost = cmp.Or(unitCost[k], 0.2) * float64(len(sel)) / float64(max(all, 1))
			if witnessed > 0 {
				units = append(units, u)
				total += u.cost
			}
		}
	}
	if len(units) < 2 || total < 2*childStartCost {
		return nil
	}
	slices.SortStableFunc(units, func(a, b unit) int { return cmp.Compare(b.cost, a.cost) })
	out := make([]partPlan, len(units))
	for i, u := range units {
		out[i] = u.plan
	}
	return out
}

// unitDone is one unit's result and the process that ran it (0: this one).
type unitDone struct {
	res   *partResult
	proc  int
	order int // when the queue handed it out
}

// splitRun runs the units in this process and jobs-1 children and merges them into one result and one transcript.
// The returned cleanup removes the processes' files; call it after the transcript is written.
// pt and tgt, for a URL or container target, are what the children are given of it and the parent's own.
func splitRun(ctx context.Context, units []partPlan, jobs int, rows []string, set sabotage.Set, seed int64, strict bool,
	limits *a2a.Limits, docs []string, prog func(partPlan) *progress, stderr io.Writer, pt *partTarget, tgt *target.Target) (*harness.Result, *mergedTranscript, func(), error) {
	dir, err := os.MkdirTemp("", "runsuite-parts-*")
	if err != nil {
		return nil, nil, nil, err
	}
	cleanup := func() { _ = os.RemoveAll(dir) }
	fail := func(err error) (*harness.Result, *mergedTranscript, func(), error) {
		cleanup()
		return nil, nil, nil, err
	}
	seqFile := filepath.Join(dir, "seq")
	if err := os.WriteFile(seqFile, make([]byte, 8), 0o600); err != nil {
		return fail(err)
	}
	var key [32]byte
	_, _ = rand.Read(key[:])
	seed = harness.SeedOf(seed) // one seed for every part
	procs := min(jobs, len(units))
	deadline, _ := ctx.Deadline()
	l := a2a.DefaultLimits()
	if limits != nil {
		l = *limits
	}
	l.MaxRunBytes /= int64(procs) // the run's bound, shared by its processes
	procsPer := falsify.ProcsPer(procs)
	if pt != nil {
		procsPer = 1 // the processes wait on the network: more of them than CPUs, each on one
	}
	// Each process gets its share of the CPUs: with every process scheduling on all of them, the idle ones spin
	// and steal against the others (measured: about a fifth more CPU time, and as much more wall time).
	job := runPart{Sabotage: set.IDs(), Seed: seed, Strict: strict, Limits: &l, Deadline: deadline, SeqFile: seqFile,
		Key: hex.EncodeToString(key[:]), Progress: prog != nil, Procs: procsPer, Target: pt}
	ctr, err := openSeqCounter(seqFile)
	if err != nil {
		return fail(err)
	}
	defer ctr.Close()
	q, stopQueue := newUnitQueue(ctx, units)
	defer stopQueue()
	done := make([]unitDone, len(units))
	files := make([]string, procs)
	errs := make([]error, procs)
	var wg sync.WaitGroup
	for p := 1; p < procs; p++ {
		files[p] = filepath.Join(dir, fmt.Sprintf("part%d.jsonl", p))
		j := job
		j.Transcript = files[p]
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[p] = runChild(ctx, j, q, func(i, o int, r *partResult) { done[i] = unitDone{r, p, o} }, prog, stderr)
		}()
	}
	go catalog.MustLoad().Digest() // the bundle's, made while the units run
	// This process takes units too, while the children start; after an interruption it settles what is left
	// (each then reads not-tested, interrupted, at once).
	files[0] = filepath.Join(dir, "part0.jsonl")
	all := runtime.GOMAXPROCS(job.Procs)
	errs[0] = runHere(ctx, job, files[0], ctr.Next, q, func(i, o int, r *partResult) { done[i] = unitDone{r, 0, o} }, prog)
	wg.Wait()
	runtime.GOMAXPROCS(all) // the merge and the bundle's verification use every CPU again
	if err := errors.Join(errs...); err != nil {
		return fail(err)
	}
	res, tr, err := mergeParts(units, done, files, docs, rows, seed, strict, set, tgt)
	if err != nil {
		return fail(err)
	}
	return res, tr, cleanup, nil
}

// runHere runs units from q in this process until none is left, its transcript lines going to file as they are
// recorded.
func runHere(ctx context.Context, job runPart, file string, next func() int, q *unitQueue, record func(i, order int, r *partResult),
	prog func(partPlan) *progress) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	for {
		i, order, ok := q.pop()
		if !ok {
			break
		}
		var onSpec func(harness.SpecEvent)
		var pr *progress
		if prog != nil {
			pr = prog(q.units[i])
			onSpec = pr.event
		}
		r, err := runUnit(ctx, job, q.units[i], next, w, onSpec)
		q.finish(i)
		if pr != nil {
			pr.finish()
		}
		if err != nil {
			return err
		}
		record(i, order, r)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

// runUnit runs one unit in this process against reference agents started for it; its transcript lines go to w as
// they are recorded, its spec events to onSpec (nil: none).
func runUnit(ctx context.Context, job runPart, u partPlan, next func() int, w io.Writer, onSpec func(harness.SpecEvent)) (*partResult, error) {
	set, err := sabotage.Parse(job.Sabotage...)
	if err != nil {
		return nil, err
	}
	var tgt *target.Target
	if job.Target != nil {
		tgt, err = job.Target.target()
	} else {
		tgt, err = mockagents.Start(set, u.Documents...)
	}
	if err != nil {
		return nil, err
	}
	if tgt.Close != nil {
		defer tgt.Close()
	}
	o := harness.Options{Suites: suites.All(), Documents: u.Documents, Rows: u.Rows, Sabotage: set, Seed: job.Seed,
		Limits: job.Limits, Strict: job.Strict, Shared: &harness.Shared{NextSeq: next, RedactionKey: job.Key, Sink: w}, OnSpec: onSpec}
	res, err := harness.Run(ctx, tgt, o)
	if err != nil {
		return nil, err
	}
	lens, err := res.Env.Client.Recorder().Sunk()
	if err != nil {
		return nil, fmt.Errorf("run unit %v: transcript: %w", u.Documents, err)
	}
	return partResultOf(res, lens), nil
}

func partResultOf(res *harness.Result, lens []int) *partResult {
	out := &partResult{Rows: res.Rows, Cards: res.Cards, Started: res.Started, Finished: res.Finished,
		Interrupted: res.Interrupted, Seqs: make([]int, len(res.Exchanges)), Lens: lens}
	for i, e := range res.Exchanges {
		out.Seqs[i] = e.Seq
	}
	return out
}

// runChild starts a child process and feeds it units from q, one at a time, until none is left or ctx ends; then
// it closes the child's stdin, which ends the child (interrupting the unit it runs, if ctx ended).
func runChild(ctx context.Context, job runPart, q *unitQueue, record func(i, order int, r *partResult), prog func(partPlan) *progress, stderr io.Writer) error {
	// The child is interrupted by closing its stdin, never by a signal: it sits in its own process group (a
	// terminal's interrupt reaches only this process), so no signal can kill it before it has installed its
	// handling and it always reports the rows it finished. A run deadline reaches it as its own deadline.
	cmd, in, out, err := startSelf(func(exe string) *exec.Cmd {
		cmd := exec.Command(exe, partCommand)
		ownProcessGroup(cmd)
		return cmd
	}, partEnv, stderr)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(in)
	stop := context.AfterFunc(ctx, func() { _ = in.Close() })
	defer stop()
	dec := json.NewDecoder(bufio.NewReader(out))
	err = enc.Encode(job)
	for err == nil && ctx.Err() == nil {
		i, order, ok := q.pop()
		if !ok {
			break
		}
		if err = enc.Encode(q.units[i]); err != nil {
			q.finish(i)
			break
		}
		var pr *progress
		if prog != nil {
			pr = prog(q.units[i])
		}
		var res *partResult
		for res == nil {
			var l partLine
			if err = dec.Decode(&l); err != nil {
				err = fmt.Errorf("run unit %v in a child: no result: %w", q.units[i].Documents, err)
				break
			}
			if l.Spec != nil && pr != nil {
				pr.event(*l.Spec)
			}
			res = l.Result
		}
		q.finish(i)
		if pr != nil {
			pr.finish()
		}
		if res != nil {
			record(i, order, res)
		}
	}
	_ = in.Close()
	if werr := cmd.Wait(); err == nil && werr != nil {
		err = fmt.Errorf("run part child: %w", werr)
	}
	return err
}

// mergeParts is the run the units make together: each row from the unit that owns it, the cards of all, and the
// processes' transcript lines in Seq order (which must be exactly 1…N: a gap would be an exchange lost).
func mergeParts(units []partPlan, done []unitDone, files []string, docs, rows []string, seed int64, strict bool, set sabotage.Set, tgt *target.Target) (*harness.Result, *mergedTranscript, error) {
	cat := catalog.MustLoad()
	results := make([]*partResult, len(done))
	for i, d := range done {
		if d.res == nil {
			return nil, nil, fmt.Errorf("HARNESS DEFECT: run unit %v has no result", units[i].Documents)
		}
		results[i] = d.res
	}
	sel := harness.Selection{Documents: docs, Rows: rows, Strict: strict}
	if len(sel.Documents) == 0 {
		for _, d := range catalog.Documents {
			sel.Documents = append(sel.Documents, d.ID)
		}
	}
	if tgt == nil {
		tgt = &target.Target{Kind: target.KindMock, Sabotage: set.IDs()}
	}
	res := &harness.Result{Seed: seed, Selection: sel, Cards: map[string]harness.CardSeen{}, Env: &harness.Env{Target: tgt}}
	// A row's verdict is its unit's: the unit that ran its rows, else (a row no unit selected, which every unit
	// reports skipped) one that ran its document.
	ownerRow, ownerDoc := map[string]int{}, map[string]int{}
	for i, p := range units {
		for _, d := range p.Documents {
			if _, ok := ownerDoc[d]; !ok {
				ownerDoc[d] = i
			}
		}
		for _, r := range p.Rows {
			ownerRow[r] = i
		}
	}
	owner := func(r catalog.Row) int {
		if i, ok := ownerRow[r.ID]; ok {
			return i
		}
		return ownerDoc[r.Document]
	}
	for i, r := range results {
		if len(r.Rows) != len(cat.Rows) {
			return nil, nil, fmt.Errorf("run unit %v: %d rows, the catalog has %d", units[i].Documents, len(r.Rows), len(cat.Rows))
		}
		if res.Started.IsZero() || r.Started.Before(res.Started) {
			res.Started = r.Started
		}
		if r.Finished.After(res.Finished) {
			res.Finished = r.Finished
		}
		res.Interrupted = res.Interrupted || r.Interrupted
		for role, c := range r.Cards {
			res.Cards[role] = c
		}
	}
	res.Rows = make([]harness.RowVerdict, len(cat.Rows))
	for i, row := range cat.Rows {
		res.Rows[i] = results[owner(row)].Rows[i]
	}
	// Each process's file holds the lines of its units in the order it ran them: the order the queue handed
	// them out.
	tr := &mergedTranscript{files: files, seqs: make([][]int, len(files)), lens: make([][]int, len(files))}
	byOrder := make([]int, len(done))
	for i := range byOrder {
		byOrder[i] = i
	}
	slices.SortFunc(byOrder, func(a, b int) int { return cmp.Compare(done[a].order, done[b].order) })
	for _, i := range byOrder {
		d := done[i]
		r := d.res
		if len(r.Lens) != len(r.Seqs) {
			return nil, nil, fmt.Errorf("run unit %v: %d line lengths for %d exchanges", units[i].Documents, len(r.Lens), len(r.Seqs))
		}
		tr.seqs[d.proc] = append(tr.seqs[d.proc], r.Seqs...)
		tr.lens[d.proc] = append(tr.lens[d.proc], r.Lens...)
		tr.count += len(r.Seqs)
	}
	seen := make([]bool, tr.count+1)
	for _, s := range tr.seqs {
		for j, q := range s {
			if q < 1 || q > tr.count || seen[q] || (j > 0 && q <= s[j-1]) {
				return nil, nil, fmt.Errorf("HARNESS DEFECT: the run's processes numbered their exchanges inconsistently (seq %d)", q)
			}
			seen[q] = true
		}
	}
	return res, tr, nil
}

// mergedTranscript writes the processes' transcript files (each written as its units recorded) as one, in Seq
// order, each line copied by its length.
type mergedTranscript struct {
	files []string // per process
	seqs  [][]int  // per process
	lens  [][]int  // per process
	count int
}

func (t *mergedTranscript) write(w io.Writer) error {
	var rs []io.Reader
	for _, f := range t.files {
		fh, err := os.Open(f)
		if err != nil {
			return err
		}
		defer fh.Close()
		rs = append(rs, bufio.NewReaderSize(fh, 1<<20))
	}
	next := make([]int, len(t.seqs))
	for seq := 1; seq <= t.count; seq++ {
		k := -1
		for j, s := range t.seqs {
			if next[j] < len(s) && s[next[j]] == seq {
				k = j
				break
			}
		}
		if k < 0 {
			return fmt.Errorf("HARNESS DEFECT: exchange %d is in no part's transcript", seq)
		}
		if _, err := io.CopyN(w, rs[k], int64(t.lens[k][next[k]])); err != nil {
			return fmt.Errorf("process %d's transcript: %w", k, err)
		}
		next[k]++
	}
	return nil
}

// cmdRunPart is the child's side: the run's settings, then units one at a time on stdin, each answered on stdout
// by its spec events and its result; the end of stdin ends it (interrupting a unit still running: the parent
// closes stdin when the run is interrupted, and when no unit is left).
func cmdRunPart(ctx context.Context, stdin io.Reader, stdout io.Writer) (int, error) {
	dec := json.NewDecoder(stdin)
	var job runPart
	if err := dec.Decode(&job); err != nil {
		return exitUsage, usageError{fmt.Errorf("reading the run on stdin: %w", err)}
	}
	if job.Procs > 0 {
		runtime.GOMAXPROCS(job.Procs)
	}
	ctx, interrupt := context.WithCancel(ctx)
	defer interrupt()
	units := make(chan partPlan)
	go func() {
		defer close(units)
		defer interrupt()
		for {
			var u partPlan
			if dec.Decode(&u) != nil {
				return
			}
			units <- u
		}
	}()
	ctr, err := openSeqCounter(job.SeqFile)
	if err != nil {
		return exitFail, err
	}
	defer ctr.Close()
	if !job.Deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, job.Deadline)
		defer cancel()
	}
	f, err := os.Create(job.Transcript)
	if err != nil {
		return exitFail, err
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	var mu sync.Mutex
	enc := json.NewEncoder(stdout)
	var onSpec func(harness.SpecEvent)
	if job.Progress {
		onSpec = func(e harness.SpecEvent) {
			mu.Lock()
			defer mu.Unlock()
			_ = enc.Encode(partLine{Spec: &e})
		}
	}
	for u := range units {
		r, err := runUnit(ctx, job, u, ctr.Next, w, onSpec)
		if err == nil {
			err = w.Flush() // the lines are on disk before the parent hears the unit is done
		}
		if err != nil {
			return exitFail, err
		}
		mu.Lock()
		err = enc.Encode(partLine{Result: r})
		mu.Unlock()
		if err != nil {
			return exitFail, err
		}
	}
	if err := w.Flush(); err != nil {
		return exitFail, err
	}
	return exitPass, f.Close()
}

// syncWriter serialises writes: the units' progress displays and the children's stderr share one writer.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// everyDocument is docs, or every document of the catalog when docs is empty (a run of everything).
func everyDocument(docs []string) []string {
	if len(docs) > 0 {
		return docs
	}
	out := make([]string, 0, len(catalog.Documents))
	for _, d := range catalog.Documents {
		out = append(out, d.ID)
	}
	return out
}
