package sabotage

// On Request toggles: each breaks one requirement of the reference chapel (mockagents/onrequest) or of the reference
// assistant relay (harness/verify.OnRequestRelay), at the place the requirement is honoured.
func init() {
	const doc = "on-request"
	agent := func(id, desc string, targets ...string) Toggle {
		return Toggle{ID: id, Document: doc, Side: SideAgent, Targets: targets, Description: desc}
	}
	client := func(id, desc string, targets ...string) Toggle {
		return Toggle{ID: id, Document: doc, Side: SideClient, Targets: targets, Description: desc}
	}
	Register(
		// Card (§3).
		agent("or.ext-uri-trailing-slash", "the card declares the extension as …/on-request/v1/ (trailing slash); replies keep the exact URI", "OR-3.1a"),
		agent("or.ext-required-true", "the card declares the extension with required: true", "OR-3.1b"),
		agent("or.params-skills-map", "params.skills is an object keyed by skill id instead of an array", "OR-3.2a"),
		agent("or.skills-entry-duplicated", "the service-pricing entry is listed twice", "OR-3.2b"),
		agent("or.entry-missing-id", "the service-pricing entry names its skill in skillId instead of id", "OR-3.3a"),
		agent("or.entry-id-dangling", "the service-pricing entry's id is service-prices, which no skill has", "OR-3.3b"),
		agent("or.person-entry-missing", "the service-pricing entry has no personEntry", "OR-3.4a"),
		agent("or.person-entry-plain-http", "the service-pricing personEntry is an http: address", "OR-3.4a"),
		agent("or.person-entry-dead", "the personEntry page /talk answers 404; the card is unchanged", "OR-3.4b"),
		agent("or.person-entry-foreign-origin", "the service-pricing personEntry moves to an unrelated origin (which serves the page) that the operator does not control", "OR-3.4c"),
		agent("or.tel-not-operator", "the repatriation-quote personEntry is a tel: number the operator does not answer", "OR-3.4d"),
		agent("or.action-entry-tel", "the record-amendment action's personEntry is a tel: number", "OR-3.4e"),
		agent("or.deferred-declared-in-conversation", "the card marks callback-request (a staff callback, left working) as completion: in-conversation", "OR-3.6"),
		agent("or.on-request-skill-secured", "the service-pricing skill also carries securityRequirements", "OR-3.7"),
		agent("or.person-entry-query-context", "the service-pricing personEntry carries ?topic=cremation", "OR-3.8a"),
		agent("or.person-entry-circumstance-path", "the service-pricing personEntry is /bereavement", "OR-3.8b"),
		agent("or.person-entry-per-caller", "the address given in replies gets ?about=<the caller's first words> when the request says more than the skill example", "OR-3.8c"),
		agent("or.skill-text-leaks-value", "the service-pricing description ends with the price it gives on request", "OR-3.9"),
		agent("or.skill-text-leaks-opt-in-value", "a memorial-options example contains the price the agent gives on opt-in", "OR-3.9"),
		agent("or.extended-card-leaks-value", "the authenticated (extended) card's trade-referrals description states the service-pricing price; the public card is clean", "OR-3.9"),
		// Behaviour (§5).
		agent("or.gives-when-not-activated", "a request without activation gets the service-pricing price in an Artifact", "OR-5.1"),
		agent("or.gives-on-request-info", "the service-pricing referral text also states the price", "OR-5.3a"),
		agent("or.referral-omits-operator-gives", "information referrals give only the address, not that the operator gives it to the person who asks", "OR-5.3b"),
		agent("or.referral-omits-address", "information referrals say the operator gives it on request but omit the address from the text", "OR-5.3c"),
		agent("or.referral-denies-existence", "information referrals begin \"We have no price information.\"", "OR-5.3d"),
		agent("or.opt-in-gives-to-anyone", "memorial-options (opted in) is given to clients acting for nobody", "OR-5.4a"),
		agent("or.non-person-refusal-without-referral", "clients acting for nobody get a bare refusal for memorial-options: no address, no object", "OR-5.4b"),
		agent("or.action-without-opt-in", "record-amendment (not opted in) is carried out for an assistant", "OR-5.7a"),
		agent("or.action-for-non-person", "arrangement-booking is carried out for a client acting for nobody", "OR-5.7b"),
		agent("or.action-without-level2", "the kiosk, whose operator holds only a level-1 attestation, carries out arrangement-booking", "OR-5.7c"),
		agent("or.action-staff-not-told", "bookings are carried out without telling a named member of staff", "OR-5.7d"),
		agent("or.action-irreversible", "the operator's staff cannot reverse a booking (the reversal is refused)", "OR-5.7d"),
		agent("or.no-per-assistant-limit", "the per-assistant limit on repeated bookings is off (the total limit stays)", "OR-5.7e"),
		agent("or.no-total-limit", "the total limit on repeated bookings is off (per-assistant limits stay)", "OR-5.7f"),
		agent("or.relayed-confirmation-accepted", "a death notice is published when the assistant says the person confirmed", "OR-5.7g"),
		agent("or.action-referral-without-address", "action referrals say it was not done but omit the address from the text", "OR-5.7h"),
		agent("or.deferred-reported-done", "an accepted callback request is reported \"Done\" in a completed task", "OR-5.8a"),
		agent("or.unreachable-staff-pretends", "the unstaffed kiosk, asked for staff, offers to put the caller through", "OR-5.10"),
		// Reply metadata (§6).
		agent("or.referral-metadata-in-data-part", "the service-pricing referral carries the object in a data part instead of Message.metadata", "OR-6.1a"),
		agent("or.referral-task-failed", "the memorial-options referral task ends TASK_STATE_FAILED", "OR-6.1a"),
		agent("or.action-referral-state-completed", "action referral tasks end TASK_STATE_COMPLETED instead of REJECTED", "OR-6.1b"),
		agent("or.given-metadata-on-status-message", "the given-on-opt-in object goes on the final status message, not the Artifact", "OR-6.1c"),
		agent("or.status-value-swapped", "action referrals carry status on-request", "OR-6.1d"),
		agent("or.skill-id-wrong", "reply objects carry the skill's name in skillId", "OR-6.1e"),
		agent("or.metadata-person-entry-missing", "referral objects omit personEntry", "OR-6.1f"),
		agent("or.action-referral-text-omits-not-done", "action referral texts give the address but do not say the action was not done", "OR-6.2"),
		// The reference assistant relay.
		client("or.client-relays-deferred-as-done", "the relay tells the person an accepted deferred action is done", "OR-5.8b"),
		client("or.client-presents-other-source-value", "the relay fills a referral's gap with another source's value, stated as the operator's", "OR-6.3"),
	)
}
