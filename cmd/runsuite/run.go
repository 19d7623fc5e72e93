package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/go-jose/go-jose/v4"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/harness/evidence"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/mockagents"
	"github.com/extconf/extconf/sabotage"
	"github.com/extconf/extconf/suites"
)

var runCommand = command{
	name:  "run",
	short: "run the suites against a target and write an evidence bundle (the default command)",
	synopsis: []string{
		"run [--target mock|URL | --image IMG | --dockerfile DIR] [--config FILE] [--suite LIST] [--req IDS]",
		"    [--out DIR] [--junit FILE] [--html FILE] [--json FILE] [--as NAME] [--tier self|third-party]",
		"    [--sign-key FILE] [--falsify] [--seed N] [--sabotage IDS] [--force] [--allow-nothing-graded] [--quiet]",
		"    [--jobs N]",
	},
	long: `Runs every selected suite, writes bundle.json and transcript.jsonl into --out (default
evidence/runs/<UTC time>[-N]), checks the bundle as a third party would, then prints the summary table last.
Progress goes to stderr (rows done per document; one line per document when stderr is not a terminal).
Everything checkable is checked before the run: flags, documents, --req rows, the target configuration, the
output paths and the signing key; any problem there is exit 2.

Target: mock (the built-in reference agents), or a URL: a URL with a path is the card URL as given; a bare
origin (or path /) is resolved to /.well-known/agent-card.json, and the run says so. --image runs a local image
(never pulled), --dockerfile builds one; ports are published on 127.0.0.1 only, the container's output is kept
as container.log beside the bundle, and with no engine reachable every selected row is blocked (exit 4: incomplete).

Configuration (--config FILE, JSON): what the documents leave to the operator — caFile (a PEM bundle for a
private CA), trustedKeys (a JWK Set for card and document signatures), agents, principals, requests,
limits.allowOrigins (origins besides the target's that URLs may lead to), … Unknown members are an error.

Parallel: against the reference agents the run is shared by up to --jobs N processes (default: the CPUs), each
taking the next unit of work (a document, or part of one) when free; one shared exchange sequence, one merged
transcript and bundle. Against a URL or container target the run is shared by --jobs processes too (default 8:
they wait on the network), in groups of rows; the rows that observe state an agent keeps across callers (task
lists, limits, action logs, a standing proposal) run in one ordered group per document that never runs beside
another reaching the same agents. --jobs 1, --json and --rules keep one process.

Selection: --suite takes document ids (agent-cards, interview, on-request, schema-interface, terms); --req takes
row ids (TE-3.3b) or catalog aliases (0202.advertisement), see runsuite catalog.

Self-checks: rows witnessed by the harness's own reference client are about the harness, not the target; they
are reported in their own "harness self-check" section and never count for or against the target.

Standing: a run is self (a claim) unless --tier third-party names a runner (--as) who is none of the tested
cards' provider organizations and signs the bundle (--sign-key, from runsuite keygen): only that is evidence.
--junit writes one test case per catalog row; --json Ginkgo's own JSON report; --html a single-file report.`,
	examples: []string{
		"# every suite against the built-in reference agents (the same as bare runsuite)",
		"runsuite run",
		"# your agent, one document, CI reports",
		"runsuite run --target https://agent.example/ --suite terms --junit junit.xml --html report.html",
		"# two rows (an id and an alias), a private CA in the configuration",
		"runsuite run --target https://agent.example/ --config target.json --req TE-3.3b,0202.advertisement",
		"# a failing row on purpose: the reference agents with one fault on",
		"runsuite run --suite terms --sabotage terms.digest-uppercase-hex",
	},
	run: cmdRun,
}

