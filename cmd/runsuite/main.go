// Command runsuite is the extconf CLI: flags in, harness API calls out, nothing else.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/go-jose/go-jose/v4"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/harness/evidence"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/mockagents"
	"github.com/extconf/extconf/sabotage"
	"github.com/extconf/extconf/sabotage/falsify"
	"github.com/extconf/extconf/suites"
)

// Exit statuses of the CLI contract.
const (
	exitPass        = 0   // every selected applicable row about the target passed, none blocked, at least one graded
	exitFail        = 1   // a target row failed, is blocked or was not tested, or nothing about the target was graded
	exitUsage       = 2   // usage or configuration error, checked before the run
	exitHarness     = 3   // harness defect: a self-check failed, or the bundle just written does not verify
	exitInterrupted = 130 // interrupted (SIGINT/SIGTERM): unfinished rows read not-tested "interrupted"
)

type usageError struct{ error }

func main() {
	// SIGTERM too: a container target is terminated on every exit path, and no reaper would clean up after us.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cmd := "run"
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd, args = args[0], args[1:]
	}
	var err error
	code := exitPass
	switch cmd {
	case "run":
		code, err = cmdRun(ctx, args, stdout, stderr)
	case "catalog":
		code, err = cmdCatalog(args, stdout)
	case "falsify":
		code, err = cmdFalsify(ctx, args, stdout, stderr)
	case "verify":
		code, err = cmdVerify(args, stdout)
	case "render":
		code, err = cmdRender(args, stdout, stderr)
	case "keygen":
		code, err = cmdKeygen(args, stdout, stderr)
	case "mock":
		code, err = cmdMock(ctx, args, stdout)
	case "sabotage":
		code, err = cmdSabotage(args, stdout)
	case "latitude":
		code, err = cmdLatitude(args, stdout)
	case "prove":
		code, err = cmdProve(ctx, args, stdout, stderr)
	case shardCommand: // hidden: one shard of `falsify --jobs N`, run by a child process
		code, err = cmdFalsifyShard(ctx, os.Stdin, stdout)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return exitPass
	default:
		err = usageError{fmt.Errorf("unknown command %q", cmd)}
	}
	if err != nil {
		fmt.Fprintf(stderr, "runsuite %s: %v\n", cmd, err)
		var u usageError
		if errors.As(err, &u) || errors.Is(err, flag.ErrHelp) {
			return exitUsage
		}
		if code == exitPass {
			code = exitFail
		}
	}
	return code
}

const usage = `runsuite — the extconf conformance harness

  runsuite                      run every suite against the built-in reference agents; write a bundle
  runsuite run [--target mock|URL | --image IMG | --dockerfile DIR] [--config FILE] [--suite LIST]
               [--req IDS] [--out DIR] [--junit FILE] [--html FILE] [--json FILE] [--as NAME]
               [--tier self|third-party] [--sign-key FILE] [--falsify] [--seed N] [--sabotage IDS] [--latitude IDS]
               [--force] [--allow-nothing-graded]
  runsuite catalog [--format table|json|index|index-json] [--check-specs DIR]
  runsuite falsify [--sabotage IDS] [--latitude IDS] [--json FILE] [--whole-document] [--jobs N]
                   [--out DIR [--force] [--as NAME] [--tier T] [--sign-key FILE]]
  runsuite verify BUNDLE [--key FILE]
  runsuite render BUNDLE [--html FILE] [--junit FILE] [--key FILE]
  runsuite keygen [--alg EdDSA|ES256] --out FILE
  runsuite mock [--listen 127.0.0.1:PORT] [--sabotage IDS] [--latitude IDS]
  runsuite sabotage list | latitude list
  runsuite prove [--json FILE] RULE|DIR...   prove proposed data rules testable (README "Propose a rule")

Exit status: 0 every selected applicable row about the target passed, none is blocked, and at least one was
graded; 1 a target row failed, is blocked or was not tested, or nothing about the target was graded (NOTHING
GRADED; --allow-nothing-graded accepts that with 0); 2 usage or configuration error (before the run); 3 harness
defect (a harness self-check failed, or the bundle just written does not verify); 130 interrupted.

Self-checks: rows witnessed by the harness's own reference client (catalog witness reference-client) are about
the harness, not the target. They run and are reported in their own "harness self-check" section; they never
count for or against the target.

Target URL: a URL with a path is the card URL as given; a bare origin (or path /) is resolved to
/.well-known/agent-card.json, and the run says so. --out never overwrites an existing bundle without --force;
the default directory evidence/runs/<time>[-N] is unique per run.

Containers: --image runs a local image (never pulled), --dockerfile builds one (docker/build.sh makes the
reference agents' image); ports are published on 127.0.0.1 only, the container's output is kept as
container.log beside the bundle, and with no engine reachable every selected row is blocked (exit 1).

Standing: a run is self (a claim) unless --tier third-party names a runner (--as) who is none of the tested
cards' provider organizations and signs the bundle (--sign-key): only that is evidence. --junit writes one
test case per catalog row; --json writes Ginkgo's own JSON report; --html a single-file report.
`

