// Command runsuite is the extconf CLI: flags in, harness API calls out, nothing else.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/extconf/extconf/harness"
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
	exitPass  = 0
	exitFail  = 1
	exitUsage = 2
)

type usageError struct{ error }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
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
	case "mock":
		code, err = cmdMock(ctx, args, stdout)
	case "sabotage":
		code, err = cmdSabotage(args, stdout)
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
  runsuite run [--target mock|URL] [--config FILE] [--suite LIST] [--req IDS] [--out DIR]
               [--junit FILE] [--json FILE] [--as NAME] [--tier self|third-party] [--seed N]
  runsuite catalog [--format table|json] [--check-specs DIR]
  runsuite falsify [--sabotage IDS] [--json FILE]
  runsuite verify BUNDLE
  runsuite mock [--listen ADDR] [--sabotage IDS]
  runsuite sabotage list

Exit status: 0 every selected applicable row passed and none is blocked; 1 a row failed or is blocked; 2 usage.
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
	junitFlag := fs.String("junit", "", "write Ginkgo's JUnit report here")
	jsonFlag := fs.String("json", "", "write Ginkgo's JSON report here")
	asFlag := fs.String("as", "", "who runs the harness")
	tierFlag := fs.String("tier", "self", "self (a claim) or third-party (evidence, must be signed)")
	seedFlag := fs.Int64("seed", 0, "Ginkgo random seed")
	sabFlag := fs.String("sabotage", "", "mock target: toggles to switch on")
	if err := parse(fs, args); err != nil {
		return exitUsage, err
	}
	if fs.NArg() > 0 {
		return exitUsage, usageError{fmt.Errorf("unexpected argument %q", fs.Arg(0))}
	}
	if *tierFlag != "self" && *tierFlag != "third-party" {
		return exitUsage, usageError{fmt.Errorf("--tier %q: want self or third-party", *tierFlag)}
	}
	docs := splitList(*suiteFlag)
	for _, d := range docs {
		if _, ok := catalog.DocumentByID(d); !ok {
			return exitUsage, usageError{fmt.Errorf("--suite: unknown document %q", d)}
		}
	}
	set, err := sabotage.Parse(splitList(*sabFlag)...)
	if err != nil {
		return exitUsage, usageError{err}
	}
	var cfg target.Config
	if *cfgFlag != "" {
		if cfg, err = target.LoadConfig(*cfgFlag); err != nil {
			return exitUsage, usageError{err}
		}
	}
	var tgt *target.Target
	if *tgtFlag == "mock" {
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
	}
	if tgt.Close != nil {
		defer tgt.Close()
	}
	fmt.Fprintf(stderr, "runsuite: running %s against %s target\n", strings.Join(orAll(docs), ","), tgt.Kind)
	res, err := harness.Run(ctx, tgt, harness.Options{Suites: suites.All(), Documents: docs, Rows: splitList(*reqFlag),
		Sabotage: set, Runner: harness.Runner{Name: *asFlag, Tier: *tierFlag}, Seed: *seedFlag, Progress: stderr,
		JUnitReport: *junitFlag, JSONReport: *jsonFlag})
	if err != nil {
		return exitFail, err
	}
	transcript, err := evidence.Transcript(res)
	if err != nil {
		return exitFail, err
	}
	b, err := evidence.New(res, tgt, transcript, nil)
	if err != nil {
		return exitFail, err
	}
	dir := *outFlag
	if dir == "" {
		dir = filepath.Join("evidence", "runs", time.Now().UTC().Format("20060102T150405Z"))
	}
	path, err := evidence.WriteDir(dir, b, transcript)
	if err != nil {
		return exitFail, err
	}
	evidence.Summary(stdout, b)
	fmt.Fprintf(stdout, "bundle: %s\n", path)
	if b.Status != "passed" {
		return exitFail, nil
	}
	return exitPass, nil
}

func orAll(docs []string) []string {
	if len(docs) == 0 {
		return []string{"all suites"}
	}
	return docs
}

func cmdCatalog(args []string, stdout io.Writer) (int, error) {
	fs := newFlags("catalog")
	format := fs.String("format", "table", "table or json")
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
	return exitUsage, usageError{fmt.Errorf("--format %q: want table or json", *format)}
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
	sab := fs.String("sabotage", "", "toggles to run (default: all)")
	jsonOut := fs.String("json", "", "write the falsifiability table here")
	seed := fs.Int64("seed", 1, "Ginkgo random seed")
	if err := parse(fs, args); err != nil {
		return exitUsage, err
	}
	var toggles []sabotage.Toggle
	for _, id := range splitList(*sab) {
		t, ok := sabotage.Lookup(id)
		if !ok {
			return exitUsage, usageError{fmt.Errorf("unknown toggle %q", id)}
		}
		toggles = append(toggles, t)
	}
	started := time.Now()
	rep, err := falsify.Run(ctx, mockagents.Start, falsify.Options{Suites: suites.All(), Toggles: toggles, Seed: *seed})
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
	evidence.FalsifySummary(stdout, &rep.Table, witnessable)
	code := exitPass
	for _, r := range rep.ReferenceFails {
		fmt.Fprintf(stdout, "REFERENCE RUN: %s is %s: %s\n", r.ID, r.Verdict, firstLine(r.Detail))
		code = exitFail
	}
	for _, t := range rep.Table.Toggles {
		if len(t.Survived) > 0 {
			code = exitFail
		}
	}
	if len(toggles) == 0 {
		if un := rep.Unkilled(witnessable); len(un) > 0 {
			fmt.Fprintf(stdout, "rows no toggle killed: %s\n", strings.Join(un, ", "))
			code = exitFail
		}
	}
	fmt.Fprintf(stdout, "%d runs in %s\n", rep.Runs, time.Since(started).Round(time.Millisecond))
	if *jsonOut != "" {
		b, err := json.MarshalIndent(rep.Table, "", "  ")
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
	if err := parse(fs, args); err != nil {
		return exitUsage, err
	}
	if fs.NArg() != 1 {
		return exitUsage, usageError{errors.New("want one bundle path")}
	}
	problems, err := evidence.Verify(fs.Arg(0))
	if err != nil {
		return exitFail, err
	}
	for _, p := range problems {
		fmt.Fprintf(stdout, "FAIL %s\n", p)
	}
	if len(problems) > 0 {
		return exitFail, nil
	}
	fmt.Fprintln(stdout, "bundle verifies: schema, transcript digest, witness digest, totals, catalog")
	return exitPass, nil
}

func cmdMock(ctx context.Context, args []string, stdout io.Writer) (int, error) {
	fs := newFlags("mock")
	sab := fs.String("sabotage", "", "toggles to switch on")
	if err := parse(fs, args); err != nil {
		return exitUsage, err
	}
	set, err := sabotage.Parse(splitList(*sab)...)
	if err != nil {
		return exitUsage, usageError{err}
	}
	tgt, err := mockagents.Start(set)
	if err != nil {
		return exitFail, err
	}
	defer tgt.Close()
	for role, u := range tgt.Agents {
		fmt.Fprintf(stdout, "%s\t%s\n", role, u)
	}
	<-ctx.Done()
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
