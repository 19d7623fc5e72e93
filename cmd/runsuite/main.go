package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"syscall"
)

// Exit statuses of the CLI contract.
const (
	exitPass        = 0   // every selected applicable row about the target passed, none blocked, at least one graded
	exitFail        = 1   // a row about the target failed (executed-fail): a requirement is broken
	exitUsage       = 2   // usage or configuration error, checked before the run
	exitHarness     = 3   // harness defect: a self-check failed, or the bundle just written does not verify
	exitIncomplete  = 4   // nothing failed, but a row is blocked or not tested, or nothing about the target was graded
	exitInterrupted = 130 // interrupted (SIGINT/SIGTERM): unfinished rows read not-tested "interrupted"
	// exitRunDeadline: limits.runTimeout ended the run; it is incomplete (the exit 4 of status "incomplete").
	exitRunDeadline = 4
)

// usageError is a usage or configuration error (exit 2): every one is found before a run starts.
type usageError struct{ error }

// helpRequested is returned by parse when -h or --help is among a command's flags: the command's usage (with its
// flags, as declared in its FlagSet) goes to stdout and the exit status is 0.
type helpRequested struct{ fs *flag.FlagSet }

func (helpRequested) Error() string { return "help requested" }

// The command registry. Each command lives in its own file (run.go, falsify.go, verify.go, …) as a `command`
// value next to its function, and is listed here once.
//
//   - To add a subcommand: write cmdX(ctx, args, stdout, stderr) (int, error) in x.go, declare its flags first
//     thing with fs := newFlags("x") and parse them with parse/parseNoArgs/parseInterspersed (that is what makes
//     -h, "did you mean" and exit 2 work), declare `var xCommand = command{…}` with its synopsis and examples
//     beside it, and add &xCommand to commands below. A command with sub-verbs ("latitude list", "config
//     init|check") takes the verb as its first positional argument (see sabotage.go).
//   - To add a flag: one fs.String/Bool/… line in the command's function; its usage string is its help text (a
//     `backquoted` word in it names the flag's argument), and a line in the command's examples if it deserves one.
var commands = []*command{
	&runCommand, &falsifyCommand, &catalogCommand, &verifyCommand, &renderCommand, &keygenCommand,
	&mockCommand, &sabotageCommand, &latitudeCommand, &proveCommand, &configCommand, &clientCommand, &batchCommand, &indexCommand, &versionCommand, &completionCommand, &helpCommand,
}

// command is one subcommand: its function and its help.
type command struct {
	name     string
	short    string   // one line for `runsuite help`
	synopsis []string // usage lines, each after "runsuite "
	long     string   // paragraphs after the synopsis (optional)
	examples []string // "# what it does" comment lines followed by the command line
	run      func(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error)
}

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

func main() {
	// The harness's garbage is short-lived (an exchange's JSON): collecting when the heap has grown by twice the
	// live heap rather than once cut the CPU time of a run and of the falsification matrix by about a tenth, for
	// about 30 MiB more resident memory. GOGC in the environment still decides.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
	// SIGTERM too: a container target is terminated on every exit path, and no reaper would clean up after us.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// run is the CLI: bare `runsuite` (or flags first) is `runsuite run`; -h/--help first is the overview.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	name := "run"
	if len(args) > 0 {
		switch a := args[0]; {
		case a == "-h" || a == "-help" || a == "--help":
			overview(stdout)
			return exitPass
		case a == "-version" || a == "--version":
			name, args = "version", args[1:]
		case !strings.HasPrefix(a, "-"):
			name, args = a, args[1:]
		}
	}
	if name == partCommand { // hidden: one part of `run --jobs N`, run by a child process
		code, err := cmdRunPart(ctx, os.Stdin, stdout)
		if err != nil {
			fmt.Fprintln(stderr, "runsuite:", err)
		}
		return code
	}
	if name == shardCommand { // hidden: one shard of `falsify --jobs N`, run by a child process
		code, err := cmdFalsifyShard(ctx, os.Stdin, stdout)
		if err != nil {
			fmt.Fprintln(stderr, "runsuite:", err)
		}
		return code
	}
	c := lookup(name)
	if c == nil {
		fmt.Fprintf(stderr, "runsuite: unknown command %q%s\nRun 'runsuite help' for the list of commands.\n", name, suggest(name, commandNames()))
		return exitUsage
	}
	code, err := c.run(ctx, args, stdout, stderr)
	var h helpRequested
	if errors.As(err, &h) {
		commandHelp(stdout, c, h.fs)
		return exitPass
	}
	if err != nil {
		fmt.Fprintf(stderr, "runsuite %s: %v\n", c.name, err)
		var u usageError
		if errors.As(err, &u) {
			fmt.Fprintf(stderr, "Run 'runsuite %s -h' for usage.\n", c.name)
			return exitUsage
		}
		if code == exitPass {
			code = exitFail
		}
	}
	return code
}

// newFlags is a command's flag set: the flag package prints nothing (the registry's help does, on -h).
func newFlags(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return fs
}

// parse parses a command's flags: -h/--help is helpRequested; an unknown or malformed flag is a usage error that
// suggests the nearest flag of the command.
func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return helpRequested{fs}
		}
		const undefined = "flag provided but not defined: -"
		if name, ok := strings.CutPrefix(err.Error(), undefined); ok {
			var names []string
			fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
			return usageError{fmt.Errorf("unknown flag --%s%s", name, suggest(name, names, "--"))}
		}
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
