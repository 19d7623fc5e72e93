package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/extconf/extconf/harness/evidence"
	"github.com/extconf/extconf/sabotage"
)

var verifyCommand = command{
	name:     "verify",
	short:    "check a bundle offline: schema, signature, transcript and witness digests, totals, catalog",
	synopsis: []string{"verify BUNDLE [--key FILE]"},
	long: `Exit 0 when every check holds, 1 when one does not (each problem is named), 2 when BUNDLE or --key cannot
be read. Without --key the signature is checked with the key the bundle embeds: that proves integrity, not who
signed, and the headline says "signed by an unpinned key: integrity only". Pass the runner's published public
JWK with --key to read a signed third-party bundle as evidence.`,
	examples: []string{
		"# integrity only (the key the bundle carries)", "runsuite verify evidence/runs/20260101T120000Z/bundle.json",
		"# pinned to the runner's published key: only then is a third-party bundle evidence",
		"runsuite verify evidence/reference/bundle.json --key fixtures/evidencekeys/test-signing.pub.jwk.json",
	},
	run: cmdVerify,
}

func cmdVerify(_ context.Context, args []string, stdout, _ io.Writer) (int, error) {
	fs := newFlags("verify")
	keyFlag := fs.String("key", "", "public (or private) JWK `FILE` the signature must verify with; default: the key the bundle embeds")
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
		fmt.Fprintf(w, "bundle verifies: %s\n", evidence.Headline(rep.Bundle, rep))
	} else {
		fmt.Fprintf(w, "bundle does NOT verify (%d problems)\n", len(rep.Problems()))
	}
}
