// Package hostile holds the behaviour tests of issue 12: the harness, run through harness.Run against the
// misbehaving agent of mockagents/hostile, finishes in bounded time and memory with clear failing rows, never
// contacts anything outside the target's origin, and never reads a local file.
//
// Each test measures the run's wall time and peak heap; `go test -v ./hostile/` prints the table at the end.
package hostile

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/mockagents/hostile"
)

// figures are the per-behaviour measurements, printed after the tests run.
var (
	figMu   sync.Mutex
	figures = map[string]string{}
)

func TestMain(m *testing.M) {
	code := m.Run()
	figMu.Lock()
	names := make([]string, 0, len(figures))
	for n := range figures {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(names) > 0 {
		fmt.Fprintf(os.Stderr, "\n%-30s %10s %14s %14s\n", "behaviour", "wall", "peak heap", "heap growth")
		for _, n := range names {
			fmt.Fprintln(os.Stderr, figures[n])
		}
	}
	figMu.Unlock()
	os.Exit(code)
}

// testLimits shorten the timeouts so a run against an agent that never answers is quick; the size limits stay at
// their defaults (the 2 GiB body meets the real 8 MiB cap).
func testLimits() a2a.Limits {
	l := a2a.DefaultLimits()
	l.ConnectTimeout = time.Second
	l.CallTimeout = time.Second
	l.StreamTimeout = 1500 * time.Millisecond
	return l
}

// dialWatch is the recording dialer: it sees every dial any harness client attempts (a2a.SetDialHook), records
// it, and refuses anything but the hostile agent itself, so even a failing test never leaves loopback.
type dialWatch struct {
	mu      sync.Mutex
	allowed string
	dials   []string
	refused []string
}

func watchDials(t *testing.T, allowed string) *dialWatch {
	d := &dialWatch{allowed: allowed}
	restore := a2a.SetDialHook(func(_ context.Context, network, addr string) error {
		d.mu.Lock()
		defer d.mu.Unlock()
		d.dials = append(d.dials, addr)
		if addr != d.allowed {
			d.refused = append(d.refused, addr)
			return fmt.Errorf("test dial hook: %s %s is not the hostile agent %s", network, addr, d.allowed)
		}
		return nil
	})
	t.Cleanup(restore)
	return d
}

// offOrigin lists dials to anything but the agent.
func (d *dialWatch) offOrigin() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.refused...)
}

func (d *dialWatch) count() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.dials)
}

// heapSampler samples the live heap every 2 ms and keeps the peak.
type heapSampler struct {
	stop     chan struct{}
	done     chan struct{}
	base     uint64
	peak     uint64
	samplesN int
}

const heapMetric = "/memory/classes/heap/objects:bytes"

func readHeap(s []metrics.Sample) uint64 {
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func sampleHeap() *heapSampler {
	runtime.GC()
	s := []metrics.Sample{{Name: heapMetric}}
	h := &heapSampler{stop: make(chan struct{}), done: make(chan struct{}), base: readHeap(s)}
	h.peak = h.base
	go func() {
		defer close(h.done)
		s := []metrics.Sample{{Name: heapMetric}}
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			if v := readHeap(s); v > h.peak {
				h.peak = v
			}
			h.samplesN++
			select {
			case <-h.stop:
				return
			case <-t.C:
			}
		}
	}()
	return h
}

func (h *heapSampler) finish() (peak, growth uint64) {
	close(h.stop)
	<-h.done
	if h.peak > h.base {
		growth = h.peak - h.base
	}
	return h.peak, growth
}

// outcome is one run against one behaviour.
type outcome struct {
	res   *harness.Result
	agent *hostile.Agent
	dials *dialWatch
	wall  time.Duration
	peak  uint64
	grown uint64
	rows  map[string]harness.RowVerdict
}

type runSpec struct {
	suites []harness.Suite
	rows   []string
	limits a2a.Limits
	cfg    target.Config
	bound  time.Duration // generous wall-time bound
	heap   uint64        // peak heap bound (absolute)
	quiet  bool          // not a figure of the table (a run with overridden limits)
}

