package onrequest

import (
	"fmt"
	"strings"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/target"
	vonrequest "github.com/extconf/extconf/refclients/onrequest"
)

// circumstance is context a person might give; OR-3.8 forbids it reaching the address the agent gives.
const circumstance = "My mother died yesterday and I am arranging her funeral."

// hasActingFor reports whether the harness knows how to speak as an assistant acting for a named person.
func (s *suite) hasActingFor() bool {
	return s.e.Target.Config.ActingFor != nil || s.e.Target.Kind == target.KindMock
}

// informational returns the entries for informational skills whose assistantAccess is (or is not) true.
func (s *suite) informational(w *harness.W, a *agentView, st *statement, optedIn bool) []vonrequest.Entry {
	return a.skillEntries(w, func(e vonrequest.Entry) bool { return !isAction(e, st) && e.AssistantAccess == optedIn })
}

// publicControl asks the agent's public skill in the same mode: the agent answers it, so the channel, headers
// and binding work (the positive control before any refusal on row is graded).
func (s *suite) publicControl(w *harness.W, row string, a *agentView, activated bool, principal string) {
	id, ok := s.publicSkill(a)
	if !ok {
		return // no public skill: each probe's own control (the reply names the skill) stands alone
	}
	for _, o := range s.send(w, row, a, probe{skill: id, activated: activated, principal: principal}) {
		ok := o.err == "" && strings.TrimSpace(o.reply.AllText()) != ""
		if obj := o.reply.Object(); obj != nil && (obj.Status == vonrequest.StatusOnRequest || obj.Status == vonrequest.StatusActionReferred) {
			ok = false
		}
		w.Control(ok, fmt.Sprintf("public skill %s is answered (%s, %s)", id, o.variant, o.mode), o.String(), o.ex)
	}
}

// anonymousModes are the two ways a client acting for nobody asks: with and without activation (OR-5.1).
var anonymousModes = []probe{{activated: true}, {activated: false}}

// informationalSpec is the opening of the informational rows: the main agent, the operator statement, and the
// informational entries whose assistantAccess is (or is not) true; none makes the spec inapplicable.
func (s *suite) informationalSpec(w *harness.W, row string, optedIn bool) (*agentView, *statement, []vonrequest.Entry) {
	a := s.loadAgent(w, roleMain, row)
	st := s.loadStatement(w, row)
	entries := s.informational(w, a, st, optedIn)
	if len(entries) == 0 {
		if optedIn {
			w.Inapplicable("no informational on-request skill has assistantAccess true")
		}
		w.Inapplicable("no informational on-request skill has assistantAccess absent or false")
	}
	return a, st, entries
}

// askInModes asks for e once in each of modes (every binding variant) and hands each answer to check.
func (s *suite) askInModes(w *harness.W, row string, a *agentView, e vonrequest.Entry, modes []probe, check func(m probe, o outcome)) {
	for _, m := range modes {
		m.skill = e.ID
		for _, o := range s.send(w, row, a, m) {
			s.undeclaredAction(w, row, e, o)
			check(m, o)
		}
	}
}

// aboutSkill is the control before a referral is graded: the reply is about e (reachedSkill).
func aboutSkill(w *harness.W, row string, e vonrequest.Entry, o outcome) {
	ok, obs := reachedSkill(o, e)
	w.Control(ok, "the reply is about "+e.ID, obs, o.ex)
}

