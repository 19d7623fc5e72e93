package main

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/extconf/extconf/harness/catalog"
)

// TestCommittedFilesAreCurrent is the drift check: the committed index and every generated README section must
// be exactly what the generator writes now.
func TestCommittedFilesAreCurrent(t *testing.T) {
	root, err := moduleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	out, warnings, err := generate(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range warnings {
		t.Log("warning:", w)
	}
	stale, err := compare(root, out)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range stale {
		got, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(p)))
		t.Errorf("%s is out of date (%s); fix: %s", p, firstDifference(string(got), string(out[p])), catalog.RegenerateCommand)
	}
}

func firstDifference(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			return fmt.Sprintf("line %d: committed %q, generator writes %q", i+1, clip(a), clip(b))
		}
	}
	return "same lines, different bytes"
}

func clip(s string) string {
	if len(s) > 160 {
		return s[:160] + "…"
	}
	return s
}

// The scan finds specs through every wrapper shape the suites use and toggles by constant value, whatever the
// spelling: a literal, a typed or untyped named constant, a folded constant expression.
func TestScanFindsBySemantics(t *testing.T) {
	root, err := filepath.Abs("testdata/mod")
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]bool{"R-1": true, "R-2": true, "R-3": true, "R-4": true, "R-5": true, "R-6": true}
	toggles := map[string]bool{"x.typed": true, "x.plain": true, "x.literal": true, "x.folded": true, "x.local": true}
	f, err := scan(root, rows, toggles)
	if err != nil {
		t.Fatal(err)
	}
	specs := map[string]string{}
	for row, ss := range f.specs {
		for _, s := range ss {
			specs[row] += s.text + " @" + s.pos.String() + ";"
		}
	}
	want := map[string]string{
		"R-1": "direct @suite/suite.go:14;",
		"R-2": "method @suite/suite.go:16;",
		"R-3": "func @suite/suite.go:17;",
		"R-4": "closure passed as a parameter @suite/suite.go:28;",
		"R-5": "table a @suite/suite.go:22;",
		"R-6": "table b @suite/suite.go:22;",
	}
	if !reflect.DeepEqual(specs, want) {
		t.Errorf("specs\n got %v\nwant %v", specs, want)
	}
	if len(f.unknown) != 1 || !strings.Contains(f.unknown[0], "NOT-A-ROW") {
		t.Errorf("unknown rows: %v", f.unknown)
	}
	consults := map[string][]string{}
	for id, set := range f.consults {
		consults[id] = sortedPositions(set)
	}
	wantC := map[string][]string{
		"x.typed":   {"mock/mock.go:8"},
		"x.literal": {"mock/mock.go:10"},
		"x.folded":  {"mock/mock.go:12"},
		"x.local":   {"mock/mock.go:14"},
		"x.plain":   {"mock/mock.go:16"},
	}
	if !reflect.DeepEqual(consults, wantC) {
		t.Errorf("consultations\n got %v\nwant %v", consults, wantC)
	}
}

func TestMarkers(t *testing.T) {
	cat := catalog.MustLoad()
	ix := &catalog.Index{}
	for _, tc := range []struct{ in, err string }{
		{"a\n<!-- index:begin counts -->\nold\n", "no <!-- index:end -->"},
		{"<!-- index:begin nonsense -->\n<!-- index:end -->\n", "unknown section kind"},
		{"<!-- index:begin rows document=nope -->\n<!-- index:end -->\n", "unknown document"},
		{"<!-- index:begin rows document=terms -->\n<!-- index:begin counts -->\n<!-- index:end -->\n", "inside the section"},
	} {
		if _, err := rewriteSections([]byte(tc.in), "x/README.md", cat, ix); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%q: err %v, want %q", tc.in, err, tc.err)
		}
	}
	got, err := rewriteSections([]byte("keep\n<!-- index:begin counts -->\nstale\n<!-- index:end -->\nkeep\n"), "README.md", cat, ix)
	if err != nil || strings.Contains(string(got), "stale") || !strings.HasPrefix(string(got), "keep\n<!-- index:begin counts -->\n| document") ||
		!strings.HasSuffix(string(got), "<!-- index:end -->\nkeep\n") {
		t.Errorf("rewrite: %v\n%s", err, got)
	}
}

func TestRelPath(t *testing.T) {
	for _, c := range [][3]string{
		{"suites/terms", "suites/terms/agent.go", "agent.go"},
		{"suites/schemaiface", "suites/schemaifaceclient/x.go", "../schemaifaceclient/x.go"},
		{".", "suites/terms/agent.go", "suites/terms/agent.go"},
	} {
		if got := relPath(c[0], c[1]); got != c[2] {
			t.Errorf("relPath(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}
