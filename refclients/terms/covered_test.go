package terms

import "testing"

// A sentence of the independent terms agent states two data-use claims; one mapped span covering the sentence left
// the other unchecked (a vacuous pass). Every lexicon hit must overlap a span.
func TestCoveredNeedsEveryClaimOfTheSentence(t *testing.T) {
	s := "Source documents are deleted 14 days after delivery and are never used to train models."
	for _, tc := range []struct {
		spans []string
		want  bool
	}{
		{[]string{"deleted 14 days after delivery", "never used to train models"}, true},
		{[]string{"deleted 14 days after delivery"}, false},
		{[]string{"never used to train models"}, false},
		{[]string{s}, true}, // one span over the whole sentence states both (a "none" mapping does so)
		{[]string{""}, false},
		{nil, false},
	} {
		if got := DataUseLexicon.Covered(s, tc.spans); got != tc.want {
			t.Errorf("spans %q: covered %v, want %v (hits %v)", tc.spans, got, tc.want, DataUseLexicon.Hits(s))
		}
	}
	if !TermLexicon.Covered("Orders can be cancelled with 48 hours' notice.", []string{"cancelled with 48 hours' notice"}) {
		t.Error("a term claim covered by its span")
	}
	if !DataUseLexicon.Covered("Deletes duplicate transactions before categorising.", nil) {
		t.Error("a capability sentence states no claim: nothing to cover")
	}
}