func (s *suite) behaviourSpecs() {
	s.spec("OR-3.8c", "the address given in a referral is the card's, whatever the caller says about themselves", func(w *harness.W) {
		const row = "OR-3.8c"
		a := s.loadAgent(w, roleMain, row)
		st := s.loadStatement(w, row)
		// Every referral the harness may ask for: information (closed or opted in, asked by a client acting for
		// nobody) and, with the operator's consent, actions; https and tel: entries alike.
		entries := s.informational(w, a, st, false)
		entries = append(entries, s.informational(w, a, st, true)...)
		if st != nil && st.ConsentToActions {
			entries = append(entries, a.skillEntries(w, func(e vonrequest.Entry) bool { return isAction(e, st) })...)
		}
		if len(entries) == 0 {
			w.Inapplicable("no listed skill to ask for a referral")
		}
		for _, e := range entries {
			tel := strings.HasPrefix(e.PersonEntry, "tel:")
			plain := s.send(w, row, a, probe{skill: e.ID, activated: true})
			personal := s.send(w, row, a, probe{skill: e.ID, activated: true, prefix: circumstance})
			// OR-5.1: the same rules whether or not the client activates, so a plain client says it too.
			personal = append(personal, s.send(w, row, a, probe{skill: e.ID, prefix: circumstance})...)
			if !e.AssistantAccess && s.hasActingFor() {
				personal = append(personal, s.send(w, row, a, probe{skill: e.ID, activated: true, prefix: circumstance, person: true})...)
			}
			for i, o := range append(plain, personal...) {
				if i >= len(plain) && !tel {
					s.otherPage(w, e, o)
				}
				s.undeclaredAction(w, row, e, o)
				ok, obs := reachedSkill(o, e)
				w.Control(ok, "the reply is a referral about "+e.ID, obs, o.ex)
				if obj := o.reply.Object(); obj != nil && obj.HasPE { // a missing one is OR-6.1f's
					w.Check(samePersonEntry(o, obj.PersonEntry, e.PersonEntry), fmt.Sprintf("the object's personEntry is the card's %s (compared normalised)", e.PersonEntry),
						fmt.Sprintf("%q (%s)", obj.PersonEntry, o.mode), o.ex)
				}
				if !tel {
					variants := vonrequest.AddressVariants(o.reply.Text(), e.PersonEntry)
					w.Check(len(variants) == 0, "the reply text gives the card's address, not a copy altered for the caller",
						fmt.Sprintf("%v in %q (%s)", variants, o.reply.Text(), o.mode), o.ex)
				}
			}
		}
	})

	s.spec("OR-5.2", "a public skill is answered to any client, with and without activation", func(w *harness.W) {
		const row = "OR-5.2"
		a := s.loadAgent(w, roleMain, row)
		id, ok := s.publicSkill(a)
		if !ok {
			w.Inapplicable("the card has no public skill the harness can ask (every skill is listed, secured, or has no example or configured request)")
		}
		for _, m := range anonymousModes {
			for _, o := range s.send(w, row, a, probe{skill: id, activated: m.activated}) {
				answered := o.err == "" && strings.TrimSpace(o.reply.AllText()) != ""
				if obj := o.reply.Object(); obj != nil && (obj.Status == vonrequest.StatusOnRequest || obj.Status == vonrequest.StatusActionReferred) {
					answered = false
				}
				w.Check(answered, fmt.Sprintf("public skill %s is answered (%s, %s): reply text, no referral", id, o.variant, o.mode), o.String(), o.ex)
			}
		}
	})

	s.spec("OR-5.1", "an agent gives the same outcome whether or not the client activates the extension", func(w *harness.W) {
		const row = "OR-5.1"
		a := s.loadAgent(w, roleMain, row)
		st := s.loadStatement(w, row)
		entries := a.skillEntries(w, func(e vonrequest.Entry) bool { return !isAction(e, st) || !e.AssistantAccess })
		if len(entries) == 0 {
			w.Inapplicable("no listed skill to compare")
		}
		for _, e := range entries {
			if isAction(e, st) {
				st = s.requireConsent(w, row) // §5.4 is compared too, which means asking for actions
				break
			}
		}
		s.publicControl(w, row, a, true, "")
		s.publicControl(w, row, a, false, "")
		for _, e := range entries {
			on := s.send(w, row, a, probe{skill: e.ID, activated: true})
			off := s.send(w, row, a, probe{skill: e.ID, activated: false})
			for i := range on {
				s.undeclaredAction(w, row, e, on[i])
				s.undeclaredAction(w, row, e, off[i])
				act := isAction(e, st)
				x, y := outcomeClass(on[i], e, act), outcomeClass(off[i], e, act)
				w.Check(x == y, fmt.Sprintf("%s over %s: the same outcome with and without activation", e.ID, on[i].variant),
					fmt.Sprintf("activated: %s; not activated: %s", x, y), off[i].ex)
			}
		}
	})

	s.spec("OR-5.3a", "an on-request skill closed to assistants is not given, to any client", func(w *harness.W) {
		const row = "OR-5.3a"
		a, st, entries := s.informationalSpec(w, row, false)
		s.publicControl(w, row, a, true, "")
		s.publicControl(w, row, a, false, "")
		s.actingFor(w) // the assistant acting for a person is the case opt-in would change: it must be asked
		modes := append(append([]probe{}, anonymousModes...), probe{activated: true, person: true})
		_ = st
		for _, e := range entries {
			s.askInModes(w, row, a, e, modes, func(_ probe, o outcome) {
				ok, obs := reachedSkill(o, e)
				w.Control(ok, "the reply is about "+e.ID+" (its object names it, or its text gives the entry's address)", obs, o.ex)
				notGiven(w, e, o, "")
			})
		}
	})

	s.spec("OR-5.3b", "a referral says the operator gives this to the person who asks", func(w *harness.W) {
		const row = "OR-5.3b"
		a, _, entries := s.informationalSpec(w, row, false)
		for _, e := range entries {
			s.askInModes(w, row, a, e, anonymousModes, func(_ probe, o outcome) {
				aboutSkill(w, row, e, o)
				hit := vonrequest.MatchAny(o.ph().OperatorGives, o.reply.Text())
				w.Check(hit != "", fmt.Sprintf("the reply text says the operator gives %s to the person who asks (%s; wording-checked)", e.ID, o.mode),
					fmt.Sprintf("%q", o.reply.Text()), o.ex)
			})
		}
	})

	s.spec("OR-5.3c", "a referral's text gives the entry's personEntry address", func(w *harness.W) {
		const row = "OR-5.3c"
		a, _, entries := s.informationalSpec(w, row, false)
		for _, e := range entries {
			s.askInModes(w, row, a, e, anonymousModes, func(_ probe, o outcome) {
				w.Control(o.err == "" && strings.TrimSpace(o.reply.Text()) != "", "the agent answers "+e.ID+" with a reply text", o.String(), o.ex)
				w.Check(o.gives(o.reply.Text(), e.PersonEntry),
					fmt.Sprintf("the reply text gives %s (%s)", e.PersonEntry, o.mode),
					fmt.Sprintf("addresses in the text: %v; text %q", vonrequest.TextAddresses(o.reply.Text()), o.reply.Text()), o.ex)
			})
		}
	})

	s.spec("OR-5.3d", "a referral does not answer as though the information did not exist", func(w *harness.W) {
		const row = "OR-5.3d"
		a, _, entries := s.informationalSpec(w, row, false)
		for _, e := range entries {
			s.askInModes(w, row, a, e, anonymousModes, func(_ probe, o outcome) {
				aboutSkill(w, row, e, o)
				state := o.reply.State()
				denial := o.ph().Denies(o.reply.AllText())
				w.Negative(state != a2a.StateFailed && state != a2a.StateRejected && denial == "",
					fmt.Sprintf("no failed or rejected task and no denial in words (%s; wording-checked)", o.mode),
					fmt.Sprintf("state %q, denial %q; %s", state, denial, o), o.ex)
			})
		}
	})

	s.spec("OR-5.4a", "an opted-in informational skill is not given to a client acting for nobody", func(w *harness.W) {
		const row = "OR-5.4a"
		a, st, entries := s.informationalSpec(w, row, true)
		_ = st
		for _, e := range entries {
			// The stronger control (the same request, made valid, is given) only where the agent takes the MAY of
			// OR-5.4: an agent that declines it, or does not recognise the assertion, is graded with the weaker one.
			strong := false
			if s.hasActingFor() {
				strong = true
				for _, o := range s.send(w, row, a, probe{skill: e.ID, activated: true, person: true}) {
					strong = strong && isGiven(o)
				}
			}
			s.askInModes(w, row, a, e, anonymousModes, func(_ probe, o outcome) {
				ok, obs := reachedSkill(o, e)
				what := "the reply is about " + e.ID
				if strong { // the skill is shown served to a person; any answer that is not an error will do
					ok, obs, what = o.err == "", o.String(), "the agent answers the request for "+e.ID+" (an assistant acting for a named person was given it)"
				}
				w.Control(ok, what, obs, o.ex)
				notGiven(w, e, o, " to a client acting for nobody")
			})
		}
	})

	s.spec("OR-5.4b", "a client acting for nobody gets the on-request referral for an opted-in skill", func(w *harness.W) {
		const row = "OR-5.4b"
		a, _, entries := s.informationalSpec(w, row, true)
		s.publicControl(w, row, a, true, "")
		for _, e := range entries {
			s.askInModes(w, row, a, e, anonymousModes, func(m probe, o outcome) {
				w.Control(o.err == "", "the agent answers "+e.ID, o.String(), o.ex)
				hit := vonrequest.MatchAny(o.ph().OperatorGives, o.reply.Text())
				w.Check(hit != "", fmt.Sprintf("the text says the operator gives it to the person who asks (%s; wording-checked)", o.mode),
					fmt.Sprintf("%q", o.reply.Text()), o.ex)
				w.Check(o.gives(o.reply.Text(), e.PersonEntry), fmt.Sprintf("the text gives %s (%s)", e.PersonEntry, o.mode),
					fmt.Sprintf("%q", o.reply.Text()), o.ex)
				if m.activated {
					obj := o.reply.Object()
					w.Check(obj != nil && obj.Status == vonrequest.StatusOnRequest, "the object's status is on-request, as in OR-5.3",
						o.String(), o.ex)
				}
			})
		}
	})

	s.spec("OR-5.10", "where nobody can be reached, the agent says so when asked for staff", func(w *harness.W) {
		const row = "OR-5.10"
		role := roleUnstaffed
		if _, ok := s.e.Target.CardURL(roleUnstaffed); !ok {
			s.loadAgent(w, roleMain, row) // an agent that does not declare the extension is inapplicable, never blocked
			st := s.loadStatement(w, row)
			switch {
			case st != nil && st.StaffReachable != nil && !*st.StaffReachable:
				role = roleMain
			case st != nil && st.StaffReachable != nil:
				w.Inapplicable("the operator states that a person can be reached, and no agent plays " + roleUnstaffed)
			default:
				w.Need("operator.staffReachable|agents.unstaffed", false, fmt.Sprintf("whether anybody can be reached is the operator's knowledge: state staffReachable in the operator statement, or name an agent where nobody can be reached with the role %q", roleUnstaffed))
			}
		}
		a := s.loadAny(w, role, row)
		s.publicControl(w, row, a, true, "")
		s.publicControl(w, row, a, false, "")
		text := defaultStaffRequest
		if t := s.e.Target.Config.Requests["__staff__"]; len(t) > 0 && t[0] != "" {
			text = t[0]
		}
		for _, m := range anonymousModes {
			m.text, m.skill = text, "(staff)"
			for _, o := range s.send(w, row, a, m) {
				w.Check(o.err == "", "the agent answers a request for staff", o.String(), o.ex)
				said := vonrequest.MatchAny(o.ph().NobodyReachable, o.reply.AllText())
				w.Check(said != "", fmt.Sprintf("the reply says nobody can be reached (%s; wording-checked)", o.mode),
					fmt.Sprintf("%q", o.reply.AllText()), o.ex)
				route := o.ph().OffersRoute(o.reply.AllText())
				w.Negative(route == "", "the reply offers no transfer or callback that does not exist (read with its negation: \"I cannot transfer you\" offers none; wording-checked)",
					fmt.Sprintf("offers %q in %q", route, o.reply.AllText()), o.ex)
			}
		}
	})
}

