package sabotage

// On Request toggles of issue #38: each is a defect the earlier readings let through (a done-word outside their
// list, a value in another convention, a route offered after a contrast, a circumstance page in the text, the
// information on the wrong carrier).
const (
	ORDeferredCompletedUnworded ID = "or.deferred-completed-unworded"
	ORDeferredReportedSorted    ID = "or.deferred-reported-sorted"
	ORReferralLeaksOtherForm    ID = "or.referral-leaks-other-convention"
	ORUnstaffedCallbackAfterBut ID = "or.unstaffed-callback-after-but"
	ORTextCircumstancePage      ID = "or.text-circumstance-page"
	ORGivenInStatusMessage      ID = "or.given-in-status-message"

	ORLatOtherWordings ID = "or.lat.other-wordings"
	ORLatCallbackTel   ID = "or.lat.callback-tel"
)

func init() {
	const doc = "on-request"
	agent := func(id ID, desc string, targets ...string) Toggle {
		return Toggle{ID: id, Document: doc, Side: SideAgent, Targets: targets, Description: desc}
	}
	Register(
		agent(ORDeferredCompletedUnworded, "an accepted callback request ends TASK_STATE_COMPLETED with \"Thank you.\" (no done-word, nothing pending)", "OR-5.8a"),
		agent(ORDeferredReportedSorted, "an accepted callback request is reported \"All sorted: your callback is reserved.\" in a working task", "OR-5.8a"),
		agent(ORReferralLeaksOtherForm, "the service-pricing referral text adds \"(about £1,950)\" where the operator states GBP 1,950", "OR-5.3a"),
		agent(ORUnstaffedCallbackAfterBut, "the unstaffed kiosk says nobody is available, \"but I can arrange a callback for tomorrow\"", "OR-5.10"),
		agent(ORTextCircumstancePage, "told the caller's circumstance, referral texts give <origin>/bereavement instead of the card's address (the object keeps the card's)", "OR-3.8c"),
		agent(ORGivenInStatusMessage, "information given on opt-in travels in the final status message (text and object), with no Artifact", "OR-6.1c"),
	)
	RegisterLatitudes(
		Latitude{ID: ORLatOtherWordings, Documents: []string{doc},
			Permits:     `OR-5.3 "MUST say, in the reply text, …", §9 item 3 ("Some operators would add a reason … Free text in the reply covers it"), OR-5.10, OR-3.6, OR-5.8 and OR-6.2 say what the reply says, not in which words or currency convention`,
			Description: "other wordings: referrals open \"It depends on the arrangement, so there is no price list. I don't have that information, but …\"; the kiosk says \"There are no staff at this location, so I cannot transfer you or arrange a callback\"; bookings read \"your arrangement meeting is tomorrow at 10:00\"; opted-in prices are written £2,400; a deferred callback ends COMPLETED saying it is not yet done"},
		Latitude{ID: ORLatCallbackTel, Documents: []string{doc},
			Permits:     `OR-3.4 "a tel: number answered by or for the operator. An action the person must carry out themselves (§6.3) MUST have an https address" (a staff callback is not one the person carries out; the statement's personActions says which are)`,
			Description: "callback-request's personEntry is the chapel's telephone number; the operator statement's personActions leaves it out"},
	)
}
