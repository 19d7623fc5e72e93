// Command runsuite is the extconf CLI: flags in, harness API calls out, nothing else.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
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
               [--tier self|third-party] [--sign-key FILE] [--falsify] [--seed N] [--sabotage IDS]
                 [--force] [--allow-nothing-graded]
  runsuite catalog [--format table|json|index|index-json] [--check-specs DIR]
  runsuite falsify [--sabotage IDS] [--json FILE] [--out DIR [--force] [--as NAME] [--tier T] [--sign-key FILE]]
  runsuite verify BUNDLE [--key FILE]
  runsuite render BUNDLE [--html FILE] [--junit FILE] [--key FILE]
  runsuite keygen [--alg EdDSA|ES256] --out FILE
  runsuite mock [--listen 127.0.0.1:PORT] [--sabotage IDS]
  runsuite sabotage list

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
