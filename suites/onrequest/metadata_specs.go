package onrequest

import (
	"fmt"
	"strings"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	vonrequest "github.com/extconf/extconf/refclients/onrequest"
)

// ask is one question and the §6.1 case its reply must be.
type ask struct {
	e    vonrequest.Entry
	p    probe
	want string // on-request | action-referred | given-on-opt-in
}

// Which replies a metadata spec asks for.
const (
	askInfo    = 1 << iota // information referred (on-request)
	askActions             // actions referred (action-referred); needs the operator's consent
	askGiven               // information given on opt-in; needs the acting-for convention
)

// asks builds the questions whose replies §6.2 fixes, each in the given activation mode.
func (s *suite) asks(w *harness.W, row string, a *agentView, st *statement, which int, activated bool) []ask {
	var out []ask
	if which&askInfo != 0 {
		for _, e := range s.informational(w, a, st, false) {
			out = append(out, ask{e, probe{skill: e.ID, activated: activated}, vonrequest.StatusOnRequest})
		}
		for _, e := range s.informational(w, a, st, true) {
			out = append(out, ask{e, probe{skill: e.ID, activated: activated}, vonrequest.StatusOnRequest})
		}
	}
	if which&askActions != 0 && len(a.skillEntries(w, func(e vonrequest.Entry) bool { return isAction(e, st) })) > 0 {
		// A pass must cover every case the row names: action referrals are probed only with consent.
		st = s.requireConsent(w, row)
		for _, e := range actions(w, a, st, false) {
			out = append(out, ask{e, probe{skill: e.ID, activated: activated, person: activated && s.hasActingFor()}, vonrequest.StatusActionReferred})
		}
		for _, e := range actions(w, a, st, true) {
			out = append(out, ask{e, probe{skill: e.ID, activated: activated}, vonrequest.StatusActionReferred})
		}
	}
	if which&askGiven != 0 && activated && len(s.informational(w, a, st, true)) > 0 {
		s.actingFor(w) // blocks when the target has not said how an assistant asserts a person
		for _, e := range s.informational(w, a, st, true) {
			out = append(out, ask{e, probe{skill: e.ID, activated: true, person: true}, vonrequest.StatusGivenOnOptIn})
		}
	}
	return out
}

// answeredInWords is the control of the metadata rows: the text (or the artifact) already says the case, so the
// reply is about the skill asked, whatever its object says.
func answeredInWords(o outcome, x ask) (bool, string) {
	if o.err != "" {
		return false, o.String()
	}
	switch x.want {
	case vonrequest.StatusGivenOnOptIn:
		return isGiven(o), o.String()
	case vonrequest.StatusActionReferred:
		return o.gives(o.reply.Text(), x.e.PersonEntry) ||
			vonrequest.MatchAny(o.ph().NotDone, o.reply.Text()) != "", o.String()
	}
	return o.gives(o.reply.Text(), x.e.PersonEntry) || saysOnRequest(o), o.String()
}

// refersInWords is the control wording of the referral rows.
func refersInWords(x ask) string { return "the reply refers the person, in words, for " + x.e.ID }

// objectOf returns the object where §6.2 puts it for the case.
func objectOf(o outcome, want string) *vonrequest.Object {
	if want == vonrequest.StatusGivenOnOptIn {
		for i := range o.reply.Artifacts() {
			if obj := o.reply.ArtifactObjects()[i]; obj != nil {
				return obj
			}
		}
		return nil
	}
	return o.reply.Object()
}

// askSpec is the opening of most metadata rows: the main agent, the operator statement and the activated asks of
// the kinds in which; none makes the spec inapplicable for the reason none.
func (s *suite) askSpec(w *harness.W, row string, which int, none string) (*agentView, []ask) {
	a := s.loadAgent(w, roleMain, row)
	st := s.loadStatement(w, row)
	asks := s.asks(w, row, a, st, which, true)
	if len(asks) == 0 {
		w.Inapplicable(none)
	}
	return a, asks
}

// eachAnswer puts every ask to the agent; each answer is first controlled as being, in words, the case asked
// (answeredInWords, the control's wording from control), then handed to check.
func (s *suite) eachAnswer(w *harness.W, row string, a *agentView, asks []ask, control func(x ask) string, check func(x ask, o outcome)) {
	for _, x := range asks {
		for _, o := range s.send(w, row, a, x.p) {
			if x.want != vonrequest.StatusActionReferred {
				s.undeclaredAction(w, row, x.e, o)
			}
			if x.want == vonrequest.StatusGivenOnOptIn && !isGiven(o) && isReferral(o, x.e) {
				w.Blocked(s.mismatch(w, o, "information given on opt-in for "+x.e.ID))
			}
			ok, obs := answeredInWords(o, x)
			w.Control(ok, control(x), obs, o.ex)
			check(x, o)
		}
	}
}

