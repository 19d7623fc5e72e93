package sabotage

// The toggles' ids, in registration order; each toggle's targets and description are registered below.
const (
	IVInterviewEntryRequired        ID = "iv.interview-entry-required"
	IVNoTermsDeclaration            ID = "iv.no-terms-declaration"
	IVSelectorMissAnswered          ID = "iv.selector-miss-answered"
	IVNoTermsRefused                ID = "iv.noterms-terms-refused"
	IVAnswersWithoutActivation      ID = "iv.answers-without-activation"
	IVNoExtensionsEcho              ID = "iv.no-extensions-echo"
	IVEchoUnactivated               ID = "iv.echo-unactivated"
	IVUsageSelectorFabricated       ID = "iv.usage-selector-fabricated"
	IVTermsSelectorUncommitted      ID = "iv.terms-selector-uncommitted"
	IVRefusalExtraMember            ID = "iv.refusal-extra-member"
	IVProjectionMemberAbsent        ID = "iv.projection-member-absent"
	IVTermsProjectsIDOnly           ID = "iv.terms-projects-id-only"
	IVIdentityOmitsVersion          ID = "iv.identity-omits-version"
	IVCapabilitiesOmitsSkill        ID = "iv.capabilities-omits-skill"
	IVUsageOmitsInterfaces          ID = "iv.usage-omits-interfaces"
	IVTermsDeclaredFalse            ID = "iv.terms-declared-false"
	IVRefusalsOmitsSkill            ID = "iv.refusals-omits-skill"
	IVAnswersEmpty                  ID = "iv.answers-empty"
	IVQuestionMislabelled           ID = "iv.question-mislabelled"
	IVAnswersFromStaleCard          ID = "iv.answers-from-stale-card"
	IVUsageMethodMissing            ID = "iv.usage-method-missing"
	IVNonIdempotent                 ID = "iv.non-idempotent"
	IVInterviewTouchesTask          ID = "iv.interview-touches-task"
	IVInterviewCreatesTask          ID = "iv.interview-creates-task"
	IVInterviewEnqueuesDeferredTask ID = "iv.interview-enqueues-deferred-task"
	IVTermsFabricatedFromCard       ID = "iv.terms-fabricated-from-card"
	IVTermsFromUncommittedProposal  ID = "iv.terms-from-uncommitted-proposal"
	IVRefusalsUndeclaredGround      ID = "iv.refusals-undeclared-ground"
	IVProposalSourceOmitsDigest     ID = "iv.proposal-source-omits-digest"
	IVProposalSourceUppercaseDigest ID = "iv.proposal-source-uppercase-digest"
	IVValueSummarized               ID = "iv.value-summarized"
	IVAnswerCommentary              ID = "iv.answer-commentary"
	IVProjectionComment             ID = "iv.projection-comment"
	IVUndefinedMethodNotFound       ID = "iv.undefined-method-not-found"
	IVRefusalWrongReason            ID = "iv.refusal-wrong-reason"
	IVRefusalEchoesInput            ID = "iv.refusal-echoes-input"
	IVRefusalSkillsFromMemory       ID = "iv.refusal-skills-from-memory"
	IVFreeTextQuestionHonoured      ID = "iv.free-text-question-honoured"
	IVSelectorCaseFolded            ID = "iv.selector-case-folded"
	IVSelectorPrefixMatch           ID = "iv.selector-prefix-match"
	IVFriendlyHelpMethod            ID = "iv.friendly-help-method"
	IVRefusalDidYouMean             ID = "iv.refusal-did-you-mean"
	IVVerifierSkipsCardSignature    ID = "iv.verifier-skips-card-signature"
	IVVerifierChurnAsPersistent     ID = "iv.verifier-churn-as-persistent"
	IVRendererSelfAsEvidence        ID = "iv.renderer-self-as-evidence"
	IVAbsenceAsDefect               ID = "iv.absence-as-defect"
	IVAbsenceLowersScore            ID = "iv.absence-lowers-score"
	IVRefusalCountedAsFailure       ID = "iv.refusal-counted-as-failure"
	IVResultOmitsRunner             ID = "iv.result-omits-runner"
	IVSelfTierUpgraded              ID = "iv.self-tier-upgraded"
)

