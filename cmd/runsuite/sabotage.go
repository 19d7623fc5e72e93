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
	if err := parseListVerb("sabotage", args); err != nil {
		return exitUsage, err
	}
	var rows [][]string
	for _, t := range sabotage.All() {
		rows = append(rows, []string{string(t.ID), t.Side, strings.Join(t.Targets, ","), t.Description})
	}
	writeTable(stdout, []string{"toggle", "side", "targets", "description"}, rows)
	return exitPass, nil
}

// parseListVerb reads the arguments of a listing command (sabotage, latitude): the verb "list" and nothing else.
func parseListVerb(cmd string, args []string) error {
	pos, err := parseInterspersed(newFlags(cmd), args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || pos[0] != "list" {
		return usageError{errors.New("want a verb: runsuite " + cmd + " list")}
	}
	return nil
}

// writeTable prints a header and rows as tab-aligned columns.
func writeTable(w io.Writer, header []string, rows [][]string) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, strings.Join(header, "\t"))
	for _, r := range rows {
		fmt.Fprintln(tw, strings.Join(r, "\t"))
	}
	tw.Flush()
}
