package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/extconf/extconf/harness/evidence"
)

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
	evidence.SummaryWith(stdout, b, rep)
	if !rep.OK() {
		fmt.Fprintln(stdout)
		printVerification(stdout, rep)
		return exitFail, nil
	}
	return exitPass, nil
}
