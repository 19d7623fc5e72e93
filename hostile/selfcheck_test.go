package hostile

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/mockagents/hostile"
	"github.com/extconf/extconf/suites"
)

// Issue 37.3: a hostile target (8 MiB replies, deep cards, 100 000 skills, endless SSE, 1 B/s) never fails a
// self-check row, so it never turns into "HARNESS DEFECT" (exit 3): self-checks on the harness's own fixtures have
// their own byte budget, and a self-check that needs the target's card (interview's §8–§9 rows) blocks when the
// card cannot be read.
func TestHostileTargetIsNoHarnessDefect(t *testing.T) {
	for _, b := range []hostile.Behaviour{hostile.HugeBody, hostile.DeepNesting, hostile.ManySkills, hostile.EndlessSSE,
		hostile.EndlessSSEEvents, hostile.OneBytePerSecond} {
		t.Run(string(b), func(t *testing.T) {
			a, err := hostile.Start(b)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(a.Close)
			l := testLimits()
			h := sampleHeap()
			start := time.Now()
			res, err := harness.Run(context.Background(), a.Target(target.Config{}), harness.Options{Suites: suites.All(), Limits: &l, Seed: 1, SpecTimeout: 30 * time.Second})
			wall := time.Since(start)
			peak, _ := h.finish()
			if err != nil {
				t.Fatal(err)
			}
			failed, blocked := 0, 0
			for _, r := range harness.SelfCheckRows(res.Rows) {
				switch r.Verdict {
				case harness.ExecutedFail:
					if failed++; failed <= 5 {
						t.Errorf("self-check %s failed against a hostile target: %.300s", r.ID, r.Detail)
					}
				case harness.Blocked, harness.NotTested:
					blocked++
				}
			}
			if st := harness.SelfCheckStatus(res.Rows); st == harness.SelfCheckFailed {
				t.Errorf("self-check status %s (%d rows failed): runsuite would exit 3, HARNESS DEFECT, for the target's doing", st, failed)
			}
			figMu.Lock()
			figures["self-check vs "+string(b)] = fmtFigure("self-check vs "+string(b), wall, peak)
			figMu.Unlock()
			t.Logf("%s: %s, peak heap %.1f MiB; self-checks: %d failed, %d blocked (rows that read the target's card)", b, wall.Round(time.Millisecond), mib(peak), failed, blocked)
		})
	}
}

// Issue 37.3: a target answering every request with a body just under the 8 MiB cap spends the run's byte budget
// (64 MiB) in eight answers; the self-checks on the harness's own fixtures have a budget of their own and still run.
func TestBudgetSpentByTargetLeavesSelfChecks(t *testing.T) {
	pad := strings.Repeat("x", 8<<20-200)
	base := halfDead(t, func(w http.ResponseWriter, r *http.Request, _ <-chan struct{}) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{"pad":"`+pad+`"}}`)
	})
	tgt, err := target.URL(base+"/.well-known/agent-card.json", target.Config{})
	if err != nil {
		t.Fatal(err)
	}
	l := testLimits()
	h := sampleHeap()
	start := time.Now()
	res, err := harness.Run(context.Background(), tgt, harness.Options{Suites: suites.All(), Limits: &l, Seed: 1, SpecTimeout: 30 * time.Second})
	wall := time.Since(start)
	peak, _ := h.finish()
	if err != nil {
		t.Fatal(err)
	}
	spent, selfRefused := 0, 0
	for _, r := range res.Rows {
		if strings.Contains(r.Detail, "max-run-bytes") {
			if r.SelfCheck {
				selfRefused++
				if selfRefused <= 3 {
					t.Errorf("self-check %s %s on the target's budget: %.200s", r.ID, r.Verdict, r.Detail)
				}
			} else {
				spent++
			}
		}
	}
	if spent == 0 {
		t.Fatal("the target did not spend the run's budget: nothing tested")
	}
	if st := harness.SelfCheckStatus(res.Rows); st == harness.SelfCheckFailed {
		t.Errorf("self-check status failed against a target that only spends the byte budget")
	}
	figMu.Lock()
	figures["self-check vs 8MiB replies"] = fmtFigure("self-check vs 8MiB replies", wall, peak)
	figMu.Unlock()
	t.Logf("%s, peak heap %.1f MiB; %d target rows refused on the spent budget, %d self-check rows", wall.Round(time.Millisecond), mib(peak), spent, selfRefused)
}
