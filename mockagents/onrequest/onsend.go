package onrequest

import (
	"encoding/json"
	"net/url"
	"strings"
	"time"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/sabotage"
)

// call is one request as the agent understands it.
type call struct {
	text      string
	activated bool   // the client listed the URI in A2A-Extensions
	person    string // the named person the assistant acts for ("" when it asserts none)
	assistant string // the calling assistant (its bearer token's principal), "anonymous" without one
	extra     bool   // the request says more than the skill's example (context about the caller)
	req       a2a.SendMessageRequest
}

// actingFor reads the acting-for assertion (OR-5.5: the operator accepts the assistant's own assertion) from a
// metadata object: metadata[URI].actingFor.name. The chapel reads SendMessage params.metadata; with
// OptActingForMessage, Message.metadata.
func actingFor(md json.RawMessage) string {
	var m map[string]struct {
		ActingFor struct {
			Name string `json:"name"`
		} `json:"actingFor"`
	}
	if json.Unmarshal(md, &m) != nil {
		return ""
	}
	return strings.TrimSpace(m[URI].ActingFor.Name)
}

func (a *agent) onSend(c *a2atest.Ctx, req a2a.SendMessageRequest) a2atest.Reply {
	cl := call{text: messageText(req.Message), activated: c.IsRequested(URI), assistant: "anonymous", req: req}
	if c.Principal != nil {
		cl.assistant = c.Principal.Name
	}
	if cl.activated {
		if a.opt[OptActingForMessage] {
			cl.person = actingFor(req.Message.Metadata)
		} else {
			cl.person = actingFor(req.Metadata)
		}
	}
	s, ok := a.route(cl.text)
	if !ok {
		return a.message(cl, "I can help with opening hours, information given on request, bookings and reaching staff.", nil)
	}
	for _, ex := range s.Examples {
		if strings.TrimSpace(strings.Replace(strings.ToLower(cl.text), strings.ToLower(ex), "", 1)) != "" {
			cl.extra = true
		}
	}
	switch s.Kind {
	case kindPublic:
		if !cl.activated && a.set.On(sabotage.ORPublicSkillNeedsActivation) {
			return a2atest.Reply{Err: a2atest.NewError(a2a.CodeInvalidParams, "activate the on-request extension first", nil)}
		}
		return a.message(cl, s.Answer, nil)
	case kindStaff:
		return a.staff(cl, s)
	case kindSignIn:
		t := a.task(cl, a2a.StateAuthRequired)
		t.Status.Message = a.agentMessage(cl, "Please sign in to the family portal first; then ask again.", nil)
		return a2atest.Reply{Task: t}
	case kindInfo:
		return a.information(cl, s)
	case kindAction:
		return a.actionRequest(cl, s)
	}
	return a.message(cl, "I cannot help with that.", nil)
}

// staff answers a request to reach a member of staff (OR-5.10).
func (a *agent) staff(cl call, s skill) a2atest.Reply {
	if a.staffed {
		return a.message(cl, s.Answer, nil)
	}
	if a.set.On(sabotage.ORUnreachableStaffPretends) {
		return a.message(cl, "I'll put you through to a member of staff now.", nil)
	}
	if a.set.On(sabotage.ORUnstaffedCallbackAfterBut) {
		return a.message(cl, "Nobody is available here right now, but I can arrange a callback for tomorrow.", nil)
	}
	if a.opt[OptOtherWordings] {
		return a.message(cl, "There are no staff at this location, so I cannot transfer you or arrange a callback. You can leave a written request at "+a.base+"/talk.", nil)
	}
	if a.opt[OptNoStaff] {
		return a.message(cl, "There are no staff at this location. You can leave a written request at "+a.base+"/talk.", nil)
	}
	return a.message(cl, "Nobody can be reached here: the office is not staffed. You can leave a written request at "+
		a.base+"/talk and it is read on the next working day.", nil)
}

// information answers an informational on-request skill (OR-5.3, OR-5.4).
func (a *agent) information(cl call, s skill) a2atest.Reply {
	optedIn := s.AssistantAccess && (cl.person != "" || a.set.On(sabotage.OROptInGivesToAnyone))
	leakPlain := s.ID == "service-pricing" && !cl.activated && a.set.On(sabotage.ORGivesWhenNotActivated)
	if optedIn || leakPlain {
		return a.given(cl, s)
	}
	if s.AssistantAccess && cl.person == "" && a.set.On(sabotage.ORNonPersonRefusalWithoutReferral) {
		return a.message(cl, "This is only for assistants acting for a person.", nil)
	}
	return a.referral(cl, s)
}

