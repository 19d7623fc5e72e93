package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/extconf/extconf/falsify"
	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/harness/evidence"
	"github.com/extconf/extconf/mockagents"
	"github.com/extconf/extconf/sabotage"
	"github.com/extconf/extconf/suites"
)

var falsifyCommand = command{
	name:     "falsify",
	short:    "prove each row's test able to fail: the reference agents unsabotaged, then one run per toggle",
	synopsis: []string{"falsify [--mode full|derived|both] [--sabotage IDS] [--json FILE] [--seed N] [--whole-document]", "        [--out DIR [--force] [--as NAME] [--tier T] [--sign-key FILE] [--junit FILE] [--html FILE]]"},
	long: `Every applicable row must pass against the unsabotaged reference agents; then each toggle runs only the
specs labelled with its target rows (--whole-document: the whole document, to measure collateral). Exit 1 when
a reference row does not pass, a toggle's target row survives, or (all toggles) a witnessable row no toggle
kills; 130 when interrupted (unfinished toggles are left out of the table, never read as survived).

--mode derived runs the agent toggles the way a credentials-only user runs the harness: the reference agents as
URL targets, each run given only the credentials and the operator facts (what no probe can derive), the rest
derived by the run. A toggle then fails when one of its target rows reads executed-pass, not-tested, or blocked
without a reason. --mode both writes both tables (the derived one beside the full-profile one in the bundle).`,
	examples: []string{
		"# the whole matrix", "runsuite falsify",
		"# two toggles, the table as JSON", "runsuite falsify --sabotage terms.digest-uppercase-hex,terms.declaration-required-true --json fals.json",
		"# a bundle of the reference run carrying the table", "runsuite falsify --out evidence/falsified",
		"# the credentials-only way of running, schema-interface toggles", "runsuite falsify --mode derived --sabotage si.stale-binding-accepted",
	},
	run: cmdFalsify,
}

