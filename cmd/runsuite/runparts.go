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
	"slices"
	"sync"
	"time"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/mockagents"
	"github.com/extconf/extconf/sabotage"
	"github.com/extconf/extconf/suites"
)

// A run against the reference agents can be split across processes (runsuite run --jobs N): Ginkgo's spec tree
// is process-global, so documents run in parallel only in separate processes. The first part runs in this
// process (already started), each other one in a child; each part starts the reference agents of its documents
// and runs them; the parts take exchange numbers from one shared sequence (a counter in
// shared memory), so their transcripts merge by Seq into the transcript one process would have written, with no
// exchange renumbered (Seq is inside each exchange's ID, and failure messages cite ex#Seq). Their rows are
// disjoint by document.

// partCommand is the hidden subcommand a split run re-executes runsuite with: it reads a runPart (JSON) on stdin,
// writes its transcript lines to runPart.Transcript, and prints partLine objects on stdout, the result last.
const partCommand = "run-part"

// partEnv marks a child started for a part (a test binary re-executed for one runs it from TestMain).
const partEnv = "EXTCONF_RUN_PART"

// runPart is one part of a split run.
type runPart struct {
	Documents  []string    `json:"documents"`
	Rows       []string    `json:"rows,omitempty"`
	Sabotage   []string    `json:"sabotage,omitempty"` // toggles and latitudes switched on
	Seed       int64       `json:"seed"`
	Strict     bool        `json:"strict,omitempty"`
	Limits     *a2a.Limits `json:"limits,omitempty"`
	Deadline   time.Time   `json:"deadline"`
	SeqFile    string      `json:"seqFile"`    // the shared exchange counter
	Transcript string      `json:"transcript"` // where the part writes its exchanges, canonical lines in Seq order
	Salt       string      `json:"salt"`       // the run's redaction salt
	Progress   bool        `json:"progress,omitempty"`
}

// partLine is one line a part prints: a spec event (progress), or its result (last).
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
	Seqs        []int                       `json:"seqs"` // the Seq of each line of the part's transcript, in order
	Lens        []int                       `json:"lens"` // the length of each line, '\n' included
}

// unitCost is the share of a default run of each unit a part can take (CPU seconds against the reference agents,
// measured): a document, or for schema-interface (about a third of the run) its agent rows and its self-check rows
// (the reference client against its stand-ins), which need nothing of each other. The split puts the costliest
// first on the least loaded part, a child's start-up counted against it.
var unitCost = map[string]float64{"schema-interface": 0.40, "schema-interface/self-check": 0.45, "interview": 0.30,
	"terms": 0.21, "on-request": 0.19, "agent-cards": 0.18}

// childStartCost is what a child process spends before its first spec (process start, agents started).
const childStartCost = 0.1

// splitSelfCheck: documents whose self-check rows are a unit of their own.
var splitSelfCheck = map[string]bool{"schema-interface": true}

// partPlan is one part: its documents and, when the part runs only some of their rows, those rows (every row of a
// unit it takes, unwitnessable ones too, so each row's verdict comes from the part that owns it).
type partPlan struct {
	Documents []string
	Rows      []string // nil: every row of Documents
}

