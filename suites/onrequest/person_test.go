package onrequest

import (
	"encoding/json"
	"strings"
	"testing"
)

// The acting-for template is JSON: "<person>" written with escapes (as Go's encoder writes the configuration
// config init produces) is the same template, and the person's name lands in it (before: sent verbatim as
// "\u003cperson\u003e", so every action probe acted for nobody and a correct agent's rate limit blocked rows).
func TestSubstitutePersonEscapedTemplate(t *testing.T) {
	for _, tmpl := range []string{`{"x":{"actingFor":{"name":"<person>"}}}`, `{"x":{"actingFor":{"name":"\u003cperson\u003e"}}}`} {
		got := substitutePerson(json.RawMessage(tmpl), `Alex "Q" Example`)
		var v struct {
			X struct {
				ActingFor struct{ Name string } `json:"actingFor"`
			} `json:"x"`
		}
		if err := json.Unmarshal(got, &v); err != nil || v.X.ActingFor.Name != `Alex "Q" Example` {
			t.Errorf("%s → %s (%v)", tmpl, got, err)
		}
	}
	if p := newPerson(); !strings.HasPrefix(p, "Alex Example "+personTag) || p == newPerson() {
		t.Errorf("newPerson: %q", p)
	}
}
