package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/extconf/extconf/harness/evidence"
)

// An advisory finding (a SHOULD-level row the target does not follow) is reported but exits 0; --strict makes the
// same run exit 1, and the bundle records both the finding and the strictness, and verifies.
func TestStrictTurnsAnAdvisoryFindingIntoExit1(t *testing.T) {
	for _, strict := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "out")
		args := []string{"run", "--suite", "terms", "--req", "TE-3.3f", "--sabotage", "terms.offering-skill-name", "--out", dir,
			"--junit", filepath.Join(dir, "junit.xml")}
		want := exitPass
		if strict {
			args, want = append(args, "--strict"), exitFail
		}
		code, out, errs := runCLI(args...)
		if code != want {
			t.Fatalf("strict %v: exit %d, want %d\n%s\n%s", strict, code, want, out, errs)
		}
		if !strings.Contains(out, "ADVISORY EXECUTED-FAIL TE-3.3f") || !strings.Contains(out, "1 finding(s)") {
			t.Errorf("strict %v: the summary does not show the advisory finding apart:\n%s", strict, out)
		}
		rep, err := evidence.VerifyBundle(filepath.Join(dir, "bundle.json"), evidence.VerifyOptions{})
		if err != nil {
			t.Fatal(err)
		}
		b := rep.Bundle
		if b.Advisory.Count != 1 || b.Advisory.Findings[0].ID != "TE-3.3f" || b.Selection.Strict != strict {
			t.Errorf("strict %v: bundle advisory %+v, selection %+v", strict, b.Advisory, b.Selection)
		}
		junit, _ := os.ReadFile(filepath.Join(dir, "junit.xml"))
		wantJ := `type="advisory"`
		if strict {
			wantJ = `<failure type="executed-fail"`
		}
		if !strings.Contains(string(junit), wantJ) {
			t.Errorf("strict %v: JUnit lacks %s", strict, wantJ)
		}
	}
}
