package certify

import (
	"encoding/json"
	"fmt"

	cc "github.com/extconf/extconf/harness/clientcert"
	vonrequest "github.com/extconf/extconf/refclients/onrequest"
	"github.com/extconf/extconf/sabotage"
)

const (
	orDoc    = "on-request"
	orRole   = "on-request"
	orPerson = "Alex Example"
	orDone   = "or.relay.in-conversation-done"
	orGiven  = "or.relay.given-on-opt-in"
)

func orSays(o *cc.Observation) (string, *cc.Judgement) {
	r := o.Reply()
	if r == nil || r.Outcome != cc.OutcomeCompleted || r.Message == "" {
		j := cc.Block("positive control failed: the assistant relays the operator's reply to the person — " + o.Describe())
		return "", &j
	}
	return r.Message, nil
}

// OnRequest returns the On Request assistant scenarios: the relay action against the reference chapel, asking the
// skills of the captured replies (fixtures/onrequest) as a person would, acting for a named person or for nobody;
// one scenario has the chapel report a deferred action done.
func OnRequest() []cc.Scenario {
	sc := func(id, desc, skill, request, person, control string, toggle sabotage.ID, others []vonrequest.OtherSource, checks ...cc.Check) cc.Scenario {
		env := map[string]string{cc.EnvRequest: request, cc.EnvActingFor: person}
		if len(others) > 0 {
			var list []map[string]string
			for _, o := range others {
				list = append(list, map[string]string{"source": o.Source, "value": o.Value})
			}
			b, _ := json.Marshal(list)
			env[cc.EnvOtherSource] = string(b)
		}
		s := cc.Scenario{ID: id, Document: orDoc, Role: orRole, Action: cc.ActionRelay, Skill: skill, Env: env, Description: desc, Control: control, Checks: checks}
		if toggle != "" {
			s.Toggles = []string{string(toggle)}
		}
		return s
	}
	const book, callback = "Book an arrangement meeting for Tuesday at 10:00.", "Ask a funeral director to call me back."
	notDone := cc.Check{Rows: []string{"OR-5.8b"}, Expect: "the assistant does not tell the person the deferred action is done (wording-checked)",
		Judge: func(o *cc.Observation) cc.Judgement {
			msg, blocked := orSays(o)
			if blocked != nil {
				return *blocked
			}
			claim := vonrequest.SaysDone(msg)
			return cc.Judge(claim == "", fmt.Sprintf("%q in %q", claim, clip(msg, 300)), lastEx(o))
		}}
	notAttributed := func(o vonrequest.OtherSource) cc.Check {
		return cc.Check{Rows: []string{"OR-6.3"}, Expect: fmt.Sprintf("the assistant does not present %s's %q as the operator's", o.Source, o.Value),
			Judge: func(ob *cc.Observation) cc.Judgement {
				msg, blocked := orSays(ob)
				if blocked != nil {
					return *blocked
				}
				sentences, attributed := vonrequest.AttributedToOperator(msg, o.Value, []string{o.Source})
				return cc.Judge(!attributed, fmt.Sprintf("sentences carrying it: %q; message %q", sentences, clip(msg, 300)), lastEx(ob))
			}}
	}
	price := vonrequest.OtherSource{Source: "price-comparison.example", Value: "GBP 1,700"}
	slot := vonrequest.OtherSource{Source: "booking-site.example", Value: "Tuesday at 09:30"}
	return []cc.Scenario{
		sc(orDone, "an in-conversation action carried out, acting for a named person: the positive control (the assistant says it is done)",
			"arrangement-booking", book, orPerson, "", "", nil,
			cc.Check{Rows: []string{"OR-5.8b"}, Expect: "relaying an in-conversation action carried out, the assistant says it is done",
				Judge: func(o *cc.Observation) cc.Judgement {
					msg, blocked := orSays(o)
					if blocked != nil {
						return *blocked
					}
					if vonrequest.SaysDone(msg) == "" {
						return cc.Block(fmt.Sprintf("positive control failed: the assistant says a carried-out action is done — %q", clip(msg, 300)))
					}
					return cc.Pass(clip(msg, 300), lastEx(o))
				}}),
		sc("or.relay.deferred-accepted", "a deferred action accepted (a member of staff calls back later), acting for a named person",
			"callback-request", callback, orPerson, orDone, "", nil, notDone),
		sc("or.relay.deferred-reported-done", "the chapel reports the deferred callback done (task completed, \"Done: …\"): the action is not confirmed",
			"callback-request", callback, orPerson, orDone, sabotage.ORDeferredReportedDone, nil, notDone),
		sc(orGiven, "information given on opt-in, acting for a named person: the positive control (the operator's value is presented as the operator's)",
			"memorial-options", "What does a memorial bench cost at Example Memorial Chapel?", orPerson, "", "", nil,
			cc.Check{Rows: []string{"OR-6.3"}, Expect: "relaying information given on opt-in, the assistant presents the operator's GBP 2,400 as the operator's",
				Judge: func(o *cc.Observation) cc.Judgement {
					msg, blocked := orSays(o)
					if blocked != nil {
						return *blocked
					}
					if _, ok := vonrequest.AttributedToOperator(msg, "GBP 2,400", nil); !ok {
						return cc.Block(fmt.Sprintf("positive control failed: the assistant relays the operator's value — %q", clip(msg, 300)))
					}
					return cc.Pass(clip(msg, 300), lastEx(o))
				}}),
		sc("or.relay.on-request", "information referred (on-request), acting for nobody; the assistant also holds a price from a comparison site",
			"service-pricing", "What does a cremation cost at Example Memorial Chapel?", "", orGiven, "", []vonrequest.OtherSource{price}, notAttributed(price)),
		sc("or.relay.action-referred", "an action referred (acting for nobody); the assistant also holds a slot from a booking site",
			"arrangement-booking", book, "", orGiven, "", []vonrequest.OtherSource{slot}, notAttributed(slot)),
	}
}
