// Agent-side sabotage toggles of the schema-interface document: each breaks one behaviour of the reference agent
// (mockagents/schemaiface), which consults it at the place the requirement is honoured.
package sabotage

// The toggles' ids, in registration order; each toggle's targets and description are registered below.
const (
	SIAgentFormatAsAnnotation           ID = "si.agent-format-as-annotation"
	SIInputRequiredTypesOnly            ID = "si.input-required-types-only"
	SIInputRefSkipped                   ID = "si.input-ref-skipped"
	SIBindingMissingAsCurrent           ID = "si.binding-missing-as-current"
	SIAgentLenientDateTime              ID = "si.agent-lenient-date-time"
	SIAgentNoNestingLimit               ID = "si.agent-no-nesting-limit"
	SIAgentNoPayloadLimit               ID = "si.agent-no-payload-limit"
	SIApprovalFailureWrongCode          ID = "si.approval-failure-wrong-code"
	SIApprovalFlagFalse                 ID = "si.approval-flag-false"
	SIApprovalRemembered                ID = "si.approval-remembered"
	SIApprovalUnenforced                ID = "si.approval-unenforced"
	SIAuthnFailureNoCode                ID = "si.authn-failure-no-code"
	SIPreTaskErrorNoCode                ID = "si.pre-task-error-no-code"
	SILimitTaskCanceled                 ID = "si.limit-task-canceled"
	SIOutputRefsNotArtifactID           ID = "si.output-refs-not-artifact-id"
	SIAuthnSkipped                      ID = "si.authn-skipped"
	SIAuthnSkippedOneSkill              ID = "si.authn-skipped-one-skill"
	SIAuthzBypassedByValidRequest       ID = "si.authz-bypassed-by-valid-request"
	SIAuthzConstraintUnchecked          ID = "si.authz-constraint-unchecked"
	SIAuthzDecisionCached               ID = "si.authz-decision-cached"
	SIAuthzFailureWrongCode             ID = "si.authz-failure-wrong-code"
	SIAuthzOperationUnchecked           ID = "si.authz-operation-unchecked"
	SIAuthzResourceUnchecked            ID = "si.authz-resource-unchecked"
	SIAuthzSkillUnchecked               ID = "si.authz-skill-unchecked"
	SIAuthzSkippedForObserveOnly        ID = "si.authz-skipped-for-observe-only"
	SIAuthzStateFailed                  ID = "si.authz-state-failed"
	SICardAdvertisesRemovedVersion      ID = "si.card-advertises-removed-version"
	SICardDuplicateSkillIDVersions      ID = "si.card-duplicate-skill-id-versions"
	SICardEntryOmitInterfaceDigest      ID = "si.card-entry-omit-interface-digest"
	SICardEntryOmitSkillID              ID = "si.card-entry-omit-skill-id"
	SICardEntryOmitSkillVersion         ID = "si.card-entry-omit-skill-version"
	SICardEntryUnknownSkillID           ID = "si.card-entry-unknown-skill-id"
	SICardInterfaceVersion11            ID = "si.card-interface-version-1-1"
	SICardOmitDescribeSkill             ID = "si.card-omit-describe-skill"
	SICardOmitDomainSkill               ID = "si.card-omit-domain-skill"
	SICardOmitExtension                 ID = "si.card-omit-extension"
	SICardSkillsNotArray                ID = "si.card-skills-not-array"
	SICardStaleInterfaceDigest          ID = "si.card-stale-interface-digest"
	SIConstraintIgnoreFreshness         ID = "si.constraint-ignore-freshness"
	SIConstraintIgnoreScope             ID = "si.constraint-ignore-scope"
	SIConstraintIgnoreUnit              ID = "si.constraint-ignore-unit"
	SIConstraintIgnoreWindow            ID = "si.constraint-ignore-window"
	SIConstraintInMetadata              ID = "si.constraint-in-metadata"
	SIConstraintSilentlyIgnored         ID = "si.constraint-silently-ignored"
	SIConstraintStateFailed             ID = "si.constraint-state-failed"
	SIConstraintUnvalidated             ID = "si.constraint-unvalidated"
	SIConstraintWrongCode               ID = "si.constraint-wrong-code"
	SIDescribeArtifactName              ID = "si.describe-artifact-name"
	SIDescribeAssembledPerRequest       ID = "si.describe-assembled-per-request"
	SIDescribeDigestDiffers             ID = "si.describe-digest-differs"
	SIDescribeDocAsString               ID = "si.describe-doc-as-string"
	SIDescribeExtraArtifact             ID = "si.describe-extra-artifact"
	SIDescribeExtraPart                 ID = "si.describe-extra-part"
	SIDescribeFailureStateRejected      ID = "si.describe-failure-state-rejected"
	SIDescribeInvalidDocument           ID = "si.describe-invalid-document"
	SIDescribeOmitDigest                ID = "si.describe-omit-digest"
	SIDescribeOmitSkillMember           ID = "si.describe-omit-skill-member"
	SIDescribeOpaqueFallback            ID = "si.describe-opaque-fallback"
	SIDescribeOtherSkillVersion         ID = "si.describe-other-skill-version"
	SIDescribeRedefineStructure         ID = "si.describe-redefine-structure"
	SIDescribeTamperedDocument          ID = "si.describe-tampered-document"
	SIDescribeTaskNotCompleted          ID = "si.describe-task-not-completed"
	SIDescribeTextOnly                  ID = "si.describe-text-only"
	SINoExtensionsEcho                  ID = "si.no-extensions-echo"
	SIDetailsDottedPath                 ID = "si.details-dotted-path"
	SIDetailsEchoCredential             ID = "si.details-echo-credential"
	SIDetailsEchoOtherTenant            ID = "si.details-echo-other-tenant"
	SIDetailsEchoPolicy                 ID = "si.details-echo-policy"
	SIDetailsEchoProhibitedInput        ID = "si.details-echo-prohibited-input"
	SIDocumentAuthorityExtraMode        ID = "si.document-authority-extra-mode"
	SIDocumentDuplicateKind             ID = "si.document-duplicate-kind"
	SIDocumentExtraMember               ID = "si.document-extra-member"
	SIDocumentKindEqualsSkillID         ID = "si.document-kind-equals-skill-id"
	SIErrorCodeTopLevel                 ID = "si.error-code-top-level"
	SIErrorCodeUppercase                ID = "si.error-code-uppercase"
	SIErrorTwoDataParts                 ID = "si.error-two-data-parts"
	SIErrorSingleGenericCode            ID = "si.error-single-generic-code"
	SIGetTaskPartialResult              ID = "si.gettask-partial-result"
	SIInitOpaqueFallback                ID = "si.init-opaque-fallback"
	SIInputInvalidStateFailed           ID = "si.input-invalid-state-failed"
	SIInputInvalidWrongCode             ID = "si.input-invalid-wrong-code"
	SIInputNotValidated                 ID = "si.input-not-validated"
	SIInputValidatedAfterDomain         ID = "si.input-validated-after-domain"
	SIInstanceFailureAsInterfaceInvalid ID = "si.instance-failure-as-interface-invalid"
	SIInvalidDocumentExecutes           ID = "si.invalid-document-executes"
	SIInvalidDocumentWrongCode          ID = "si.invalid-document-wrong-code"
	SIInvokeDuplicateResultArtifact     ID = "si.invoke-duplicate-result-artifact"
	SIInvokeResultMissingSkillMember    ID = "si.invoke-result-missing-skill-member"
	SIInvokeTaskNotCompleted            ID = "si.invoke-task-not-completed"
	SILimitReportedAsInputInvalid       ID = "si.limit-reported-as-input-invalid"
	SIMappingTextParts                  ID = "si.mapping-text-parts"
	SIMismatchIgnoreDigest              ID = "si.mismatch-ignore-digest"
	SIMismatchIgnoreSkillVersion        ID = "si.mismatch-ignore-skill-version"
	SIMismatchStateFailed               ID = "si.mismatch-state-failed"
	SIMultiopNoOperationBranch          ID = "si.multiop-no-operation-branch"
	SIMultiopSelectorOptional           ID = "si.multiop-selector-optional"
	SIMultiopSelectorUnenumerated       ID = "si.multiop-selector-unenumerated"
	SIOutputInvalidStateCompleted       ID = "si.output-invalid-state-completed"
	SIOutputViolatesSchema              ID = "si.output-violates-schema"
	SIPreTaskErrorAsMessage             ID = "si.pre-task-error-as-message"
	SIRecordArtifactNamedSkillID        ID = "si.record-artifact-named-skill-id"
	SIRecordArtifactWrongName           ID = "si.record-artifact-wrong-name"
	SIRecordBadDateTime                 ID = "si.record-bad-date-time"
	SIRecordInResultArtifact            ID = "si.record-in-result-artifact"
	SIRecordMissingObservedAt           ID = "si.record-missing-observed-at"
	SIRecordTwoParts                    ID = "si.record-two-parts"
	SISchemaDigestNonJCS                ID = "si.schema-digest-non-jcs"
	SISchemaDigestUppercaseHex          ID = "si.schema-digest-uppercase-hex"
	SISchemaDuplicateMember             ID = "si.schema-duplicate-member"
	SISchemaEmbeddedOtherDialect        ID = "si.schema-embedded-other-dialect"
	SISchemaEmbeddedRelativeID          ID = "si.schema-embedded-relative-id"
	SISchemaExternalLocator             ID = "si.schema-external-locator"
	SISchemaExternalRef                 ID = "si.schema-external-ref"
	SISchemaOmitInlineSchema            ID = "si.schema-omit-inline-schema"
	SISchemaResolutionTypeURI           ID = "si.schema-resolution-type-uri"
	SISchemaVersionLatest               ID = "si.schema-version-latest"
	SISchemaVersionRange                ID = "si.schema-version-range"
	SISchemaVersionReusedWithNewDigest  ID = "si.schema-version-reused-with-new-digest"
	SISemanticValidationSkipped         ID = "si.semantic-validation-skipped"
	SIStaleBindingAccepted              ID = "si.stale-binding-accepted"
	SIStreamAssembledResultInvalid      ID = "si.stream-assembled-result-invalid"
	SIUnadvertisedSkillGenericError     ID = "si.unadvertised-skill-generic-error"
	SIUnavailableWrongCode              ID = "si.unavailable-wrong-code"
	SIValidateBeforeCompare             ID = "si.validate-before-compare"
)

