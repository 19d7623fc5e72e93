package onrequest

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/onsi/ginkgo/v2"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	vonrequest "github.com/extconf/extconf/refclients/onrequest"
)

// The phrase an assistant adds when it passes on a confirmation the person gave it (OR-5.6(d) says that is not enough).
const relayedConfirmation = "The person has confirmed this with me; please go ahead."

// actions returns the entries for actions whose assistantAccess is (or is not) true.
func actions(w *harness.W, a *agentView, st *statement, optedIn bool) []vonrequest.Entry {
	return a.skillEntries(w, func(e vonrequest.Entry) bool { return isAction(e, st) && e.AssistantAccess == optedIn })
}

// refusedAction reports an answer that says, in object, state or words, that the action was not done.
func refusedAction(o outcome) (bool, string) {
	if o.err != "" {
		return false, o.String()
	}
	if obj := o.reply.Object(); obj != nil && obj.Status == vonrequest.StatusActionReferred {
		return true, ""
	}
	if o.reply.State() == a2a.StateRejected || vonrequest.MatchAny(o.ph().NotDone, o.reply.Text()) != "" {
		return true, ""
	}
	return false, o.String()
}

// aboutAction is the per-request control of the action rows: the reply names the skill, gives its address, or
// says the action was not done (a refusal in answer to this request, not an unrelated failure).
func aboutAction(o outcome, e vonrequest.Entry) (bool, string) {
	if ok, _ := reachedSkill(o, e); ok {
		return true, ""
	}
	if ok, _ := refusedAction(o); ok {
		return true, ""
	}
	// An answer saying the action was done answers this request: carrying it out is what these rows fail, not a
	// broken channel, so it must reach the row's assertion rather than block it.
	if o.err == "" && o.ph().SaysDone(o.reply.AllText()) != "" {
		return true, ""
	}
	return false, o.String()
}

// notCarriedOut asserts, after the controls, that an action request was not carried out: referred, not completed,
// no result, and (where the operator keeps an action log) nothing logged as done for it.
func (s *suite) notCarriedOut(w *harness.W, row string, st *statement, e vonrequest.Entry, o outcome) {
	obs := o.String()
	// A referral in the wrong task state is OR-6.1b's failure, not a carried-out action.
	giving, _, unclear := readArtifacts(o)
	if !carriedOut(o, e) && len(giving) == 0 && len(unclear) > 0 {
		w.Blocked(fmt.Sprintf("the reply to %s (%s) refers, yet carries an Artifact the harness cannot classify: %s", e.ID, o.mode, artifactTexts(o, unclear)))
	}
	ok := !carriedOut(o, e) && len(giving) == 0
	if ok && st != nil && st.ActionLog != "" {
		taskID := ""
		if o.reply.Task != nil {
			taskID = o.reply.Task.ID
		}
		if taskID != "" || o.person != "" {
			logged, ex := s.actionLog(w, row, st, taskID, o.person)
			w.Negative(len(logged) == 0, fmt.Sprintf("the operator's action log holds nothing for this %s request (%s)", e.ID, o.mode),
				fmt.Sprintf("logged %+v", logged), ex)
		}
	}
	w.Negative(ok, fmt.Sprintf("%s is not carried out (%s): referred or rejected, no result", e.ID, o.mode), obs, o.ex)
}

// notCarriedOutAbout checks one answer to an action request that must not be carried out: first the control that
// the reply is about e (aboutAction), then notCarriedOut.
func (s *suite) notCarriedOutAbout(w *harness.W, row string, st *statement, e vonrequest.Entry, o outcome) {
	ok, obs := aboutAction(o, e)
	w.Control(ok, "the reply is about "+e.ID, obs, o.ex)
	s.notCarriedOut(w, row, st, e, o)
}

// optedInCompleting returns the opted-in actions declared with the given completion.
func optedInCompleting(w *harness.W, a *agentView, st *statement, completion string) []vonrequest.Entry {
	var out []vonrequest.Entry
	for _, e := range actions(w, a, st, true) {
		if e.Completion == completion {
			out = append(out, e)
		}
	}
	return out
}