// planParts splits docs (every document when empty), restricted to rows when given, into at most jobs parts of
// about equal cost. One part or none means the run is not split.
func planParts(docs, rows []string, jobs int) []partPlan {
	if len(docs) == 0 {
		for _, d := range catalog.Documents {
			docs = append(docs, d.ID)
		}
	}
	cat := catalog.MustLoad()
	type unit struct {
		doc   string
		rows  []string
		whole bool // every row of doc
		cost  float64
	}
	var units []unit
	for _, d := range docs {
		keys := []string{d}
		if splitSelfCheck[d] {
			keys = append(keys, d+"/self-check")
		}
		for _, k := range keys {
			u := unit{doc: d, whole: len(keys) == 1 && len(rows) == 0}
			all, sel, witnessed := 0, 0, 0
			for _, r := range cat.Rows {
				if r.Document != d || (len(keys) > 1 && r.SelfCheck() != (k != d)) {
					continue
				}
				all++
				if len(rows) == 0 || slices.Contains(rows, r.ID) {
					u.rows = append(u.rows, r.ID)
					sel++
					if r.Witnessable() {
						witnessed++
					}
				}
			}
			u.cost = cmp.Or(unitCost[k], 0.2) * float64(sel) / float64(max(all, 1))
			if witnessed > 0 {
				units = append(units, u)
			}
		}
	}
	n := min(jobs, len(units))
	if n < 2 {
		return nil
	}
	slices.SortStableFunc(units, func(a, b unit) int { return cmp.Compare(b.cost, a.cost) })
	load := make([]float64, n)
	for i := 1; i < n; i++ {
		load[i] = childStartCost
	}
	taken := make([][]unit, n)
	for _, u := range units {
		i := 0
		for j := range load {
			if load[j] < load[i] {
				i = j
			}
		}
		taken[i] = append(taken[i], u)
		load[i] += u.cost
	}
	// A child whose start costs more than the work it would take gets none: drop it.
	taken = slices.DeleteFunc(taken, func(us []unit) bool { return len(us) == 0 })
	if len(taken) < 2 {
		return nil
	}
	plans := make([]partPlan, len(taken))
	for i, us := range taken {
		whole := true
		for _, u := range us {
			if !slices.Contains(plans[i].Documents, u.doc) {
				plans[i].Documents = append(plans[i].Documents, u.doc)
			}
			whole = whole && u.whole
		}
		if !whole {
			for _, u := range us {
				plans[i].Rows = append(plans[i].Rows, u.rows...)
			}
		}
	}
	return plans
}

// splitRun runs the parts in child processes and merges them into one result and one transcript. The returned
// cleanup removes the parts' files; call it after the transcript is written.
func splitRun(ctx context.Context, parts []partPlan, rows []string, set sabotage.Set, seed int64, strict bool,
	limits *a2a.Limits, docs []string, prog func(partPlan) *progress, stderr io.Writer) (*harness.Result, *mergedTranscript, func(), error) {
	dir, err := os.MkdirTemp("", "runsuite-parts-*")
	if err != nil {
		return nil, nil, nil, err
	}
	cleanup := func() { _ = os.RemoveAll(dir) }
	seqFile := filepath.Join(dir, "seq")
	if err := os.WriteFile(seqFile, make([]byte, 8), 0o600); err != nil {
		cleanup()
		return nil, nil, nil, err
	}
	var salt [16]byte
	_, _ = rand.Read(salt[:])
	if seed == 0 {
		seed = time.Now().UnixNano() % 1_000_000
	}
	deadline, _ := ctx.Deadline()
	l := a2a.DefaultLimits()
	if limits != nil {
		l = *limits
	}
	l.MaxRunBytes /= int64(len(parts)) // the run's bound, shared by its parts
	limits = &l
	ctr, err := openSeqCounter(seqFile)
	if err != nil {
		cleanup()
		return nil, nil, nil, err
	}
	defer ctr.Close()
	results := make([]*partResult, len(parts))
	errs := make([]error, len(parts))
	var wg sync.WaitGroup
	for i, p := range parts[1:] {
		i++
		job := runPart{Documents: p.Documents, Rows: p.Rows, Sabotage: set.IDs(), Seed: seed, Strict: strict, Limits: limits,
			Deadline: deadline, SeqFile: seqFile, Transcript: filepath.Join(dir, fmt.Sprintf("part%d.jsonl", i)),
			Salt: hex.EncodeToString(salt[:]), Progress: prog != nil}
		var pr *progress
		if prog != nil {
			pr = prog(p)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = runChildPart(ctx, job, pr, stderr)
		}()
	}
	go catalog.MustLoad().Digest() // the bundle's, made while the parts run
	// The first part (the costliest) here, while the children start.
	var onSpec func(harness.SpecEvent)
	if prog != nil {
		pr0 := prog(parts[0])
		onSpec = pr0.event
		defer pr0.finish()
	}
	own, err := runPartHere(ctx, parts[0].Documents, parts[0].Rows, set, seed, strict, limits, hex.EncodeToString(salt[:]), ctr.Next, filepath.Join(dir, "part0.jsonl"), onSpec)
	if err != nil {
		errs[0] = err
	} else {
		results[0] = own
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		cleanup()
		return nil, nil, nil, err
	}
	res, tr, err := mergeParts(parts, results, docs, rows, seed, strict, set, hex.EncodeToString(salt[:]))
	if err != nil {
		cleanup()
		return nil, nil, nil, err
	}
	for i := range parts {
		tr.files = append(tr.files, filepath.Join(dir, fmt.Sprintf("part%d.jsonl", i)))
	}
	return res, tr, cleanup, nil
}

