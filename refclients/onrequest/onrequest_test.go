package onrequest

import (
	"encoding/json"
	"strings"
	"testing"

	orfix "github.com/extconf/extconf/fixtures/onrequest"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/sabotage"
	"regexp"
)

func card(exts string) []byte {
	return []byte(`{"name":"x","capabilities":{"extensions":[` + exts + `]}}`)
}

func TestFindOnRequest(t *testing.T) {
	d, err := FindDeclaration(card(`{"uri":"https://agent-capability.org/ext/on-request/v1/","params":{"skills":[]}},
		{"uri":"https://agent-capability.org/ext/on-request/v1","required":false,
		 "params":{"skills":[{"id":"a","personEntry":"https://x.example/talk","assistantAccess":true,"completion":"deferred"},
		                     {"id":"b","assistantAccess":"true"}, 7]}}`))
	if err != nil || d == nil || !d.Exact {
		t.Fatalf("exact declaration not preferred: %+v %v", d, err)
	}
	if string(d.Required) != "false" || len(d.Entries) != 2 || !strings.Contains(d.EntriesProblem, "params.skills[2]") {
		t.Fatalf("entries %+v problem %q required %s", d.Entries, d.EntriesProblem, d.Required)
	}
	a, _ := d.Entry("a")
	b, _ := d.Entry("b")
	if !a.AssistantAccess || a.Completion != "deferred" || !a.IsAction() || b.AssistantAccess {
		t.Errorf("assistantAccess is true only for a JSON true: a=%+v b=%+v", a, b)
	}

	near, _ := FindDeclaration(card(`{"uri":"HTTPS://agent-capability.org/ext/on-request/v1/","params":{"skills":{"a":{}}}}`))
	if near == nil || near.Exact || !strings.Contains(near.EntriesProblem, "not a JSON array") {
		t.Errorf("near miss with a map of skills: %+v", near)
	}
	if none, err := FindDeclaration(card(`{"uri":"https://example.com/other"}`)); none != nil || err != nil {
		t.Errorf("unrelated extension read as on-request: %+v %v", none, err)
	}
	if _, err := FindDeclaration([]byte(`[`)); err == nil {
		t.Error("a broken card is not an error")
	}
}

func TestNearMissORURI(t *testing.T) {
	for uri, want := range map[string]bool{
		URI:       false,
		URI + "/": true,
		"http://agent-capability.org/ext/on-request/v1":      true,
		"https://www.agent-capability.org/ext/on-request/v1": true,
		"https://agent-capability.org/ext/on-request/v2":     false,
	} {
		if got := NearMissURI(uri); got != want {
			t.Errorf("NearMissURI(%q) = %v", uri, got)
		}
	}
}

func TestCheckPersonEntry(t *testing.T) {
	ok := map[string]string{"https://ask.example.com/talk": PersonEntryHTTPS, "tel:+1-202-555-0143": PersonEntryTel}
	for pe, kind := range ok {
		if got, err := CheckPersonEntry(pe); err != nil || got != kind {
			t.Errorf("%s: %s %v", pe, got, err)
		}
	}
	for _, pe := range []string{"", "http://ask.example.com/talk", "mailto:a@example.com", "/talk", "tel:2025550143", "https:///talk", "tel:+1"} {
		if _, err := CheckPersonEntry(pe); err == nil {
			t.Errorf("%q accepted", pe)
		}
	}
}

func TestPathCircumstances(t *testing.T) {
	if got := PathCircumstances("https://x.example/bereavement", nil); len(got) != 1 {
		t.Errorf("/bereavement: %v", got)
	}
	if got := PathCircumstances("https://x.example/help/funeral-of-john", nil); len(got) != 1 {
		t.Errorf("funeral-of: %v", got)
	}
	if got := PathCircumstances("https://x.example/talk", []string{"talking"}); len(got) != 0 {
		t.Errorf("/talk: %v", got)
	}
	if got := PathCircumstances("https://x.example/talk", []string{"talk"}); len(got) != 1 {
		t.Errorf("operator term: %v", got)
	}
}