func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) (code int, err error) {
	fs := newFlags("run")
	tgtFlag := fs.String("target", "mock", "mock, or the `URL` of an agent (its origin or card URL)")
	cfgFlag := fs.String("config", "", "target configuration `FILE` (JSON)")
	suiteFlag := fs.String("suite", "", "`DOCS` to run, comma separated document ids (default: all)")
	reqFlag := fs.String("req", "", "`IDS` of rows to run, comma separated: row ids or catalog aliases (default: all)")
	outFlag := fs.String("out", "", "bundle `DIR`ectory (default evidence/runs/<time>)")
	junitFlag := fs.String("junit", "", "write the per-row JUnit XML report to `FILE`")
	htmlFlag := fs.String("html", "", "write the single-file HTML report to `FILE`")
	jsonFlag := fs.String("json", "", "write Ginkgo's JSON report to `FILE`")
	asFlag := fs.String("as", "", "`NAME` of who runs the harness")
	tierFlag := fs.String("tier", "self", "`TIER`: self (a claim) or third-party (evidence, must be signed)")
	keyFlag := fs.String("sign-key", "", "private JWK `FILE` (Ed25519 or P-256) to sign the bundle with")
	falsFlag := fs.Bool("falsify", false, "also run the falsification matrix (on every CPU, as falsify does) and put its table in the bundle")
	seedFlag := fs.Int64("seed", 0, "Ginkgo random `SEED`")
	sabFlag := fs.String("sabotage", "", "mock target (or a reference-agent image): toggle `IDS` to switch on")
	latFlag := fs.String("latitude", "", "mock target: latitude `IDS` to switch on (other choices the documents permit)")
	rulesFlag := fs.String("rules", "", "also evaluate the proposed data rules of this `DIR` (reported apart, never counted)")
	imageFlag := fs.String("image", "", "container target: a local `IMAGE` (never pulled)")
	dockerfileFlag := fs.String("dockerfile", "", "container target: build the Dockerfile in `DIR`")
	forceFlag := fs.Bool("force", false, "overwrite a bundle already in --out")
	allowNothingFlag := fs.Bool("allow-nothing-graded", false, "exit 0 when no row about the target was graded (CI jobs that expect it)")
	strictFlag := fs.Bool("strict", false, "advisory findings (rows at SHOULD level) fail the run like a requirement's (exit 1)")
	quietFlag := fs.Bool("quiet", false, "no progress on stderr (errors and warnings still go there)")
	jobsFlag := fs.Int("jobs", runtime.NumCPU(), "run in up to `N` processes at once (default: the CPUs; 8 against a URL or container target; 1: in this process)")
	if err := parseNoArgs(fs, args); err != nil {
		return exitUsage, err
	}
	if err := checkOut(*outFlag, *forceFlag); err != nil {
		return exitUsage, err
	}
	if err := checkOutputs(*outFlag, map[string]string{"--junit": *junitFlag, "--html": *htmlFlag, "--json": *jsonFlag}); err != nil {
		return exitUsage, err
	}
	if *outFlag != "" {
		release, err := lockOut(*outFlag)
		if err != nil {
			return exitUsage, usageError{err}
		}
		defer release()
		if err := checkOut(*outFlag, *forceFlag); err != nil { // a run that held the lock may have written one
			return exitUsage, err
		}
	}
	st, err := standingFlags(*asFlag, *tierFlag, *keyFlag)
	if err != nil {
		return exitUsage, err
	}
	docs := splitList(*suiteFlag)
	for _, d := range docs {
		if _, ok := catalog.DocumentByID(d); !ok {
			var ids []string
			for _, doc := range catalog.Documents {
				ids = append(ids, doc.ID)
			}
			return exitUsage, usageError{fmt.Errorf("--suite: unknown document %q%s; the documents are %s", d, suggest(d, ids), strings.Join(ids, ", "))}
		}
	}
	rows, err := checkReq(splitList(*reqFlag), docs)
	if err != nil {
		return exitUsage, err
	}
	proposed, err := loadProposed(*rulesFlag) // data rules: proposed rows, evaluated after the run, never counted
	if err != nil {
		return exitUsage, usageError{fmt.Errorf("--rules: %w", err)}
	}
	for _, id := range splitList(*sabFlag) {
		if sabotage.IsLatitudeID(id) {
			return exitUsage, usageError{fmt.Errorf("%q is a latitude: pass it with --latitude", id)}
		}
	}
	runLats, err := parseLatitudes(*latFlag)
	if err != nil {
		return exitUsage, err
	}
	ids := splitList(*sabFlag)
	for _, l := range runLats {
		ids = append(ids, string(l.ID))
	}
	set, err := sabotage.Parse(ids...)
	if err != nil {
		return exitUsage, usageError{err}
	}
	if *falsFlag && !set.Empty() {
		return exitUsage, usageError{errors.New("--falsify proves the tests against the unsabotaged reference agents; drop --sabotage and --latitude")}
	}
	var cfg target.Config
	if *cfgFlag != "" {
		if cfg, err = loadConfig(*cfgFlag, stderr); err != nil {
			return exitUsage, usageError{fmt.Errorf("--config %s: %w (fix the target configuration file, or run without --config)", *cfgFlag, err)}
		}
	}
	if err := harness.CheckConfig(cfg, suites.Documents()...); err != nil {
		return exitUsage, usageError{fmt.Errorf("target config %s: %w", *cfgFlag, err)}
	}
	if l, err := harness.ParseLimits(cfg.Limits); err == nil {
		// The run deadline: past it, unfinished rows read not-tested and the status says interrupted; the exit
		// status is 4 (the run is incomplete), never 130, which says a signal stopped it.
		var cancel context.CancelFunc
		sigCtx := ctx
		ctx, cancel = context.WithTimeout(ctx, l.RunTimeout)
		defer cancel()
		runCtx := ctx
		defer func() {
			if code == exitInterrupted && sigCtx.Err() == nil && errors.Is(runCtx.Err(), context.DeadlineExceeded) {
				code = exitRunDeadline
				fmt.Fprintf(stderr, "runsuite: the run deadline (limits.runTimeout %s) ended the run: it is incomplete (exit %d)\n", l.RunTimeout, exitRunDeadline)
			}
		}()
	}
	limits, err := harness.LimitsOf(cfg) // the configuration's "limits" member; nil keeps the defaults
	if err != nil {
		return exitUsage, usageError{fmt.Errorf("target config %s: %w", *cfgFlag, err)}
	}
	if *jobsFlag < 1 {
		return exitUsage, usageError{fmt.Errorf("--jobs %d: give 1 or more processes", *jobsFlag)}
	}
	// The reference agents, with nothing asked of Ginkgo's own report or the rules (both read one process's run):
	// the documents run in parallel processes, merged into one bundle.
	if *tgtFlag == "mock" && *imageFlag == "" && *dockerfileFlag == "" && *jsonFlag == "" && proposed == nil && splitSupported {
		if units := planUnits(docs, rows, *jobsFlag); units != nil {
			stderr := &syncWriter{w: stderr}
			var prog func(partPlan) *progress // one display per unit
			if !*quietFlag {
				fmt.Fprintf(stderr, "runsuite: running %s against mock target in %d processes\n", strings.Join(orAll(docs), ","), min(*jobsFlag, len(units)))
				prog = func(p partPlan) *progress { return newProgress(stderr, p.Documents, p.Rows) }
			}
			res, merged, cleanup, err := splitRun(ctx, units, *jobsFlag, rows, set, *seedFlag, *strictFlag, limits, docs, prog, stderr, nil, nil)
			if err != nil {
				return exitFail, err
			}
			defer cleanup()
			fals, err := falsifyFor(ctx, *falsFlag, docs, res, stderr)
			if err != nil {
				return exitFail, err
			}
			return writeBundle(res, fals, st, outputs{dir: *outFlag, junit: *junitFlag, html: *htmlFlag, allowNothingGraded: *allowNothingFlag, merged: merged}, stdout, stderr)
		}
	}
	var tgt *target.Target
	if *imageFlag != "" || *dockerfileFlag != "" {
		if *tgtFlag != "mock" || (*imageFlag != "" && *dockerfileFlag != "") {
			return exitUsage, usageError{errors.New("give one of --target URL, --image IMG and --dockerfile DIR")}
		}
		if *falsFlag {
			return exitUsage, usageError{errors.New("--falsify runs against the in-process reference agents; drop --image/--dockerfile")}
		}
		if tgt, err = startContainer(ctx, *imageFlag, *dockerfileFlag, cfg, set, stderr); err != nil {
			return exitFail, err
		}
	} else if *tgtFlag == "mock" {
		tgt, err = mockagents.Start(set, docs...)
		if err != nil {
			return exitFail, err
		}
	} else {
		if !set.Empty() {
			return exitUsage, usageError{errors.New("--sabotage applies to the mock target only")}
		}
		if tgt, err = target.URL(*tgtFlag, cfg); err != nil {
			return exitUsage, usageError{err}
		}
		if tgt.Resolved != "" {
			fmt.Fprintf(stderr, "runsuite: %s\n", tgt.Resolved)
		}
	}
	if tgt.Close != nil {
		defer tgt.Close()
	}
	if tgt.Kind == target.KindContainer {
		if *outFlag == "" {
			if *outFlag, err = runDir(); err != nil {
				return exitFail, err
			}
		}
		defer writeContainerLog(*outFlag, tgt, stderr) // beside the bundle, on every path (runs before Close)
	}
	// A URL or container target: the rows' exchanges wait on the network, so the run is shared by processes too
	// (more than the CPUs unless --jobs says otherwise), rows observing an agent's shared state kept ordered.
	if (tgt.Kind == target.KindURL || tgt.Kind == target.KindContainer) && tgt.Blocked == "" && *jsonFlag == "" && proposed == nil && splitSupported {
		jobs := *jobsFlag
		if !flagSet(fs, "jobs") {
			jobs = remoteJobs
		}
		if units := planRemoteUnits(docs, rows, jobs, tgt); units != nil {
			pt, err := newPartTarget(tgt)
			if err != nil {
				return exitFail, err
			}
			return runRemoteSplit(ctx, units, jobs, rows, set, *seedFlag, *strictFlag, limits, docs, pt, tgt, *quietFlag, *falsFlag, st,
				outputs{dir: *outFlag, junit: *junitFlag, html: *htmlFlag, allowNothingGraded: *allowNothingFlag}, stdout, stderr)
		}
	}
	ropts := harness.Options{Suites: suites.All(), Documents: docs, Rows: rows,
		Sabotage: set, Runner: st.runner, Seed: *seedFlag, JSONReport: *jsonFlag, Limits: limits, Strict: *strictFlag}
	var prog *progress
	if !*quietFlag {
		fmt.Fprintf(stderr, "runsuite: running %s against %s target\n", strings.Join(orAll(docs), ","), tgt.Kind)
		prog = newProgress(stderr, docs, rows)
		ropts.OnSpec = prog.event
	}
	// A target that could not be started (tgt.Blocked) blocks every row about it; the self-checks still run.
	res, err := harness.Run(ctx, tgt, ropts)
	if prog != nil {
		prog.finish()
	}
	if err != nil {
		return exitFail, err
	}
	proposedPass(ctx, proposed, res, stdout)
	fals, err := falsifyFor(ctx, *falsFlag, docs, res, stderr)
	if err != nil {
		return exitFail, err
	}
	return writeBundle(res, fals, st, outputs{dir: *outFlag, junit: *junitFlag, html: *htmlFlag, allowNothingGraded: *allowNothingFlag}, stdout, stderr)
}