// tookAction is the control of the rows about what happens once the agent carries out (or accepts) an action: it
// requires only that this reply did so. An agent that declines is within the document (OR-5.6: it "MAY carry it
// out only if" (a) to (d) hold; Annex A.3's level-1 chapel refers every action), so the row blocks, naming why;
// a reply that is neither carried out nor a recognisable refusal blocks quoted. Never a failure.
func (s *suite) tookAction(w *harness.W, o outcome, e vonrequest.Entry, what string) {
	if carriedOut(o, e) {
		w.Control(true, what, o.String(), o.ex)
		return
	}
	if refused, _ := refusedAction(o); refused || isReferral(o, e) {
		// OR-5.6(a): carrying out at an assistant's request needs "a current level-2 (legal entity) attestation";
		// an operator stating a lower level is Annex A.3's chapel, whose every action is referred.
		if st := s.loadStatement(w, w.Row()); st != nil && st.AttestationLevel != nil && *st.AttestationLevel < 2 {
			w.Inapplicable(fmt.Sprintf("%s: the operator states a level-%d attestation, and OR-5.6(a) lets the agent carry out an action at an assistant's request only under \"a current level-2 (legal entity) attestation\" (Annex A.3: every action referred); the agent referred %s. Reply: %s",
				what, *st.AttestationLevel, e.ID, o))
		}
		w.Blocked(fmt.Sprintf("%s: the agent declined %s for the assistant acting for %s, which OR-5.6 permits (MAY … only if (a)–(d) hold), or did not recognise the acting-for assertion; nothing was carried out to observe. Reply: %s",
			what, e.ID, o.person, o))
	}
	w.Blocked(fmt.Sprintf("%s: the reply to %s is neither a recognisable refusal nor an action carried out: %s", what, e.ID, o))
}

