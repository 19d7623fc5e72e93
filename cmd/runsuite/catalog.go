package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/extconf/extconf/harness/catalog"
)

var catalogCommand = command{
	name:     "catalog",
	short:    "list the catalog's rows, the row index, or check the catalog against the document texts",
	synopsis: []string{"catalog [--format table|json|index|index-json] [--check-specs DIR]"},
	long: `Every row the harness grades: its id, RFC 2119 level, subject, witness and the clause it quotes. The index
(--format index) adds, per row, the specs that assert it, the sabotage toggles that kill it and the latitude
variants that must not fail it.`,
	examples: []string{
		"# every row, as a table", "runsuite catalog",
		"# one row as JSON", "runsuite catalog --format json | jq '.[] | select(.id == \"TE-3.3b\")'",
		"# every normative keyword of the five texts is quoted by a row", "runsuite catalog --check-specs ../shared/specs",
	},
	run: cmdCatalog,
}

func cmdCatalog(_ context.Context, args []string, stdout, _ io.Writer) (int, error) {
	fs := newFlags("catalog")
	format := fs.String("format", "table", "`FORMAT`: table, json, index or index-json")
	check := fs.String("check-specs", "", "`DIR` holding the five document texts")
	if err := parseNoArgs(fs, args); err != nil {
		return exitUsage, err
	}
	cat, err := catalog.Load()
	if err != nil {
		return exitFail, err
	}
	if *check != "" {
		return checkSpecs(cat, *check, stdout)
	}
	switch *format {
	case "index":
		return printIndex(cat, stdout)
	case "index-json":
		_, err := stdout.Write(catalog.IndexJSON())
		return exitPass, err
	case "json":
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return exitPass, enc.Encode(cat.Rows)
	case "table":
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "id\tlevel\tsubject\twitness\tclause")
		for _, r := range cat.Rows {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, r.Level, r.Subject, r.Witness, r.Clause)
		}
		tw.Flush()
		fmt.Fprintf(stdout, "\n%d rows, catalog %s\n", len(cat.Rows), cat.Digest())
		return exitPass, nil
	}
	return exitUsage, usageError{fmt.Errorf("--format %q: want table, json, index or index-json", *format)}
}

// printIndex prints the committed row index: per row its spec locations, the toggles that kill it (with where each
// is consulted) and the latitude variants that must not fail it.
func printIndex(cat *catalog.Catalog, stdout io.Writer) (int, error) {
	ix, err := catalog.LoadIndex()
	if err != nil {
		return exitFail, err
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "row\twitness\tspec\ttoggles\tlatitudes")
	join := func(vs []catalog.Variant) string {
		ids := make([]string, len(vs))
		for i, v := range vs {
			ids[i] = v.ID
		}
		return orDash(strings.Join(ids, ","))
	}
	for _, r := range ix.Rows {
		locs := make([]string, len(r.Specs))
		for i, s := range r.Specs {
			locs[i] = s.Location
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, r.Witness, orDash(strings.Join(locs, ",")), join(r.Toggles), join(r.Latitudes))
	}
	tw.Flush()
	byID := map[string]catalog.Variant{}
	for _, r := range ix.Rows {
		for _, v := range append(slices.Clone(r.Toggles), r.Latitudes...) {
			byID[v.ID] = v
		}
	}
	ids := slices.Sorted(maps.Keys(byID))
	fmt.Fprintln(stdout)
	tw = tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "toggle\tside\tconsulted at")
	for _, id := range ids {
		v := byID[id]
		fmt.Fprintf(tw, "%s\t%s\t%s\n", v.ID, v.Side, orDash(strings.Join(v.Consulted, ",")))
	}
	tw.Flush()
	fmt.Fprintf(stdout, "\n%d rows, index of catalog %s", len(ix.Rows), ix.Catalog)
	if ix.Catalog != cat.Digest() {
		fmt.Fprintf(stdout, " (STALE: the catalog is %s; %s)", cat.Digest(), catalog.RegenerateCommand)
	}
	fmt.Fprintln(stdout)
	return exitPass, nil
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func checkSpecs(cat *catalog.Catalog, dir string, stdout io.Writer) (int, error) {
	cov, err := cat.CheckSpecs(dir)
	if err != nil {
		return exitFail, err
	}
	for _, m := range cov.Missing {
		fmt.Fprintf(stdout, "MISSING document text %s\n", m)
	}
	for _, u := range cov.Uncovered {
		fmt.Fprintf(stdout, "UNCOVERED %s @%d: …%s…\n", u.Document, u.Offset, u.Context)
	}
	for _, u := range cov.UncoveredRules {
		fmt.Fprintf(stdout, "UNCOVERED RULE %s @%d: %s\n", u.Document, u.Offset, u.Item)
		for _, g := range u.Gaps {
			fmt.Fprintf(stdout, "    unquoted: %q\n", g)
		}
	}
	for _, u := range cov.Unfound {
		fmt.Fprintf(stdout, "UNFOUND %s %s: %q\n", u.Document, u.ID, u.Text)
	}
	for _, m := range cov.Digests {
		fmt.Fprintf(stdout, "TEXT CHANGED %s\n", m)
	}
	for _, d := range catalog.Documents {
		fmt.Fprintf(stdout, "%-17s %3d keywords, %3d numbered rules, %3d rows\n", d.ID, cov.Keywords[d.ID], cov.Rules[d.ID], len(cat.ByDocument(d.ID)))
	}
	if !cov.OK() {
		fmt.Fprintln(stdout, "catalog does NOT cover the documents")
		return exitFail, nil
	}
	fmt.Fprintln(stdout, "every normative keyword (MUST, REQUIRED, SHALL, SHOULD, RECOMMENDED) and every numbered rule is quoted by a row or an exclusion; every row's source is found")
	return exitPass, nil
}