// falsifyFor is the falsifiability table of run --falsify (nil without it, or when the run or the matrix was
// interrupted: an interrupted matrix proves nothing, so the bundle carries no table).
func falsifyFor(ctx context.Context, on bool, docs []string, res *harness.Result, stderr io.Writer) (*evidence.Falsifiability, error) {
	if !on || res.Interrupted {
		return nil, nil
	}
	fals, frep, err := falsifyTable(ctx, docs, nil, nil, false, false, res.Seed, false, runtime.NumCPU(), stderr)
	if err != nil {
		return nil, err
	}
	if frep.Interrupted {
		fmt.Fprintln(stderr, "runsuite: falsification interrupted; the bundle carries no falsifiability table")
		return nil, nil
	}
	return fals, nil
}

// checkOut refuses, before the run, to overwrite a bundle already in dir unless --force says so.
func checkOut(dir string, force bool) error {
	if dir == "" || force {
		return nil
	}
	if _, err := os.Stat(filepath.Join(dir, "bundle.json")); err == nil {
		return usageError{fmt.Errorf("--out %s already holds a bundle (bundle.json); pass --force to overwrite it, or choose another directory", dir)}
	}
	return nil
}

// checkReq checks --req before the run and resolves it: every entry is a catalog row id or a catalog alias (an
// OpenWOP ledger id such as 0202.advertisement, standing for every row that carries it) of a selected document.
// It returns the row ids to run.
func checkReq(ids, docs []string) ([]string, error) {
	cat, err := catalog.Load()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, id := range ids {
		rows := cat.ByAlias(id)
		if r, ok := cat.Row(id); ok {
			rows = []catalog.Row{r}
		}
		if len(rows) == 0 {
			var names []string
			for _, r := range cat.Rows {
				names = append(names, r.ID)
				names = append(names, r.Aliases...)
			}
			return nil, usageError{fmt.Errorf("--req %s: no such row or alias%s (see `runsuite catalog`)", id, suggest(id, names))}
		}
		kept := 0
		for _, r := range rows {
			if len(docs) == 0 || slices.Contains(docs, r.Document) {
				if !slices.Contains(out, r.ID) {
					out = append(out, r.ID)
				}
				kept++
			}
		}
		if kept == 0 {
			return nil, usageError{fmt.Errorf("--req %s is a row of %s, which --suite %s does not select", id, rows[0].Document, strings.Join(docs, ","))}
		}
	}
	return out, nil
}

