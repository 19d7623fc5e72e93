package evidence

import (
	"strings"
	"testing"
)

// The derived table is checked beside the full-profile one: a pass hidden from the survivors, a kill of another
// toggle's row or an abstention naming nothing is a problem.
func TestCheckDerived(t *testing.T) {
	good := &DerivedFalsifiability{Mode: "derived", Toggles: []DerivedToggleResult{{ID: "si.x", Targets: []string{"SI-1", "SI-2"},
		Killed: []string{"SI-1"}, Abstained: []RowOutcome{{Row: "SI-2", Verdict: "blocked", Detail: "documents.schema-interface.staleBinding is missing: …"}}, Survived: []string{}}}}
	c := &Check{}
	checkDerived(c, good, VerifyOptions{})
	if !c.OK() {
		t.Fatalf("good table: %v", c.Problems)
	}
	for name, bad := range map[string]DerivedToggleResult{
		"pass not survived": {ID: "si.x", Targets: []string{"SI-1"}, Killed: []string{}, Passed: []string{"SI-1"}, Survived: []string{}},
		"not a target":      {ID: "si.x", Targets: []string{"SI-1"}, Killed: []string{"SI-9"}, Survived: []string{}},
		"no reason":         {ID: "si.x", Targets: []string{"SI-1"}, Killed: []string{}, Abstained: []RowOutcome{{Row: "SI-1", Verdict: "blocked"}}, Survived: []string{}},
	} {
		c := &Check{}
		checkDerived(c, &DerivedFalsifiability{Mode: "derived", Toggles: []DerivedToggleResult{bad}}, VerifyOptions{})
		if c.OK() || !strings.Contains(strings.Join(c.Problems, " "), "derived") {
			t.Errorf("%s: not a problem: %v", name, c.Problems)
		}
	}
}
