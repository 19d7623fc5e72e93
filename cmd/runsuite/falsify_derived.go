package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/extconf/extconf/falsify"
	"github.com/extconf/extconf/harness/evidence"
	"github.com/extconf/extconf/mockagents"
	"github.com/extconf/extconf/sabotage"
	"github.com/extconf/extconf/suites"
)

// modeBoth runs the full-profile matrix, then the derived one, and writes both tables.
const modeBoth = "both"

// falsifyDerivedOnly is `falsify --mode derived`: the derived table alone (printed, and with --json written).
func falsifyDerivedOnly(ctx context.Context, sab string, seed int64, jobs int, jsonOut string, stdout, stderr io.Writer) (int, error) {
	var toggles []sabotage.Toggle
	for _, id := range splitList(sab) {
		t, _ := sabotage.Lookup(id) // known: checked by the caller
		toggles = append(toggles, t)
	}
	d, code, err := derivedTable(ctx, toggles, seed, jobs, stdout, stderr)
	if err != nil || d == nil {
		return exitFail, err
	}
	if jsonOut != "" {
		b, err := json.MarshalIndent(d, "", "  ")
		if err != nil {
			return exitFail, err
		}
		if err := os.WriteFile(jsonOut, b, 0o644); err != nil {
			return exitFail, err
		}
	}
	return code, nil
}

// derivedTable runs the derived-mode falsification of toggles (every agent toggle when empty), prints its table
// and returns it with the exit code it calls for: 1 when a toggle's target row survived or the derived reference
// run failed a row (a false failure in the way users run).
func derivedTable(ctx context.Context, toggles []sabotage.Toggle, seed int64, jobs int, stdout, stderr io.Writer) (*evidence.DerivedFalsifiability, int, error) {
	started := time.Now()
	if seed == 0 {
		seed = 1
	}
	fmt.Fprintf(stderr, "runsuite: derived falsification: the reference agents as URL targets with only the operator facts\n")
	rep, err := falsify.Run(ctx, mockagents.Start, falsify.Options{Suites: suites.All(), Toggles: toggles, NoToggles: false,
		NoLatitudes: true, Seed: seed, Jobs: jobs, Worker: shardWorker(stderr, jobs), Mode: falsify.ModeDerived})
	if err != nil {
		return nil, exitFail, fmt.Errorf("derived falsification: %w", err)
	}
	d := rep.Derived
	bi := evidence.BuildInfo()
	d.Runs = rep.Runs
	d.Run = fmt.Sprintf("derived falsification started %s with seed %d by extconf %s (build %s %s) against the reference agents as URL targets",
		started.UTC().Format(time.RFC3339Nano), seed, bi.Version, bi.Build.Kind, bi.Build.ID)
	d.Selection = "every agent-side toggle"
	if len(toggles) > 0 {
		d.Selection = "the toggles asked for"
	}
	code := exitPass
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "toggle (derived)\ttargets\tkilled\tabstained\tpassed\tsurvived")
	for _, t := range d.Toggles {
		surv := strings.Join(t.Survived, ",")
		if t.Error != "" {
			surv += " (" + t.Error + ")"
		}
		if len(t.Survived) > 0 {
			code = exitFail
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\t%s\n", t.ID, len(t.Targets), len(t.Killed), len(t.Abstained), dashIfEmpty(strings.Join(t.Passed, ",")), dashIfEmpty(surv))
	}
	tw.Flush()
	for _, id := range d.ReferenceFailing {
		fmt.Fprintf(stdout, "DERIVED REFERENCE RUN: %s is executed-fail\n", id)
		code = exitFail
	}
	if rep.Interrupted {
		fmt.Fprintln(stdout, "INTERRUPTED: the derived table holds only the toggles that finished")
		return d, exitInterrupted, nil
	}
	sv, passed := d.DerivedSurvivors()
	fmt.Fprintf(stdout, "derived: %d toggles, %d with a survivor, %d with an executed-pass on a target row; %d runs in %s\n",
		len(d.Toggles), sv, passed, rep.Runs, time.Since(started).Round(time.Millisecond))
	return d, code, nil
}

func dashIfEmpty(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
