package sabotage

// The toggles' ids, in registration order; each toggle's targets and description are registered below.
const (
	ORExtURITrailingSlash             ID = "or.ext-uri-trailing-slash"
	ORExtRequiredTrue                 ID = "or.ext-required-true"
	ORParamsSkillsMap                 ID = "or.params-skills-map"
	ORSkillsEntryDuplicated           ID = "or.skills-entry-duplicated"
	ORPublicSkillNeedsActivation      ID = "or.public-skill-needs-activation"
	OREntryMissingID                  ID = "or.entry-missing-id"
	OREntryIDDangling                 ID = "or.entry-id-dangling"
	ORPersonEntryMissing              ID = "or.person-entry-missing"
	ORPersonEntryPlainHTTP            ID = "or.person-entry-plain-http"
	ORPersonEntryDead                 ID = "or.person-entry-dead"
	ORPersonEntryForeignOrigin        ID = "or.person-entry-foreign-origin"
	ORTelNotOperator                  ID = "or.tel-not-operator"
	ORActionEntryTel                  ID = "or.action-entry-tel"
	ORDeferredDeclaredInConversation  ID = "or.deferred-declared-in-conversation"
	OROnRequestSkillSecured           ID = "or.on-request-skill-secured"
	ORPersonEntryQueryContext         ID = "or.person-entry-query-context"
	ORPersonEntryCircumstancePath     ID = "or.person-entry-circumstance-path"
	ORPersonEntryPerCaller            ID = "or.person-entry-per-caller"
	ORSkillTextLeaksValue             ID = "or.skill-text-leaks-value"
	ORSkillTextLeaksOptInValue        ID = "or.skill-text-leaks-opt-in-value"
	ORExtendedCardLeaksValue          ID = "or.extended-card-leaks-value"
	ORGivesWhenNotActivated           ID = "or.gives-when-not-activated"
	ORGivesOnRequestInfo              ID = "or.gives-on-request-info"
	ORReferralOmitsOperatorGives      ID = "or.referral-omits-operator-gives"
	ORReferralOmitsAddress            ID = "or.referral-omits-address"
	ORReferralDeniesExistence         ID = "or.referral-denies-existence"
	OROptInGivesToAnyone              ID = "or.opt-in-gives-to-anyone"
	ORNonPersonRefusalWithoutReferral ID = "or.non-person-refusal-without-referral"
	ORActionWithoutOptIn              ID = "or.action-without-opt-in"
	ORActionForNonPerson              ID = "or.action-for-non-person"
	ORActionWithoutLevel2             ID = "or.action-without-level2"
	ORActionStaffNotTold              ID = "or.action-staff-not-told"
	ORActionIrreversible              ID = "or.action-irreversible"
	ORNoPerAssistantLimit             ID = "or.no-per-assistant-limit"
	ORNoTotalLimit                    ID = "or.no-total-limit"
	ORRelayedConfirmationAccepted     ID = "or.relayed-confirmation-accepted"
	ORActionReferralWithoutAddress    ID = "or.action-referral-without-address"
	ORDeferredReportedDone            ID = "or.deferred-reported-done"
	ORUnreachableStaffPretends        ID = "or.unreachable-staff-pretends"
	ORReferralMetadataInDataPart      ID = "or.referral-metadata-in-data-part"
	ORReferralTaskFailed              ID = "or.referral-task-failed"
	ORActionReferralStateCompleted    ID = "or.action-referral-state-completed"
	ORGivenMetadataOnStatusMessage    ID = "or.given-metadata-on-status-message"
	ORStatusValueSwapped              ID = "or.status-value-swapped"
	ORSkillIDWrong                    ID = "or.skill-id-wrong"
	ORMetadataPersonEntryMissing      ID = "or.metadata-person-entry-missing"
	ORActionReferralTextOmitsNotDone  ID = "or.action-referral-text-omits-not-done"
	ORClientRelaysDeferredAsDone      ID = "or.client-relays-deferred-as-done"
	ORClientPresentsOtherSourceValue  ID = "or.client-presents-other-source-value"
)

