package sabotage

// The toggles' ids, in registration order; each toggle's targets and description are registered below.
const (
	SIClientInvokeOmitDigest                ID = "si.client-invoke-omit-digest"
	SIClientTextPartRequests                ID = "si.client-text-part-requests"
	SIClientNoActivationHeader              ID = "si.client-no-activation-header"
	SIClientNoMessageExtensions             ID = "si.client-no-message-extensions"
	SIClientDescribeCustomMethod            ID = "si.client-describe-custom-method"
	SIClientDescribeRoleAgent               ID = "si.client-describe-role-agent"
	SIClientDescribeExtraTextPart           ID = "si.client-describe-extra-text-part"
	SIClientDescribeFlatSkillID             ID = "si.client-describe-flat-skill-id"
	SIClientNegotiateVersion                ID = "si.client-negotiate-version"
	SIClientInferVersionRange               ID = "si.client-infer-version-range"
	SIClientInvokeExtraTextPart             ID = "si.client-invoke-extra-text-part"
	SIClientInvokeFlatArguments             ID = "si.client-invoke-flat-arguments"
	SIClientInvokeSkillName                 ID = "si.client-invoke-skill-name"
	SIClientInvokeWrongSkillVersion         ID = "si.client-invoke-wrong-skill-version"
	SIClientInvokeWrongDigest               ID = "si.client-invoke-wrong-digest"
	SIClientSkipInputValidation             ID = "si.client-skip-input-validation"
	SIClientSkipDocumentDigest              ID = "si.client-skip-document-digest"
	SIClientDigestRawBytes                  ID = "si.client-digest-raw-bytes"
	SIClientSkipSchemaDigest                ID = "si.client-skip-schema-digest"
	SIClientAcceptInvalidDocument           ID = "si.client-accept-invalid-document"
	SIClientDelegateAfterInvalid            ID = "si.client-delegate-after-invalid"
	SIClientSchemaLoosened                  ID = "si.client-schema-loosened"
	SIClientSkipSchemaIntegrity             ID = "si.client-skip-schema-integrity"
	SIClientAcceptOtherSkillDocument        ID = "si.client-accept-other-skill-document"
	SIClientAcceptOtherVersionDocument      ID = "si.client-accept-other-version-document"
	SIClientVersionAsInterfaceInvalid       ID = "si.client-version-as-interface-invalid"
	SIClientValidatorRetrievalEnabled       ID = "si.client-validator-retrieval-enabled"
	SIClientIgnoreUnresolvedRef             ID = "si.client-ignore-unresolved-ref"
	SIClientAcceptMixedDialect              ID = "si.client-accept-mixed-dialect"
	SIClientFormatAsAnnotation              ID = "si.client-format-as-annotation"
	SIClientLenientDateTime                 ID = "si.client-lenient-date-time"
	SIClientNoLimitSchemaSize               ID = "si.client-no-limit-schema-size"
	SIClientNoLimitNesting                  ID = "si.client-no-limit-nesting"
	SIClientNoLimitReferenceDepth           ID = "si.client-no-limit-reference-depth"
	SIClientNoLimitReferenceCycles          ID = "si.client-no-limit-reference-cycles"
	SIClientNoLimitCompilationTime          ID = "si.client-no-limit-compilation-time"
	SIClientNoLimitPayloadSize              ID = "si.client-no-limit-payload-size"
	SIClientNoLimitCacheConsumption         ID = "si.client-no-limit-cache-consumption"
	SIClientLimitWrongCode                  ID = "si.client-limit-wrong-code"
	SIClientFakeRemoteTask                  ID = "si.client-fake-remote-task"
	SIClientContinueAfterLocalError         ID = "si.client-continue-after-local-error"
	SIClientErrorWithoutCode                ID = "si.client-error-without-code"
	SIClientUnadvertisedWrongCode           ID = "si.client-unadvertised-wrong-code"
	SIClientDescribeUnadvertised            ID = "si.client-describe-unadvertised"
	SIClientAssumeConformance               ID = "si.client-assume-conformance"
	SIClientInferSchemaFromMediaType        ID = "si.client-infer-schema-from-media-type"
	SIClientClaimConformanceNonconforming   ID = "si.client-claim-conformance-nonconforming"
	SIClientOutputFailureAsInterfaceInvalid ID = "si.client-output-failure-as-interface-invalid"
	SIClientDetailsNoInstancePath           ID = "si.client-details-no-instance-path"
	SIClientSkipOutputValidation            ID = "si.client-skip-output-validation"
	SIClientUseInvalidOutput                ID = "si.client-use-invalid-output"
	SIClientOutputInvalidAsRemoteState      ID = "si.client-output-invalid-as-remote-state"
	SIClientDelegateWithoutDescribe         ID = "si.client-delegate-without-describe"
	SIClientDelegateWithoutDescribeSkill    ID = "si.client-delegate-without-describe-skill"
	SIClientDelegateAfterDescribeFailure    ID = "si.client-delegate-after-describe-failure"
	SIClientCacheNotBoundToTarget           ID = "si.client-cache-not-bound-to-target"
	SIClientAuthorityAsPermission           ID = "si.client-authority-as-permission"
	SIClientReuseUpstreamTaskID             ID = "si.client-reuse-upstream-task-id"
	SIClientGlobalTaskIDKeying              ID = "si.client-global-task-id-keying"
	SIClientOverloadTaskID                  ID = "si.client-overload-task-id"
	SIClientDropUpstreamTaskID              ID = "si.client-drop-upstream-task-id"
	SIComposeIgnoreSchemaURI                ID = "si.compose-ignore-schema-uri"
	SIComposeIgnoreVersion                  ID = "si.compose-ignore-version"
	SIComposeIgnoreDialect                  ID = "si.compose-ignore-dialect"
	SIComposeIgnoreDigest                   ID = "si.compose-ignore-digest"
	SIComposeSkipDownstreamValidation       ID = "si.compose-skip-downstream-validation"
	SIComposeOnValidationSuccess            ID = "si.compose-on-validation-success"
	SIClientConstraintWrongCode             ID = "si.client-constraint-wrong-code"
)

