package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/extconf/extconf/sabotage"
)

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
