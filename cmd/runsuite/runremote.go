package main

import (
	"cmp"
	"context"
	"crypto/x509"
	"encoding/json"
	"flag"
	"strings"

	"fmt"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/sabotage"
	"io"
	"slices"
	"sync"

	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/suites"
)

// A run against a URL or container target is shared by processes too, for another reason than the mock's: its
// exchanges wait on the network, one round trip each, issued one after another inside a process. The units are
// then finer than documents (groups of rows), so a long document is shared out, and more processes run than there
// are CPUs (remoteJobs). Unlike the mock's units, which each start their own reference agents, these share the
// target's agents, so rows that observe state an agent keeps across callers (harness.SharedStater: task lists,
// limits, action logs, a standing proposal) stay in one ordered unit per document that never runs beside another
// unit reaching the same agents; a document that names none keeps all its rows so.

// remoteJobs is the default number of processes against a URL or container target: the work waits on the
// network, not the CPUs (measured with scripts/latencybench), and each process costs about 40 MB.
const remoteJobs = 8

// partTarget is what a child needs of a URL or container target the parent made (and, for a container,
// started): the agents it names and its configuration as the parent holds it (the operator's file, with what a
// container announced merged in). It travels on the child's stdin with the rest of the run, never in a file.
type partTarget struct {
	Kind    string            `json:"kind"`
	Agents  map[string]string `json:"agents"`
	Config  json.RawMessage   `json:"config"`
	ImageID string            `json:"imageId,omitempty"`
}

func newPartTarget(tgt *target.Target) (*partTarget, error) {
	raw, err := json.Marshal(tgt.Config)
	if err != nil {
		return nil, err
	}
	return &partTarget{Kind: tgt.Kind, Agents: tgt.Agents, Config: raw, ImageID: tgt.ImageID}, nil
}

// target makes the child's target: the parent's agents and configuration, its sections decoded afresh (as a
// container's merged configuration is), trusting what the parent trusts.
func (p *partTarget) target() (*target.Target, error) {
	var cfg target.Config
	if err := json.Unmarshal(p.Config, &cfg); err != nil {
		return nil, err
	}
	if err := harness.PrepareConfig(&cfg, suites.Documents()...); err != nil {
		return nil, err
	}
	pool, err := cfg.CAPool()
	if err != nil {
		return nil, err
	}
	if p.Kind == target.KindContainer { // as container.Start: the reference agents' certificates come from the test CA
		if pool == nil {
			pool = x509.NewCertPool()
		}
		pool.AppendCertsFromPEM(testpki.CACertPEM())
	}
	return &target.Target{Kind: p.Kind, Agents: p.Agents, RootCAs: pool, Config: cfg, ImageID: p.ImageID}, nil
}

// remoteRowCost is a witnessed row's share of its document's round trips paid in series (measured with
// scripts/latencybench against the reference agents: (wall at 50 ms − loopback wall) / 50 ms / rows): what sizes
// the units.
var remoteRowCost = map[string]float64{"interview": 6.8, "on-request": 10, "schema-interface": 2.7, "terms": 3.2,
	"agent-cards": 2.4}

// minUnitCost is the smallest unit worth a process's time (round trips): a child's start and the setup every
// unit repeats (cards, probes a document's rows share) cost about a second's worth at 50 ms.
const minUnitCost = 30

// planRemoteUnits cuts a run of docs (every document when empty), restricted to rows when given, against tgt into
// units for jobs processes: per document one ordered unit (its SharedStater rows, or all of them), its other
// rows about the target in groups of about equal cost (catalog order, so a section's rows share what they fetch),
// and its self-check rows (the harness's own fixtures) apart. Ordered units first, then costliest first; nil
// when there is nothing to share.
func planRemoteUnits(docs, rows []string, jobs int, tgt *target.Target) []partPlan {
	if jobs < 2 {
		return nil
	}
	byID := map[string]harness.Document{}
	for _, d := range suites.Documents() {
		byID[d.ID()] = d
	}
	docs = everyDocument(docs)
	cat := catalog.MustLoad()
	type unit struct {
		plan partPlan
		cost float64
	}
	type docRows struct {
		ord, self unit
		free      []string // rows about the target that may run beside anything
		per       float64
		idle      []string // unwitnessable rows: the unit that owns them reports their catalog verdict
	}
	var plans []*docRows
	total := 0.0
	for _, d := range docs {
		doc, ok := byID[d]
		if !ok {
			continue // no suite: the merge reads its rows as a run does
		}
		ordered, allOrdered := harness.OrderedRows(doc)
		origins := harness.AgentOrigins(tgt, doc)
		p := &docRows{per: cmp.Or(remoteRowCost[d], 5),
			ord:  unit{plan: partPlan{Documents: []string{d}, Ordered: true, Origins: origins}},
			self: unit{plan: partPlan{Documents: []string{d}}}}
		for _, r := range cat.Rows {
			if r.Document != d || (len(rows) > 0 && !slices.Contains(rows, r.ID)) {
				continue
			}
			switch {
			case !r.Witnessable():
				p.idle = append(p.idle, r.ID)
			case r.SelfCheck():
				p.self.plan.Rows = append(p.self.plan.Rows, r.ID)
				p.self.cost += 1 // loopback: CPU, no round trip
			case allOrdered || ordered[r.ID] != "":
				p.ord.plan.Rows = append(p.ord.plan.Rows, r.ID)
				p.ord.cost += p.per
			default:
				p.free = append(p.free, r.ID)
			}
		}
		total += p.ord.cost + p.self.cost + p.per*float64(len(p.free))
		plans = append(plans, p)
	}
	size := max(total/float64(2*jobs), minUnitCost) // two units per process: the queue evens out what the estimate misses
	var units []unit
	for _, p := range plans {
		mine := []unit{p.ord, p.self}
		origins := p.ord.plan.Origins
		for i, id := range p.free {
			if i == 0 || mine[len(mine)-1].cost+p.per > size {
				mine = append(mine, unit{plan: partPlan{Documents: p.ord.plan.Documents, Origins: origins}})
			}
			u := &mine[len(mine)-1]
			u.plan.Rows = append(u.plan.Rows, id)
			u.cost += p.per
		}
		mine = slices.DeleteFunc(mine, func(u unit) bool { return len(u.plan.Rows) == 0 })
		if len(mine) > 0 && len(p.idle) > 0 {
			mine[0].plan.Rows = append(mine[0].plan.Rows, p.idle...)
		}
		units = append(units, mine...)
	}
	if len(units) < 2 {
		return nil
	}
	// Ordered units first: each holds its agents alone, so left to the end it would run after everything else;
	// first, the other documents' units run beside it.
	slices.SortStableFunc(units, func(a, b unit) int {
		if a.plan.Ordered != b.plan.Ordered {
			return map[bool]int{true: -1, false: 1}[a.plan.Ordered]
		}
		return cmp.Compare(b.cost, a.cost)
	})
	out := make([]partPlan, len(units))
	for i, u := range units {
		out[i] = u.plan
	}
	return out
}