func init() {
	Register(
		Toggle{ID: SIBindingMissingAsCurrent, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.35a", "SI-9.35b"},
			Description: "an invocation without skill_version or interface_digest (or with one that is not a string) is executed as if it named the current binding"},
		Toggle{ID: SIInputRequiredTypesOnly, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.37a", "SI-9.65b"},
			Description: "evaluate_resource_condition's input validator checks only required members and types: enum, const, bounds, multipleOf, pattern, lengths, item counts and nested additionalProperties are not enforced"},
		Toggle{ID: SIInputRefSkipped, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.37a", "SI-9.37b", "SI-9.49a", "SI-9.50b", "SI-9.56a", "SI-9.65b"},
			Description: "evaluate_resource_condition's input_schema wraps the input in a top-level $ref into $defs, and the agent's validator skips every $ref schema (so it validates nothing)"},
		Toggle{ID: SIAgentFormatAsAnnotation, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-6.12b"},
			Description: "the agent's input validation treats format as an annotation (measure_link_bandwidth accepts observed_after \"yesterday\")"},
		Toggle{ID: SIAgentLenientDateTime, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-6.13b"},
			Description: "the agent's date-time check accepts a timestamp without a UTC offset (2026-08-11T12:00:01)"},
		Toggle{ID: SIAgentNoNestingLimit, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-12.2i"},
			Description: "no nesting limit is enforced on incoming request JSON"},
		Toggle{ID: SIAgentNoPayloadLimit, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-12.2h"},
			Description: "no size limit is enforced on incoming requests"},
		Toggle{ID: SIApprovalFailureWrongCode, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-12.8c"},
			Description: "unapproved deletes are refused with constraint_rejected instead of authorization_failed"},
		Toggle{ID: SIApprovalFlagFalse, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-8.5"},
			Description: "manage_resource advertises authority.approval_may_be_required false although delete may need approval"},
		Toggle{ID: SIApprovalRemembered, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-8.6b"},
			Description: "after one approved delete the principal is treated as approved for every later delete"},
		Toggle{ID: SIApprovalUnenforced, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-8.8"},
			Description: "deletes that need approval proceed without it"},
		Toggle{ID: SILimitTaskCanceled, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.51c"},
			Description: "a request over the nesting limit is refused through a Task ending TASK_STATE_CANCELED (not REJECTED) with resource_limit_exceeded"},
		Toggle{ID: SIPreTaskErrorNoCode, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.48b"},
			Description: "the 401 refusing an unauthenticated caller carries only the A2A ErrorInfo (UNAUTHENTICATED), no condition code"},
		Toggle{ID: SIOutputRefsNotArtifactID, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-6.15"},
			Description: "supporting-record Artifacts get artifactIds (rec-<n>) the output's references never name"},
		Toggle{ID: SIAuthnFailureNoCode, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-12.8a"},
			Description: "authentication failures are answered 401 UNAUTHENTICATED naming the condition input_invalid instead of authorization_failed"},
		Toggle{ID: SIAuthnSkipped, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-8.7a", "SI-12.5a"},
			Description: "requests without or with an unknown credential are processed as principal A"},
		Toggle{ID: SIAuthnSkippedOneSkill, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-8.7a", "SI-12.5a"},
			Description: "measure_link_bandwidth (not the primary skill) processes requests without a credential as principal A; every other skill still authenticates"},
		Toggle{ID: SIAuthzBypassedByValidRequest, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-12.7a", "SI-12.7b"},
			Description: "a request whose binding matches the active document and whose arguments validate skips authorization"},
		Toggle{ID: SIAuthzConstraintUnchecked, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-8.7e", "SI-12.5e"},
			Description: "constraint grants are not checked (B may demand max_age_seconds below 60)"},
		Toggle{ID: SIAuthzDecisionCached, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-12.6", "SI-12.7c"},
			Description: "the first authorization decision per principal and skill is cached and reused after a grant is revoked"},
		Toggle{ID: SIAuthzFailureWrongCode, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-12.8b"},
			Description: "authorization refusals carry code input_invalid"},
		Toggle{ID: SIAuthzOperationUnchecked, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-8.6a", "SI-8.7d", "SI-12.5d"},
			Description: "operation grants are not checked (B may delete)"},
		Toggle{ID: SIAuthzResourceUnchecked, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-8.7c", "SI-12.5c"},
			Description: "resource grants are not checked (B may read r-a-only)"},
		Toggle{ID: SIAuthzSkillUnchecked, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-8.7b", "SI-12.5b"},
			Description: "skill grants are not checked (B may invoke evaluate_resource_condition)"},
		Toggle{ID: SIAuthzSkippedForObserveOnly, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-8.2b", "SI-8.3", "SI-12.4b"},
			Description: "authorization is skipped for skills whose authority.default_mode is observe_only"},
		Toggle{ID: SIAuthzStateFailed, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.50d"},
			Description: "authorization_failed refusals end in TASK_STATE_FAILED"},
		Toggle{ID: SICardAdvertisesRemovedVersion, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.11"},
			Description: "the active evaluate_resource_condition document is 1.1 but the card still advertises the removed 1.0 binding"},
		Toggle{ID: SICardDuplicateSkillIDVersions, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.9"},
			Description: "params.skills carries two entries for evaluate_resource_condition (1.0 and 2.0)"},
		Toggle{ID: SICardEntryOmitInterfaceDigest, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-2.1a", "SI-9.6c"},
			Description: "the evaluate_resource_condition entry of params.skills lacks interface_digest"},
		Toggle{ID: SICardEntryOmitSkillID, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.6a"},
			Description: "the manage_resource entry of params.skills lacks skill_id"},
		Toggle{ID: SICardEntryOmitSkillVersion, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.6b"},
			Description: "the evaluate_resource_condition entry of params.skills lacks skill_version"},
		Toggle{ID: SICardEntryUnknownSkillID, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.7"},
			Description: "an extra params.skills entry names ghost_skill, which has no AgentSkill in skills[]"},
		Toggle{ID: SICardInterfaceVersion11, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.5a"},
			Description: "params.interface_version is \"1.1\""},
		Toggle{ID: SICardOmitDescribeSkill, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.1a"},
			Description: "the card keeps the extension but drops the describe_skill AgentSkill"},
		Toggle{ID: SICardOmitDomainSkill, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.1b", "SI-9.7"},
			Description: "the card keeps evaluate_resource_condition in params.skills but drops its AgentSkill"},
		Toggle{ID: SICardOmitExtension, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.2"},
			Description: "the card keeps describe_skill but drops the schema-interface entry from capabilities.extensions"},
		Toggle{ID: SICardSkillsNotArray, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.5b"},
			Description: "params.skills is an object keyed by skill_id instead of an array"},
		Toggle{ID: SICardStaleInterfaceDigest, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.8"},
			Description: "the card advertises the digest of an earlier evaluate_resource_condition document"},
		Toggle{ID: SIConstraintIgnoreFreshness, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.67d"},
			Description: "max_age_seconds is ignored: the 30-second-old observation is returned for a 1-second freshness bound"},
		Toggle{ID: SIConstraintIgnoreScope, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.67b"},
			Description: "scope is ignored: the link observation is returned for scope path"},
		Toggle{ID: SIConstraintIgnoreUnit, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.67c"},
			Description: "an unsupported unit (pps) is ignored and Gbps is returned"},
		Toggle{ID: SIConstraintIgnoreWindow, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.67a"},
			Description: "window_seconds is ignored: the 60 s aggregate is returned for a 5 s window"},
		Toggle{ID: SIConstraintInMetadata, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-8.10a"},
			Description: "measure_link_bandwidth reads max_age_seconds from message.metadata; its input_schema lacks the member"},
		Toggle{ID: SIConstraintSilentlyIgnored, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-8.11a", "SI-8.11b"},
			Description: "constraints the agent cannot honour are ignored and the task completes"},
		Toggle{ID: SIConstraintStateFailed, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.50c"},
			Description: "constraint_rejected refusals end in TASK_STATE_FAILED"},
		Toggle{ID: SIConstraintUnvalidated, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-8.10b"},
			Description: "measure_link_bandwidth's input_schema declares window_seconds as {} (any value)"},
		Toggle{ID: SIConstraintWrongCode, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-8.11a", "SI-9.68a"},
			Description: "unsatisfiable constraints are refused with input_invalid"},
		Toggle{ID: SIDescribeArtifactName, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.18a"},
			Description: "the describe_skill Artifact is named interface"},
		Toggle{ID: SIDescribeAssembledPerRequest, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.24", "SI-9.25b"},
			Description: "describe_skill re-assembles the document per request, writing a request counter into input_schema's $comment"},
		Toggle{ID: SIDescribeDigestDiffers, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-2.2a", "SI-9.21"},
			Description: "describe_skill's result.interface_digest is the digest of another document"},
		Toggle{ID: SIDescribeDocAsString, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.12b", "SI-9.19b"},
			Description: "result.interface is the document serialized as a JSON string"},
		Toggle{ID: SIDescribeExtraArtifact, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.17b"},
			Description: "the describe_skill Task carries a second Artifact (text notes)"},
		Toggle{ID: SIDescribeExtraPart, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.18b"},
			Description: "the describe_skill Artifact carries a text part before the Data Part"},
		Toggle{ID: SIDescribeFailureStateRejected, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.51a"},
			Description: "describe_skill failures (interface_unavailable, interface_invalid) end in TASK_STATE_REJECTED"},
		Toggle{ID: SIDescribeInvalidDocument, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-6.14"},
			Description: "the manage_resource document lacks the output_schema member (the card digest is computed over it)"},
		Toggle{ID: SIDescribeOmitDigest, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-2.1b", "SI-9.12b", "SI-9.19c"},
			Description: "describe_skill's result lacks interface_digest"},
		Toggle{ID: SIDescribeOmitSkillMember, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.19a"},
			Description: "the describe_skill result object lacks the skill member"},
		Toggle{ID: SIDescribeOpaqueFallback, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.29a"},
			Description: "describe_skill(manage_resource) completes with a text part holding the document bytes instead of the result object"},
		Toggle{ID: SIDescribeOtherSkillVersion, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.20", "SI-9.26"},
			Description: "describe_skill returns the evaluate_resource_condition 1.1 document (and its digest) while the card advertises 1.0"},
		Toggle{ID: SIDescribeRedefineStructure, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.25a"},
			Description: "the served documents rename input_schema and output_schema to input and output (card digests computed over them)"},
		Toggle{ID: SIDescribeTamperedDocument, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-2.2a", "SI-9.26"},
			Description: "describe_skill returns the evaluate_resource_condition document with interaction.cancellable flipped; both carried digests stay the advertised one"},
		Toggle{ID: SIDescribeTaskNotCompleted, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.17a"},
			Description: "describe_skill answers with a Message carrying the result object, no Task"},
		Toggle{ID: SINoExtensionsEcho, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.3c"},
			Description: "the agent activates the extension but sends no A2A-Extensions response header"},
		Toggle{ID: SIDescribeTextOnly, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.12a"},
			Description: "describe_skill refuses the Data Part request object and accepts only a text part naming the skill"},
		Toggle{ID: SIDetailsDottedPath, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.56a"},
			Description: "input_invalid details use dotted paths (condition.threshold) instead of JSON Pointers"},
		Toggle{ID: SIDetailsEchoCredential, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.57a"},
			Description: "error messages echo the request's Authorization header"},
		Toggle{ID: SIDetailsEchoOtherTenant, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.57d"},
			Description: "authorization_failed details include the refused resource's owner and label"},
		Toggle{ID: SIDetailsEchoPolicy, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.57b"},
			Description: "authorization_failed messages name the matched policy rule id"},
		Toggle{ID: SIDetailsEchoProhibitedInput, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.57c"},
			Description: "input_invalid details echo every argument value, secret_ref included"},
		Toggle{ID: SIDocumentAuthorityExtraMode, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-12.10a"},
			Description: "manage_resource's authority.default_mode is execute_with_approval"},
		Toggle{ID: SIDocumentDuplicateKind, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-8.14a"},
			Description: "evaluate_resource_condition's supporting_record_schemas lists kind resource-observation twice"},
		Toggle{ID: SIDocumentExtraMember, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-8.1"},
			Description: "every document carries interaction.supported_response_modes as one string \"sync,stream\" instead of an array (card digests computed over it)"},
		Toggle{ID: SIDocumentKindEqualsSkillID, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-8.14b"},
			Description: "measure_link_bandwidth's supporting-record kind is measure_link_bandwidth"},
		Toggle{ID: SIErrorCodeTopLevel, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.46b"},
			Description: "the error Data Part is {\"code\":…,\"message\":…} without the error wrapper"},
		Toggle{ID: SIErrorCodeUppercase, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.47"},
			Description: "condition codes are written in uppercase (INPUT_INVALID)"},
		Toggle{ID: SIErrorTwoDataParts, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.46a"},
			Description: "error status Messages carry a second Data Part ({\"detail\": …}) besides the error Data Part"},
		Toggle{ID: SIErrorSingleGenericCode, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.52b"},
			Description: "every condition is reported with code input_invalid"},
		Toggle{ID: SIGetTaskPartialResult, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.43b"},
			Description: "GetTask returns the primary result Artifact as of its first, incomplete chunk"},
		Toggle{ID: SIInitOpaqueFallback, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-10.1"},
			Description: "broken_init is advertised with a document whose schemas are true, and any payload is executed"},
		Toggle{ID: SIInputInvalidStateFailed, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.50b"},
			Description: "input_invalid refusals end in TASK_STATE_FAILED"},
		Toggle{ID: SIInputInvalidWrongCode, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.37a"},
			Description: "schema failures of arguments are reported as constraint_rejected"},
		Toggle{ID: SIInputNotValidated, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-6.5a", "SI-9.37a", "SI-9.65b"},
			Description: "the agent skips input_schema validation and runs domain logic on any arguments"},
		Toggle{ID: SIInputValidatedAfterDomain, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.37b"},
			Description: "domain logic runs first (records emitted, deletes applied), then the input is validated and rejected"},
		Toggle{ID: SIInstanceFailureAsInterfaceInvalid, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.49a"},
			Description: "invalid arguments are reported with code interface_invalid"},
		Toggle{ID: SIInvalidDocumentExecutes, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.29b"},
			Description: "domain invocations of legacy_probe (corrupt stored document) are executed and complete"},
		Toggle{ID: SIInvalidDocumentWrongCode, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.28"},
			Description: "describe_skill(legacy_probe) reports interface_unavailable instead of interface_invalid"},
		Toggle{ID: SIInvokeDuplicateResultArtifact, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.38b"},
			Description: "the completed Task carries two Artifacts named after the skill"},
		Toggle{ID: SIInvokeResultMissingSkillMember, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.38c"},
			Description: "the primary result data lacks the skill member"},
		Toggle{ID: SIInvokeTaskNotCompleted, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.38a"},
			Description: "successful domain invocations are answered with a Message, no Task"},
		Toggle{ID: SILimitReportedAsInputInvalid, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-12.3a"},
			Description: "limit refusals carry code input_invalid"},
		Toggle{ID: SIMappingTextParts, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-4.1a", "SI-9.18b", "SI-9.38b"},
			Description: "describe_skill and domain results are carried as text parts holding JSON instead of Data Parts"},
		Toggle{ID: SIMismatchIgnoreDigest, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.35b"},
			Description: "the binding comparison ignores interface_digest"},
		Toggle{ID: SIMismatchIgnoreSkillVersion, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.35a"},
			Description: "the binding comparison ignores skill_version"},
		Toggle{ID: SIMismatchStateFailed, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.50a", "SI-9.54b"},
			Description: "interface_mismatch refusals end in TASK_STATE_FAILED"},
		Toggle{ID: SIMultiopNoOperationBranch, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-8.4c"},
			Description: "manage_resource's if/then requiring reason for delete is removed"},
		Toggle{ID: SIMultiopSelectorOptional, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-8.4a"},
			Description: "manage_resource's input_schema drops operation from required"},
		Toggle{ID: SIMultiopSelectorUnenumerated, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-8.4b"},
			Description: "manage_resource's operation is {\"type\":\"string\"} without enum"},
		Toggle{ID: SIOutputInvalidStateCompleted, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.51b", "SI-9.58b"},
			Description: "for the fault input the invalid output is returned in a COMPLETED task"},
		Toggle{ID: SIOutputViolatesSchema, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-8.12", "SI-9.39", "SI-9.58a"},
			Description: "evaluate_resource_condition's result is \"maybe\" (outside the output enum) and the task completes"},
		Toggle{ID: SIPreTaskErrorAsMessage, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.48"},
			Description: "refusals made before task creation (authentication, limits) come back as a successful message result carrying the error Data Part"},
		Toggle{ID: SIRecordArtifactNamedSkillID, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.42"},
			Description: "the supporting-record Artifact is named evaluate_resource_condition"},
		Toggle{ID: SIRecordArtifactWrongName, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.41a"},
			Description: "the supporting-record Artifact is named observation (no such kind)"},
		Toggle{ID: SIRecordBadDateTime, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-8.13", "SI-9.41c"},
			Description: "the resource-observation record's observed_at has no UTC offset (2026-08-11T12:00:01)"},
		Toggle{ID: SIRecordInResultArtifact, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-8.15", "SI-9.40"},
			Description: "the supporting record is a second Data Part of the primary result Artifact instead of its own Artifact"},
		Toggle{ID: SIRecordMissingObservedAt, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-8.13", "SI-9.41c"},
			Description: "the resource-observation record lacks observed_at"},
		Toggle{ID: SIRecordTwoParts, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.41b"},
			Description: "the supporting record is split over two Data Parts of its Artifact"},
		Toggle{ID: SISchemaDigestNonJCS, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-7.1a"},
			Description: "Schema Reference digests are computed over indented JSON in source member order instead of JCS"},
		Toggle{ID: SISchemaDigestUppercaseHex, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-7.2"},
			Description: "Schema Reference digests are written with uppercase hex"},
		Toggle{ID: SISchemaDuplicateMember, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-7.3"},
			Description: "evaluate_resource_condition's input resolution.schema is served with a duplicated type member in its raw JSON"},
		Toggle{ID: SISchemaEmbeddedOtherDialect, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-6.10"},
			Description: "manage_resource's embedded schema resource declares $schema draft-07"},
		Toggle{ID: SISchemaEmbeddedRelativeID, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-6.8"},
			Description: "manage_resource's embedded schema resource used as a $ref target has the relative $id common.json"},
		Toggle{ID: SISchemaExternalLocator, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-6.6", "SI-7.4b", "SI-7.5", "SI-9.23a"},
			Description: "evaluate_resource_condition's output_schema resolution carries uri https://schemas.example/out.json instead of schema"},
		Toggle{ID: SISchemaExternalRef, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-6.7", "SI-12.1"},
			Description: "measure_link_bandwidth's input schema refers to https://schemas.example/common.json#/$defs/unit"},
		Toggle{ID: SISchemaOmitInlineSchema, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-6.6", "SI-7.4b", "SI-9.23a"},
			Description: "evaluate_resource_condition's input_schema resolution is {\"type\":\"inline\"} without schema"},
		Toggle{ID: SISchemaResolutionTypeURI, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-7.4a", "SI-9.23b"},
			Description: "evaluate_resource_condition's output_schema resolution.type is \"uri\" (schema still present)"},
		Toggle{ID: SISchemaVersionLatest, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-11.3b"},
			Description: "evaluate_resource_condition's output Schema Reference version is \"latest\""},
		Toggle{ID: SISchemaVersionRange, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-11.2", "SI-11.3a"},
			Description: "evaluate_resource_condition's input Schema Reference version is \"1.x\""},
		Toggle{ID: SISchemaVersionReusedWithNewDigest, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-11.1"},
			Description: "manage_resource's output Schema Reference reuses evaluate_resource_condition's output schema_uri and version with different content"},
		Toggle{ID: SISemanticValidationSkipped, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-6.5b"},
			Description: "manage_resource skips its domain checks and deletes the protected resource sys-root"},
		Toggle{ID: SIStaleBindingAccepted, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.54a", "SI-9.54b"},
			Description: "the previous propose_remediation binding (1.0) is still accepted and executed after the 1.1 rotation"},
		Toggle{ID: SIStreamAssembledResultInvalid, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.43a"},
			Description: "streaming: the last chunk appends the remaining fields as a second Data Part, so the assembled result is not one valid object"},
		Toggle{ID: SIUnadvertisedSkillGenericError, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.52a"},
			Description: "describe_skill for an unadvertised skill_id is answered with JSON-RPC -32602 exposing the condition interface_unavailable (a binding error exposing no condition is permitted: the code there is a SHOULD)"},
		Toggle{ID: SIUnavailableWrongCode, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.27"},
			Description: "describe_skill(inventory_snapshot) reports interface_invalid instead of interface_unavailable"},
		Toggle{ID: SIValidateBeforeCompare, Document: "schema-interface", Side: SideAgent, Targets: []string{"SI-9.34"},
			Description: "arguments are validated before the binding is compared (invalid arguments + wrong digest → input_invalid)"},
	)
}
