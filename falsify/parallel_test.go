package falsify_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/extconf/extconf/falsify"
	"github.com/extconf/extconf/mockagents"
)

// failingWorker starts fine and fails every item it is given, as a crashed child would.
type failingWorker struct{ ran int }

func (w *failingWorker) Run(context.Context, falsify.Item) (falsify.Outcome, error) {
	w.ran++
	return falsify.Outcome{}, errors.New("child exited")
}
func (w *failingWorker) Close() error { return nil }

// A worker that fails makes the falsification fail: the item it took is never silently missing from the table (it
// would read neither killed nor survived), whatever this process ran meanwhile.
func TestParallelWorkerFailureIsAnError(t *testing.T) {
	terms, toggles := termsAndThreeToggles()
	w := &failingWorker{}
	_, err := falsify.Run(context.Background(), mockagents.Start, falsify.Options{Suites: terms, Toggles: toggles,
		NoLatitudes: true, Seed: 1, Jobs: 2, Worker: func(context.Context, falsify.Job) (falsify.Session, error) { return w, nil }})
	if err == nil || !strings.Contains(err.Error(), "child exited") {
		t.Fatalf("err = %v; want the worker's failure", err)
	}
	if w.ran != 1 {
		t.Errorf("the failed worker was given %d items; want 1 (it stops taking items)", w.ran)
	}
}
