package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/extconf/extconf/harness/evidence"
)

var renderCommand = command{
	name:     "render",
	short:    "re-make the summary, JUnit and HTML reports of a bundle (verified first)",
	synopsis: []string{"render BUNDLE [--html FILE] [--junit FILE] [--key FILE]"},
	long: `The bundle is verified before it is rendered: a bundle that does not verify renders with UNVERIFIED at the
top of every report (and exit 1); without --key a signed third-party bundle reads "signed by an unpinned key:
integrity only", never EVIDENCE.`,
	examples: []string{
		"# the terminal summary again", "runsuite render evidence/runs/20260101T120000Z/bundle.json",
		"# HTML and JUnit for CI, the signer pinned",
		"runsuite render bundle.json --html report.html --junit junit.xml --key runner.pub.jwk.json",
	},
	run: cmdRender,
}

func cmdRender(_ context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlags("render")
	htmlFlag := fs.String("html", "", "write the single-file HTML report to `FILE`")
	junitFlag := fs.String("junit", "", "write the per-row JUnit XML report to `FILE`")
	keyFlag := fs.String("key", "", "public JWK `FILE` the signature must verify with (shown in the report)")
	path, rep, err := verifyArg(fs, args, keyFlag, "runsuite render BUNDLE [--html FILE] [--junit FILE]")
	if err != nil {
		return exitUsage, err
	}
	if err := checkFiles(map[string]string{"--junit": *junitFlag, "--html": *htmlFlag}); err != nil {
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
	evidence.SummaryWith(stdout, b, rep)
	if !rep.OK() {
		fmt.Fprintln(stdout)
		printVerification(stdout, rep)
		return exitFail, nil
	}
	return exitPass, nil
}
