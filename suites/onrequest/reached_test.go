package onrequest

import (
	"testing"

	"github.com/extconf/extconf/harness/a2a"
	vonrequest "github.com/extconf/extconf/refclients/onrequest"
)

// Issue #38: a reply carrying the operator's stated value for the skill, with neither the entry's object nor its
// address, is about that entry (the positive control of OR-5.3a holds, so the leak is graded, not blocked); a
// reply with another skill's figure is not.
func TestStatedValueProvesTheReplyIsAboutTheEntry(t *testing.T) {
	e := vonrequest.Entry{ID: "service-pricing", PersonEntry: "https://ask.example.com/talk"}
	for text, want := range map[string]bool{
		"A direct cremation is about £1,950.":   true,
		"A direct cremation is GBP 1,950.":      true,
		"Family-run since 1950.":                false,
		"An oak bench is GBP 2,400 for a year.": false,
	} {
		msg := &a2a.Message{Role: "ROLE_AGENT", Parts: []a2a.Part{a2a.TextPart(text)}}
		o := outcome{reply: vonrequest.Reply{Message: msg}, ex: &a2a.Exchange{ResponseBody: []byte(`{"text":"` + text + `"}`)},
			values: []string{"GBP 1,950"}, stated: true}
		if got, _ := reachedSkill(o, e); got != want {
			t.Errorf("%q: about the entry %v, want %v", text, got, want)
		}
	}
}