func (s *suite) actionSpecs() {
	s.spec("OR-3.6", "an action declared in-conversation is finished when the exchange ends", func(w *harness.W) {
		const row = "OR-3.6"
		a := s.loadAgent(w, roleMain, row)
		st := s.requireConsent(w, row)
		entries := optedInCompleting(w, a, st, vonrequest.CompletionInConversation)
		if len(entries) == 0 {
			w.Inapplicable("no opted-in action is declared completion: in-conversation")
		}
		for _, e := range entries {
			for _, o := range s.send(w, row, a, probe{skill: e.ID, activated: true, person: true}) {
				s.tookAction(w, o, e, "the assistant's request for "+e.ID+" is carried out (not referred)")
				state := o.reply.State()
				finished := o.reply.Task == nil || a2a.IsTerminal(state)
				w.Check(finished, fmt.Sprintf("%s ends in a terminal state within the exchange", e.ID), o.String(), o.ex)
				for _, s := range o.reply.States {
					w.Check(s != a2a.StateInputRequired && s != a2a.StateAuthRequired,
						"no step waits on a person (no input-required or auth-required state)", o.String(), o.ex)
				}
				later := vonrequest.MatchAny(o.ph().Later, o.reply.AllText())
				w.Check(later == "", "the reply does not say someone completes it later (wording-checked)",
					fmt.Sprintf("%q in %q", later, o.reply.AllText()), o.ex)
				if st.ActionLog != "" {
					logged, ex := s.actionLog(w, row, st, taskID(o), o.person)
					for _, l := range logged {
						w.Check(l.State != "pending" && l.State != "awaiting-confirmation",
							"the operator's action log records it finished", fmt.Sprintf("%+v", l), ex)
					}
				}
			}
		}
	})

	s.spec("OR-5.7a", "an action without the operator's opt-in is not carried out", func(w *harness.W) {
		const row = "OR-5.7a"
		a := s.loadAgent(w, roleMain, row)
		st := s.requireConsent(w, row)
		entries := actions(w, a, st, false)
		if len(entries) == 0 {
			w.Inapplicable("no action has assistantAccess absent or false")
		}
		s.actingFor(w) // without opt-in even an assistant acting for a person is refused: that is the case to ask
		s.publicControl(w, row, a, true, "")
		modes := []probe{{activated: true, person: true}, {activated: false}}
		for _, e := range entries {
			s.askInModes(w, row, a, e, modes, func(_ probe, o outcome) { s.notCarriedOutAbout(w, row, st, e, o) })
		}
	})

	s.spec("OR-5.7b", "an opted-in action is not carried out for a client acting for nobody", func(w *harness.W) {
		const row = "OR-5.7b"
		a := s.loadAgent(w, roleMain, row)
		st := s.requireConsent(w, row)
		entries := actions(w, a, st, true)
		if len(entries) == 0 {
			w.Inapplicable("no action has assistantAccess true")
		}
		s.publicControl(w, row, a, true, "")
		for _, e := range entries {
			s.askInModes(w, row, a, e, anonymousModes, func(_ probe, o outcome) { s.notCarriedOutAbout(w, row, st, e, o) })
		}
	})

	s.spec("OR-5.7c", "an opted-in action is not carried out where the operator lacks a level-2 attestation", func(w *harness.W) {
		const row = "OR-5.7c"
		role := roleUnattested
		if _, ok := s.e.Target.CardURL(roleUnattested); !ok {
			s.loadAgent(w, roleMain, row) // an agent that does not declare the extension is inapplicable, never blocked
			st := s.requireStatement(w, row, "operator.attestationLevel|agents.unattested", "the operator's attestation level under the Agent Capability trust framework")
			switch {
			case st.AttestationLevel == nil:
				w.Need("operator.attestationLevel|agents.unattested", false, "the operator statement gives no attestationLevel")
			case *st.AttestationLevel >= 2:
				w.Inapplicable(fmt.Sprintf("the operator states a level-%d attestation and no agent plays %s, so the failing case cannot be built", *st.AttestationLevel, roleUnattested))
			}
			role = roleMain
		}
		st := s.requireConsent(w, row)
		if !s.hasActingFor() {
			s.actingFor(w) // blocks with the reason
		}
		a := s.loadAgent(w, role, row)
		entries := actions(w, a, st, true)
		if len(entries) == 0 {
			w.Inapplicable("the agent of role " + role + " has no opted-in action")
		}
		s.publicControl(w, row, a, true, "")
		for _, e := range entries {
			s.askInModes(w, row, a, e, []probe{{activated: true, person: true}}, func(_ probe, o outcome) { s.notCarriedOutAbout(w, row, nil, e, o) })
		}
	})

	s.spec("OR-5.7d", "a carried-out action is told to a named member of staff and can be reversed by staff", func(w *harness.W) {
		const row = "OR-5.7d"
		a := s.loadAgent(w, roleMain, row)
		st := s.requireConsent(w, row)
		// Who on staff was told, and the staff's reversal, are not visible in any A2A exchange.
		w.Need("operator.actionLog", st.ActionLog != "", "the operator statement gives no actionLog (who on staff was told of each action)")
		w.Need("operator.reverse", st.Reverse != "", "the operator statement gives no reverse (the staff's reversal)")
		if !s.hasActingFor() {
			s.actingFor(w)
		}
		e, ok := firstAction(actions(w, a, st, true))
		if !ok {
			w.Inapplicable("no action has assistantAccess true")
		}
		fmt.Fprintf(ginkgo.GinkgoWriter, "%s performs 1 real action (%s) and asks the operator's staff to reverse it\n", row, e.ID)
		o := s.send(w, row, a, probe{skill: e.ID, activated: true, person: true, first: true})[0]
		s.tookAction(w, o, e, "an assistant acting for a named person gets "+e.ID+" carried out")
		logged, ex := s.actionLog(w, row, st, taskID(o), o.person)
		w.Check(len(logged) > 0, "the operator's action log records the action", fmt.Sprintf("no entry for task %q / person %q", taskID(o), o.person), ex)
		for _, l := range logged {
			w.Check(l.StaffMember != "", "a named member of staff is told of the action", fmt.Sprintf("%+v", l), ex)
		}
		id := logged[0].TaskID
		rex, err := s.opClient().HTTP(w.Ctx(), http.MethodPost, st.Reverse, []byte(fmt.Sprintf(`{"taskId":%q}`, id)),
			a2a.Call{Note: row + ": staff reversal", OmitVersion: true})
		w.Check(err == nil && rex.Status/100 == 2, "the operator's staff reverse the action", fmt.Sprintf("%v HTTP %d %s", err, rex.Status, clip(string(rex.ResponseBody), 120)), rex)
		after, ex2 := s.actionLog(w, row, st, id, "")
		reversed := false
		for _, l := range after {
			reversed = reversed || l.State == "reversed"
		}
		w.Check(reversed, "the action log shows the action reversed", fmt.Sprintf("%+v", after), ex2)
	})

	s.spec("OR-5.7e", "repeated requests from one calling assistant are limited", func(w *harness.W) {
		const row = "OR-5.7e"
		a := s.loadAgent(w, roleMain, row)
		st := s.requireConsent(w, row)
		lim := requireLimits(w, st)
		if lim.Total <= lim.PerAssistant {
			w.Inapplicable("the total limit is not above the per-assistant limit, so a per-assistant refusal cannot be told apart")
		}
		assistants := s.assistants(w, 1)
		e, ok := firstAction(actions(w, a, st, true))
		if !ok {
			w.Inapplicable("no action has assistantAccess true")
		}
		s.overLimit(w, row, a, st, e, lim.PerAssistant, func(int) string { return assistants[0] }, func(k int, who string) string {
			return fmt.Sprintf("request %d of %d from %s is carried out", k+1, lim.PerAssistant, who)
		})
	})

	s.spec("OR-5.7f", "repeated requests are limited in total across calling assistants", func(w *harness.W) {
		const row = "OR-5.7f"
		a := s.loadAgent(w, roleMain, row)
		st := s.requireConsent(w, row)
		lim := requireLimits(w, st)
		need := lim.Total/lim.PerAssistant + 1
		assistants := s.assistants(w, need)
		e, ok := firstAction(actions(w, a, st, true))
		if !ok {
			w.Inapplicable("no action has assistantAccess true")
		}
		// nobody exceeds its own limit
		s.overLimit(w, row, a, st, e, lim.Total, func(k int) string { return assistants[k/lim.PerAssistant] }, func(k int, who string) string {
			return fmt.Sprintf("request %d of %d (from %s) is carried out", k+1, lim.Total, who)
		})
	})

	s.spec("OR-5.7g", "nothing irreversible is done on a confirmation passed on by the assistant", func(w *harness.W) {
		const row = "OR-5.7g"
		a := s.loadAgent(w, roleMain, row)
		st := s.requireConsent(w, row)
		w.Need("operator.irreversible", st.Irreversible != nil, `which steps cannot be undone is the operator's knowledge: state them ("irreversible": {skillId: "the step"}, {} for none) in the operator statement; without it a relayed confirmation cannot be shown refused`)
		if !s.hasActingFor() {
			s.actingFor(w)
		}
		var entries []vonrequest.Entry
		for _, e := range a.skillEntries(w, func(vonrequest.Entry) bool { return true }) {
			if _, ok := st.Irreversible[e.ID]; ok && e.AssistantAccess {
				entries = append(entries, e)
			}
		}
		if len(entries) == 0 {
			w.Inapplicable("the operator names no opted-in skill with a step that cannot be undone (irreversible in the operator statement)")
		}
		for _, e := range entries {
			for i, o := range s.send(w, row, a, probe{skill: e.ID, activated: true, person: true, suffix: relayedConfirmation}) {
				// The control asks only that the agent took the request: how the person then confirms is the
				// agent's choice (OR-5.6(d) asks for "a form they see", and names no mechanism).
				s.tookAction(w, o, e, "the agent takes the assistant's request for "+e.ID)
				w.Negative(o.reply.State() != a2a.StateCompleted && o.ph().SaysDone(o.reply.AllText()) == "",
					fmt.Sprintf("%s (%s) is not completed on the assistant's word", st.Irreversible[e.ID], e.ID), o.String(), o.ex)
				if st.ActionLog == "" {
					continue
				}
				logged, ex := s.actionLog(w, row, st, taskID(o), o.person)
				for _, l := range logged {
					w.Negative(!l.IrreversibleDone, "the operator's log shows the irreversible step not done", fmt.Sprintf("%+v", l), ex)
				}
				if i != 0 || st.PersonConfirmation != "post" {
					continue
				}
				// The operator states the person confirms by POSTing a page the reply links to: the harness does so,
				// as the person, so the "not done" reading of the log is shown able to say "done".
				confirm := ""
				for _, u := range vonrequest.TextAddresses(o.reply.AllText()) {
					if strings.HasPrefix(u, "http") && !vonrequest.SameURL(u, e.PersonEntry) && operatorOrigin(u, a.ex.URL, st) {
						confirm = u
					}
				}
				if confirm == "" {
					w.Blocked(fmt.Sprintf(`the operator states personConfirmation "post", but the reply links no page on an operator origin other than personEntry to confirm on: %s`, o))
				}
				cex, err := s.opClient().HTTP(w.Ctx(), http.MethodPost, confirm, []byte{}, a2a.Call{Note: row + ": the person confirms", OmitVersion: true})
				w.Control(err == nil && cex.Status/100 == 2, "the person's own confirmation is accepted", fmt.Sprint(err), cex)
				done, ex := s.actionLog(w, row, st, taskID(o), o.person)
				ok := false
				for _, l := range done {
					ok = ok || l.IrreversibleDone
				}
				w.Control(ok, "after the person's own confirmation the log shows the step done", fmt.Sprintf("%+v", done), ex)
			}
		}
	})

	s.spec("OR-5.7h", "an action not carried out is referred to the entry's personEntry", func(w *harness.W) {
		const row = "OR-5.7h"
		a := s.loadAgent(w, roleMain, row)
		st := s.requireConsent(w, row)
		type ask struct {
			e vonrequest.Entry
			p probe
		}
		var asks []ask
		for _, e := range actions(w, a, st, false) {
			asks = append(asks, ask{e, probe{skill: e.ID, activated: true, person: s.hasActingFor()}}, ask{e, probe{skill: e.ID}})
		}
		for _, e := range actions(w, a, st, true) {
			asks = append(asks, ask{e, probe{skill: e.ID, activated: true}}, ask{e, probe{skill: e.ID}})
		}
		if len(asks) == 0 {
			w.Inapplicable("the card declares no action")
		}
		for _, x := range asks {
			for _, o := range s.send(w, row, a, x.p) {
				ok, obs := refusedAction(o)
				w.Control(ok, "the agent answers that "+x.e.ID+" was not done", obs, o.ex)
				w.Check(o.gives(o.reply.Text(), x.e.PersonEntry), fmt.Sprintf("the reply text gives %s (%s)", x.e.PersonEntry, o.mode),
					fmt.Sprintf("%q", o.reply.Text()), o.ex)
			}
		}
	})

	s.spec("OR-5.8a", "a deferred action is never reported done", func(w *harness.W) {
		const row = "OR-5.8a"
		a := s.loadAgent(w, roleMain, row)
		st := s.requireConsent(w, row)
		if !s.hasActingFor() {
			s.actingFor(w)
		}
		entries := optedInCompleting(w, a, st, vonrequest.CompletionDeferred)
		if len(entries) == 0 {
			w.Inapplicable("no opted-in action is declared completion: deferred")
		}
		for _, e := range entries {
			for _, o := range s.send(w, row, a, probe{skill: e.ID, activated: true, person: true}) {
				s.tookAction(w, o, e, "the assistant's request for "+e.ID+" is accepted (not referred)")
				done := o.ph().SaysDone(o.reply.AllText())
				w.Negative(done == "", fmt.Sprintf("nothing in the reply says %s is done (wording-checked; task state %s)", e.ID, o.reply.State()),
					fmt.Sprintf("%q in %q", done, o.reply.AllText()), o.ex)
				// TASK_STATE_COMPLETED is A2A's word for "done": it tells the assistant the action is done unless the
				// text says it is pending (someone completes it later, not yet done).
				if o.reply.State() == a2a.StateCompleted {
					pending := o.ph().SaysPending(o.reply.AllText())
					w.Negative(pending != "", fmt.Sprintf("a task ending TASK_STATE_COMPLETED for the deferred %s says in words that it is still pending (wording-checked)", e.ID),
						fmt.Sprintf("state %s, no pending wording in %q", o.reply.State(), o.reply.AllText()), o.ex)
				}
			}
		}
	})
}

