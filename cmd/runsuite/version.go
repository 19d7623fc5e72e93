package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/harness/evidence"
)

var versionCommand = command{
	name:     "version",
	short:    "the harness version, build commit, catalog digest and each document's text digest",
	synopsis: []string{"version [--json]"},
	long: `The same identity a bundle records (harness, catalog, documents): compare it with a bundle's before
reading its verdicts against this build.`,
	examples: []string{"runsuite version", "runsuite version --json | jq -r .catalog.digest"},
	run:      cmdVersion,
}

// versionInfo is what `runsuite version --json` prints.
type versionInfo struct {
	Harness   evidence.Harness       `json:"harness"`
	Catalog   evidence.CatalogRef    `json:"catalog"`
	Documents []evidence.DocumentRef `json:"documents"`
}

func cmdVersion(_ context.Context, args []string, stdout, _ io.Writer) (int, error) {
	fs := newFlags("version")
	asJSON := fs.Bool("json", false, "print it as JSON")
	if err := parseNoArgs(fs, args); err != nil {
		return exitUsage, err
	}
	cat, err := catalog.Load()
	if err != nil {
		return exitHarness, fmt.Errorf("HARNESS DEFECT: the embedded catalog does not load: %w", err)
	}
	v := versionInfo{Harness: evidence.BuildInfo(), Catalog: evidence.CatalogRef{Digest: cat.Digest(), Rows: len(cat.Rows)}}
	for _, d := range catalog.Documents {
		ref := evidence.DocumentRef{ID: d.ID, Title: d.Title, URI: d.URI}
		for _, f := range cat.Files {
			if f.Document == d.ID {
				ref.TextSHA256 = f.TextSHA256
			}
		}
		v.Documents = append(v.Documents, ref)
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return exitPass, enc.Encode(v)
	}
	build := v.Harness.Build.Kind
	if v.Harness.Build.ID != "" {
		build += " " + v.Harness.Build.ID
	}
	if v.Harness.Build.Modified {
		build += " (modified)"
	}
	if v.Harness.Build.Kind == "unknown" {
		build += " (no commit: built outside a checkout, with -buildvcs=false, or by go run; docker/build-harness.sh stamps it)"
	}
	fmt.Fprintf(stdout, "runsuite (%s) %s\n", v.Harness.Name, v.Harness.Version)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "build\t%s\n", build)
	if m := v.Harness.Build.Module; m != "" {
		if v.Harness.Build.Sum != "" {
			m += " " + v.Harness.Build.Sum
		}
		fmt.Fprintf(tw, "module\tgithub.com/extconf/extconf %s\n", m)
	}
	fmt.Fprintf(tw, "go\t%s\n", v.Harness.GoVersion)
	fmt.Fprintf(tw, "catalog\t%s (%d rows)\n", v.Catalog.Digest, v.Catalog.Rows)
	for _, d := range v.Documents {
		digest := d.TextSHA256
		if digest == "" {
			digest = "(no text digest)"
		}
		fmt.Fprintf(tw, "document %s\t%s  %s\n", d.ID, digest, d.Title)
	}
	tw.Flush()
	return exitPass, nil
}