// run starts behaviour b, runs the suites through harness.Run against it and checks the run's universal
// promises: it returned within the bound, the peak heap stayed under the bound, nothing but the agent was dialled
// (recording dialer) or connected to (the Bystander's listener), and no byte of /etc/passwd appears anywhere.
func run(t *testing.T, b hostile.Behaviour, rs runSpec) *outcome {
	t.Helper()
	a, err := hostile.Start(b)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Close)
	if rs.bound == 0 {
		rs.bound = 30 * time.Second
	}
	if rs.heap == 0 {
		rs.heap = 256 << 20
	}
	if rs.limits == (a2a.Limits{}) {
		rs.limits = testLimits()
	}
	dw := watchDials(t, a.Addr())
	tgt := a.Target(rs.cfg)

	h := sampleHeap()
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 5*rs.bound)
	defer cancel()
	res, err := harness.Run(ctx, tgt, harness.Options{Suites: rs.suites, Rows: rs.rows, Limits: &rs.limits, Seed: 1,
		SpecTimeout: rs.bound})
	wall := time.Since(start)
	peak, grown := h.finish()
	if err != nil {
		t.Fatalf("harness.Run: %v", err)
	}
	o := &outcome{res: res, agent: a, dials: dw, wall: wall, peak: peak, grown: grown, rows: map[string]harness.RowVerdict{}}
	for _, r := range res.Rows {
		o.rows[r.ID] = r
	}
	figMu.Lock()
	if !rs.quiet {
		figures[string(b)] = fmt.Sprintf("%-30s %10s %11.1f MiB %11.1f MiB", b, wall.Round(time.Millisecond), mib(peak), mib(grown))
	}
	figMu.Unlock()
	t.Logf("%s: wall %s, peak heap %.1f MiB (growth %.1f MiB), %d dials, %d exchanges, %d agent requests, %d bytes written by the agent",
		b, wall.Round(time.Millisecond), mib(peak), mib(grown), dw.count(), len(res.Exchanges), a.Requests(), a.Written())

	if wall > rs.bound {
		t.Errorf("the run took %s, bound %s", wall, rs.bound)
	}
	if peak > rs.heap {
		t.Errorf("peak heap %.1f MiB, bound %.1f MiB", mib(peak), mib(rs.heap))
	}
	if off := dw.offOrigin(); len(off) > 0 {
		t.Errorf("the harness dialled outside the target's origin %s: %v", a.Addr(), off)
	}
	if dw.count() == 0 {
		t.Errorf("no dial at all was recorded: the recording dialer is not in the path")
	}
	if c := a.Bystander().Connections(); len(c) > 0 {
		t.Errorf("the Bystander at %s (another origin the card points at) was connected to: %v", a.Bystander().URL(), c)
	}
	noPasswd(t, res)
	return o
}

// noPasswd fails when anything the run recorded or reported holds /etc/passwd's content.
func noPasswd(t *testing.T, res *harness.Result) {
	t.Helper()
	leak := func(s string) bool { return strings.Contains(s, "root:x:0:0") || strings.Contains(s, "root:*:0:0") }
	for _, ex := range res.Exchanges {
		if leak(string(ex.ResponseBody)) || leak(string(ex.RequestBody)) || leak(ex.Error) {
			t.Errorf("exchange %s carries /etc/passwd content", ex.Summary())
		}
	}
	for _, r := range res.Rows {
		if leak(r.Detail) {
			t.Errorf("row %s's detail carries /etc/passwd content", r.ID)
		}
	}
}

func mib(b uint64) float64 { return float64(b) / (1 << 20) }

// want asserts that row has one of the verdicts and that its detail names every one of subs.
func (o *outcome) want(t *testing.T, row string, verdicts []string, subs ...string) {
	t.Helper()
	r, ok := o.rows[row]
	if !ok {
		t.Fatalf("row %s is not in the result", row)
	}
	okv := false
	for _, v := range verdicts {
		okv = okv || r.Verdict == v
	}
	if !okv {
		t.Errorf("%s: verdict %s, want one of %v (detail: %s)", row, r.Verdict, verdicts, clip(r.Detail))
		return
	}
	t.Logf("%s %s: %s", row, r.Verdict, observed(r.Detail))
	for _, s := range subs {
		if !strings.Contains(r.Detail, s) {
			t.Errorf("%s (%s): detail does not name %q:\n%s", row, r.Verdict, s, clip(r.Detail))
		}
	}
}

// none asserts that no selected row passed: a hostile agent never earns a pass on the rows it attacks.
func (o *outcome) nonePass(t *testing.T, rows []string) {
	t.Helper()
	for _, id := range rows {
		if r := o.rows[id]; r.Verdict == harness.ExecutedPass {
			t.Errorf("%s passed against the hostile agent %s", id, o.agent.B)
		}
	}
}

// observed is the "observed:" line of a failure message (the whole detail otherwise), clipped.
func observed(d string) string {
	if i := strings.Index(d, "observed: "); i >= 0 {
		d = d[i+len("observed: "):]
		if j := strings.IndexByte(d, '\n'); j >= 0 {
			d = d[:j]
		}
	}
	if len(d) > 300 {
		d = d[:300] + "…"
	}
	return d
}

func clip(s string) string {
	if len(s) > 1500 {
		return s[:1500] + "…"
	}
	return s
}

var fail = []string{harness.ExecutedFail}

// blocked: the harness's own rule stopped the check (the reach rule, a dead target), never a verdict on the agent.
var blocked = []string{harness.Blocked}