func TestTextAddresses(t *testing.T) {
	text := "Ask here: https://ask.example.com/talk. Or call +1 202 555 0143, or tel:+1-202-555-0199."
	got := TextAddresses(text)
	for _, want := range []string{"https://ask.example.com/talk", "tel:+12025550143", "tel:+12025550199"} {
		found := false
		for _, g := range got {
			found = found || g == want
		}
		if !found {
			t.Errorf("%q not in %v", want, got)
		}
	}
	if !TextGivesAddress(text, "https://ask.example.com/talk") || !TextGivesAddress(text, "tel:+1-202-555-0143") {
		t.Error("addresses in the text not recognised")
	}
	if TextGivesAddress("see https://ask.example.com/talk?about=my-mother", "https://ask.example.com/talk") {
		t.Error("a personalised copy passed as the address")
	}
	if v := AddressVariants("see https://ask.example.com/talk?about=my-mother.", "https://ask.example.com/talk"); len(v) != 1 {
		t.Errorf("variants %v", v)
	}
}

func TestContainsValue(t *testing.T) {
	if !ContainsValue("A direct cremation is gbp 1950.", "GBP 1,950") || ContainsValue("anything", "") || ContainsValue("GBP 2,400", "GBP 1,950") {
		t.Error("value folding")
	}
}

func TestSaysDone(t *testing.T) {
	claims := []string{"Done: your callback is booked.", "Booked: an arrangement meeting on Tuesday.", "All set, it is scheduled."}
	for _, c := range claims {
		if SaysDone(c) == "" {
			t.Errorf("no claim found in %q", c)
		}
	}
	none := []string{"Recorded, not yet done: a funeral director will call back.", "Not published yet. The person must confirm it.",
		"I can't book this meeting for you: it was not done.", "It will be published once confirmed by the person.",
		"The booking has not been confirmed."}
	for _, c := range none {
		if got := SaysDone(c); got != "" {
			t.Errorf("claim %q found in %q", got, c)
		}
	}
}

func TestPhrases(t *testing.T) {
	p := DefaultPhrases
	cases := []struct {
		pats []*regexp.Regexp
		text string
		want bool
	}{
		{p.OperatorGives, "Example Memorial Chapel gives its prices to the person who asks.", true},
		{p.OperatorGives, "You can ask here: https://x.example/talk", false},
		{p.Denial, "We have no price information.", true},
		{p.Denial, "The chapel gives its prices to the person who asks, on request.", false},
		{p.NotDone, "I can't book this meeting for you: it was not done.", true},
		{p.NotDone, "You can ask here: https://x.example/talk", false},
		{p.NobodyReachable, "Nobody can be reached here: the office is not staffed.", true},
		{p.Route, "I'll put you through to a member of staff now.", true},
		{p.Route, "You can leave a written request at https://x.example/talk.", false},
	}
	for _, c := range cases {
		if got := MatchAny(c.pats, c.text) != ""; got != c.want {
			t.Errorf("%q: matched %v", c.text, got)
		}
	}
}

func TestORReplyFromStream(t *testing.T) {
	text := "here"
	md := json.RawMessage(`{"` + URI + `":{"status":"given-on-opt-in","skillId":"s"}}`)
	r := ReplyFromStream([]a2a.StreamEvent{
		{Task: &a2a.Task{ID: "t", Status: a2a.TaskStatus{State: a2a.StateSubmitted}}},
		{ArtifactUpdate: &a2a.TaskArtifactUpdateEvent{TaskID: "t", Artifact: a2a.Artifact{ArtifactID: "a", Parts: []a2a.Part{a2a.TextPart("GBP ")}, Metadata: md}}},
		{ArtifactUpdate: &a2a.TaskArtifactUpdateEvent{TaskID: "t", Append: true, Artifact: a2a.Artifact{ArtifactID: "a", Parts: []a2a.Part{a2a.TextPart("2,400")}}}},
		{StatusUpdate: &a2a.TaskStatusUpdateEvent{TaskID: "t", Status: a2a.TaskStatus{State: a2a.StateCompleted,
			Message: &a2a.Message{Role: a2a.RoleAgent, Parts: []a2a.Part{{Text: &text}}}}}},
	})
	if r.State() != a2a.StateCompleted || len(r.States) != 2 || r.Text() != "here" || !ContainsValue(r.ArtifactText(), "GBP 2,400") {
		t.Fatalf("assembled %s", r.Describe())
	}
	if o := r.ArtifactObjects()[0]; o == nil || o.Status != StatusGivenOnOptIn {
		t.Errorf("artifact object %+v", o)
	}
}

