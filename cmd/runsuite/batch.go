package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/extconf/extconf/batch"
	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/harness/evidence"
	"github.com/extconf/extconf/sabotage"
)

var batchCommand = command{
	name:     "batch",
	short:    "certify many agents: one run per target of a targets file, one bundle each, and an index",
	synopsis: []string{"batch TARGETS [--out DIR] [--parallel N] [--suite DOCS] [--timeout D] [--shard K/N | --shard-of N] [--no-index] [--record-only] [--as NAME --tier T --sign-key FILE] [--strict] [--force] [--quiet]"},
	long: `TARGETS is a JSON file (decoded strictly):

  {"targets": [{"name": "acme", "target": "https://agent.acme.example/", "config": "acme.json"},
               {"image": "agent:1.2", "config": "agent.json"}]}

Each entry is a card URL ("target") or a local image ("image"), its target configuration file (relative to
TARGETS) and an optional name (default: the URL's host and port, or the image). Each target runs as its own
'runsuite run' process, at most --parallel at once, with its own configuration's limits and run deadline (a
child still running --timeout after it started, default its run deadline plus 30 s, is stopped), and writes
DIR/NAME/bundle.json (with its stdout and stderr in DIR/NAME/run.log). One progress line per target when it
starts and when it ends. Then the index: DIR/index.json, index.html and junit.xml, as 'runsuite index DIR'
writes them.

Exit status: the worst outcome over the targets, in the order pass (0) < incomplete or nothing graded (4) <
interrupted (130) < failed (1) < usage (2) < harness defect or a missing or unverified bundle (3). With
--record-only, 0 once every bundle is written and verifies (the outcomes are in the index): for schedulers that
retry a failed pod. --shard K/N runs the targets at positions i with i mod N = K (a Kubernetes Indexed Job's
pod K of N: --shard-of N reads K from $JOB_COMPLETION_INDEX), and --no-index leaves the index to a later 'runsuite index'.`,
	examples: []string{
		"# every agent of the registry's list, 8 at a time",
		"runsuite batch targets.json --out evidence/runs/nightly --parallel 8",
		"# pod K of 100 of an Indexed Job: its share, no index (a later job runs runsuite index)",
		"runsuite batch /targets/targets.json --shard-of 100 --out /bundles --no-index --record-only",
	},
	run: cmdBatch,
}

// jobIndexEnv is the completion index Kubernetes gives each pod of an Indexed Job.
const jobIndexEnv = "JOB_COMPLETION_INDEX"

// batchEnv marks a child started by batch (a test binary re-executed for one runs `run` from TestMain).
const batchEnv = "EXTCONF_BATCH_CHILD"