// unitQueue hands out the units, costliest first, to whichever process is free: the parent and each child take
// the next one when they finish one, so no static guess decides who waits at the end. An ordered unit never runs
// beside another unit reaching one of its origins (nor another beside it): the queue hands out the first unit
// that may run now, and waits while none may. Once ctx ends nothing waits (what is left settles as interrupted).
type unitQueue struct {
	mu      sync.Mutex
	cond    *sync.Cond
	units   []partPlan
	taken   []bool
	running map[int]bool
	handed  int
	stopped bool
}

func newUnitQueue(ctx context.Context, units []partPlan) (*unitQueue, func() bool) {
	q := &unitQueue{units: units, taken: make([]bool, len(units)), running: map[int]bool{}}
	q.cond = sync.NewCond(&q.mu)
	return q, context.AfterFunc(ctx, func() {
		q.mu.Lock()
		defer q.mu.Unlock()
		q.stopped = true
		q.cond.Broadcast()
	})
}

// pop returns the next unit to run and its place in the order units were handed out; false when none is left.
func (q *unitQueue) pop() (i, order int, ok bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for {
		if q.handed == len(q.units) {
			return 0, 0, false
		}
		for i := range q.units {
			if !q.taken[i] && (q.stopped || q.fits(i)) {
				q.taken[i], q.running[i] = true, true
				q.handed++
				return i, q.handed - 1, true
			}
		}
		q.cond.Wait()
	}
}

// finish tells the queue unit i ended (with a result or not).
func (q *unitQueue) finish(i int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	delete(q.running, i)
	q.cond.Broadcast()
}

// fits: unit i may run beside every running unit.
func (q *unitQueue) fits(i int) bool {
	for j := range q.running {
		a, b := q.units[i], q.units[j]
		if (a.Ordered || b.Ordered) && overlaps(a.Origins, b.Origins) {
			return false
		}
	}
	return true
}

func overlaps(a, b []string) bool {
	for _, x := range a {
		if slices.Contains(b, x) {
			return true
		}
	}
	return false
}

// describeUnits is the line a split run prints about its units.
func describeUnits(units []partPlan) string {
	ordered := 0
	for _, u := range units {
		if u.Ordered {
			ordered++
		}
	}
	return fmt.Sprintf("%d units, %d of them ordered (rows that observe an agent's shared state)", len(units), ordered)
}

// runRemoteSplit runs units against a URL or container target in jobs processes and writes the bundle.
func runRemoteSplit(ctx context.Context, units []partPlan, jobs int, rows []string, set sabotage.Set, seed int64, strict bool,
	limits *a2a.Limits, docs []string, pt *partTarget, tgt *target.Target, quiet, fals bool, st standing, o outputs,
	stdout, stderr io.Writer) (int, error) {
	sw := &syncWriter{w: stderr}
	var prog func(partPlan) *progress
	if !quiet {
		fmt.Fprintf(sw, "runsuite: running %s against %s target in %d processes, %s\n", strings.Join(orAll(docs), ","),
			tgt.Kind, min(jobs, len(units)), describeUnits(units))
		prog = func(p partPlan) *progress { return newProgress(sw, p.Documents, p.Rows) }
	}
	res, merged, cleanup, err := splitRun(ctx, units, jobs, rows, set, seed, strict, limits, docs, prog, sw, pt, tgt)
	if err != nil {
		return exitFail, err
	}
	defer cleanup()
	ft, err := falsifyFor(ctx, fals, docs, res, sw)
	if err != nil {
		return exitFail, err
	}
	o.merged = merged
	return writeBundle(res, ft, st, o, stdout, stderr)
}

// flagSet reports whether the command line gave flag name.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