// Toggles of the interview extension (document "interview", rows IV-…). Agent-side toggles break the reference
// agents in mockagents/interview; client-side toggles break the harness's own interview verifier
// (refclients/interview*.go) or the claim/evidence banner (harness/evidence StandingWith).
func init() {
	a, c := SideAgent, SideClient
	Register(
		Toggle{ID: IVNoTermsDeclaration, Document: "interview", Side: a, Targets: []string{"IV-3.3"},
			Description: "the main agent's card declares the interview extension but not the terms extension (its proposals still served)"},
		Toggle{ID: IVSelectorMissAnswered, Document: "interview", Side: a, Targets: []string{"IV-4.3"},
			Description: "a skill selector matching no declared id is answered with an empty projection list instead of the standard refusal"},
		Toggle{ID: IVNoTermsRefused, Document: "interview", Side: a, Targets: []string{"IV-4.6"},
			Description: "an agent without a terms extension refuses interview/terms (out_of_scope) instead of answering declared false"},
		Toggle{ID: IVInterviewEntryRequired, Document: "interview", Side: a, Targets: []string{"IV-3.1"},
			Description: "the card's interview extension entry carries \"required\": true (the card is re-signed)"},
		Toggle{ID: IVAnswersWithoutActivation, Document: "interview", Side: a, Targets: []string{"IV-3.2a"},
			Description: "the five interview methods are answered even when the request does not list the interview URI in A2A-Extensions"},
		Toggle{ID: IVNoExtensionsEcho, Document: "interview", Side: a, Targets: []string{"IV-3.2b"},
			Description: "interview answers carry no A2A-Extensions response header"},
		Toggle{ID: IVEchoUnactivated, Document: "interview", Side: a, Targets: []string{"IV-3.2c"},
			Description: "a request without the interview URI in A2A-Extensions is answered -32601 with the URI listed in the A2A-Extensions response header anyway"},
		Toggle{ID: IVUsageSelectorFabricated, Document: "interview", Side: a, Targets: []string{"IV-5.2"},
			Description: "interview/usage with a skill selector adds a projection of /skills/<i>/inputModes whose value lists application/pdf, which the card does not declare"},
		Toggle{ID: IVTermsSelectorUncommitted, Document: "interview", Side: a, Targets: []string{"IV-4.4", "IV-4.1a", "IV-5.1b"},
			Description: "interview/terms with a skill selector adds the clauses of a proposal the card's terms entry does not commit to"},
		Toggle{ID: IVRefusalExtraMember, Document: "interview", Side: a, Targets: []string{"IV-6.1", "IV-4.3", "IV-6.3a", "IV-10.1d"},
			Description: "the standard refusal carries an extra member \"hint\": \"try interview/capabilities\""},
		Toggle{ID: IVTermsProjectsIDOnly, Document: "interview", Side: a, Targets: []string{"IV-4.0d"},
			Description: "interview/terms (no selector) projects each committed proposal by its /id only, no clause"},
		Toggle{ID: IVProjectionMemberAbsent, Document: "interview", Side: a, Targets: []string{"IV-4.1a"},
			Description: "interview/identity's /name projection carries source {document: card} without member"},
		Toggle{ID: IVIdentityOmitsVersion, Document: "interview", Side: a, Targets: []string{"IV-4.0a"},
			Description: "interview/identity leaves out the /version projection"},
		Toggle{ID: IVCapabilitiesOmitsSkill, Document: "interview", Side: a, Targets: []string{"IV-4.0b"},
			Description: "interview/capabilities leaves out the last declared skill"},
		Toggle{ID: IVUsageOmitsInterfaces, Document: "interview", Side: a, Targets: []string{"IV-4.0c"},
			Description: "interview/usage (no selector) leaves out /supportedInterfaces"},
		Toggle{ID: IVTermsDeclaredFalse, Document: "interview", Side: a, Targets: []string{"IV-4.0d"},
			Description: "interview/terms answers {declared: false, projections: []} although the card commits to proposals"},
		Toggle{ID: IVRefusalsOmitsSkill, Document: "interview", Side: a, Targets: []string{"IV-4.0e"},
			Description: "interview/refusals leaves out the last declared skill id"},
		Toggle{ID: IVAnswersEmpty, Document: "interview", Side: a, Targets: []string{"IV-4.0a", "IV-4.0b", "IV-4.0c", "IV-4.0d", "IV-4.0e"},
			Description: "every one of the five methods answers with an empty projection list (terms with declared true)"},
		Toggle{ID: IVQuestionMislabelled, Document: "interview", Side: a, Targets: []string{"IV-5.0"},
			Description: "every answer says question \"identity\", whatever method was asked"},
		Toggle{ID: IVAnswersFromStaleCard, Document: "interview", Side: a, Targets: []string{"IV-4.1a"},
			Description: "answers are projected from an internal snapshot of an older card (version 0.9.0, an extra skill retired-skill at /skills/2) instead of the card as served"},
		Toggle{ID: IVUsageMethodMissing, Document: "interview", Side: a, Targets: []string{"IV-4.1a"},
			Description: "interview/usage answers JSON-RPC -32601 even under activation: one of the five methods is not served"},
		Toggle{ID: IVNonIdempotent, Document: "interview", Side: a, Targets: []string{"IV-4.2a"},
			Description: "from its second call on, interview/identity leaves out its /provider projection (each answer alone is still a valid projection set)"},
		Toggle{ID: IVInterviewTouchesTask, Document: "interview", Side: a, Targets: []string{"IV-4.2b"},
			Description: "each interview call appends an agent message \"interview served\" to the history of the most recently updated task"},
		Toggle{ID: IVInterviewCreatesTask, Document: "interview", Side: a, Targets: []string{"IV-4.2c"},
			Description: "each interview call also stores a completed task, visible in ListTasks; the answer itself is unchanged"},
		Toggle{ID: IVInterviewEnqueuesDeferredTask, Document: "interview", Side: a, Targets: []string{"IV-4.2d"},
			Description: "each interview call puts a job on the agent's work queue; the worker turns it into a task about 30 ms later, after the immediate ListTasks check"},
		Toggle{ID: IVTermsFabricatedFromCard, Document: "interview", Side: a, Targets: []string{"IV-4.4"},
			Description: "the agent without a terms extension (role interview.noterms) answers interview/terms with declared true and a projection of the card's /description"},
		Toggle{ID: IVTermsFromUncommittedProposal, Document: "interview", Side: a, Targets: []string{"IV-4.4"},
			Description: "interview/terms adds a projection of a correctly signed proposal (the directed one) that no terms entry of the card lists"},
		Toggle{ID: IVRefusalsUndeclaredGround, Document: "interview", Side: a, Targets: []string{"IV-4.5"},
			Description: "interview/refusals adds a ground declared nowhere: a card projection of /admissionPolicy, which the card does not have"},
		Toggle{ID: IVProposalSourceOmitsDigest, Document: "interview", Side: a, Targets: []string{"IV-5.1a"},
			Description: "proposal sources in interview/terms leave out source.digest"},
		Toggle{ID: IVProposalSourceUppercaseDigest, Document: "interview", Side: a, Targets: []string{"IV-5.1b"},
			Description: "proposal sources carry the entry's digest spelled with uppercase hex: same url, same document, not byte-equal to the entry"},
		Toggle{ID: IVValueSummarized, Document: "interview", Side: a, Targets: []string{"IV-5.2"},
			Description: "the capabilities projection of /skills/0/description carries only the description's first sentence"},
		Toggle{ID: IVAnswerCommentary, Document: "interview", Side: a, Targets: []string{"IV-5.3a"},
			Description: "every answer carries a top-level \"note\": \"Happy to help!\""},
		Toggle{ID: IVProjectionComment, Document: "interview", Side: a, Targets: []string{"IV-5.3b"},
			Description: "each interview/capabilities projection carries a \"comment\" member beside source and value"},
		Toggle{ID: IVUndefinedMethodNotFound, Document: "interview", Side: a, Targets: []string{"IV-6.1"},
			Description: "under activation, undefined interview/ methods get JSON-RPC -32601 instead of the standard refusal"},
		Toggle{ID: IVRefusalWrongReason, Document: "interview", Side: a, Targets: []string{"IV-6.1"},
			Description: "the standard refusal carries reason \"unknown_method\", outside the closed set"},
		Toggle{ID: IVRefusalEchoesInput, Document: "interview", Side: a, Targets: []string{"IV-6.3a"},
			Description: "the refusal's detail repeats the request's method name or selector"},
		Toggle{ID: IVRefusalSkillsFromMemory, Document: "interview", Side: a, Targets: []string{"IV-6.3a"},
			Description: "the refusal's declared_skills comes from a remembered older card (it still lists retired-skill)"},
		Toggle{ID: IVFreeTextQuestionHonoured, Document: "interview", Side: a, Targets: []string{"IV-10.1a"},
			Description: "a free-text \"question\" param is read: only projections whose value mentions one of its words are kept"},
		Toggle{ID: IVSelectorCaseFolded, Document: "interview", Side: a, Targets: []string{"IV-10.1b"},
			Description: "skill selectors are lowercased and trimmed before matching"},
		Toggle{ID: IVSelectorPrefixMatch, Document: "interview", Side: a, Targets: []string{"IV-10.1b"},
			Description: "a skill selector matches the first declared id it is a prefix of"},
		Toggle{ID: IVFriendlyHelpMethod, Document: "interview", Side: a, Targets: []string{"IV-10.1c"},
			Description: "interview/help is answered with an answer object projecting the card's /description"},
		Toggle{ID: IVRefusalDidYouMean, Document: "interview", Side: a, Targets: []string{"IV-10.1d"},
			Description: "a selector within edit distance 2 of a declared id draws a refusal with an extra \"did_you_mean\" member"},

		Toggle{ID: IVVerifierSkipsCardSignature, Document: "interview", Side: c, Targets: []string{"IV-4.1a"},
			Description: "the interview verifier skips step 1's card signature check, so a card altered after signing is diffed as if published"},
		Toggle{ID: IVVerifierChurnAsPersistent, Document: "interview", Side: c, Targets: []string{"IV-5.2"},
			Description: "the interview verifier counts a first-round conflict as persistent, without re-fetching the card and re-asking (interview §7 rule 3)"},
		Toggle{ID: IVRendererSelfAsEvidence, Document: "interview", Side: c, Targets: []string{"IV-8.1"},
			Description: "the claim/evidence banner presents every bundle as EVIDENCE, whatever its tier"},
		Toggle{ID: IVAbsenceAsDefect, Document: "interview", Side: c, Targets: []string{"IV-9.2a"},
			Description: "the interview applicability step describes a card without the extension as evading the interview"},
		Toggle{ID: IVAbsenceLowersScore, Document: "interview", Side: c, Targets: []string{"IV-9.2b"},
			Description: "the interview applicability step turns absence into blocked rows, which lower the totals and the exit status"},
		Toggle{ID: IVRefusalCountedAsFailure, Document: "interview", Side: c, Targets: []string{"IV-9.3"},
			Description: "the interview verifier counts a closure probe that drew the standard refusal as a failure"},
		Toggle{ID: IVResultOmitsRunner, Document: "interview", Side: c, Targets: []string{"IV-9.4a"},
			Description: "the interview verifier's recorded result leaves out who ran it"},
		Toggle{ID: IVSelfTierUpgraded, Document: "interview", Side: c, Targets: []string{"IV-9.4b"},
			Description: "the interview verifier records a self-run result with standing \"evidence\""},
	)
}