// overLimit asks for e limit+1 times for one person, request k as the calling assistant who(k): the first limit
// requests are the control, carried out (worded by what); the one over the limit is not carried out.
func (s *suite) overLimit(w *harness.W, row string, a *agentView, st *statement, e vonrequest.Entry, limit int, who func(k int) string, what func(k int, who string) string) {
	person := newPerson()
	window := time.Duration(st.Limits.WindowSeconds) * time.Second
	earlier := s.requestsSince(e.ID, window)
	fmt.Fprintf(ginkgo.GinkgoWriter, "%s performs up to %d real actions (%s for %s); the harness made %d earlier request(s) for %s in the limit window\n",
		row, limit, e.ID, person, earlier, e.ID)
	for k := 0; k <= limit; k++ {
		o := s.send(w, row, a, probe{skill: e.ID, activated: true, person: true, personName: person, principal: who(k), first: true})[0]
		if k < limit {
			if !carriedOut(o, e) && earlier > 0 {
				w.Blocked(fmt.Sprintf("%s: refused, and the harness itself made %d earlier request(s) for %s within the limit window (other rows' probes), which the operator's total limit may count: run %s alone (--req %s) or wait out the window. Reply: %s",
					what(k, who(k)), earlier, e.ID, row, row, o))
			}
			s.tookAction(w, o, e, what(k, who(k)))
			continue
		}
		s.notCarriedOut(w, row, st, e, withoutPerson(o))
	}
}