func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		return usageError{err}
	}
	return nil
}

// parseNoArgs parses flags of a subcommand that takes no positional argument.
func parseNoArgs(fs *flag.FlagSet, args []string) error {
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	}
	return nil
}

func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

func cmdRun(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlags("run")
	tgtFlag := fs.String("target", "mock", "mock, or the URL of an agent (its origin or card URL)")
	cfgFlag := fs.String("config", "", "target configuration file (JSON)")
	suiteFlag := fs.String("suite", "", "documents to run, comma separated (default: all)")
	reqFlag := fs.String("req", "", "row ids to run, comma separated (default: all)")
	outFlag := fs.String("out", "", "bundle directory (default evidence/runs/<time>)")
	junitFlag := fs.String("junit", "", "write the per-row JUnit XML report here")
	htmlFlag := fs.String("html", "", "write the single-file HTML report here")
	jsonFlag := fs.String("json", "", "write Ginkgo's JSON report here")
	asFlag := fs.String("as", "", "who runs the harness")
	tierFlag := fs.String("tier", "self", "self (a claim) or third-party (evidence, must be signed)")
	keyFlag := fs.String("sign-key", "", "private JWK (Ed25519 or P-256) to sign the bundle with")
	falsFlag := fs.Bool("falsify", false, "also run the falsification matrix and put its table in the bundle")
	seedFlag := fs.Int64("seed", 0, "Ginkgo random seed")
	sabFlag := fs.String("sabotage", "", "mock target (or a reference-agent image): toggles to switch on")
	latFlag := fs.String("latitude", "", "mock target: latitudes to switch on (other choices the documents permit)")
	imageFlag := fs.String("image", "", "container target: a local image (never pulled)")
	dockerfileFlag := fs.String("dockerfile", "", "container target: build the Dockerfile in this directory")
	forceFlag := fs.Bool("force", false, "overwrite a bundle already in --out")
	allowNothingFlag := fs.Bool("allow-nothing-graded", false, "exit 0 when no row about the target was graded (CI jobs that expect it)")
	rulesFlag := fs.String("rules", "", "also evaluate the proposed data rules of this directory (reported apart, never counted)")
	if err := parseNoArgs(fs, args); err != nil {
		return exitUsage, err
	}
	if err := checkOut(*outFlag, *forceFlag); err != nil {
		return exitUsage, err
	}
	st, err := standingFlags(*asFlag, *tierFlag, *keyFlag)
	if err != nil {
		return exitUsage, err
	}
	proposed, err := loadProposed(*rulesFlag) // data rules: proposed rows, evaluated after the run, never counted
	if err != nil {
		return exitUsage, usageError{fmt.Errorf("--rules: %w", err)}
	}
	docs := splitList(*suiteFlag)
	for _, d := range docs {
		if _, ok := catalog.DocumentByID(d); !ok {
			return exitUsage, usageError{fmt.Errorf("--suite: unknown document %q", d)}
		}
	}
	if err := checkReq(splitList(*reqFlag), docs); err != nil {
		return exitUsage, err
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
		if cfg, err = target.LoadConfig(*cfgFlag); err != nil {
			return exitUsage, usageError{err}
		}
	}
	if err := harness.CheckConfig(cfg, suites.Documents()...); err != nil {
		return exitUsage, usageError{fmt.Errorf("target config %s: %w", *cfgFlag, err)}
	}
	limits, err := harness.LimitsOf(cfg) // the configuration's "limits" member; nil keeps the defaults
	if err != nil {
		return exitUsage, usageError{fmt.Errorf("target config %s: %w", *cfgFlag, err)}
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
	fmt.Fprintf(stderr, "runsuite: running %s against %s target\n", strings.Join(orAll(docs), ","), tgt.Kind)
	ropts := harness.Options{Suites: suites.All(), Documents: docs, Rows: splitList(*reqFlag),
		Sabotage: set, Runner: st.runner, Seed: *seedFlag, Progress: stderr, JSONReport: *jsonFlag, Limits: limits}
	var res *harness.Result
	if tgt.Blocked != "" {
		res, err = harness.BlockedRun(tgt, ropts, tgt.Blocked)
	} else {
		res, err = harness.Run(ctx, tgt, ropts)
	}
	if err != nil {
		return exitFail, err
	}
	proposedPass(ctx, proposed, res, stdout)
	var fals *evidence.Falsifiability
	if *falsFlag && !res.Interrupted {
		var frep *falsify.Report
		if fals, frep, err = falsifyTable(ctx, docs, nil, nil, false, false, res.Seed, false, 1, stderr); err != nil {
			return exitFail, err
		}
		if frep.Interrupted {
			fals = nil // an interrupted matrix proves nothing: the bundle carries no table
			fmt.Fprintln(stderr, "runsuite: falsification interrupted; the bundle carries no falsifiability table")
		}
	}
	return writeBundle(res, fals, st, outputs{dir: *outFlag, junit: *junitFlag, html: *htmlFlag, allowNothingGraded: *allowNothingFlag}, stdout, stderr)
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

// checkReq checks --req before the run: every id is a catalog row of a selected document.
func checkReq(ids, docs []string) error {
	cat, err := catalog.Load()
	if err != nil {
		return err
	}
	for _, id := range ids {
		r, ok := cat.Row(id)
		if !ok {
			return usageError{fmt.Errorf("--req %s: no such row (see `runsuite catalog`)", id)}
		}
		if len(docs) > 0 && !slices.Contains(docs, r.Document) {
			return usageError{fmt.Errorf("--req %s is a row of %s, which --suite %s does not select", id, r.Document, strings.Join(docs, ","))}
		}
	}
	return nil
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
	allowNothingGraded bool // --allow-nothing-graded: a run that graded nothing about the target exits 0
}

// writeBundle assembles, signs and writes the bundle of a run, then its reports; the summary table comes last.
func writeBundle(res *harness.Result, fals *evidence.Falsifiability, st standing, o outputs, stdout, stderr io.Writer) (int, error) {
	transcript, err := evidence.Transcript(res)
	if err != nil {
		return exitFail, err
	}
	res.Env.Runner = st.runner // the falsification's reference run was made without one
	b, err := evidence.New(res, res.Env.Target, transcript, fals)
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
	dir := o.dir
	if dir == "" {
		if dir, err = runDir(); err != nil {
			return exitFail, err
		}
	}
	path, err := evidence.WriteDir(dir, b, transcript)
	if err != nil {
		return exitFail, err
	}
	// The harness checks its own bundle as a third party would; a problem here is a harness defect.
	rep, err := verifyWritten(path)
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
	if err := writeReports(b, transcript, rep, o.junit, o.html); err != nil {
		return exitFail, err
	}
	evidence.Summary(stdout, b)
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
var verifyWritten = func(path string) (*evidence.Report, error) {
	return evidence.VerifyBundle(path, evidence.VerifyOptions{KnownToggle: sabotage.Known, KnownLatitude: sabotage.KnownLatitude, TrustWritten: true})
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
	}
	return exitFail
}

func writeReports(b *evidence.Bundle, transcript []byte, rep *evidence.Report, junitPath, htmlPath string) error {
	if junitPath != "" {
		if err := writeFileWith(junitPath, func(w io.Writer) error { return evidence.JUnit(w, b) }); err != nil {
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
		Latitudes: lats, NoLatitudes: len(lats) == 0, Seed: seed, WholeDocument: whole, Jobs: jobs, Worker: shardWorker(stderr)})
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

func orAll(docs []string) []string {
	if len(docs) == 0 {
		return []string{"all suites"}
	}
	return docs
}

func cmdCatalog(args []string, stdout io.Writer) (int, error) {
	fs := newFlags("catalog")
	format := fs.String("format", "table", "table, json, index or index-json")
	check := fs.String("check-specs", "", "directory holding the five document texts")
	if err := parse(fs, args); err != nil {
		return exitUsage, err
	}
	cat, err := catalog.Load()
	if err != nil {
		return exitFail, err
	}
	if *check != "" {
		return checkSpecs(cat, *check, stdout)
	}
	switch *format {
	case "index":
		return printIndex(cat, stdout)
	case "index-json":
		_, err := stdout.Write(catalog.IndexJSON())
		return exitPass, err
	case "json":
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return exitPass, enc.Encode(cat.Rows)
	case "table":
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "id\tlevel\tsubject\twitness\tclause")
		for _, r := range cat.Rows {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, r.Level, r.Subject, r.Witness, r.Clause)
		}
		tw.Flush()
		fmt.Fprintf(stdout, "\n%d rows, catalog %s\n", len(cat.Rows), cat.Digest)
		return exitPass, nil
	}
	return exitUsage, usageError{fmt.Errorf("--format %q: want table, json, index or index-json", *format)}
}

// printIndex prints the committed row index: per row its spec locations, the toggles that kill it (with where each
// is consulted) and the latitude variants that must not fail it.
func printIndex(cat *catalog.Catalog, stdout io.Writer) (int, error) {
	ix, err := catalog.LoadIndex()
	if err != nil {
		return exitFail, err
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "row\twitness\tspec\ttoggles\tlatitudes")
	join := func(vs []catalog.Variant) string {
		ids := make([]string, len(vs))
		for i, v := range vs {
			ids[i] = v.ID
		}
		return orDash(strings.Join(ids, ","))
	}
	for _, r := range ix.Rows {
		locs := make([]string, len(r.Specs))
		for i, s := range r.Specs {
			locs[i] = s.Location
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, r.Witness, orDash(strings.Join(locs, ",")), join(r.Toggles), join(r.Latitudes))
	}
	tw.Flush()
	byID := map[string]catalog.Variant{}
	for _, r := range ix.Rows {
		for _, v := range append(slices.Clone(r.Toggles), r.Latitudes...) {
			byID[v.ID] = v
		}
	}
	ids := slices.Sorted(maps.Keys(byID))
	fmt.Fprintln(stdout)
	tw = tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "toggle or latitude\tside\tconsulted at")
	for _, id := range ids {
		v := byID[id]
		fmt.Fprintf(tw, "%s\t%s\t%s\n", v.ID, v.Side, orDash(strings.Join(v.Consulted, ",")))
	}
	tw.Flush()
	fmt.Fprintf(stdout, "\n%d rows, index of catalog %s", len(ix.Rows), ix.Catalog)
	if ix.Catalog != cat.Digest {
		fmt.Fprintf(stdout, " (STALE: the catalog is %s; %s)", cat.Digest, catalog.RegenerateCommand)
	}
	fmt.Fprintln(stdout)
	return exitPass, nil
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func checkSpecs(cat *catalog.Catalog, dir string, stdout io.Writer) (int, error) {
	cov, err := cat.CheckSpecs(dir)
	if err != nil {
		return exitFail, err
	}
	for _, m := range cov.Missing {
		fmt.Fprintf(stdout, "MISSING document text %s\n", m)
	}
	for _, u := range cov.Uncovered {
		fmt.Fprintf(stdout, "UNCOVERED %s @%d: …%s…\n", u.Document, u.Offset, u.Context)
	}
	for _, u := range cov.Unfound {
		fmt.Fprintf(stdout, "UNFOUND %s %s: %q\n", u.Document, u.ID, u.Text)
	}
	for _, m := range cov.Digests {
		fmt.Fprintf(stdout, "TEXT CHANGED %s\n", m)
	}
	for _, d := range catalog.Documents {
		fmt.Fprintf(stdout, "%-17s %3d keywords, %3d rows\n", d.ID, cov.Keywords[d.ID], len(cat.ByDocument(d.ID)))
	}
	if !cov.OK() {
		fmt.Fprintln(stdout, "catalog does NOT cover the documents")
		return exitFail, nil
	}
	fmt.Fprintln(stdout, "every normative keyword is quoted by a row; every row's source is found")
	return exitPass, nil
}

func cmdFalsify(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlags("falsify")
	sab := fs.String("sabotage", "", "toggles to run (default: all; given without --latitude, no latitude runs)")
	latFlag := fs.String("latitude", "", "latitudes to run after the toggles (default: all; given without --sabotage, no toggle runs)")
	jsonOut := fs.String("json", "", "write the falsifiability table here")
	seed := fs.Int64("seed", 1, "Ginkgo random seed")
	whole := fs.Bool("whole-document", false, "per toggle, run its whole document (collateral across every row; slower)")
	jobs := fs.Int("jobs", runtime.NumCPU(), "run the toggles and latitudes in N child processes (the reference run is shared)")
	outDir := fs.String("out", "", "also write a bundle of the reference run carrying the falsifiability table here")
	asFlag := fs.String("as", "", "with --out: who runs the harness")
	tierFlag := fs.String("tier", "self", "with --out: self or third-party")
	keyFlag := fs.String("sign-key", "", "with --out: private JWK to sign the bundle with")
	junitFlag := fs.String("junit", "", "with --out: write the per-row JUnit XML report here")
	htmlFlag := fs.String("html", "", "with --out: write the HTML report here")
	forceFlag := fs.Bool("force", false, "with --out: overwrite a bundle already there")
	if err := parseNoArgs(fs, args); err != nil {
		return exitUsage, err
	}
	if err := checkOut(*outDir, *forceFlag); err != nil {
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
			return exitUsage, usageError{fmt.Errorf("unknown toggle %q", id)}
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
	table, rep, err := falsifyTable(ctx, nil, toggles, lats, *sab == "" && *latFlag != "", *latFlag == "" && *sab != "", *seed, *whole, *jobs, stderr)
	if err != nil {
		return exitFail, err
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
	code := exitPass
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

func cmdVerify(args []string, stdout io.Writer) (int, error) {
	fs := newFlags("verify")
	keyFlag := fs.String("key", "", "public (or private) JWK the signature must verify with; default: the key the bundle embeds")
	_, rep, err := verifyArg(fs, args, keyFlag, "runsuite verify BUNDLE [--key FILE]")
	if err != nil {
		return exitUsage, err
	}
	printVerification(stdout, rep)
	if !rep.OK() {
		return exitFail, nil
	}
	return exitPass, nil
}

// verifyArg parses the flags of a subcommand that takes one bundle path (flags before or after it) and verifies
// that bundle; usage is the subcommand's synopsis for the error when there is not exactly one path. keyPath is read
// after parsing (a flag of fs).
func verifyArg(fs *flag.FlagSet, args []string, keyPath *string, usage string) (string, *evidence.Report, error) {
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return "", nil, err
	}
	if len(pos) != 1 {
		return "", nil, usageError{errors.New("want one bundle path: " + usage)}
	}
	rep, err := verifyPath(pos[0], *keyPath)
	return pos[0], rep, err
}

func verifyPath(path, keyPath string) (*evidence.Report, error) {
	o := evidence.VerifyOptions{KnownToggle: sabotage.Known, KnownLatitude: sabotage.KnownLatitude}
	if keyPath != "" {
		k, err := evidence.ReadPublicKey(keyPath)
		if err != nil {
			return nil, usageError{fmt.Errorf("--key: %w", err)}
		}
		o.Key = k
	}
	rep, err := evidence.VerifyBundle(path, o)
	if err != nil {
		return nil, usageError{err}
	}
	return rep, nil
}

// printVerification writes one line per check ("ok" or "FAIL") with what it found, then the verdict.
func printVerification(w io.Writer, rep *evidence.Report) {
	for _, c := range rep.Checks {
		if c.OK() {
			fmt.Fprintf(w, "ok    %-15s %s\n", c.Name, strings.Join(c.Notes, "; "))
		} else {
			for _, p := range c.Problems {
				fmt.Fprintf(w, "FAIL  %-15s %s\n", c.Name, p)
			}
			for _, n := range c.Notes {
				fmt.Fprintf(w, "      %-15s %s\n", "", n)
			}
		}
	}
	if rep.OK() {
		fmt.Fprintf(w, "bundle verifies: %s\n", rep.Bundle.Standing())
	} else {
		fmt.Fprintf(w, "bundle does NOT verify (%d problems)\n", len(rep.Problems()))
	}
}

func cmdRender(args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlags("render")
	htmlFlag := fs.String("html", "", "write the single-file HTML report here")
	junitFlag := fs.String("junit", "", "write the per-row JUnit XML report here")
	keyFlag := fs.String("key", "", "public JWK the signature must verify with (shown in the report)")
	path, rep, err := verifyArg(fs, args, keyFlag, "runsuite render BUNDLE [--html FILE] [--junit FILE]")
	if err != nil {
		return exitUsage, err
	}
	b := rep.Bundle
	if b == nil {
		printVerification(stdout, rep)
		return exitFail, errors.New("nothing to render: " + path + " is not a bundle")
	}
	transcript, err := os.ReadFile(filepath.Join(filepath.Dir(path), filepath.Base(b.Transcript.File)))
	if err != nil {
		fmt.Fprintf(stderr, "runsuite render: %v (the report shows exchange ids only)\n", err)
	}
	if err := writeReports(b, transcript, rep, *junitFlag, *htmlFlag); err != nil {
		return exitFail, err
	}
	evidence.Summary(stdout, b)
	if !rep.OK() {
		fmt.Fprintln(stdout)
		printVerification(stdout, rep)
		return exitFail, nil
	}
	return exitPass, nil
}

func cmdKeygen(args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlags("keygen")
	alg := fs.String("alg", evidence.AlgEdDSA, "EdDSA (Ed25519) or ES256 (P-256)")
	out := fs.String("out", "", "file to write the private JWK to (mode 0600)")
	if err := parse(fs, args); err != nil {
		return exitUsage, err
	}
	if *out == "" || fs.NArg() > 0 {
		return exitUsage, usageError{errors.New("usage: runsuite keygen [--alg EdDSA|ES256] --out FILE")}
	}
	k, err := evidence.GenerateKey(*alg)
	if err != nil {
		return exitUsage, usageError{err}
	}
	priv, err := json.MarshalIndent(k, "", "  ")
	if err != nil {
		return exitFail, err
	}
	f, err := os.OpenFile(*out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return exitFail, fmt.Errorf("%w (keygen never overwrites a key)", err)
	}
	if _, err := f.Write(append(priv, '\n')); err != nil {
		f.Close()
		return exitFail, err
	}
	if err := f.Close(); err != nil {
		return exitFail, err
	}
	pub, err := evidence.PublicJWK(k)
	if err != nil {
		return exitFail, err
	}
	fmt.Fprintf(stderr, "runsuite keygen: private %s key written to %s (mode 0600); its public JWK follows (thumbprint %s)\n", *alg, *out, k.KeyID)
	fmt.Fprintf(stdout, "%s\n", pub)
	return exitPass, nil
}

// parseInterspersed parses flags given before, between or after positional arguments
// ("verify BUNDLE --key FILE") and returns the positionals.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := parse(fs, args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

func cmdMock(ctx context.Context, args []string, stdout io.Writer) (int, error) {
	fs := newFlags("mock")
	sab := fs.String("sabotage", "", "toggles to switch on")
	latFlag := fs.String("latitude", "", "latitudes to switch on (other choices the documents permit)")
	listen := fs.String("listen", "", "loopback HOST:PORT; the agents take PORT, PORT+1, … (default: ephemeral ports)")
	if err := parse(fs, args); err != nil {
		return exitUsage, err
	}
	// --sabotage also takes latitude ids here: the container target hands a reference-agent image the run's whole
	// set as --sabotage (harness/target/container).
	lats, err := parseLatitudes(*latFlag)
	if err != nil {
		return exitUsage, err
	}
	ids := splitList(*sab)
	for _, l := range lats {
		ids = append(ids, string(l.ID))
	}
	set, err := sabotage.Parse(ids...)
	if err != nil {
		return exitUsage, usageError{err}
	}
	if *listen != "" {
		host, port, err := net.SplitHostPort(*listen)
		ip := net.ParseIP(host)
		p, perr := strconv.Atoi(port)
		if err != nil || perr != nil || ip == nil || !ip.IsLoopback() || p < 1 || p > 65535-63 {
			return exitUsage, usageError{fmt.Errorf("--listen %q: want a loopback IP and a port, e.g. 127.0.0.1:9400", *listen)}
		}
		// Each reference agent is its own origin: the core hands out the next free port of the block.
		os.Setenv(a2atest.EnvBind, host)
		os.Setenv(a2atest.EnvPorts, fmt.Sprintf("%d-%d", p, p+63))
	}
	tgt, err := mockagents.Start(set)
	if err != nil {
		return exitFail, err
	}
	defer tgt.Close()
	if err := announce(stdout, tgt); err != nil {
		return exitFail, err
	}
	<-ctx.Done() // interrupt, or SIGTERM (`docker stop`: PID 1 gets no default handler)
	return exitPass, nil
}

// parseLatitudes resolves a --latitude list; an unknown id (or a toggle id) is a usage error.
func parseLatitudes(list string) ([]sabotage.Latitude, error) {
	var out []sabotage.Latitude
	for _, id := range splitList(list) {
		l, ok := sabotage.LookupLatitude(id)
		if !ok {
			if sabotage.Known(id) {
				return nil, usageError{fmt.Errorf("%q is a sabotage toggle: pass it with --sabotage", id)}
			}
			return nil, usageError{fmt.Errorf("unknown latitude %q (see `runsuite latitude list`)", id)}
		}
		out = append(out, l)
	}
	return out, nil
}

func cmdLatitude(args []string, stdout io.Writer) (int, error) {
	if len(args) != 1 || args[0] != "list" {
		return exitUsage, usageError{errors.New("usage: runsuite latitude list")}
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "latitude\tdocuments\tpermits")
	for _, l := range sabotage.Latitudes() {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", l.ID, strings.Join(l.Documents, ","), l.Permits)
	}
	tw.Flush()
	return exitPass, nil
}

func cmdSabotage(args []string, stdout io.Writer) (int, error) {
	if len(args) != 1 || args[0] != "list" {
		return exitUsage, usageError{errors.New("usage: runsuite sabotage list")}
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "toggle\tside\ttargets\tdescription")
	for _, t := range sabotage.All() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", t.ID, t.Side, strings.Join(t.Targets, ","), t.Description)
	}
	tw.Flush()
	return exitPass, nil
}