// notGiven is the negative of OR-5.3a and OR-5.4a: no Artifact carrying information, no given-on-opt-in object,
// no value given on request (stated, or amounts of money) anywhere in the reply. An Artifact the harness cannot
// classify blocks the row, quoted.
func notGiven(w *harness.W, e vonrequest.Entry, o outcome, whom string) {
	giving, _, unclear := readArtifacts(o)
	given, found := givenObjects(o), o.leaks()
	if amb := o.unclearValue(); amb != "" && len(giving) == 0 && len(given) == 0 && len(found) == 0 {
		w.Blocked(fmt.Sprintf("the reply for %s (%s) writes an amount of the operator's value %v without its currency, in a sentence about cost: %q; a value is a currency and an amount together, so whether this gives it is not clear", e.ID, o.mode, o.values, amb))
	}
	if len(giving) == 0 && len(given) == 0 && len(found) == 0 && len(unclear) > 0 {
		w.Blocked(fmt.Sprintf("the reply for %s (%s) carries an Artifact that is neither recognisably information nor a referral: %s", e.ID, o.mode, artifactTexts(o, unclear)))
	}
	values := "the amounts of money in the reply (no values stated)"
	if o.stated {
		values = fmt.Sprintf("the operator's values %v", o.values)
	}
	w.Negative(len(giving) == 0 && len(given) == 0 && len(found) == 0,
		fmt.Sprintf("%s is not given%s (%s): no Artifact carrying it, no given-on-opt-in object, none of %s", e.ID, whom, o.mode, values),
		fmt.Sprintf("artifacts giving %v, given objects at %v, values found %v; %s", giving, given, found, o), o.ex)
}