func cmdBatch(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlags("batch")
	outFlag := fs.String("out", "", "batch `DIR`ectory: DIR/NAME/ per target and the index (default evidence/runs/batch-<time>)")
	parFlag := fs.Int("parallel", 4, "`N` runs at once (each a process with its own memory budget)")
	suiteFlag := fs.String("suite", "", "`DOCS` each run runs, comma separated document ids (default: all)")
	timeoutFlag := fs.Duration("timeout", 0, "stop a run still going after `D` (default: its run deadline plus 30s)")
	shardFlag := fs.String("shard", "", "run only shard `K/N`: the targets at positions i with i mod N = K")
	shardOf := fs.Int("shard-of", 0, "run shard $JOB_COMPLETION_INDEX of `N` (the index a Kubernetes Indexed Job gives each pod)")
	noIndex := fs.Bool("no-index", false, "write the bundles only (a later 'runsuite index DIR' indexes them)")
	recordOnly := fs.Bool("record-only", false, "exit 0 once every bundle is written and verifies, whatever the targets' outcomes")
	asFlag := fs.String("as", "", "`NAME` of who runs the harness (passed to every run)")
	tierFlag := fs.String("tier", "self", "`TIER` of every run: self or third-party")
	keyFlag := fs.String("sign-key", "", "private JWK `FILE` every bundle is signed with")
	strictFlag := fs.Bool("strict", false, "every run is strict (advisory findings fail it)")
	forceFlag := fs.Bool("force", false, "overwrite bundles already in DIR")
	quietFlag := fs.Bool("quiet", false, "no progress lines")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return exitUsage, err
	}
	if len(pos) != 1 {
		return exitUsage, usageError{errors.New("want one targets file: runsuite batch TARGETS [--out DIR]")}
	}
	if *parFlag < 1 {
		return exitUsage, usageError{fmt.Errorf("--parallel %d: give 1 or more", *parFlag)}
	}
	if _, err := standingFlags(*asFlag, *tierFlag, *keyFlag); err != nil {
		return exitUsage, err
	}
	for _, d := range splitList(*suiteFlag) {
		if _, ok := catalog.DocumentByID(d); !ok {
			return exitUsage, usageError{fmt.Errorf("--suite: unknown document %q", d)}
		}
	}
	targets, err := batch.Load(pos[0])
	if err != nil {
		return exitUsage, usageError{err}
	}
	if *shardOf != 0 {
		if *shardFlag != "" {
			return exitUsage, usageError{errors.New("give one of --shard K/N and --shard-of N")}
		}
		idx, ok := os.LookupEnv(jobIndexEnv)
		if !ok {
			return exitUsage, usageError{fmt.Errorf("--shard-of %d: $%s is not set (a Kubernetes Indexed Job sets it in each pod)", *shardOf, jobIndexEnv)}
		}
		*shardFlag = idx + "/" + strconv.Itoa(*shardOf)
	}
	if *shardFlag != "" {
		k, n, err := parseShard(*shardFlag)
		if err != nil {
			return exitUsage, usageError{err}
		}
		if targets = batch.Shard(targets, k, n); len(targets) == 0 {
			fmt.Fprintf(stderr, "batch: shard %s holds no target (the file lists fewer than %d)\n", *shardFlag, k+1)
		}
	}
	dir := *outFlag
	if dir == "" {
		dir = filepath.Join("evidence", "runs", "batch-"+time.Now().UTC().Format("20060102T150405Z"))
	}
	if !*forceFlag {
		for _, t := range targets {
			if _, err := os.Stat(filepath.Join(dir, t.Name, batch.BundleFile)); err == nil {
				return exitUsage, usageError{fmt.Errorf("%s already holds a bundle; pass --force to overwrite, or choose another --out", filepath.Join(dir, t.Name))}
			}
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return exitUsage, usageError{fmt.Errorf("--out: %w", err)}
	}
	exe, err := os.Executable()
	if err != nil {
		return exitHarness, err
	}
	var runArgs []string
	for _, f := range [][2]string{{"--suite", *suiteFlag}, {"--as", *asFlag}, {"--sign-key", *keyFlag}} {
		if f[1] != "" {
			runArgs = append(runArgs, f[0], f[1])
		}
	}
	runArgs = append(runArgs, "--tier", *tierFlag)
	if *strictFlag {
		runArgs = append(runArgs, "--strict")
	}
	if *forceFlag {
		runArgs = append(runArgs, "--force")
	}
	o := batch.Options{Exe: exe, Env: append(os.Environ(), batchEnv+"=1"), Out: dir, Parallel: *parFlag, RunArgs: runArgs, Timeout: *timeoutFlag}
	if !*quietFlag {
		o.Progress = &syncWriter{w: stderr}
		fmt.Fprintf(stderr, "batch: %d targets, %d at a time, into %s\n", len(targets), *parFlag, dir)
	}
	start := time.Now()
	results := batch.Run(ctx, targets, o)
	if ctx.Err() != nil {
		fmt.Fprintf(stdout, "batch interrupted after %s: bundles in %s\n", time.Since(start).Round(time.Millisecond), dir)
		return exitInterrupted, nil
	}
	code := exitPass
	defects := 0
	for _, r := range results {
		// A child's usage error (its configuration) is reported as such; a missing bundle is a defect below.
		if r.Exit == exitUsage {
			code = batch.Worst(code, exitUsage)
		}
	}
	fmt.Fprintf(stdout, "batch: %d runs in %s\n", len(results), time.Since(start).Round(time.Millisecond))
	if *noIndex {
		for _, r := range results {
			if r.Status == batch.StatusMissing || r.Status == batch.StatusUnverified {
				defects++
			}
			code = batch.Worst(code, childExit(r))
		}
	} else {
		idx, err := batch.BuildIndex(dir, evidence.VerifyOptions{KnownToggle: sabotage.Known, KnownLatitude: sabotage.KnownLatitude}, 0)
		if err != nil {
			return exitHarness, fmt.Errorf("index: %w", err)
		}
		if err := batch.Write(dir, idx); err != nil {
			return exitHarness, fmt.Errorf("index: %w", err)
		}
		printBatchIndex(stdout, idx, dir)
		code = batch.Worst(code, idx.Exit)
		for _, e := range idx.Entries {
			if e.Status == batch.StatusMissing || e.Status == batch.StatusUnverified {
				defects++
			}
		}
	}
	if *recordOnly {
		// The outcomes are recorded; only what keeps them from being recorded fails: a usage error, a bundle
		// missing or unverifiable, a harness defect (a run's own verification or self-check).
		switch {
		case code == exitUsage: // the Job's podFailurePolicy fails the whole Job on it
			return exitUsage, nil
		case defects > 0 || code == exitHarness:
			return exitHarness, nil
		}
		return exitPass, nil
	}
	return code, nil
}

// childExit is a result's outcome from the child's exit status (the index is not built: nothing verified yet).
func childExit(r batch.Result) int {
	if r.Status == batch.StatusMissing || r.Exit < 0 {
		return exitHarness
	}
	return r.Exit
}

func parseShard(s string) (k, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	k, e1 := strconv.Atoi(a)
	n, e2 := strconv.Atoi(b)
	if !ok || e1 != nil || e2 != nil || n < 1 || k < 0 || k >= n {
		return 0, 0, fmt.Errorf("shard %q: want K/N with 0 <= K < N, e.g. 3/10", s)
	}
	return k, n, nil
}