// given is information given on opt-in (§6.2): an Artifact carrying it, the object on the Artifact.
func (a *agent) given(cl call, s skill) a2atest.Reply {
	t := a.task(cl, a2a.StateCompleted)
	value := s.Value
	if a.opt[OptOtherWordings] {
		value = strings.ReplaceAll(value, "GBP ", "£")
	}
	art := a2a.Artifact{ArtifactID: newID(), Name: s.Name, Parts: []a2a.Part{a2a.TextPart(value)}}
	obj := a.object(cl, s, "given-on-opt-in")
	if a.set.On(sabotage.ORGivenInStatusMessage) {
		var md map[string]any
		if cl.activated {
			md = obj
		}
		t.Status.Message = a.agentMessage(cl, a.operator+" gives this on request; here it is. "+value, md)
		return a2atest.Reply{Task: t}
	}
	status := a.agentMessage(cl, a.operator+" gives this on request; here it is.", nil)
	if cl.activated {
		if a.set.On(sabotage.ORGivenMetadataOnStatusMessage) {
			status = a.agentMessage(cl, a.operator+" gives this on request; here it is.", obj)
		} else {
			art.Metadata = mustJSON(map[string]any{URI: obj})
			art.Extensions = []string{URI}
		}
	}
	t.Artifacts = []a2a.Artifact{art}
	t.Status.Message = status
	return a2atest.Reply{Task: t}
}

// referral is information referred (OR-5.3, §6.2): a Message, or, for memorial-options, a task COMPLETED whose
// final status message carries the object.
func (a *agent) referral(cl call, s skill) a2atest.Reply {
	pe := a.textAddress(a.replyAddress(cl, s))
	gives := a.operator + " gives " + s.Topic + " to the person who asks, on request."
	if a.opt[OptPassiveWording] {
		gives = "At " + a.operator + ", " + s.Topic + " are given to the person who asks."
	}
	var text string
	switch {
	case a.set.On(sabotage.ORReferralOmitsOperatorGives):
		text = "You can ask here: " + pe
	case a.set.On(sabotage.ORReferralOmitsAddress):
		text = gives
	case strings.HasPrefix(pe, "tel:"):
		text = gives + " You can ask by telephone on " + strings.TrimPrefix(pe, "tel:") + "."
	default:
		text = gives + " You can ask here: " + pe
	}
	if a.opt[OptOtherWordings] {
		text = "It depends on the arrangement, so there is no price list. I don't have that information, but " + text
	}
	if s.ID == "service-pricing" && a.set.On(sabotage.ORReferralLeaksOtherForm) {
		text += " (about £1,950)"
	}
	if cl.extra && a.set.On(sabotage.ORTextCircumstancePage) && strings.HasPrefix(pe, "http") {
		text = strings.ReplaceAll(text, pe, a.base+"/bereavement")
	}
	if a.set.On(sabotage.ORReferralDeniesExistence) {
		text = "We have no price information. " + text
	}
	if s.ID == "service-pricing" && a.set.On(sabotage.ORGivesOnRequestInfo) {
		text += " " + s.Value
	}
	obj := a.object(cl, s, "on-request")
	if s.ID == "memorial-options" {
		state := a2a.StateCompleted
		if a.set.On(sabotage.ORReferralTaskFailed) {
			state = a2a.StateFailed
		}
		t := a.task(cl, state)
		t.Status.Message = a.agentMessage(cl, text, obj)
		return a2atest.Reply{Task: t}
	}
	if cl.activated && s.ID == "service-pricing" && a.set.On(sabotage.ORReferralMetadataInDataPart) {
		m := a.agentMessage(cl, text, nil)
		m.Parts = append(m.Parts, a2a.DataPart(map[string]any{URI: obj}))
		return a2atest.Reply{Message: m}
	}
	return a2atest.Reply{Message: a.agentMessage(cl, text, obj)}
}