// On Request toggles: each breaks one requirement of the reference chapel (mockagents/onrequest) or of the reference
// assistant relay (harness/verify.OnRequestRelay), at the place the requirement is honoured.
func init() {
	const doc = "on-request"
	agent := func(id ID, desc string, targets ...string) Toggle {
		return Toggle{ID: id, Document: doc, Side: SideAgent, Targets: targets, Description: desc}
	}
	client := func(id ID, desc string, targets ...string) Toggle {
		return Toggle{ID: id, Document: doc, Side: SideClient, Targets: targets, Description: desc}
	}
	Register(
		// Card (§3).
		agent(ORExtURITrailingSlash, "the card declares the extension as …/on-request/v1/ (trailing slash); replies keep the exact URI", "OR-3.1a"),
		agent(ORExtRequiredTrue, "the card declares the extension with required: true", "OR-3.1b"),
		agent(ORParamsSkillsMap, "params.skills is an object keyed by skill id instead of an array", "OR-3.2a"),
		agent(ORSkillsEntryDuplicated, "the service-pricing entry is listed twice", "OR-3.2b"),
		agent(ORPublicSkillNeedsActivation, "the public skill (opening hours) is answered only to a client that activated the extension; others get an error", "OR-5.2"),
		agent(OREntryMissingID, "the service-pricing entry names its skill in skillId instead of id", "OR-3.3a"),
		agent(OREntryIDDangling, "the service-pricing entry's id is service-prices, which no skill has", "OR-3.3b"),
		agent(ORPersonEntryMissing, "the service-pricing entry has no personEntry", "OR-3.4a"),
		agent(ORPersonEntryPlainHTTP, "the service-pricing personEntry is an http: address", "OR-3.4a"),
		agent(ORPersonEntryDead, "the personEntry page /talk answers 404; the card is unchanged", "OR-3.4b"),
		agent(ORPersonEntryForeignOrigin, "the service-pricing personEntry moves to an unrelated origin (which serves the page) that the operator does not control", "OR-3.4c"),
		agent(ORTelNotOperator, "the repatriation-quote personEntry is a tel: number the operator does not answer", "OR-3.4d"),
		agent(ORActionEntryTel, "the record-amendment action's personEntry is a tel: number", "OR-3.4e"),
		agent(ORDeferredDeclaredInConversation, "the card marks callback-request (a staff callback, left working) as completion: in-conversation", "OR-3.6"),
		agent(OROnRequestSkillSecured, "the service-pricing skill also carries securityRequirements", "OR-3.7"),
		agent(ORPersonEntryQueryContext, "the service-pricing personEntry carries ?topic=cremation", "OR-3.8a"),
		agent(ORPersonEntryCircumstancePath, "the service-pricing personEntry is /bereavement", "OR-3.8b"),
		agent(ORPersonEntryPerCaller, "the address given in replies gets ?about=<the caller's first words> when the request says more than the skill example", "OR-3.8c"),
		agent(ORSkillTextLeaksValue, "the service-pricing description ends with the price it gives on request", "OR-3.9"),
		agent(ORSkillTextLeaksOptInValue, "a memorial-options example contains the price the agent gives on opt-in", "OR-3.9"),
		agent(ORExtendedCardLeaksValue, "the authenticated (extended) card's trade-referrals description states the service-pricing price; the public card is clean", "OR-3.9"),
		// Behaviour (§5).
		agent(ORGivesWhenNotActivated, "a request without activation gets the service-pricing price in an Artifact", "OR-5.1"),
		agent(ORGivesOnRequestInfo, "the service-pricing referral text also states the price", "OR-5.3a"),
		agent(ORReferralOmitsOperatorGives, "information referrals give only the address, not that the operator gives it to the person who asks", "OR-5.3b"),
		agent(ORReferralOmitsAddress, "information referrals say the operator gives it on request but omit the address from the text", "OR-5.3c"),
		agent(ORReferralDeniesExistence, "information referrals begin \"We have no price information.\"", "OR-5.3d"),
		agent(OROptInGivesToAnyone, "memorial-options (opted in) is given to clients acting for nobody", "OR-5.4a"),
		agent(ORNonPersonRefusalWithoutReferral, "clients acting for nobody get a bare refusal for memorial-options: no address, no object", "OR-5.4b"),
		agent(ORActionWithoutOptIn, "record-amendment (not opted in) is carried out for an assistant", "OR-5.7a"),
		agent(ORActionForNonPerson, "arrangement-booking is carried out for a client acting for nobody", "OR-5.7b"),
		agent(ORActionWithoutLevel2, "the kiosk, whose operator holds only a level-1 attestation, carries out arrangement-booking", "OR-5.7c"),
		agent(ORActionStaffNotTold, "bookings are carried out without telling a named member of staff", "OR-5.7d"),
		agent(ORActionIrreversible, "the operator's staff cannot reverse a booking (the reversal is refused)", "OR-5.7d"),
		agent(ORNoPerAssistantLimit, "the per-assistant limit on repeated bookings is off (the total limit stays)", "OR-5.7e"),
		agent(ORNoTotalLimit, "the total limit on repeated bookings is off (per-assistant limits stay)", "OR-5.7f"),
		agent(ORRelayedConfirmationAccepted, "a death notice is published when the assistant says the person confirmed", "OR-5.7g"),
		agent(ORActionReferralWithoutAddress, "action referrals say it was not done but omit the address from the text", "OR-5.7h"),
		agent(ORDeferredReportedDone, "an accepted callback request is reported \"Done\" in a completed task", "OR-5.8a"),
		agent(ORUnreachableStaffPretends, "the unstaffed kiosk, asked for staff, offers to put the caller through", "OR-5.10"),
		// Reply metadata (§6).
		agent(ORReferralMetadataInDataPart, "the service-pricing referral carries the object in a data part instead of Message.metadata", "OR-6.1a"),
		agent(ORReferralTaskFailed, "the memorial-options referral task ends TASK_STATE_FAILED", "OR-6.1a"),
		agent(ORActionReferralStateCompleted, "action referral tasks end TASK_STATE_COMPLETED instead of REJECTED", "OR-6.1b"),
		agent(ORGivenMetadataOnStatusMessage, "the given-on-opt-in object goes on the final status message, not the Artifact", "OR-6.1c"),
		agent(ORStatusValueSwapped, "action referrals carry status on-request", "OR-6.1d"),
		agent(ORSkillIDWrong, "reply objects carry the skill's name in skillId", "OR-6.1e"),
		agent(ORMetadataPersonEntryMissing, "referral objects omit personEntry", "OR-6.1f"),
		agent(ORActionReferralTextOmitsNotDone, "action referral texts give the address but do not say the action was not done", "OR-6.2"),
		// The reference assistant relay.
		client(ORClientRelaysDeferredAsDone, "the relay tells the person an accepted deferred action is done", "OR-5.8b"),
		client(ORClientPresentsOtherSourceValue, "the relay fills a referral's gap with another source's value, stated as the operator's", "OR-6.3"),
	)
}