// samePersonEntry compares an address the agent gives with the card's: https normalised (RFC 3986 §6), tel: by
// number.
func samePersonEntry(o outcome, got, card string) bool {
	if strings.HasPrefix(card, "tel:") {
		return o.gives(got, card) || vonrequest.Digits(got) == vonrequest.Digits(card)
	}
	return vonrequest.SameURL(got, card)
}

// loadAny fetches the card of role whether or not it declares the extension (OR-5.10 is about any agent).
func (s *suite) loadAny(w *harness.W, role, row string) *agentView {
	card, raw, ex := w.Card(role)
	decl, _ := vonrequest.FindDeclaration(raw)
	if decl == nil {
		decl = &vonrequest.Declaration{}
	}
	return &agentView{role: role, card: card, raw: raw, ex: ex, decl: decl}
}

// givenObjects lists where a given-on-opt-in object appears in the reply.
func givenObjects(o outcome) []string {
	var where []string
	if obj := o.reply.Object(); obj != nil && obj.Status == vonrequest.StatusGivenOnOptIn {
		where = append(where, "reply message")
	}
	for i, obj := range o.reply.ArtifactObjects() {
		if obj.Status == vonrequest.StatusGivenOnOptIn {
			where = append(where, fmt.Sprintf("artifacts[%d]", i))
		}
	}
	return where
}

