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

var latitudeCommand = command{
	name:     "latitude",
	short:    "list the latitudes: other choices the documents permit, which no row may fail",
	synopsis: []string{"latitude list"},
	long: `A latitude switches a reference agent to a different choice a document permits (a MAY not taken, a SHOULD
not followed, another shape or encoding); runsuite falsify runs each over its documents and fails when any row
reads executed-fail or not-tested. run --latitude / mock --latitude switch them on.`,
	examples: []string{"# every latitude with its documents and the sentence that permits it", "runsuite latitude list"},
	run:      cmdLatitude,
}

func cmdLatitude(_ context.Context, args []string, stdout, _ io.Writer) (int, error) {
	fs := newFlags("latitude")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return exitUsage, err
	}
	if len(pos) != 1 || pos[0] != "list" {
		return exitUsage, usageError{errors.New("want a verb: runsuite latitude list")}
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "latitude\tdocuments\tpermits")
	for _, l := range sabotage.Latitudes() {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", l.ID, strings.Join(l.Documents, ","), l.Permits)
	}
	tw.Flush()
	return exitPass, nil
}

// parseLatitudes resolves a --latitude list; an unknown id (or a toggle id) is a usage error.
func parseLatitudes(list string) ([]sabotage.Latitude, error) {
	var out []sabotage.Latitude
	for _, id := range splitList(list) {
		l, ok := sabotage.LookupLatitude(id)
		if !ok {
			if sabotage.Known(id) {
				return nil, usageError{fmt.Errorf("%q is a sabotage toggle: pass it with --sabotage", id)}
			}
			return nil, usageError{fmt.Errorf("unknown latitude %q (see `runsuite latitude list`)", id)}
		}
		out = append(out, l)
	}
	return out, nil
}