// checkOutputs checks, before the run, that the bundle directory (the default one when dir is "") and every
// report file named can be written, so a long run's results are never lost to a path found unwritable at the end.
// files maps a flag name to its path ("" when not given).
func checkOutputs(dir string, files map[string]string) error {
	flagName := "--out"
	if dir == "" {
		dir, flagName = filepath.Join("evidence", "runs"), "the default bundle directory"
	}
	if err := writableDir(dir); err != nil {
		return usageError{fmt.Errorf("%s %s is not writable: %v (choose a writable directory with --out DIR)", flagName, dir, err)}
	}
	return checkFiles(files)
}

// checkFiles checks that each report file named (flag name → path, "" when not given) can be written.
func checkFiles(files map[string]string) error {
	for _, name := range slices.Sorted(maps.Keys(files)) {
		path := files[name]
		if path == "" {
			continue
		}
		if st, err := os.Stat(path); err == nil && st.IsDir() {
			return usageError{fmt.Errorf("%s %s is a directory; name a file", name, path)}
		}
		if err := writableDir(filepath.Dir(path)); err != nil {
			return usageError{fmt.Errorf("%s %s: its directory is not writable: %v", name, path, err)}
		}
		if f, err := os.OpenFile(path, os.O_WRONLY, 0); err == nil {
			f.Close()
		} else if !errors.Is(err, os.ErrNotExist) {
			return usageError{fmt.Errorf("%s %s is not writable: %v", name, path, err)}
		}
	}
	return nil
}

