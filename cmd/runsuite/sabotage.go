package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/extconf/extconf/sabotage"
)

var sabotageCommand = command{
	name:     "sabotage",
	short:    "list the deliberate faults (toggles) of the reference agents and clients",
	synopsis: []string{"sabotage list"},
	long: `Each toggle breaks the rows it targets; runsuite falsify proves every row's test able to fail with them, and
run --sabotage / mock --sabotage switch them on in the reference agents.`,
	examples: []string{"# every toggle with its side, target rows and description", "runsuite sabotage list"},
	run:      cmdSabotage,
}

func cmdSabotage(_ context.Context, args []string, stdout, _ io.Writer) (int, error) {
	fs := newFlags("sabotage")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return exitUsage, err
	}
	if len(pos) != 1 || pos[0] != "list" {
		return exitUsage, usageError{errors.New("want a verb: runsuite sabotage list")}
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "toggle\tside\ttargets\tdescription")
	for _, t := range sabotage.All() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", t.ID, t.Side, strings.Join(t.Targets, ","), t.Description)
	}
	tw.Flush()
	return exitPass, nil
}
