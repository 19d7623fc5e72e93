package main

import (
	"context"
	"fmt"
	"io"
	"strings"

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
	if err := parseListVerb("latitude", args); err != nil {
		return exitUsage, err
	}
	var rows [][]string
	for _, l := range sabotage.Latitudes() {
		rows = append(rows, []string{string(l.ID), strings.Join(l.Documents, ","), l.Permits})
	}
	writeTable(stdout, []string{"latitude", "documents", "permits"}, rows)
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