// runPartHere runs one part in this process against reference agents started for it; its transcript lines go to
// file as they are recorded, its spec events to onSpec (nil: none).
func runPartHere(ctx context.Context, docs, rows []string, set sabotage.Set, seed int64, strict bool, limits *a2a.Limits,
	salt string, next func() int, file string, onSpec func(harness.SpecEvent)) (*partResult, error) {
	tgt, err := mockagents.Start(set, docs...)
	if err != nil {
		return nil, err
	}
	defer tgt.Close()
	f, err := os.Create(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	o := harness.Options{Suites: suites.All(), Documents: docs, Rows: rows, Sabotage: set, Seed: seed,
		Limits: limits, Strict: strict, Shared: &harness.Shared{NextSeq: next, RedactionSalt: salt, Sink: w}, OnSpec: onSpec}
	res, err := harness.Run(ctx, tgt, o)
	if err != nil {
		return nil, err
	}
	lens, err := res.Env.Client.Recorder().Sunk()
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("run part %v: transcript: %w", docs, err)
	}
	return partResultOf(res, lens), nil
}

// partResultOf is what a part reports of its run; lens are its transcript lines' lengths when written to a file.
func partResultOf(res *harness.Result, lens []int) *partResult {
	out := &partResult{Rows: res.Rows, Cards: res.Cards, Started: res.Started, Finished: res.Finished,
		Interrupted: res.Interrupted, Seqs: make([]int, len(res.Exchanges)), Lens: lens}
	for i, e := range res.Exchanges {
		out.Seqs[i] = e.Seq
	}
	return out
}

// runChildPart runs one part in a child process (interrupted by closing its stdin when ctx ends) and returns its
// result.
func runChildPart(ctx context.Context, job runPart, pr *progress, stderr io.Writer) (*partResult, error) {
	// The child is interrupted by closing its stdin, never by a signal: it sits in its own process group (a
	// terminal's interrupt reaches only this process), so no signal can kill it before it has installed its
	// handling and it always reports the rows it finished. A run deadline reaches it as its own deadline.
	cmd, in, out, err := startSelf(func(exe string) *exec.Cmd {
		cmd := exec.Command(exe, partCommand)
		ownProcessGroup(cmd)
		return cmd
	}, partEnv, stderr)
	if err != nil {
		return nil, err
	}
	if err := json.NewEncoder(in).Encode(job); err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, fmt.Errorf("run part %v: %w", job.Documents, err)
	}
	stop := context.AfterFunc(ctx, func() { _ = in.Close() })
	defer stop()
	var res *partResult
	dec := json.NewDecoder(bufio.NewReader(out))
	for {
		var l partLine
		if err := dec.Decode(&l); err != nil {
			break
		}
		if l.Spec != nil && pr != nil {
			pr.event(*l.Spec)
		}
		if l.Result != nil {
			res = l.Result
		}
	}
	_ = in.Close()
	werr := cmd.Wait()
	if pr != nil {
		pr.finish()
	}
	if res == nil {
		if werr == nil {
			werr = errors.New("no result")
		}
		return nil, fmt.Errorf("run part %v: %w", job.Documents, werr)
	}
	return res, nil
}

