package evidence

// DerivedFalsifiability is the falsification in the derived (credentials-only) mode, beside the full-profile
// table: the reference agents served as URL targets, each run given only the credentials and the operator facts
// (what an operator cannot leave to probing). A toggle must make its target rows executed-fail, or leave them
// blocked/inapplicable naming why; an executed-pass on its own target row is a survivor.
type DerivedFalsifiability struct {
	Mode string `json:"mode"` // "derived"
	Run  string `json:"run,omitempty"`
	Runs int    `json:"runs,omitempty"`
	// Selection says which toggles ran and why (every agent-side toggle, or the gate's sample).
	Selection string `json:"selection,omitempty"`
	// ReferenceFailing lists rows that read executed-fail against the unsabotaged agents in this mode: a false
	// failure of the derived run; their kills cannot count.
	ReferenceFailing []string              `json:"referenceFailing,omitempty"`
	Toggles          []DerivedToggleResult `json:"toggles"`
}

// DerivedToggleResult is one toggle's derived-mode outcome over its own target rows.
type DerivedToggleResult struct {
	ID       string   `json:"id"`
	Document string   `json:"document,omitempty"`
	Targets  []string `json:"targets"`
	Killed   []string `json:"killed"`
	// Abstained are target rows blocked, inapplicable or skipped with the reason the run gave (an honest outcome
	// when the reason is given), and the survivors that were neither passed nor killed.
	Abstained []RowOutcome `json:"abstained,omitempty"`
	// Passed are target rows that read executed-pass with the defect planted: each is a survivor.
	Passed   []string `json:"passed,omitempty"`
	Survived []string `json:"survived"`
	Error    string   `json:"error,omitempty"`
}

// RowOutcome is one row's verdict and detail.
type RowOutcome struct {
	Row     string `json:"row"`
	Verdict string `json:"verdict"`
	Detail  string `json:"detail,omitempty"`
}

// DerivedSurvivors counts the toggles with a survivor, and those with an executed-pass on a target row.
func (d *DerivedFalsifiability) DerivedSurvivors() (survivors, passed int) {
	for _, t := range d.Toggles {
		if len(t.Survived) > 0 {
			survivors++
		}
		if len(t.Passed) > 0 {
			passed++
		}
	}
	return survivors, passed
}
