package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/sabotage"
)

// indexPath is where the index is committed (and embedded from), relative to the module root.
const indexPath = "harness/catalog/index.json"

func main() {
	root := flag.String("root", "", "module root (default: the nearest directory above holding go.mod)")
	check := flag.Bool("check", false, "write nothing; exit 1 naming every file that differs")
	flag.Parse()
	if err := run(*root, *check); err != nil {
		fmt.Fprintln(os.Stderr, "rowindex:", err)
		os.Exit(1)
	}
}

func run(root string, check bool) error {
	if root == "" {
		var err error
		if root, err = moduleRoot("."); err != nil {
			return err
		}
	}
	out, warnings, err := generate(root)
	if err != nil {
		return err
	}
	for _, w := range warnings {
		fmt.Fprintln(os.Stderr, "rowindex: warning:", w)
	}
	stale, err := compare(root, out)
	if err != nil {
		return err
	}
	if check {
		if len(stale) > 0 {
			return fmt.Errorf("out of date: %s; run: %s", strings.Join(stale, ", "), catalog.RegenerateCommand)
		}
		return nil
	}
	for _, p := range stale {
		if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(p)), out[p], 0o644); err != nil {
			return err
		}
		fmt.Fprintln(os.Stderr, "rowindex: wrote", p)
	}
	return nil
}

// moduleRoot is the nearest directory at or above dir holding go.mod.
func moduleRoot(dir string) (string, error) {
	d, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d, nil
		}
		up := filepath.Dir(d)
		if up == d {
			return "", errors.New("no go.mod above " + dir)
		}
		d = up
	}
}

// compare returns, sorted, the paths whose committed content differs from out.
func compare(root string, out map[string][]byte) ([]string, error) {
	var stale []string
	for p, want := range out {
		got, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		if !bytes.Equal(got, want) {
			stale = append(stale, p)
		}
	}
	sort.Strings(stale)
	return stale, nil
}

// generate returns the content every generated file must have (keyed by slash path relative to root) and
// warnings about gaps the index shows (a toggle consulted nowhere, a spec naming no row).
func generate(root string) (map[string][]byte, []string, error) {
	cat, err := catalog.Load()
	if err != nil {
		return nil, nil, err
	}
	ix, warnings, err := buildIndex(root, cat)
	if err != nil {
		return nil, nil, err
	}
	b, err := marshalIndex(ix)
	if err != nil {
		return nil, nil, err
	}
	out := map[string][]byte{indexPath: b}
	readmes, err := findReadmes(root)
	if err != nil {
		return nil, nil, err
	}
	for _, p := range readmes {
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		if err != nil {
			return nil, nil, err
		}
		got, err := rewriteSections(src, p, cat, ix)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", p, err)
		}
		out[p] = got
	}
	return out, warnings, nil
}

func buildIndex(root string, cat *catalog.Catalog) (*catalog.Index, []string, error) {
	rows := map[string]bool{}
	for _, r := range cat.Rows {
		rows[r.ID] = true
	}
	toggles := map[string]bool{}
	killers := map[string][]sabotage.Toggle{}
	for _, t := range sabotage.All() { // sorted by id
		toggles[string(t.ID)] = true
		for _, r := range t.Targets {
			killers[r] = append(killers[r], t)
		}
	}
	// Latitudes are found the same way (an expression whose constant value is the id); a row lists every latitude
	// whose documents include the row's document (or are "all"), unless the row is unwitnessable (no run can fail
	// it). The rule is deliberately coarse: a latitude runs the whole of its documents, so every such row must
	// survive it.
	for _, l := range sabotage.Latitudes() {
		toggles[string(l.ID)] = true
	}
	f, err := scan(root, rows, toggles)
	if err != nil {
		return nil, nil, err
	}
	warnings := append([]string(nil), f.unknown...)
	for _, t := range sabotage.All() {
		if len(f.consults[string(t.ID)]) == 0 {
			warnings = append(warnings, fmt.Sprintf("toggle %s: no expression outside sabotage/ has its id as constant value", t.ID))
		}
	}
	for _, l := range sabotage.Latitudes() {
		if len(f.consults[string(l.ID)]) == 0 {
			warnings = append(warnings, fmt.Sprintf("latitude %s: no expression outside sabotage/ has its id as constant value", l.ID))
		}
	}
	ix := &catalog.Index{Catalog: cat.Digest(), Rows: make([]catalog.IndexRow, 0, len(cat.Rows))}
	for _, r := range cat.Rows {
		ir := catalog.IndexRow{ID: r.ID, Document: r.Document, Witness: r.Witness,
			Specs: []catalog.SpecRef{}, Toggles: []catalog.Variant{}, Latitudes: []catalog.Variant{}}
		for _, s := range f.specs[r.ID] {
			ir.Specs = append(ir.Specs, catalog.SpecRef{Text: s.text, Location: s.pos.String()})
		}
		seen := map[string]bool{}
		for _, t := range killers[r.ID] {
			if seen[string(t.ID)] {
				continue // a toggle naming the row twice
			}
			seen[string(t.ID)] = true
			ir.Toggles = append(ir.Toggles, catalog.Variant{ID: string(t.ID), Side: t.Side, Consulted: sortedPositions(f.consults[string(t.ID)])})
		}
		for _, l := range sabotage.Latitudes() { // sorted by id
			if l.Applies(r.Document) && r.Witness != catalog.WitnessUnwitnessable {
				ir.Latitudes = append(ir.Latitudes, catalog.Variant{ID: string(l.ID), Side: sabotage.SideAgent,
					Consulted: sortedPositions(f.consults[string(l.ID)])})
			}
		}
		ix.Rows = append(ix.Rows, ir)
	}
	return ix, warnings, nil
}

func sortedPositions(set map[position]bool) []string {
	ps := make([]position, 0, len(set))
	for p := range set {
		ps = append(ps, p)
	}
	sort.Slice(ps, func(i, j int) bool { return less(ps[i], ps[j]) })
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return out
}

func marshalIndex(ix *catalog.Index) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(ix); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// findReadmes returns every README.md under root holding an index marker, skipping hidden directories, testdata
// and run output.
func findReadmes(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "node_modules" || rel == "evidence/runs") {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Name() != "README.md" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.Contains(b, []byte(beginMarker)) {
			out = append(out, rel)
		}
		return nil
	})
	sort.Strings(out)
	return out, err
}