// actionRequest answers an action skill: carried out only when every condition of OR-5.6 holds, otherwise referred
// (OR-5.7).
func (a *agent) actionRequest(cl call, s skill) a2atest.Reply {
	optIn := s.AssistantAccess || (s.ID == "record-amendment" && a.set.On(sabotage.ORActionWithoutOptIn))
	forPerson := cl.person != "" || a.set.On(sabotage.ORActionForNonPerson)
	attested := a.level >= 2 || a.set.On(sabotage.ORActionWithoutLevel2)
	if !optIn || !forPerson || !attested {
		return a.actionReferral(cl, s, "")
	}
	mine, total := a.ops.counts(s.ID, cl.person, cl.assistant, a.opt[OptLimitsPerSkill])
	if mine >= perAssistantMax && !a.set.On(sabotage.ORNoPerAssistantLimit) {
		return a.actionReferral(cl, s, "This request has been made too many times by this assistant. ")
	}
	if total >= totalMax && !a.set.On(sabotage.ORNoTotalLimit) {
		return a.actionReferral(cl, s, "This request has been made too many times. ")
	}
	switch s.ID {
	case "callback-request":
		return a.deferredCallback(cl, s)
	case "notice-publication":
		return a.notice(cl, s)
	}
	// An in-conversation action, finished in the exchange; a named member of staff is told (OR-5.6(b)).
	t := a.task(cl, a2a.StateCompleted)
	x := &action{TaskID: t.ID, SkillID: s.ID, Assistant: cl.assistant, Person: cl.person, State: "done", StaffMember: staffMember}
	if a.set.On(sabotage.ORActionStaffNotTold) {
		x.StaffMember = ""
	}
	a.ops.add(x)
	text := "Booked: an arrangement meeting on Tuesday at 10:00 with " + staffMember + ", who has been told."
	if a.opt[OptOtherWordings] {
		text = "Booked: your arrangement meeting is tomorrow at 10:00 with " + staffMember + ", who has been told."
	}
	if s.ID == "record-amendment" {
		text = "Corrected: the service booklet now reads as you asked."
	}
	t.Status.Message = a.agentMessage(cl, text, nil)
	return a2atest.Reply{Task: t}
}

// deferredCallback accepts a callback that a member of staff makes later (OR-5.8: never reported done).
func (a *agent) deferredCallback(cl call, s skill) a2atest.Reply {
	if a.set.On(sabotage.ORDeferredReportedDone) {
		t := a.task(cl, a2a.StateCompleted)
		a.ops.add(&action{TaskID: t.ID, SkillID: s.ID, Assistant: cl.assistant, Person: cl.person, State: "pending", StaffMember: staffMember})
		t.Status.Message = a.agentMessage(cl, "Done: your callback is booked.", nil)
		return a2atest.Reply{Task: t}
	}
	state, text := a2a.StateWorking, "Recorded, not yet done: a funeral director will call back on the next working day."
	switch {
	case a.set.On(sabotage.ORDeferredCompletedUnworded):
		state, text = a2a.StateCompleted, "Thank you."
	case a.set.On(sabotage.ORDeferredReportedSorted):
		text = "All sorted: your callback is reserved."
	case a.opt[OptOtherWordings]:
		state, text = a2a.StateCompleted, "Your callback request is recorded. It is not yet done: a funeral director will call you back on the next working day."
	}
	t := a.task(cl, state)
	a.ops.add(&action{TaskID: t.ID, SkillID: s.ID, Assistant: cl.assistant, Person: cl.person, State: "pending", StaffMember: staffMember})
	if a.opt[OptPassiveWording] && state == a2a.StateWorking && !a.set.On(sabotage.ORDeferredReportedSorted) {
		text = "Your callback has been scheduled for staff to action; a funeral director calls on the next working day."
	}
	t.Status.Message = a.agentMessage(cl, text, nil)
	// A working task would keep a stream open; the stream ends with this state, which is the point.
	return a2atest.Reply{Task: t, Events: []a2a.StreamEvent{{Task: t}}}
}

// notice accepts a notice whose publication cannot be undone: it waits for the person's own confirmation in a
// form they see (OR-5.6(d)); the assistant's word that the person confirmed is not enough.
func (a *agent) notice(cl call, s skill) a2atest.Reply {
	relayed := strings.Contains(strings.ToLower(cl.text), "confirmed")
	if relayed && a.set.On(sabotage.ORRelayedConfirmationAccepted) {
		t := a.task(cl, a2a.StateCompleted)
		a.ops.add(&action{TaskID: t.ID, SkillID: s.ID, Assistant: cl.assistant, Person: cl.person, State: "published",
			StaffMember: staffMember, IrreversibleDone: true})
		t.Status.Message = a.agentMessage(cl, "Published: the notice is now on the notices page.", nil)
		return a2atest.Reply{Task: t}
	}
	t := a.task(cl, a2a.StateInputRequired)
	tok := newID()
	a.ops.add(&action{TaskID: t.ID, SkillID: s.ID, Assistant: cl.assistant, Person: cl.person, State: "awaiting-confirmation",
		StaffMember: staffMember, token: tok})
	t.Status.Message = a.agentMessage(cl, "Not published yet. The person must read and confirm the notice themselves here: "+
		a.base+"/confirm/"+tok, nil)
	return a2atest.Reply{Task: t}
}

