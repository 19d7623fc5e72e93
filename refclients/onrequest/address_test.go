package onrequest

import "testing"

// Issue #19: personEntry was compared byte for byte, so a trailing slash, ":443" or an upper-case host failed
// OR-5.3c, and a trailing slash was reported as personalisation under OR-3.8c.
func TestAddressNormalised(t *testing.T) {
	pe := "https://ask.example.com/talk"
	for _, text := range []string{
		"Ask here: https://ask.example.com/talk/.",
		"Ask here: https://ASK.Example.COM:443/talk",
		"Ask here: HTTPS://ask.example.com/%74alk",
		"Ask here: https://ask.example.com/a/../talk",
	} {
		if !TextGivesAddress(text, pe) {
			t.Errorf("%q does not give %s", text, pe)
		}
		if v := AddressVariants(text, pe); len(v) != 0 {
			t.Errorf("%q: reported as personalised copies %v", text, v)
		}
	}
	for _, text := range []string{"https://ask.example.com/talk?about=x", "https://ask.example.com/talk#mother", "https://ask.example.com/talking", "https://ask.example.org/talk"} {
		if TextGivesAddress(text, pe) {
			t.Errorf("%q read as giving %s", text, pe)
		}
	}
	if v := AddressVariants("https://ask.example.com/talk/?about=x", pe); len(v) != 1 {
		t.Errorf("a query on the same page is a variant: %v", v)
	}
	if !SameURL("https://x.example", "https://x.example/") || SameURL("https://x.example/a", "https://x.example/b") {
		t.Error("SameURL")
	}
}

// Issue #19: phone numbers needed a leading "+": "(202) 555-0143" did not give tel:+1-202-555-0143.
func TestNationalPhoneFormat(t *testing.T) {
	pe := "tel:+1-202-555-0143"
	for _, text := range []string{"Call us on (202) 555-0143.", "Call 202-555-0143", "Call +1 202 555 0143", "Call 1 202 555 0143"} {
		if !TextGivesAddress(text, pe) {
			t.Errorf("%q does not give %s", text, pe)
		}
	}
	if !TextGivesAddress("Ring 020 7946 0000", "tel:+44-20-7946-0000") {
		t.Error("a national number with trunk prefix 0")
	}
	if TextGivesAddress("Call (202) 555-0199.", pe) || TextGivesAddressIn("Call (202) 555-0143.", pe, "+44") {
		t.Error("another number, or the wrong stated country, read as the number")
	}
	if !TextGivesAddressIn("Call (202) 555-0143.", pe, "+1") {
		t.Error("stated country +1")
	}
}

// Issue #19: English patterns missed passives, "I'm not able to book this", "there are no staff at this location",
// and flagged "has been scheduled for staff to action" as done.
func TestWordingLexicon(t *testing.T) {
	p := DefaultPhrases
	if MatchAny(p.OperatorGives, "Prices are given to the person who asks. Ask here: https://x.example/talk") == "" {
		t.Error("passive operator-gives")
	}
	if MatchAny(p.NotDone, "I'm not able to book this.") == "" {
		t.Error("I'm not able to book this")
	}
	if MatchAny(p.NobodyReachable, "There are no staff at this location.") == "" {
		t.Error("no staff at this location")
	}
	if got := SaysDone("Your callback has been scheduled for staff to action."); got != "" {
		t.Errorf("a plan read as done: %q", got)
	}
	if SaysDone("Your callback is scheduled.") == "" {
		t.Error("a plain claim missed")
	}
	q, err := p.Extend(map[string][]string{"operatorGives": {`\bpreis auf anfrage\b`}, "done": {`\berledigt\b`}})
	if err != nil || MatchAny(q.OperatorGives, "Preis auf Anfrage.") == "" || q.SaysDone("Alles erledigt.") == "" {
		t.Errorf("extended lexicon: %v", err)
	}
	if MatchAny(p.OperatorGives, "Preis auf Anfrage.") != "" {
		t.Error("Extend changed the defaults")
	}
	if _, err := p.Extend(map[string][]string{"operatorGivs": {"x"}}); err == nil {
		t.Error("an unknown lexicon name is accepted")
	}
}

// Issue #19: assistantAccess "true" was read as false and completion "later" as an action, silently.
func TestEntryValueTypes(t *testing.T) {
	e, err := ParseEntry([]byte(`{"id":"x","personEntry":"https://x.example/","assistantAccess":"true","completion":"later"}`))
	if err != nil || len(e.TypeProblems) != 2 {
		t.Fatalf("%v %+v", err, e)
	}
	e, _ = ParseEntry([]byte(`{"id":"x","personEntry":"https://x.example/","assistantAccess":false,"completion":"deferred"}`))
	if len(e.TypeProblems) != 0 {
		t.Errorf("%v", e.TypeProblems)
	}
}

// A referral saying the information is not available by this channel is not a denial that it exists (OR-5.3d).
func TestDenialQualifiedByChannel(t *testing.T) {
	p := DefaultPhrases
	for _, text := range []string{"Prices are not available online; they are given to the person who asks.",
		"We don't have prices here: ask at https://x.example/talk", "This is not available to assistants."} {
		if d := p.Denies(text); d != "" {
			t.Errorf("%q read as a denial (%q)", text, d)
		}
	}
	for _, text := range []string{"We have no price information.", "That service does not exist.", "Prices are not available."} {
		if p.Denies(text) == "" {
			t.Errorf("%q not read as a denial", text)
		}
	}
	if MatchAny(p.OperatorGives, "Prices are discussed with the person who asks.") == "" {
		t.Error("passive 'discussed with the person who asks'")
	}
}
