package evidence

import (
	"fmt"
	"slices"
)

// checkDerived checks the derived-mode table beside the full-profile one: its toggles registered and listed once,
// each kill, pass and survivor one of the toggle's own targets, every executed-pass a survivor, every abstention
// that is not a survivor naming its reason, and the mode spelt.
func checkDerived(c *Check, d *DerivedFalsifiability, o VerifyOptions) {
	if d == nil {
		return
	}
	if d.Mode != "derived" {
		c.Problems = append(c.Problems, fmt.Sprintf("the derived table says mode %q", d.Mode))
	}
	seen := map[string]bool{}
	for _, t := range d.Toggles {
		if seen[t.ID] {
			c.Problems = append(c.Problems, fmt.Sprintf("derived: toggle %q is listed twice", t.ID))
		}
		seen[t.ID] = true
		if o.KnownToggle != nil && !o.KnownToggle(t.ID) {
			c.Problems = append(c.Problems, fmt.Sprintf("derived: toggle %q does not exist in this harness", t.ID))
		}
		for _, list := range [][]string{t.Killed, t.Passed, t.Survived} {
			for _, id := range list {
				if !slices.Contains(t.Targets, id) {
					c.Problems = append(c.Problems, fmt.Sprintf("derived: toggle %s lists %s, which is not one of its targets", t.ID, id))
				}
			}
		}
		for _, id := range t.Passed {
			if !slices.Contains(t.Survived, id) {
				c.Problems = append(c.Problems, fmt.Sprintf("derived: toggle %s left %s executed-pass but does not count it survived", t.ID, id))
			}
		}
		for _, a := range t.Abstained {
			if a.Detail == "" && !slices.Contains(t.Survived, a.Row) {
				c.Problems = append(c.Problems, fmt.Sprintf("derived: toggle %s: %s is %s naming no reason but not counted survived", t.ID, a.Row, a.Verdict))
			}
		}
	}
	if c.OK() {
		sv, passed := d.DerivedSurvivors()
		c.Notes = append(c.Notes, fmt.Sprintf("derived mode: %d toggles, %d with a survivor, %d with an executed-pass on a target row", len(d.Toggles), sv, passed))
	}
}
