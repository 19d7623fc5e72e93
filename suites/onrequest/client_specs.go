package onrequest

import (
	"fmt"

	orfix "github.com/extconf/extconf/fixtures/onrequest"
	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	vonrequest "github.com/extconf/extconf/harness/verify/onrequest"
)

// relayInput reads a captured chapel reply into what the reference assistant holds when it relays it.
func relayInput(w *harness.W, row, name string) vonrequest.ORRelayInput {
	f, err := orfix.LoadReply(name)
	if err != nil {
		w.Failf(nil, "the reference relay's fixtures load", "%v", err)
	}
	entry, err := vonrequest.ParseOREntry(f.Entry)
	if err != nil {
		w.Failf(nil, "the fixture's card entry reads", "%v", err)
	}
	var res a2a.SendResult
	if err := a2a.DecodeStrict(f.Result, &res); err != nil {
		w.Failf(nil, "the fixture's result decodes", "%v", err)
	}
	return vonrequest.ORRelayInput{Operator: f.Operator, SkillID: f.SkillID, Entry: entry, Reply: vonrequest.ORReplyFromResult(&res)}
}

// clientSpecs run the harness's reference assistant relay (harness/vonrequest.OnRequestRelay) on the chapel's captured
// replies: these rows bind assistants, and the relay is the harness's assistant.
func (s *suite) clientSpecs() {
	s.spec("OR-5.8b", "the reference assistant does not tell the person a deferred action is done", func(w *harness.W) {
		const row = "OR-5.8b"
		done := relayInput(w, row, "in-conversation-done")
		out, err := vonrequest.OnRequestRelay(done, nil, s.e.Sabotage)
		w.Control(err == nil && vonrequest.SaysDone(out) != "", "relaying an in-conversation action carried out, the relay says it is done",
			fmt.Sprintf("%q %v", out, err), nil)
		deferred := relayInput(w, row, "deferred-accepted")
		out, err = vonrequest.OnRequestRelay(deferred, nil, s.e.Sabotage)
		claim := vonrequest.SaysDone(out)
		w.Negative(err == nil && claim == "", "relaying an accepted deferred action, the relay does not say it is done (wording-checked)",
			fmt.Sprintf("%q in %q %v", claim, out, err), nil)
	})

	s.spec("OR-6.3", "the reference assistant presents no other source's value as the operator's", func(w *harness.W) {
		const row = "OR-6.3"
		given := relayInput(w, row, "given-on-opt-in")
		value := "GBP 2,400"
		out, err := vonrequest.OnRequestRelay(given, nil, s.e.Sabotage)
		_, attributed := vonrequest.AttributedToOperator(out, value, nil)
		w.Control(err == nil && attributed, "relaying information given on opt-in, the relay presents the operator's value as the operator's",
			fmt.Sprintf("%q %v", out, err), nil)
		cases := []struct {
			fixture string
			other   vonrequest.OROtherSource
		}{
			{"on-request", vonrequest.OROtherSource{Source: "price-comparison.example", Value: "GBP 1,700"}},
			{"action-referred", vonrequest.OROtherSource{Source: "booking-site.example", Value: "Tuesday at 09:30"}},
		}
		for _, c := range cases {
			in := relayInput(w, row, c.fixture)
			out, err := vonrequest.OnRequestRelay(in, []vonrequest.OROtherSource{c.other}, s.e.Sabotage)
			sentences, attributed := vonrequest.AttributedToOperator(out, c.other.Value, []string{c.other.Source})
			w.Negative(err == nil && !attributed,
				fmt.Sprintf("relaying %s, the relay does not present %s's %q as %s's", c.fixture, c.other.Source, c.other.Value, in.Operator),
				fmt.Sprintf("sentences carrying it: %q; output %q %v", sentences, out, err), nil)
		}
	})
}
