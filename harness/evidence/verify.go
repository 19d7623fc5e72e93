package evidence

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/sabotage"
)

// Verify checks a bundle offline and returns every problem found, each naming what does not hold: schema,
// transcript digest, witness digest, totals against rows, the catalog digest, that every row of the catalog is
// present, and that the falsifiability table names toggles that exist.
func Verify(path string) ([]string, error) {
	b, raw, err := Load(path)
	if err != nil {
		return nil, err
	}
	var problems []string
	add := func(format string, a ...any) { problems = append(problems, fmt.Sprintf(format, a...)) }
	if err := Validate(raw); err != nil {
		add("schema: %v", err)
	}
	transcript, err := os.ReadFile(filepath.Join(filepath.Dir(path), b.Transcript.File))
	if err != nil {
		add("transcript: %v", err)
	} else {
		if got := Digest(transcript); got != b.Transcript.SHA256 {
			add("transcript: %s digests to %s, the bundle says %s (the transcript was edited)", b.Transcript.File, got, b.Transcript.SHA256)
		}
		if w, err := Witness(b.Rows, transcript); err != nil || w != b.WitnessSHA256 {
			add("witnessSha256: recomputed %s, the bundle says %s (a row or the transcript was changed)", w, b.WitnessSHA256)
		}
	}
	totals := harness.Totals(b.Rows)
	for v, n := range totals {
		if b.Totals[v] != n {
			add("totals: %s is %d in the bundle but %d rows carry it", v, b.Totals[v], n)
		}
	}
	cat, err := catalog.Load()
	if err != nil {
		return nil, err
	}
	if b.Catalog.Digest != cat.Digest {
		add("catalog: the bundle was graded against catalog %s; this harness carries %s (different catalog version)", b.Catalog.Digest, cat.Digest)
	} else {
		have := map[string]bool{}
		for _, r := range b.Rows {
			have[r.ID] = true
		}
		for _, r := range cat.Rows {
			if !have[r.ID] {
				add("rows: %s (%s) is missing from the bundle", r.ID, r.Document)
			}
		}
	}
	if b.Falsifiability != nil {
		for _, t := range b.Falsifiability.Toggles {
			if _, ok := sabotage.Lookup(t.ID); !ok {
				add("falsifiability: toggle %q does not exist in this harness", t.ID)
			}
		}
	}
	if b.Kind == "evidence" && b.Signature == nil {
		add("kind: an unsigned bundle cannot be evidence")
	}
	return problems, nil
}