// actionReferral is an action not carried out (OR-5.7, §6.2): a task REJECTED whose final status message carries
// the object and says, in words, that it was not done and where to ask.
func (a *agent) actionReferral(cl call, s skill, why string) a2atest.Reply {
	pe := a.textAddress(a.replyAddress(cl, s))
	where := "The person can " + s.Verb + " here: " + pe
	if strings.HasPrefix(pe, "tel:") {
		where = "The person can " + s.Verb + " by telephone on " + strings.TrimPrefix(pe, "tel:") + "."
	}
	text := why + "I can't " + s.Verb + " for you: it was not done. " + where
	if a.opt[OptPassiveWording] {
		text = why + "I'm not able to " + s.Verb + " for you. " + where
	}
	switch {
	case a.set.On(sabotage.ORActionReferralWithoutAddress):
		text = why + "I can't " + s.Verb + " for you: it was not done."
	case a.set.On(sabotage.ORActionReferralTextOmitsNotDone):
		text = "You can ask here: " + pe
	}
	status := "action-referred"
	if a.set.On(sabotage.ORStatusValueSwapped) {
		status = "on-request"
	}
	state := a2a.StateRejected
	if a.set.On(sabotage.ORActionReferralStateCompleted) {
		state = a2a.StateCompleted
	}
	if a.opt[OptActionReferralMessage] && state == a2a.StateRejected {
		return a.message(cl, text, a.object(cl, s, status))
	}
	t := a.task(cl, state)
	t.Status.Message = a.agentMessage(cl, text, a.object(cl, s, status))
	return a2atest.Reply{Task: t}
}

// textAddress is how a reply's text writes the address: as the card has it, or (options) a normalised-equal copy
// of an https address, or a tel: number in national format.
func (a *agent) textAddress(pe string) string {
	switch {
	case a.opt[OptAddressCopy] && strings.HasPrefix(pe, "https://"):
		return "HTTPS://" + strings.TrimPrefix(pe, "https://") + "/"
	case a.opt[OptNationalPhone] && pe == chapelPhone:
		return "tel:(202) 555-0143"
	}
	return pe
}

// replyAddress is the address a reply gives: the card's, the same for every caller (OR-3.8).
func (a *agent) replyAddress(cl call, s skill) string {
	pe := a.personEntry(s)
	if pe == "" || (s.ID == "service-pricing" && a.set.On(sabotage.ORPersonEntryMissing)) {
		pe = a.base + "/talk"
	}
	if cl.extra && a.set.On(sabotage.ORPersonEntryPerCaller) && !strings.HasPrefix(pe, "tel:") {
		words := strings.Fields(cl.text)
		pe += "?about=" + url.QueryEscape(strings.ToLower(strings.Join(words[:min(3, len(words))], "-")))
	}
	return pe
}

// object is the reply object (§6.1); nil when the client did not activate the extension.
func (a *agent) object(cl call, s skill, status string) map[string]any {
	if !cl.activated {
		return nil
	}
	o := map[string]any{"status": status, "skillId": s.ID}
	if a.set.On(sabotage.ORSkillIDWrong) {
		o["skillId"] = s.Name
	}
	if status != "given-on-opt-in" && !a.set.On(sabotage.ORMetadataPersonEntryMissing) {
		o["personEntry"] = a.replyAddress(cl, s)
	} else if status == "given-on-opt-in" {
		o["personEntry"] = a.personEntry(s) // MAY, so the person can follow up
	}
	return o
}

// agentMessage is an agent message; with an object it carries it under metadata[URI] and lists the URI in
// extensions (Annex C item 3).
func (a *agent) agentMessage(cl call, text string, obj map[string]any) *a2a.Message {
	m := &a2a.Message{MessageID: newID(), Role: a2a.RoleAgent, ContextID: cl.req.Message.ContextID, Parts: []a2a.Part{a2a.TextPart(text)}}
	if obj != nil {
		m.Metadata = mustJSON(map[string]any{URI: obj})
		m.Extensions = []string{URI}
	}
	return m
}

func (a *agent) message(cl call, text string, obj map[string]any) a2atest.Reply {
	return a2atest.Reply{Message: a.agentMessage(cl, text, obj)}
}

// task starts a task with its ids set here, so the action log and stream events can name it.
func (a *agent) task(cl call, state string) *a2a.Task {
	ctx := cl.req.Message.ContextID
	if ctx == "" {
		ctx = newID()
	}
	return &a2a.Task{ID: newID(), ContextID: ctx, Status: a2a.TaskStatus{State: state, Timestamp: a2atest.Timestamp(time.Now())}}
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic("onrequest mock: " + err.Error()) // only our own maps are encoded here
	}
	return b
}