// writableDir creates dir if need be and proves a file can be created in it.
func writableDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".runsuite-probe-*")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

// standing is who runs the harness, with what tier, and the key that signs.
type standing struct {
	runner harness.Runner
	key    *jose.JSONWebKey
}

// standingFlags checks --as, --tier and --sign-key before anything runs: a third-party run must name its
// runner and be signed (else it is a usage error), and a key that cannot sign is caught before the run.
func standingFlags(as, tier, keyPath string) (standing, error) {
	st := standing{runner: harness.Runner{Name: strings.TrimSpace(as), Tier: tier}}
	if tier != "self" && tier != "third-party" {
		return st, usageError{fmt.Errorf("--tier %q: want self or third-party", tier)}
	}
	if tier == "third-party" {
		if st.runner.Name == "" {
			return st, usageError{errors.New("--tier third-party needs --as NAME: evidence says who ran the harness")}
		}
		if keyPath == "" {
			return st, usageError{errors.New("--tier third-party needs --sign-key FILE: a third-party result must be signed")}
		}
	}
	if keyPath != "" {
		k, err := evidence.ReadPrivateKey(keyPath)
		if err != nil {
			return st, usageError{fmt.Errorf("--sign-key: %w", err)}
		}
		st.key = k
	}
	return st, nil
}

