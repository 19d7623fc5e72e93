package certify

import "testing"

// The wording readings of the terms display checks (README, terms §7): a negated mention does not count, a legend
// labels no clause, a clause may be named by its member or array name.
func TestTermsDisplayReadings(t *testing.T) {
	for _, c := range []struct {
		text, want string
		words      string
	}{
		{"This view is not a certification of the agent.", "", "cert"},
		{"Certified terms: terms stated", "Certif", "cert"},
		{"Endorsed by extconf", "Endorsed", "endorse"}, // the regexp matches the stem
		{"terms not stated; no terms apply", "no terms apply", "free"},
		{"It is not free.", "", "free"},
		{"parties [grade: evidence] (not enforced)", "", "enforced"},
		{"parties [grade: enforced]", "enforced", "enforced"},
	} {
		var got string
		switch c.words {
		case "cert":
			got = teAsserted(teCertWords, c.text)
		case "endorse":
			got = teAsserted(teEndorseWords, c.text)
		case "free":
			got = teAsserted(teFreeWords, c.text)
		case "enforced":
			got = teAsserted(teEnforcedWord, c.text)
		}
		if c.want == "Endorsed" && got != "Endors" {
			t.Errorf("%q: asserted %q", c.text, got)
		} else if c.want != "Endorsed" && got != c.want {
			t.Errorf("%q: asserted %q, want %q", c.text, got, c.want)
		}
	}
	if !teLegend("Grades: enforced = a runtime refuses violations; evidence = a signed record; recorded = promises only") || teLegend("  promises [grade: recorded] enforced") {
		t.Error("legend reading")
	}
	ls, _ := teLinesNaming("Proposal p\n  retention [grade: enforced] max_days=30\n  deliverables (enforced)\n", "confidentiality.retention")
	if len(ls) != 1 {
		t.Errorf("a split clause named by its member: %q", ls)
	}
	ls, _ = teLinesNaming("  deliverables (enforced)\n", "deliverables[0]")
	if len(ls) != 1 {
		t.Errorf("an array item named by its array: %q", ls)
	}
}
