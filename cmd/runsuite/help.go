package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
)

var helpCommand = command{
	name:     "help",
	short:    "show the commands, or one command's usage, flags and examples",
	synopsis: []string{"help [COMMAND]"},
	examples: []string{"# every command", "runsuite help", "# run's flags and examples (the same as runsuite run -h)", "runsuite help run"},
}

func init() { helpCommand.run = cmdHelp } // cmdHelp reads the registry, which lists helpCommand

func cmdHelp(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlags("help")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return exitUsage, err
	}
	switch len(pos) {
	case 0:
		overview(stdout)
		return exitPass, nil
	case 1:
		c := lookup(pos[0])
		if c == nil {
			return exitUsage, usageError{fmt.Errorf("unknown command %q%s", pos[0], suggest(pos[0], commandNames()))}
		}
		// A command's help is its own -h: its flags are declared where it parses them.
		code, err := c.run(ctx, []string{"-h"}, stdout, stderr)
		var h helpRequested
		if errors.As(err, &h) {
			commandHelp(stdout, c, h.fs)
			return exitPass, nil
		}
		return code, err
	}
	return exitUsage, usageError{fmt.Errorf("want at most one command: runsuite help [COMMAND]")}
}

// exitStatusHelp is the exit-status table of the CLI contract (README "Exit codes").
const exitStatusHelp = `Exit status:
  0    every selected applicable row about the target passed, none is blocked, and at least one was graded
  1    a requirement failed: a row about the target is executed-fail (FAILED)
  2    usage or configuration error, found before the run starts
  3    harness defect: a harness self-check failed, or the bundle just written does not verify
  4    incomplete: nothing failed, but a row about the target is blocked or not tested (INCOMPLETE: 0 failed, N
       blocked (what to state)), or nothing about the target was graded (NOTHING GRADED; --allow-nothing-graded
       accepts that with 0)
  130  interrupted (SIGINT/SIGTERM): unfinished rows read not-tested "interrupted"
`

// overview is `runsuite help`.
func overview(w io.Writer) {
	fmt.Fprint(w, `runsuite — the extconf conformance harness for five A2A extension documents

Usage:
  runsuite                  run every suite against the built-in reference agents; write a bundle
  runsuite COMMAND [flags]

Commands:
`)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, c := range commands {
		fmt.Fprintf(tw, "  %s\t%s\n", c.name, c.short)
	}
	tw.Flush()
	fmt.Fprint(w, `
Getting started:
  runsuite                                          # the reference agents: every suite, a bundle, the summary
  runsuite run --target https://agent.example/      # your agent (its origin or its card URL)
  runsuite verify evidence/runs/<time>/bundle.json  # check a bundle offline
  runsuite catalog                                  # every row the harness grades

Run 'runsuite help COMMAND' or 'runsuite COMMAND -h' for a command's flags and examples.

`+exitStatusHelp)
}

// commandHelp is `runsuite CMD -h`: synopsis, description, every flag of fs, examples.
func commandHelp(w io.Writer, c *command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "runsuite %s: %s\n\nUsage:\n", c.name, c.short)
	for _, s := range c.synopsis {
		if strings.HasPrefix(s, " ") { // a continuation line
			fmt.Fprintf(w, "           %s\n", s)
		} else {
			fmt.Fprintf(w, "  runsuite %s\n", s)
		}
	}
	if c.long != "" {
		fmt.Fprintf(w, "\n%s\n", strings.TrimRight(c.long, "\n"))
	}
	if fs != nil {
		n := 0
		fs.VisitAll(func(*flag.Flag) { n++ })
		if n > 0 {
			fmt.Fprintln(w, "\nFlags:")
			tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
			fs.VisitAll(func(f *flag.Flag) {
				arg, usage := flag.UnquoteUsage(f)
				name := "--" + f.Name
				if arg != "" {
					name += " " + strings.ToUpper(arg)
				}
				if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" {
					usage += fmt.Sprintf(" (default %s)", f.DefValue)
				}
				fmt.Fprintf(tw, "  %s\t%s\n", name, usage)
			})
			fmt.Fprintln(tw, "  -h, --help\tthis help")
			tw.Flush()
		}
	}
	if len(c.examples) > 0 {
		fmt.Fprintln(w, "\nExamples:")
		for _, e := range c.examples {
			fmt.Fprintf(w, "  %s\n", e)
		}
	}
	if c.name == "run" || c.name == "falsify" || c.name == "verify" || c.name == "render" {
		fmt.Fprintf(w, "\n%s", exitStatusHelp)
	}
}

func commandNames() []string {
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
	}
	return names
}

// suggest is " (did you mean X?)" naming the candidates closest to name (a typo within two edits, or a prefix),
// or "" when none is close. prefix is written before each suggestion ("--" for flags).
func suggest(name string, candidates []string, prefix ...string) string {
	p := strings.Join(prefix, "")
	lower := strings.ToLower(name)
	var close []string
	for _, c := range candidates {
		lc := strings.ToLower(c)
		d := editDistance(lower, lc)
		if slices.Contains(close, p+c) {
			continue
		}
		if d <= 2 && d < len(lc) || len(lower) >= 2 && strings.HasPrefix(lc, lower) {
			close = append(close, p+c)
		}
	}
	if len(close) == 0 || len(close) > 4 {
		return ""
	}
	return " (did you mean " + strings.Join(close, " or ") + "?)"
}

// editDistance is the Levenshtein distance between a and b (bytes; names here are ASCII).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