type outputs struct {
	dir, junit, html   string
	allowNothingGraded bool              // --allow-nothing-graded: a run that graded nothing about the target exits 0
	merged             *mergedTranscript // a split run's transcript (nil: the run's own recorder)
}

// transcriptOf is what a bundle's transcript is written from: a split run's merged parts, else the run's recorder.
// (The redaction key is never written: markers are keyed by it, and verify needs only the markers.)
func (o outputs) transcriptOf(res *harness.Result) (write func(io.Writer) error, count int) {
	if m := o.merged; m != nil {
		return m.write, m.count
	}
	rec := res.Env.Client.Recorder()
	return rec.WriteJSONL, len(res.Exchanges)
}

// writeBundle assembles, signs and writes the bundle of a run, then its reports; the summary table comes last.
func writeBundle(res *harness.Result, fals *evidence.Falsifiability, st standing, o outputs, stdout, stderr io.Writer) (int, error) {
	dir := o.dir
	var err error
	if dir == "" {
		if dir, err = runDir(); err != nil {
			return exitFail, err
		}
	}
	// The transcript is streamed to disk first, hashed as it is written: the run never holds it whole.
	res.Env.Runner = st.runner // the falsification's reference run was made without one
	write, count := o.transcriptOf(res)
	sha, err := evidence.WriteTranscriptFrom(dir, write)
	if err != nil {
		return writeFailed(err)
	}
	ref := evidence.TranscriptRef{File: evidence.TranscriptFile, Exchanges: count, SHA256: sha}
	b, err := evidence.NewFromTranscript(res, res.Env.Target, ref, fals)
	if err != nil {
		return exitFail, err
	}
	if st.runner.Tier == "third-party" && b.Runner.Tier != "third-party" {
		fmt.Fprintf(stderr, "\nrunsuite: --tier third-party not granted: %s\n", b.TierBasis)
	}
	if st.key != nil {
		if err := evidence.Sign(b, st.key); err != nil {
			return exitFail, fmt.Errorf("signing: %w", err)
		}
	}
	path, err := evidence.WriteBundleFile(dir, b)
	if err != nil {
		return writeFailed(err)
	}
	// The harness checks its own bundle as a third party would; a problem here is a harness defect.
	var pin *jose.JSONWebKey // the run's own signing key: the runner knows whose key signed
	if st.key != nil {
		pub := st.key.Public()
		pin = &pub
	}
	rep, err := verifyWritten(path, pin)
	if err != nil {
		return exitHarness, fmt.Errorf("HARNESS DEFECT: the bundle just written cannot be verified: %w", err)
	}
	defect := false
	for _, p := range rep.Problems() {
		if !strings.HasPrefix(p, "catalog: ") {
			fmt.Fprintf(stderr, "runsuite: HARNESS DEFECT: the bundle just written does not verify: %s\n", p)
			defect = true
		}
	}
	var transcript []byte
	if o.html != "" {
		transcript = transcriptForReport(filepath.Join(dir, evidence.TranscriptFile))
	}
	if err := writeReports(b, transcript, rep, o.junit, o.html); err != nil {
		return exitFail, err
	}
	evidence.SummaryWith(stdout, b, rep)
	fmt.Fprintf(stdout, "bundle: %s\n", path)
	code := exitFor(b, defect, o.allowNothingGraded)
	switch {
	case code == exitHarness && defect:
		fmt.Fprintf(stdout, "exit %d: harness defect (the bundle does not verify)\n", code)
	case code == exitHarness:
		fmt.Fprintf(stdout, "exit %d: harness defect (a harness self-check failed; the target's status is %s)\n", code, b.Status)
	case b.Status == harness.StatusNothingGraded && code == exitPass:
		fmt.Fprintln(stdout, "nothing graded, accepted by --allow-nothing-graded")
	}
	return code, nil
}

