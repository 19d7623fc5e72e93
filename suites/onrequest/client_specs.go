package onrequest

import (
	"fmt"

	orfix "github.com/extconf/extconf/fixtures/onrequest"
	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	vonrequest "github.com/extconf/extconf/refclients/onrequest"
)

// relayInput reads a captured chapel reply into what the reference assistant holds when it relays it.
func relayInput(w *harness.W, row, name string) vonrequest.RelayInput {
	f, err := orfix.LoadReply(name)
	if err != nil {
		w.Failf(nil, "the reference relay's fixtures load", "%v", err)
	}
	entry, err := vonrequest.ParseEntry(f.Entry)
	if err != nil {
		w.Failf(nil, "the fixture's card entry reads", "%v", err)
	}
	var res a2a.SendResult
	if err := a2a.DecodeStrict(f.Result, &res); err != nil {
		w.Failf(nil, "the fixture's result decodes", "%v", err)
	}
	return vonrequest.RelayInput{Operator: f.Operator, SkillID: f.SkillID, Entry: entry, Reply: vonrequest.ReplyFromResult(&res)}
}

// clientSpecs run the harness's reference assistant relay (harness/vonrequest.Relay) on the chapel's captured
// replies: these rows bind assistants, and the relay is the harness's assistant.
func (s *suite) clientSpecs() {
	s.spec("OR-5.8b", "the reference assistant does not tell the person a deferred action is done", func(w *harness.W) {
		const row = "OR-5.8b"
		done := relayInput(w, row, "in-conversation-done")
		out, err := vonrequest.Relay(done, nil, s.e.Sabotage)
		w.Control(err == nil && vonrequest.SaysDone(out) != "", "relaying an in-conversation action carried out, the relay says it is done",
			fmt.Sprintf("%q %v", out, err), nil)
		deferred := relayInput(w, row, "deferred-accepted")
		out, err = vonrequest.Relay(deferred, nil, s.e.Sabotage)
		claim := vonrequest.SaysDone(out)
		w.Negative(err == nil && claim == "", "relaying an accepted deferred action, the relay does not say it is done (wording-checked)",
			fmt.Sprintf("%q in %q %v", claim, out, err), nil)
	})

	s.spec("OR-6.3", "the reference assistant presents no other source's value as the operator's", func(w *harness.W) {
		const row = "OR-6.3"
		given := relayInput(w, row, "given-on-opt-in")
		value := "GBP 2,400"
		out, err := vonrequest.Relay(given, nil, s.e.Sabotage)
		_, attributed := vonrequest.AttributedToOperator(out, value, nil)
		w.Control(err == nil && attributed, "relaying information given on opt-in, the relay presents the operator's value as the operator's",
			fmt.Sprintf("%q %v", out, err), nil)
		cases := []struct {
			fixture string
			other   vonrequest.OtherSource
		}{
			{"on-request", vonrequest.OtherSource{Source: "price-comparison.example", Value: "GBP 1,700"}},
			{"action-referred", vonrequest.OtherSource{Source: "booking-site.example", Value: "Tuesday at 09:30"}},
		}
		for _, c := range cases {
			in := relayInput(w, row, c.fixture)
			out, err := vonrequest.Relay(in, []vonrequest.OtherSource{c.other}, s.e.Sabotage)
			sentences, attributed := vonrequest.AttributedToOperator(out, c.other.Value, []string{c.other.Source})
			w.Negative(err == nil && !attributed,
				fmt.Sprintf("relaying %s, the relay does not present %s's %q as %s's", c.fixture, c.other.Source, c.other.Value, in.Operator),
				fmt.Sprintf("sentences carrying it: %q; output %q %v", sentences, out, err), nil)
		}
	})
}