// mergeParts is the run the parts make together: each row from the part that ran its document, the cards of all,
// and the transcript lines in Seq order (which must be exactly 1…N: a gap would be an exchange lost).
func mergeParts(parts []partPlan, results []*partResult, docs, rows []string, seed int64, strict bool, set sabotage.Set, salt string) (*harness.Result, *mergedTranscript, error) {
	cat := catalog.MustLoad()
	sel := harness.Selection{Documents: docs, Rows: rows, Strict: strict}
	if len(sel.Documents) == 0 {
		for _, d := range catalog.Documents {
			sel.Documents = append(sel.Documents, d.ID)
		}
	}
	res := &harness.Result{Seed: seed, Selection: sel, Cards: map[string]harness.CardSeen{},
		Env: &harness.Env{Target: &target.Target{Kind: target.KindMock, Sabotage: set.IDs()}}}
	// A row's verdict is its part's: the part that ran its rows, else (a row no part selected, which every part
	// reports skipped) one that ran its document.
	ownerRow, ownerDoc := map[string]int{}, map[string]int{}
	for i, p := range parts {
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
			return nil, nil, fmt.Errorf("run part %v: %d rows, the catalog has %d", parts[i], len(r.Rows), len(cat.Rows))
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
	tr := &mergedTranscript{salt: salt}
	for i, r := range results {
		if len(r.Lens) != len(r.Seqs) {
			return nil, nil, fmt.Errorf("run part %v: %d line lengths for %d exchanges", parts[i], len(r.Lens), len(r.Seqs))
		}
		tr.seqs = append(tr.seqs, r.Seqs)
		tr.lens = append(tr.lens, r.Lens)
		tr.count += len(r.Seqs)
	}
	seen := make([]bool, tr.count+1)
	for _, s := range tr.seqs {
		for j, q := range s {
			if q < 1 || q > tr.count || seen[q] || (j > 0 && q <= s[j-1]) {
				return nil, nil, fmt.Errorf("HARNESS DEFECT: the run's parts numbered their exchanges inconsistently (seq %d)", q)
			}
			seen[q] = true
		}
	}
	return res, tr, nil
}

// mergedTranscript writes the parts' transcript files (each written as its part recorded) as one, in Seq order,
// each line copied by its length.
type mergedTranscript struct {
	files []string // per part
	seqs  [][]int  // per part
	lens  [][]int  // per part
	count int
	salt  string
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
			return fmt.Errorf("run part %d transcript: %w", k, err)
		}
		next[k]++
	}
	return nil
}

// cmdRunPart is the child's side: one part, run in this process.
func cmdRunPart(ctx context.Context, stdin io.Reader, stdout io.Writer) (int, error) {
	var job runPart
	dec := json.NewDecoder(stdin)
	if err := dec.Decode(&job); err != nil {
		return exitUsage, usageError{fmt.Errorf("reading the part on stdin: %w", err)}
	}
	// The parent interrupts the part by closing stdin.
	ctx, interrupt := context.WithCancel(ctx)
	defer interrupt()
	go func() {
		_, _ = io.Copy(io.Discard, io.MultiReader(dec.Buffered(), stdin))
		interrupt()
	}()
	set, err := sabotage.Parse(job.Sabotage...)
	if err != nil {
		return exitUsage, usageError{err}
	}
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
	out, err := runPartHere(ctx, job.Documents, job.Rows, set, job.Seed, job.Strict, job.Limits, job.Salt, ctr.Next, job.Transcript, onSpec)
	if err != nil {
		return exitFail, err
	}
	mu.Lock()
	defer mu.Unlock()
	if err := enc.Encode(partLine{Result: out}); err != nil {
		return exitFail, err
	}
	return exitPass, nil
}

// syncWriter serialises writes: the parts' progress displays and the children's stderr share one writer.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
