package falsify_test

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/extconf/extconf/falsify"
	"github.com/extconf/extconf/mockagents"
	"github.com/extconf/extconf/sabotage"
	"github.com/extconf/extconf/suites"
)

// Nothing per-run survives a run: after a second pass of the same runs (a reference run over every document, a few
// toggle runs and a latitude) the live heap is within a small margin of the first pass's, and the goroutine count
// is back at its baseline. Per-run state kept in package-level maps keyed by the run (7 MB a run, schemaiface) or
// one Ginkgo interrupt goroutine a run fails it.
func TestRunsLeaveNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the suites three times")
	}
	var toggles []sabotage.Toggle
	seen := map[string]bool{}
	for _, tg := range sabotage.All() {
		if !seen[tg.Document] {
			seen[tg.Document] = true
			toggles = append(toggles, tg)
		}
	}
	lats := sabotage.Latitudes()
	if len(lats) > 1 {
		lats = lats[:1]
	}
	pass := func() {
		t.Helper()
		if _, err := falsify.Run(context.Background(), mockagents.Start, falsify.Options{Suites: suites.All(),
			Toggles: toggles, Latitudes: lats, Seed: 1}); err != nil {
			t.Fatal(err)
		}
	}
	pass() // warm-up: lazily built process-wide state (caches, the signal loop, compiled schemas) is not per-run
	goroutines := settledGoroutines(-1)
	pass()
	heap1 := liveHeap()
	if n := settledGoroutines(goroutines); n > goroutines {
		t.Errorf("goroutines after the first pass: %d, baseline %d", n, goroutines)
	}
	pass()
	heap2 := liveHeap()
	if n := settledGoroutines(goroutines); n > goroutines {
		t.Errorf("goroutines after the second pass: %d, baseline %d (leaked per run)", n, goroutines)
	}
	const margin = 1 << 20 // one run of schemaiface's old per-run maps held ~7 MB
	t.Logf("live heap after pass 1: %.1f MiB, after pass 2: %.1f MiB; goroutines %d", mib(heap1), mib(heap2), goroutines)
	if heap2 > heap1+margin {
		t.Errorf("live heap grew %.1f MiB between two identical passes (margin %.1f MiB): per-run state survives the run",
			mib(heap2-heap1), mib(margin))
	}
}

func liveHeap() uint64 {
	var ms runtime.MemStats
	for range 3 {
		runtime.GC()
	}
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

func mib(b uint64) float64 { return float64(b) / (1 << 20) }

// settledGoroutines waits (up to 3 s) for connection and server goroutines of the closed agents to end, and returns
// the goroutine count: as soon as it is at most want, or the lowest seen when want < 0 (the baseline).
func settledGoroutines(want int) int {
	low := runtime.NumGoroutine()
	for deadline := time.Now().Add(3 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		n := runtime.NumGoroutine()
		low = min(low, n)
		if want >= 0 && n <= want {
			return n
		}
	}
	return low
}