// verifyWritten verifies a bundle the run just wrote (a variable so a test can make it fail).
var verifyWritten = func(path string, key *jose.JSONWebKey) (*evidence.Report, error) {
	return evidence.VerifyBundle(path, evidence.VerifyOptions{KnownToggle: sabotage.Known, KnownLatitude: sabotage.KnownLatitude, Key: key, TrustWritten: true})
}

// exitFor is the exit status of a written bundle: interrupted, then a harness defect (the bundle does not verify
// or a self-check failed), then the target's status.
func exitFor(b *evidence.Bundle, defect, allowNothingGraded bool) int {
	switch {
	case b.Status == harness.StatusInterrupted:
		return exitInterrupted
	case defect || b.SelfCheck.Status == harness.SelfCheckFailed:
		return exitHarness
	case b.Status == harness.StatusPassed:
		return exitPass
	case b.Status == harness.StatusNothingGraded && allowNothingGraded:
		return exitPass
	case b.Status == harness.StatusFailed:
		return exitFail
	}
	return exitIncomplete // incomplete or nothing graded: not a pass, and no requirement broken
}

// transcriptForReport is the transcript the HTML report quotes exchanges from: read only when it is of a size a
// page can hold (a run's memory stays bounded; a larger one is reported without the exchanges' bodies).
func transcriptForReport(path string) []byte {
	if fi, err := os.Stat(path); err != nil || fi.Size() > 64<<20 {
		return nil
	}
	b, _ := os.ReadFile(path)
	return b
}

func writeReports(b *evidence.Bundle, transcript []byte, rep *evidence.Report, junitPath, htmlPath string) error {
	if junitPath != "" {
		if err := writeFileWith(junitPath, func(w io.Writer) error { return evidence.JUnitWith(w, b, rep) }); err != nil {
			return fmt.Errorf("--junit: %w", err)
		}
	}
	if htmlPath != "" {
		err := writeFileWith(htmlPath, func(w io.Writer) error {
			return evidence.HTML(w, b, evidence.HTMLOptions{Transcript: transcript, Verification: rep})
		})
		if err != nil {
			return fmt.Errorf("--html: %w", err)
		}
	}
	return nil
}

func writeFileWith(path string, write func(io.Writer) error) error {
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		return err
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

func orAll(docs []string) []string {
	if len(docs) == 0 {
		return []string{"all suites"}
	}
	return docs
}

// writeFailed is the exit of a bundle the harness could not write (a full disk): status 3, the harness's fault,
// never 1 (a finding about the target); nothing was left under the final name (evidence.WriteError).
func writeFailed(err error) (int, error) {
	return exitHarness, fmt.Errorf("HARNESS DEFECT: %w", err)
}
