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
// is process-global, so documents run in parallel only in separate processes. Each part starts the reference
// agents of its documents and runs them; the parts take exchange numbers from one shared sequence (a counter in
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
}

// documentCost is each document's share of a default run (CPU time against the reference agents, measured);
// the split puts the costliest first on the least loaded part.
var documentCost = map[string]float64{"schema-interface": 0.64, "interview": 0.30, "terms": 0.21, "on-request": 0.19, "agent-cards": 0.18}

// planParts splits docs (every document when empty) into at most jobs parts of about equal cost; rows (when
// given) go with their documents. One part or none means the run is not split.
func planParts(docs, rows []string, jobs int) [][]string {
	if len(docs) == 0 {
		for _, d := range catalog.Documents {
			docs = append(docs, d.ID)
		}
	}
	cat := catalog.MustLoad()
	cost := map[string]float64{}
	for _, d := range docs {
		c := cmp.Or(documentCost[d], 0.2)
		if len(rows) > 0 {
			sel, all := 0, 0
			for _, r := range cat.Rows {
				if r.Document == d && r.Witnessable() {
					all++
					if slices.Contains(rows, r.ID) {
						sel++
					}
				}
			}
			c = c * float64(sel) / float64(max(all, 1))
		}
		if c > 0 {
			cost[d] = c
		}
	}
	order := slices.Clone(docs)
	slices.SortStableFunc(order, func(a, b string) int { return cmp.Compare(cost[b], cost[a]) })
	n := min(jobs, len(cost))
	if n < 2 {
		return nil
	}
	parts, load := make([][]string, n), make([]float64, n)
	for _, d := range order {
		i := 0
		for j := range load {
			if load[j] < load[i] {
				i = j
			}
		}
		parts[i] = append(parts[i], d)
		load[i] += cost[d]
	}
	return parts
}

// splitRun runs the parts in child processes and merges them into one result and one transcript. The returned
// cleanup removes the parts' files; call it after the transcript is written.
func splitRun(ctx context.Context, parts [][]string, rows []string, set sabotage.Set, seed int64, strict bool,
	limits *a2a.Limits, docs []string, prog func() *progress, stderr io.Writer) (*harness.Result, *mergedTranscript, func(), error) {
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
	if limits != nil && limits.MaxRunBytes > 0 {
		l := *limits
		l.MaxRunBytes /= int64(len(parts)) // the run's bound, shared by its parts
		limits = &l
	} else if limits == nil {
		l := a2a.DefaultLimits()
		l.MaxRunBytes /= int64(len(parts))
		limits = &l
	}
	results := make([]*partResult, len(parts))
	errs := make([]error, len(parts))
	var wg sync.WaitGroup
	for i, p := range parts {
		var prow []string
		for _, r := range rows {
			if row, ok := catalog.MustLoad().Row(r); ok && slices.Contains(p, row.Document) {
				prow = append(prow, r)
			}
		}
		job := runPart{Documents: p, Rows: prow, Sabotage: set.IDs(), Seed: seed, Strict: strict, Limits: limits,
			Deadline: deadline, SeqFile: seqFile, Transcript: filepath.Join(dir, fmt.Sprintf("part%d.jsonl", i)),
			Salt: hex.EncodeToString(salt[:]), Progress: prog != nil}
		var pr *progress
		if prog != nil {
			pr = prog()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = runChildPart(ctx, job, pr, stderr)
		}()
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

// runChildPart runs one part in a child process (interrupted with SIGINT when ctx ends) and returns its result.
func runChildPart(ctx context.Context, job runPart, pr *progress, stderr io.Writer) (*partResult, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	// The child is interrupted by closing its stdin, never by a signal: it sits in its own process group (a
	// terminal's interrupt reaches only this process), so no signal can kill it before it has installed its
	// handling and it always reports the rows it finished. A run deadline reaches it as its own deadline.
	cmd := exec.Command(exe, partCommand)
	ownProcessGroup(cmd)
	cmd.Env = append(os.Environ(), partEnv+"=1")
	cmd.Stderr = stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
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
func mergeParts(parts [][]string, results []*partResult, docs, rows []string, seed int64, strict bool, set sabotage.Set, salt string) (*harness.Result, *mergedTranscript, error) {
	cat := catalog.MustLoad()
	sel := harness.Selection{Documents: docs, Rows: rows, Strict: strict}
	if len(sel.Documents) == 0 {
		for _, d := range catalog.Documents {
			sel.Documents = append(sel.Documents, d.ID)
		}
	}
	res := &harness.Result{Seed: seed, Selection: sel, Cards: map[string]harness.CardSeen{},
		Env: &harness.Env{Target: &target.Target{Kind: target.KindMock, Sabotage: set.IDs()}}}
	owner := map[string]int{}
	for i, p := range parts {
		for _, d := range p {
			owner[d] = i
		}
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
		res.Rows[i] = results[owner[row.Document]].Rows[i]
	}
	tr := &mergedTranscript{salt: salt}
	for _, r := range results {
		tr.seqs = append(tr.seqs, r.Seqs)
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

// mergedTranscript writes the parts' transcript files as one, in Seq order.
type mergedTranscript struct {
	files []string
	seqs  [][]int
	count int
	salt  string
}

func (t *mergedTranscript) write(w io.Writer) error {
	rs := make([]*bufio.Reader, len(t.files))
	for i, f := range t.files {
		fh, err := os.Open(f)
		if err != nil {
			return err
		}
		defer fh.Close()
		rs[i] = bufio.NewReaderSize(fh, 1<<20)
	}
	next := make([]int, len(t.files))
	for seq := 1; seq <= t.count; seq++ {
		i := -1
		for k, s := range t.seqs {
			if next[k] < len(s) && s[next[k]] == seq {
				i = k
				break
			}
		}
		if i < 0 {
			return fmt.Errorf("HARNESS DEFECT: exchange %d is in no part's transcript", seq)
		}
		line, err := rs[i].ReadBytes('\n')
		if err != nil {
			return fmt.Errorf("run part transcript %s: %w", t.files[i], err)
		}
		if _, err := w.Write(line); err != nil {
			return err
		}
		next[i]++
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
	tgt, err := mockagents.Start(set, job.Documents...)
	if err != nil {
		return exitFail, err
	}
	defer tgt.Close()
	var mu sync.Mutex
	enc := json.NewEncoder(stdout)
	o := harness.Options{Suites: suites.All(), Documents: job.Documents, Rows: job.Rows, Sabotage: set, Seed: job.Seed,
		Limits: job.Limits, Strict: job.Strict, Shared: &harness.Shared{NextSeq: ctr.Next, RedactionSalt: job.Salt}}
	if job.Progress {
		o.OnSpec = func(e harness.SpecEvent) {
			mu.Lock()
			defer mu.Unlock()
			_ = enc.Encode(partLine{Spec: &e})
		}
	}
	res, err := harness.Run(ctx, tgt, o)
	if err != nil {
		return exitFail, err
	}
	f, err := os.Create(job.Transcript)
	if err != nil {
		return exitFail, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	err = res.Env.Client.Recorder().WriteJSONL(w)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return exitFail, err
	}
	out := &partResult{Rows: res.Rows, Cards: res.Cards, Started: res.Started, Finished: res.Finished,
		Interrupted: res.Interrupted, Seqs: make([]int, len(res.Exchanges))}
	for i, e := range res.Exchanges {
		out.Seqs[i] = e.Seq
	}
	mu.Lock()
	defer mu.Unlock()
	if err := enc.Encode(partLine{Result: out}); err != nil {
		return exitFail, err
	}
	return exitPass, nil
}