func taskID(o outcome) string {
	if o.reply.Task != nil {
		return o.reply.Task.ID
	}
	return ""
}

// withoutPerson keeps a repeated request's log lookup to its own task: the earlier ones share the person.
func withoutPerson(o outcome) outcome {
	o.person = ""
	return o
}

// firstAction prefers an in-conversation action: its result is visible in the exchange.
func firstAction(es []vonrequest.Entry) (vonrequest.Entry, bool) {
	for _, e := range es {
		if e.Completion == vonrequest.CompletionInConversation {
			return e, true
		}
	}
	if len(es) > 0 {
		return es[0], true
	}
	return vonrequest.Entry{}, false
}

func requireLimits(w *harness.W, st *statement) limits {
	w.Need("operator.limits", st.Limits != nil && st.Limits.PerAssistant >= 1 && st.Limits.Total >= 1,
		`the operator statement gives no limits ({"perAssistant": n, "total": m}): the limits on repeated requests are the operator's values`)
	return *st.Limits
}

// assistants returns n calling-assistant credentials from the target configuration: principals on-request.A,
// on-request.B, … (or A, B, …).
func (s *suite) assistants(w *harness.W, n int) []string {
	var out []string
	for i := 0; i < n; i++ {
		letter := string(rune('A' + i))
		switch {
		case s.e.Target.Config.Principals["on-request."+letter].Header != "":
			out = append(out, "on-request."+letter)
		case s.e.Target.Config.Principals[letter].Header != "":
			out = append(out, letter)
		default:
			w.Blocked(fmt.Sprintf("%d calling assistants are needed, told apart by their credentials: configure principals on-request.A … on-request.%s (an A2A agent has no other way to tell assistants apart)", n, letter))
		}
	}
	return out
}