func relayInputFor(t *testing.T, name string) RelayInput {
	t.Helper()
	f, err := orfix.LoadReply(name)
	if err != nil {
		t.Fatal(err)
	}
	e, err := ParseEntry(f.Entry)
	if err != nil {
		t.Fatal(err)
	}
	var res a2a.SendResult
	if err := a2a.DecodeStrict(f.Result, &res); err != nil {
		t.Fatal(err)
	}
	return RelayInput{Operator: f.Operator, SkillID: f.SkillID, Entry: e, Reply: ReplyFromResult(&res)}
}

func TestOnRequestRelay(t *testing.T) {
	none := sabotage.Set{}
	outcomes := map[string]string{"on-request": RelayReferred, "action-referred": RelayActionReferred,
		"given-on-opt-in": RelayGiven, "deferred-accepted": RelayPending, "in-conversation-done": RelayDone}
	for name, want := range outcomes {
		if got, err := RelayOutcome(relayInputFor(t, name)); err != nil || got != want {
			t.Errorf("%s read as %s (%v), want %s", name, got, err, want)
		}
	}

	out, err := Relay(relayInputFor(t, "given-on-opt-in"), nil, none)
	if err != nil || !strings.Contains(out, "From Example Memorial Chapel, on request: An oak memorial bench is GBP 2,400") {
		t.Errorf("given: %q %v", out, err)
	}
	out, _ = Relay(relayInputFor(t, "deferred-accepted"), nil, none)
	if c := SaysDone(out); c != "" {
		t.Errorf("deferred relayed as done (%q): %q", c, out)
	}
	out, _ = Relay(relayInputFor(t, "deferred-accepted"), nil, sabotage.MustParse(sabotage.ORClientRelaysDeferredAsDone))
	if SaysDone(out) == "" {
		t.Errorf("the toggle does not break the relay: %q", out)
	}

	other := []OtherSource{{Source: "price-comparison.example", Value: "GBP 1,700"}}
	out, _ = Relay(relayInputFor(t, "on-request"), other, none)
	if s, attributed := AttributedToOperator(out, "GBP 1,700", []string{"price-comparison.example"}); attributed {
		t.Errorf("another source's value presented as the operator's: %q", s)
	}
	if !strings.Contains(out, "https://agent.example.com/talk") {
		t.Errorf("referral without the address: %q", out)
	}
	out, _ = Relay(relayInputFor(t, "on-request"), other, sabotage.MustParse(sabotage.ORClientPresentsOtherSourceValue))
	if _, attributed := AttributedToOperator(out, "GBP 1,700", []string{"price-comparison.example"}); !attributed {
		t.Errorf("the toggle does not break the relay: %q", out)
	}

	if _, err := Relay(RelayInput{}, nil, none); err == nil || !strings.Contains(err.Error(), "step 1") {
		t.Errorf("an empty reply: %v", err)
	}
}

func TestMoneyAmounts(t *testing.T) {
	got := MoneyAmounts("An oak bench is GBP 2,400 for ten years; a plaque €90, or 1.200 EUR abroad. Open 09:00 to 17:00.")
	want := []string{"GBP 2,400", "€90", "1.200 EUR"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("MoneyAmounts = %q, want %q", got, want)
	}
	// Issue #19: amounts are default values given on request, so a false amount is a false failure.
	for _, text := range []string{"JSON-RPC 2.0 over HTTP", "a meeting for 10:00 on Tuesday", "Open 09:00 to 17:00, ext 200"} {
		if got := MoneyAmounts(text); len(got) != 0 {
			t.Errorf("MoneyAmounts(%q) = %q", text, got)
		}
	}
}