func cmdFalsify(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlags("falsify")
	sab := fs.String("sabotage", "", "toggle `IDS` to run (default: all; given without --latitude, no latitude runs)")
	jobs := fs.Int("jobs", runtime.NumCPU(), "run the matrix in `N` processes: this one (the reference run, then toggles and latitudes) and N-1 children")
	latFlag := fs.String("latitude", "", "latitude `IDS` to run after the toggles (default: all; given without --sabotage, no toggle runs)")
	jsonOut := fs.String("json", "", "write the falsifiability table to `FILE`")
	seed := fs.Int64("seed", 1, "Ginkgo random `SEED`")
	whole := fs.Bool("whole-document", false, "per toggle, run its whole document (collateral across every row; slower)")
	outDir := fs.String("out", "", "also write into `DIR` a bundle of the reference run carrying the falsifiability table here")
	asFlag := fs.String("as", "", "with --out: `NAME` of who runs the harness")
	tierFlag := fs.String("tier", "self", "with --out: `TIER`, self or third-party")
	keyFlag := fs.String("sign-key", "", "with --out: private JWK `FILE` to sign the bundle with")
	junitFlag := fs.String("junit", "", "with --out: write the per-row JUnit XML report to `FILE`")
	htmlFlag := fs.String("html", "", "with --out: write the HTML report to `FILE`")
	forceFlag := fs.Bool("force", false, "with --out: overwrite a bundle already there")
	modeFlag := fs.String("mode", falsify.ModeFull, "`MODE`: full (the announced profile, in process), derived (URL targets, operator facts only) or both")
	if err := parseNoArgs(fs, args); err != nil {
		return exitUsage, err
	}
	if *modeFlag != falsify.ModeFull && *modeFlag != falsify.ModeDerived && *modeFlag != modeBoth {
		return exitUsage, usageError{fmt.Errorf("--mode %q: want full, derived or both", *modeFlag)}
	}
	if err := checkOut(*outDir, *forceFlag); err != nil {
		return exitUsage, err
	}
	if *outDir != "" {
		if err := checkOutputs(*outDir, map[string]string{"--junit": *junitFlag, "--html": *htmlFlag}); err != nil {
			return exitUsage, err
		}
	}
	if err := checkFiles(map[string]string{"--json": *jsonOut}); err != nil {
		return exitUsage, err
	}
	st, err := standingFlags(*asFlag, *tierFlag, *keyFlag)
	if err != nil {
		return exitUsage, err
	}
	var toggles []sabotage.Toggle
	for _, id := range splitList(*sab) {
		t, ok := sabotage.Lookup(id)
		if !ok {
			if sabotage.KnownLatitude(id) {
				return exitUsage, usageError{fmt.Errorf("%q is a latitude: pass it with --latitude", id)}
			}
			var ids []string
			for _, t := range sabotage.All() {
				ids = append(ids, string(t.ID))
			}
			return exitUsage, usageError{fmt.Errorf("--sabotage: unknown toggle %q%s (see runsuite sabotage list)", id, suggest(id, ids))}
		}
		toggles = append(toggles, t)
	}
	lats, err := parseLatitudes(*latFlag)
	if err != nil {
		return exitUsage, err
	}
	started := time.Now()
	full := len(toggles) == 0 && len(lats) == 0
	if len(toggles) == 0 {
		toggles = sabotage.All()
	}
	if len(lats) == 0 {
		lats = sabotage.Latitudes()
	}
	if *modeFlag == falsify.ModeDerived {
		return falsifyDerivedOnly(ctx, *sab, *seed, *jobs, *jsonOut, stdout, stderr)
	}
	table, rep, err := falsifyTable(ctx, nil, toggles, lats, *sab == "" && *latFlag != "", *latFlag == "" && *sab != "", *seed, *whole, *jobs, stderr)
	if err != nil {
		return exitFail, err
	}
	derivedCode := exitPass
	if *modeFlag == modeBoth && !rep.Interrupted {
		var dsel []sabotage.Toggle
		if *sab != "" {
			dsel = toggles
		}
		if table.Derived, derivedCode, err = derivedTable(ctx, dsel, *seed, *jobs, stdout, stderr); err != nil {
			return exitFail, err
		}
	}
	cat := catalog.MustLoad()
	var witnessable []string
	for _, s := range suites.All() {
		for _, r := range cat.ByDocument(s.Document) {
			if r.Witnessable() {
				witnessable = append(witnessable, r.ID)
			}
		}
	}
	evidence.FalsifySummary(stdout, table, witnessable)
	if rep.Interrupted {
		// Toggles not run (or cut short) are left out of the table: none reads as survived.
		fmt.Fprintf(stdout, "INTERRUPTED after %d runs: the table holds only the toggles that finished; nothing is written\n", rep.Runs)
		return exitInterrupted, nil
	}
	code := derivedCode
	for _, r := range rep.ReferenceFails {
		fmt.Fprintf(stdout, "REFERENCE RUN: %s is %s: %s\n", r.ID, r.Verdict, firstLine(r.Detail))
		code = exitFail
	}
	for _, t := range table.Toggles {
		if len(t.Survived) > 0 {
			code = exitFail
		}
	}
	for _, l := range table.Latitudes {
		if !l.Survived {
			code = exitFail
		}
	}
	if full {
		if un := rep.Unkilled(witnessable); len(un) > 0 {
			fmt.Fprintf(stdout, "rows no toggle killed: %s\n", strings.Join(un, ", "))
			code = exitFail
		}
	}
	fmt.Fprintf(stdout, "%d runs in %s\n", rep.Runs, time.Since(started).Round(time.Millisecond))
	if *outDir != "" {
		if _, err := writeBundle(rep.Reference, table, st, outputs{dir: *outDir, junit: *junitFlag, html: *htmlFlag}, stdout, stderr); err != nil {
			return exitFail, err
		}
	}
	if *jsonOut != "" {
		b, err := json.MarshalIndent(table, "", "  ")
		if err != nil {
			return exitFail, err
		}
		if err := os.WriteFile(*jsonOut, b, 0o644); err != nil {
			return exitFail, err
		}
	}
	return code, nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// falsifyTable runs the falsification matrix for the documents (all when empty) with the given toggles (every
// toggle of those documents when nil) and returns the table that goes into a bundle, stamped with its run.
// Latitudes run after the toggles: lats (every latitude applying to docs when nil), none when noLats; no toggle
// runs when noToggles.
func falsifyTable(ctx context.Context, docs []string, toggles []sabotage.Toggle, lats []sabotage.Latitude, noToggles, noLats bool, seed int64, whole bool, jobs int, stderr io.Writer) (*evidence.Falsifiability, *falsify.Report, error) {
	var chosen []harness.Suite
	for _, s := range suites.All() {
		if len(docs) == 0 || slices.Contains(docs, s.Document) {
			chosen = append(chosen, s)
		}
	}
	if toggles == nil {
		for _, t := range sabotage.All() {
			if len(docs) == 0 || slices.Contains(docs, t.Document) {
				toggles = append(toggles, t)
			}
		}
	}
	if lats == nil {
		for _, l := range sabotage.Latitudes() {
			if len(docs) == 0 || len(l.In(docs)) > 0 {
				lats = append(lats, l)
			}
		}
	}
	if noToggles {
		toggles = nil
	}
	if noLats {
		lats = nil
	}
	if seed == 0 {
		seed = 1
	}
	started := time.Now().UTC()
	fmt.Fprintf(stderr, "runsuite: falsification: the reference agents, then %d sabotaged runs, then %d latitude runs\n", len(toggles), len(lats))
	rep, err := falsify.Run(ctx, mockagents.Start, falsify.Options{Suites: chosen, Toggles: toggles, NoToggles: len(toggles) == 0,
		Latitudes: lats, NoLatitudes: len(lats) == 0, Seed: seed, WholeDocument: whole, Jobs: jobs, Worker: shardWorker(stderr, jobs)})
	if err != nil {
		return nil, nil, fmt.Errorf("falsification: %w", err)
	}
	t := rep.Table
	if len(docs) > 0 {
		kept := t.Toggles[:0]
		for _, tr := range t.Toggles {
			if slices.Contains(docs, tr.Document) {
				kept = append(kept, tr)
			}
		}
		t.Toggles = kept
	}
	bi := evidence.BuildInfo()
	t.Seed, t.Runs, t.Started = seed, rep.Runs, started.Format(time.RFC3339Nano)
	t.Run = fmt.Sprintf("falsification started %s with seed %d by extconf %s (build %s %s) against the in-process reference agents",
		t.Started, seed, bi.Version, bi.Build.Kind, bi.Build.ID)
	for _, r := range rep.ReferenceFails {
		t.ReferenceNotPassing = append(t.ReferenceNotPassing, r.ID)
	}
	return &t, rep, nil
}