func (s *suite) metadataSpecs() {
	s.spec("OR-6.1a", "an information referral carries the object on its Message or the final status message of a completed task", func(w *harness.W) {
		const row = "OR-6.1a"
		a, asks := s.askSpec(w, row, askInfo, "no informational on-request skill")
		s.eachAnswer(w, row, a, asks, refersInWords, func(x ask, o outcome) {
			obj := o.reply.Object()
			where := "Message.metadata"
			if o.reply.Task != nil {
				where = "the final TaskStatus.message.metadata"
			}
			w.Check(obj != nil && obj.Problem == "", fmt.Sprintf("the object is a JSON object at %s[%s]", where, vonrequest.URI),
				fmt.Sprintf("found elsewhere: %v; %s", o.reply.ObjectsElsewhere(), o), o.ex)
			if o.reply.Task != nil {
				w.Check(o.reply.State() == a2a.StateCompleted, "the task made for the referral ends TASK_STATE_COMPLETED", o.String(), o.ex)
			}
		})
	})

	s.spec("OR-6.1b", "an action referral carries the object on its reply and its task ends rejected", func(w *harness.W) {
		const row = "OR-6.1b"
		a := s.loadAgent(w, roleMain, row)
		st := s.requireConsent(w, row)
		asks := s.asks(w, row, a, st, askActions, true)
		if len(asks) == 0 {
			w.Inapplicable("the card declares no action")
		}
		notDoneInWords := func(x ask) string {
			return "the reply says, in words, that " + x.e.ID + " was not done or where to ask"
		}
		s.eachAnswer(w, row, a, asks, notDoneInWords, func(x ask, o outcome) {
			obj := o.reply.Object()
			w.Check(obj != nil && obj.Problem == "", "the object is at Message.metadata or the final TaskStatus.message.metadata",
				fmt.Sprintf("found elsewhere: %v; %s", o.reply.ObjectsElsewhere(), o), o.ex)
			if o.reply.Task != nil {
				w.Check(o.reply.State() == a2a.StateRejected, "the task made for the action referral ends TASK_STATE_REJECTED", o.String(), o.ex)
			}
		})
	})

	s.spec("OR-6.1c", "information given on opt-in is an Artifact carrying the object, in a completed task", func(w *harness.W) {
		const row = "OR-6.1c"
		a, _, entries := s.informationalSpec(w, row, true)
		s.actingFor(w) // blocks when the target has not said how an assistant asserts a person
		for _, e := range entries {
			for _, o := range s.send(w, row, a, probe{skill: e.ID, activated: true, first: true}) {
				w.Control(isReferral(o, e), "a client acting for nobody is referred for "+e.ID+", so the opt-in is what differs", o.String(), o.ex)
			}
			for _, o := range s.send(w, row, a, probe{skill: e.ID, activated: true, person: true}) {
				s.undeclaredAction(w, row, e, o)
				if !isGiven(o) && isReferral(o, e) {
					w.Blocked(s.mismatch(w, o, "where information given on opt-in goes"))
				}
				w.Check(o.err == "" && o.reply.Task != nil && o.reply.State() == a2a.StateCompleted,
					"the information comes in a task ending TASK_STATE_COMPLETED", o.String(), o.ex)
				w.Check(isGiven(o), "an Artifact carries the information", o.String(), o.ex)
				obj := objectOf(o, vonrequest.StatusGivenOnOptIn)
				w.Check(obj != nil && obj.Status == vonrequest.StatusGivenOnOptIn,
					fmt.Sprintf("Artifact.metadata[%s] holds the object with status given-on-opt-in", vonrequest.URI),
					fmt.Sprintf("reply-message object %v, found elsewhere %v; %s", o.reply.Object() != nil, o.reply.ObjectsElsewhere(), o), o.ex)
			}
		}
	})

	s.spec("OR-6.1d", "the object's status names the case", func(w *harness.W) {
		const row = "OR-6.1d"
		a, asks := s.askSpec(w, row, askInfo|askActions|askGiven, "no listed skill")
		theCase := func(x ask) string { return fmt.Sprintf("the reply is, in words, the %s case for %s", x.want, x.e.ID) }
		s.eachAnswer(w, row, a, asks, theCase, func(x ask, o outcome) {
			obj := objectOf(o, x.want)
			got := "no object"
			if obj != nil {
				got = fmt.Sprintf("status %q (present %v)", obj.Status, obj.HasStatus)
			}
			w.Check(obj != nil && obj.Status == x.want, fmt.Sprintf("status %s for %s", x.want, x.e.ID), got, o.ex)
		})
	})

	s.spec("OR-6.1e", "the object's skillId is the skill concerned", func(w *harness.W) {
		const row = "OR-6.1e"
		a, asks := s.askSpec(w, row, askInfo|askActions|askGiven, "no listed skill")
		about := func(x ask) string { return "the reply is about " + x.e.ID }
		s.eachAnswer(w, row, a, asks, about, func(x ask, o outcome) {
			obj := objectOf(o, x.want)
			got := "no object"
			if obj != nil {
				got = fmt.Sprintf("skillId %q", obj.SkillID)
			}
			w.Check(obj != nil && obj.SkillID == x.e.ID, "skillId "+x.e.ID+", the id listed in params.skills", got, o.ex)
		})
	})

	s.spec("OR-6.1f", "a referral object's personEntry is the card's", func(w *harness.W) {
		const row = "OR-6.1f"
		a, asks := s.askSpec(w, row, askInfo|askActions, "no listed skill")
		s.eachAnswer(w, row, a, asks, refersInWords, func(x ask, o outcome) {
			obj := o.reply.Object()
			got := "no object"
			if obj != nil {
				got = fmt.Sprintf("personEntry %q (present %v)", obj.PersonEntry, obj.HasPE)
			}
			w.Check(obj != nil && obj.HasPE && samePersonEntry(o, obj.PersonEntry, x.e.PersonEntry),
				fmt.Sprintf("personEntry %s, as the card's entry for %s (compared normalised: RFC 3986 §6; tel: by number)", x.e.PersonEntry, x.e.ID), got, o.ex)
		})
	})

	s.spec("OR-6.2", "the reply text says in words what the object says, activated or not", func(w *harness.W) {
		const row = "OR-6.2"
		a := s.loadAgent(w, roleMain, row)
		st := s.loadStatement(w, row)
		asks := append(s.asks(w, row, a, st, askInfo|askActions|askGiven, true), s.asks(w, row, a, st, askInfo|askActions, false)...)
		if len(asks) == 0 {
			w.Inapplicable("no listed skill")
		}
		for _, x := range asks {
			for _, o := range s.send(w, row, a, x.p) {
				w.Control(o.err == "", "the agent answers "+x.e.ID, o.String(), o.ex)
				if x.want != vonrequest.StatusActionReferred {
					s.undeclaredAction(w, row, x.e, o)
				}
				if x.want == vonrequest.StatusGivenOnOptIn && !isGiven(o) && isReferral(o, x.e) {
					w.Blocked(s.mismatch(w, o, "information given on opt-in for "+x.e.ID))
				}
				switch x.want {
				case vonrequest.StatusGivenOnOptIn:
					var values []string
					if st != nil {
						values = st.Values[x.e.ID]
					}
					// The reply text is every text the reply carries (§6.2 puts the information in the Artifact; where
					// it goes is OR-6.1c's). A value is found as currency and amount in any convention ("£2,400" for
					// "GBP 2,400"); the amount without its currency blocks, quoted.
					text := o.reply.AllText()
					ok := strings.TrimSpace(text) != ""
					for _, v := range values {
						hit, amb := vonrequest.MatchValue(text, v)
						if hit == "" && amb != "" {
							w.Blocked(fmt.Sprintf("the reply for %s writes the amount of %q without its currency: %q; whether it states the value is not clear", x.e.ID, v, amb))
						}
						ok = ok && hit != ""
					}
					w.Check(ok, fmt.Sprintf("the reply's text holds the information (the operator's values %v, as currency and amount)", values), fmt.Sprintf("%q", text), o.ex)
				case vonrequest.StatusActionReferred:
					nd := vonrequest.MatchAny(o.ph().NotDone, o.reply.Text())
					w.Check(nd != "", fmt.Sprintf("the text says %s was not done (%s; wording-checked)", x.e.ID, o.mode), fmt.Sprintf("%q", o.reply.Text()), o.ex)
					w.Check(o.gives(o.reply.Text(), x.e.PersonEntry), "the text says where to ask: "+x.e.PersonEntry, fmt.Sprintf("%q", o.reply.Text()), o.ex)
				default:
					w.Check(o.gives(o.reply.Text(), x.e.PersonEntry), fmt.Sprintf("the text says where to ask: %s (%s)", x.e.PersonEntry, o.mode),
						fmt.Sprintf("%q", o.reply.Text()), o.ex)
				}
			}
		}
	})
}
