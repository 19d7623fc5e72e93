package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/extconf/extconf/batch"
	"github.com/extconf/extconf/harness/evidence"
	"github.com/extconf/extconf/sabotage"
)

var indexCommand = command{
	name:     "index",
	short:    "index a directory of bundle directories (from batch, pods or many machines): verify each, summarise",
	synopsis: []string{"index DIR [--key FILE] [--out DIR2]"},
	long: `Reads DIR/NAME/bundle.json for every subdirectory NAME, verifies each bundle offline (--key pins the runner:
every bundle must be signed with it) and writes index.json, index.html and junit.xml into DIR (or --out): per
agent its status, exit status, headline, counts, the documents executed and the bundle's digest. A subdirectory
with no bundle is listed as missing. The index depends on the bundles only: 'runsuite batch' writes the same one.
Exit status: the worst entry's, as 'runsuite batch' exits.`,
	examples: []string{
		"# the bundles of every pod of an Indexed Job, on the shared volume", "runsuite index /bundles",
		"# only bundles signed by the registry's runner count as verified",
		"runsuite index evidence/runs/nightly --key runner.pub.jwk.json",
	},
	run: cmdIndex,
}

func cmdIndex(_ context.Context, args []string, stdout, _ io.Writer) (int, error) {
	fs := newFlags("index")
	keyFlag := fs.String("key", "", "public JWK `FILE` every bundle's signature must verify with (pins the runner)")
	outFlag := fs.String("out", "", "write the index into `DIR` (default: the bundles' directory)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return exitUsage, err
	}
	if len(pos) != 1 {
		return exitUsage, usageError{errors.New("want one directory: runsuite index DIR [--key FILE]")}
	}
	dir := pos[0]
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return exitUsage, usageError{fmt.Errorf("%s is not a directory of bundle directories", dir)}
	}
	o := evidence.VerifyOptions{KnownToggle: sabotage.Known, KnownLatitude: sabotage.KnownLatitude}
	if *keyFlag != "" {
		k, err := evidence.ReadPublicKey(*keyFlag)
		if err != nil {
			return exitUsage, usageError{fmt.Errorf("--key: %w", err)}
		}
		o.Key = k
	}
	idx, err := batch.BuildIndex(dir, o, 0)
	if err != nil {
		return exitUsage, usageError{err}
	}
	if len(idx.Entries) == 0 {
		return exitUsage, usageError{fmt.Errorf("%s holds no bundle directory (want DIR/NAME/bundle.json)", dir)}
	}
	out := dir
	if *outFlag != "" {
		out = *outFlag
		if err := os.MkdirAll(out, 0o755); err != nil {
			return exitUsage, usageError{fmt.Errorf("--out: %w", err)}
		}
	}
	if err := batch.Write(out, idx); err != nil {
		return exitHarness, err
	}
	printBatchIndex(stdout, idx, out)
	return idx.Exit, nil
}

// printBatchIndex prints one line per entry and where the index went.
func printBatchIndex(w io.Writer, idx *batch.Index, dir string) {
	for _, e := range idx.Entries {
		fmt.Fprintf(w, "%-24s %-12s exit %-3d %s\n", e.Name, e.Status, e.Exit, e.Headline)
	}
	fmt.Fprintf(w, "index: %d agents, worst exit %d: %s\n", len(idx.Entries), idx.Exit, filepath.Join(dir, batch.IndexJSON))
}
