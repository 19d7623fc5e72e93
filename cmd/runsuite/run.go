package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-jose/go-jose/v4"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/harness/evidence"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/mockagents"
	"github.com/extconf/extconf/sabotage"
	"github.com/extconf/extconf/sabotage/falsify"
	"github.com/extconf/extconf/suites"
)

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
	imageFlag := fs.String("image", "", "container target: a local image (never pulled)")
	dockerfileFlag := fs.String("dockerfile", "", "container target: build the Dockerfile in this directory")
	forceFlag := fs.Bool("force", false, "overwrite a bundle already in --out")
	allowNothingFlag := fs.Bool("allow-nothing-graded", false, "exit 0 when no row about the target was graded (CI jobs that expect it)")
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
	docs := splitList(*suiteFlag)
	for _, d := range docs {
		if _, ok := catalog.DocumentByID(d); !ok {
			return exitUsage, usageError{fmt.Errorf("--suite: unknown document %q", d)}
		}
	}
	if err := checkReq(splitList(*reqFlag), docs); err != nil {
		return exitUsage, err
	}
	set, err := sabotage.Parse(splitList(*sabFlag)...)
	if err != nil {
		return exitUsage, usageError{err}
	}
	if *falsFlag && !set.Empty() {
		return exitUsage, usageError{errors.New("--falsify proves the tests against the unsabotaged reference agents; drop --sabotage")}
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
	var fals *evidence.Falsifiability
	if *falsFlag && !res.Interrupted {
		var frep *falsify.Report
		if fals, frep, err = falsifyTable(ctx, docs, nil, res.Seed, false, stderr); err != nil {
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
	return evidence.VerifyBundle(path, evidence.VerifyOptions{KnownToggle: sabotage.Known, Key: key})
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