// isGiven reports an answer that gives information: an Artifact that is not a referral (readArtifacts: giving,
// or unclear, which is read in the agent's favour where giving is the expected answer).
func isGiven(o outcome) bool {
	giving, _, unclear := readArtifacts(o)
	return o.err == "" && len(giving)+len(unclear) > 0
}

// outcomeClass is what OR-5.1 compares: the kind of answer, whether it gives the address, which values it holds.
func outcomeClass(o outcome, e vonrequest.Entry, action bool) string {
	if o.err != "" {
		return "error"
	}
	kind := "answered"
	refused, _ := refusedAction(o)
	switch {
	case isGiven(o) || len(o.leaks()) > 0:
		kind = "information given"
	case action && (isReferral(o, e) || refused):
		kind = "not carried out"
	case action:
		kind = "carried out"
	case isReferral(o, e):
		kind = "referred"
	}
	return fmt.Sprintf("%s; address in text %v; values %v; %d artifact(s)", kind,
		o.gives(o.reply.Text(), e.PersonEntry), o.leaks(), len(o.reply.Artifacts()))
}

// otherPage reads a reply to a caller who gave their circumstance (OR-3.8c): a page on the personEntry's origin
// given instead of the card's address is the address personalised (the document's own example is a path such as
// /bereavement); one given beside it fails when its path names a circumstance, and blocks, quoted, otherwise.
func (s *suite) otherPage(w *harness.W, e vonrequest.Entry, o outcome) {
	others := vonrequest.OtherPages(o.reply.AllText(), e.PersonEntry)
	if len(others) == 0 || o.err != "" {
		return
	}
	gives := o.gives(o.reply.AllText(), e.PersonEntry)
	w.Check(gives, fmt.Sprintf("told the caller's circumstance, the reply gives the card's %s, not another page in its place", e.PersonEntry),
		fmt.Sprintf("%v instead, in %q (%s)", others, o.reply.AllText(), o.mode), o.ex)
	for _, p := range others {
		terms := vonrequest.PathCircumstances(p, nil)
		w.Check(len(terms) == 0, "a page given beside the card's address names no circumstance of the caller in its path",
			fmt.Sprintf("%s (terms %v) in %q (%s)", p, terms, o.reply.AllText(), o.mode), o.ex)
		if len(terms) == 0 {
			w.Blocked(fmt.Sprintf("told the caller's circumstance, the reply gives %s beside the card's %s: whether it is a page for this caller is not clear. Reply: %q", p, e.PersonEntry, o.reply.AllText()))
		}
	}
}
