package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

var completionCommand = command{
	name:     "completion",
	short:    "print a bash completion script (commands and each command's flags)",
	synopsis: []string{"completion bash"},
	long:     `Generated from the command registry, so a new command or flag completes without further work.`,
	examples: []string{"# this shell", "source <(runsuite completion bash)", "# every new shell", "runsuite completion bash > /etc/bash_completion.d/runsuite"},
}

func init() { completionCommand.run = cmdCompletion } // cmdCompletion reads the registry, which lists it

func cmdCompletion(ctx context.Context, args []string, stdout, stderr io.Writer) (int, error) {
	fs := newFlags("completion")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return exitUsage, err
	}
	if len(pos) != 1 || pos[0] != "bash" {
		return exitUsage, usageError{errors.New("want a shell: runsuite completion bash")}
	}
	var cases strings.Builder
	for _, c := range commands {
		// A command's flags are declared where it parses them: ask it, as help does.
		_, err := c.run(ctx, []string{"-h"}, io.Discard, io.Discard)
		var h helpRequested
		if !errors.As(err, &h) {
			continue
		}
		var flags []string
		h.fs.VisitAll(func(f *flag.Flag) { flags = append(flags, "--"+f.Name) })
		fmt.Fprintf(&cases, "    %s) words=%q ;;\n", c.name, strings.Join(append(flags, "--help"), " "))
	}
	fmt.Fprintf(stdout, `# bash completion for runsuite (runsuite completion bash)
_runsuite() {
  local cur=${COMP_WORDS[COMP_CWORD]} cmd=${COMP_WORDS[1]} words
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W %q -- "$cur"))
    return
  fi
  case "$cmd" in
%s    *) words="" ;;
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}
complete -o filenames -F _runsuite runsuite
`, strings.Join(commandNames(), " ")+" --help --version", cases.String())
	return exitPass, nil
}