// Client-side toggles of the schema-interface document: each breaks one rule of the harness's reference client
// (refclients/skiface), so the reference-client rows' specs (suites/schemaifaceclient) can be seen failing.
func init() {
	c := func(id ID, desc string, targets ...string) Toggle {
		return Toggle{ID: id, Document: "schema-interface", Side: SideClient, Targets: targets, Description: desc}
	}
	Register(
		// request shape
		c(SIClientInvokeOmitDigest, "the domain-skill request object omits interface_digest",
			"SI-2.1c", "SI-9.31", "SI-9.33b"),
		c(SIClientTextPartRequests, "describe_skill and domain-skill request objects are sent as JSON text in a text part",
			"SI-4.1b", "SI-9.15c"), // not SI-9.30: a conforming agent refuses the describe, so no domain request is ever sent
		c(SIClientNoActivationHeader, "the A2A-Extensions request header is not sent", "SI-9.3a", "SI-9.3b"),
		c(SIClientNoMessageExtensions, "Message.extensions is left empty on request objects", "SI-9.4"),
		c(SIClientDescribeCustomMethod, "describe_skill is sent as a JSON-RPC method named describe_skill", "SI-9.15a"),
		c(SIClientDescribeRoleAgent, "the describe_skill Message has role ROLE_AGENT", "SI-9.15b"),
		c(SIClientDescribeExtraTextPart, "the describe_skill Message carries a text part besides the Data Part", "SI-9.15c"),
		c(SIClientDescribeFlatSkillID, `describe_skill data is {"skill":"describe_skill","skill_id":…} without arguments`, "SI-9.16"),
		c(SIClientNegotiateVersion, "describe_skill arguments carry the caller's desired skill_version", "SI-9.10b"),
		c(SIClientInferVersionRange, "a caller's version is sent when the advertised one shares its major (assumed compatible)", "SI-9.10a"),
		c(SIClientInvokeExtraTextPart, "the domain-skill Message carries a text part besides the Data Part", "SI-9.30"),
		c(SIClientInvokeFlatArguments, "domain arguments are spread at the top level of the request object", "SI-9.31"),
		c(SIClientInvokeSkillName, "the request object's skill is the AgentSkill name, not its id", "SI-9.32"),
		c(SIClientInvokeWrongSkillVersion, "skill_version is sent as the caller's configured version", "SI-9.33a"),
		c(SIClientInvokeWrongDigest, "interface_digest is sent as the input schema's digest", "SI-9.33b"),
		c(SIClientSkipInputValidation, "caller input is sent without input_schema validation", "SI-8.9", "SI-9.36"),
		// document checks
		c(SIClientSkipDocumentDigest, "result.interface_digest is trusted without calculating the document digest",
			"SI-2.2b", "SI-9.22", "SI-12.11c"),
		c(SIClientDigestRawBytes, "schema digests are calculated over the bytes as received instead of JCS", "SI-7.1b"),
		c(SIClientSkipSchemaDigest, "an embedded schema's declared digest is trusted without calculating it (the document digest is still checked)", "SI-9.55b"),
		c(SIClientAcceptInvalidDocument, "documents failing the Skill Interface Schema are accepted", "SI-9.55a", "SI-9.62d"),
		c(SIClientDelegateAfterInvalid, "interface_invalid is reported but the domain request is still sent", "SI-9.55b"),
		c(SIClientSchemaLoosened, "the client validates with a copy of the Skill Interface Schema that allows additional top-level members", "SI-12.10b"),
		c(SIClientSkipSchemaIntegrity, "the packaged Skill Interface Schema is used without checking its pinned digest", "SI-12.9a"),
		c(SIClientAcceptOtherSkillDocument, "the returned document's skill_id is not compared with the selected skill", "SI-9.62c", "SI-12.11a"),
		c(SIClientAcceptOtherVersionDocument, "the returned document's skill_version is not compared with the advertised one", "SI-9.62c", "SI-12.11b"),
		c(SIClientVersionAsInterfaceInvalid, "an unsupported interface version is reported as interface_invalid", "SI-9.52d"),
		// inline schemas and limits
		c(SIClientValidatorRetrievalEnabled, "the validator's loader fetches external schema URLs", "SI-6.9a", "SI-6.11b"),
		c(SIClientIgnoreUnresolvedRef, "an unresolvable reference is treated as the true schema", "SI-6.11a"),
		c(SIClientAcceptMixedDialect, "embedded resources declaring another $schema are accepted", "SI-6.11c"),
		c(SIClientFormatAsAnnotation, "format is an annotation during instance validation", "SI-6.12a"),
		c(SIClientLenientDateTime, "date-time accepts any string starting with a date (no offset, space separator)", "SI-6.13a"),
		c(SIClientNoLimitSchemaSize, "no schema size limit", "SI-12.2a"),
		c(SIClientNoLimitNesting, "no nesting limit on schemas", "SI-12.2b"),
		c(SIClientNoLimitReferenceDepth, "no reference depth limit", "SI-12.2c"),
		c(SIClientNoLimitReferenceCycles, "in-place reference cycles are not detected", "SI-12.2d"),
		c(SIClientNoLimitCompilationTime, "no compilation time budget", "SI-12.2e"),
		c(SIClientNoLimitPayloadSize, "no response size limit of its own", "SI-12.2f"),
		c(SIClientNoLimitCacheConsumption, "the document cache grows without bound", "SI-12.2g"),
		c(SIClientLimitWrongCode, "limit refusals are reported as interface_invalid", "SI-12.3b"),
		// local conditions
		c(SIClientFakeRemoteTask, "local errors are reported as a synthetic remote Task in TASK_STATE_FAILED", "SI-9.44"),
		c(SIClientContinueAfterLocalError, "after a local skill_not_advertised the procedure sends describe_skill anyway", "SI-9.45a"),
		c(SIClientErrorWithoutCode, "local errors carry prose only, no condition code", "SI-9.45b"),
		c(SIClientUnadvertisedWrongCode, "an unadvertised skill is reported as interface_unavailable", "SI-9.52c"),
		c(SIClientDescribeUnadvertised, "describe_skill is sent for a skill the card does not advertise", "SI-9.53"),
		c(SIClientAssumeConformance, "the procedure runs against agents whose card lacks the extension or describe_skill", "SI-9.13"),
		c(SIClientInferSchemaFromMediaType, "for non-conforming agents an input schema is synthesized from inputModes", "SI-9.14a"),
		c(SIClientClaimConformanceNonconforming, "base-A2A invocations of non-conforming agents are labelled schema-governed", "SI-9.14b"),
		// output
		c(SIClientOutputFailureAsInterfaceInvalid, "invalid output is reported as interface_invalid", "SI-9.49b"),
		c(SIClientDetailsNoInstancePath, "output_invalid details carry schema_path only", "SI-9.56b"),
		c(SIClientSkipOutputValidation, "received output and records are not validated", "SI-9.59"),
		c(SIClientUseInvalidOutput, "invalid output is flagged but still handed to the caller", "SI-9.60a"),
		c(SIClientOutputInvalidAsRemoteState, "output_invalid is pushed to the agent with CancelTask and recorded as remote FAILED", "SI-9.60b"),
		// preconditions of delegation, cache, authority
		c(SIClientDelegateWithoutDescribe, "the domain skill is invoked with the advertised binding without calling describe_skill", "SI-9.61a"),
		c(SIClientDelegateWithoutDescribeSkill, "the domain skill is invoked when the card lacks describe_skill", "SI-9.62a"),
		c(SIClientDelegateAfterDescribeFailure, "the domain skill is invoked with the advertised binding when describe_skill fails", "SI-9.62b"),
		c(SIClientCacheNotBoundToTarget, "cache entries are keyed by skill id, version and digest only (not the target)", "SI-9.61b"),
		c(SIClientAuthorityAsPermission, "the local permission and approval steps are skipped when authority says observe_only / no approval", "SI-8.2a", "SI-12.4a"),
		// delegation hops and composition
		c(SIClientReuseUpstreamTaskID, "the downstream Message carries the upstream task id as taskId", "SI-6.1"),
		c(SIClientGlobalTaskIDKeying, "tasks are tracked by task id alone (a second endpoint's id overwrites the first)", "SI-6.2"),
		c(SIClientOverloadTaskID, "the correlation is recorded as one composed id <upstream>/<downstream> instead of named fields", "SI-6.3"),
		c(SIClientDropUpstreamTaskID, "the correlation record keeps only the downstream task id", "SI-9.63"),
		c(SIComposeIgnoreSchemaURI, "composition eligibility ignores schema_uri", "SI-9.64a"),
		c(SIComposeIgnoreVersion, "composition eligibility ignores version", "SI-9.64b"),
		c(SIComposeIgnoreDialect, "composition eligibility ignores dialect", "SI-9.64c"),
		c(SIComposeIgnoreDigest, "composition eligibility ignores digest", "SI-9.64d"),
		c(SIComposeSkipDownstreamValidation, "the transferred instance is not validated against the downstream input schema", "SI-9.65a"),
		c(SIComposeOnValidationSuccess, "composition proceeds whenever the instance validates downstream, whatever the references", "SI-9.66"),
		c(SIClientConstraintWrongCode, "a domain handler's constraint failure is reported as input_invalid", "SI-9.68b"),
	)
}
