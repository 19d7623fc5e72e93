package sabotage

// Client-side toggles of the schema-interface document: each breaks one rule of the harness's reference client
// (harness/verify/skiface), so the reference-client rows' specs (suites/schemaifaceclient) can be seen failing.
func init() {
	c := func(id, desc string, targets ...string) Toggle {
		return Toggle{ID: id, Document: "schema-interface", Side: SideClient, Targets: targets, Description: desc}
	}
	Register(
		// request shape
		c("si.client-invoke-omit-digest", "the domain-skill request object omits interface_digest",
			"SI-2.1c", "SI-9.31", "SI-9.33b"),
		c("si.client-text-part-requests", "describe_skill and domain-skill request objects are sent as JSON text in a text part",
			"SI-4.1b", "SI-9.15c"), // not SI-9.30: a conforming agent refuses the describe, so no domain request is ever sent
		c("si.client-no-activation-header", "the A2A-Extensions request header is not sent", "SI-9.3a", "SI-9.3b"),
		c("si.client-no-message-extensions", "Message.extensions is left empty on request objects", "SI-9.4"),
		c("si.client-describe-custom-method", "describe_skill is sent as a JSON-RPC method named describe_skill", "SI-9.15a"),
		c("si.client-describe-role-agent", "the describe_skill Message has role ROLE_AGENT", "SI-9.15b"),
		c("si.client-describe-extra-text-part", "the describe_skill Message carries a text part besides the Data Part", "SI-9.15c"),
		c("si.client-describe-flat-skill-id", `describe_skill data is {"skill":"describe_skill","skill_id":…} without arguments`, "SI-9.16"),
		c("si.client-negotiate-version", "describe_skill arguments carry the caller's desired skill_version", "SI-9.10b"),
		c("si.client-infer-version-range", "a caller's version is sent when the advertised one shares its major (assumed compatible)", "SI-9.10a"),
		c("si.client-invoke-extra-text-part", "the domain-skill Message carries a text part besides the Data Part", "SI-9.30"),
		c("si.client-invoke-flat-arguments", "domain arguments are spread at the top level of the request object", "SI-9.31"),
		c("si.client-invoke-skill-name", "the request object's skill is the AgentSkill name, not its id", "SI-9.32"),
		c("si.client-invoke-wrong-skill-version", "skill_version is sent as the caller's configured version", "SI-9.33a"),
		c("si.client-invoke-wrong-digest", "interface_digest is sent as the input schema's digest", "SI-9.33b"),
		c("si.client-skip-input-validation", "caller input is sent without input_schema validation", "SI-8.9", "SI-9.36"),
		// document checks
		c("si.client-skip-document-digest", "result.interface_digest is trusted without calculating the document digest",
			"SI-2.2b", "SI-9.22", "SI-12.11c"),
		c("si.client-digest-raw-bytes", "schema digests are calculated over the bytes as received instead of JCS", "SI-7.1b"),
		c("si.client-accept-invalid-document", "documents failing the Skill Interface Schema are accepted", "SI-9.55a", "SI-9.62d"),
		c("si.client-delegate-after-invalid", "interface_invalid is reported but the domain request is still sent", "SI-9.55b"),
		c("si.client-schema-loosened", "the client validates with a copy of the Skill Interface Schema that allows additional top-level members", "SI-12.10b"),
		c("si.client-skip-schema-integrity", "the packaged Skill Interface Schema is used without checking its pinned digest", "SI-12.9a"),
		c("si.client-accept-other-skill-document", "the returned document's skill_id is not compared with the selected skill", "SI-9.62c", "SI-12.11a"),
		c("si.client-accept-other-version-document", "the returned document's skill_version is not compared with the advertised one", "SI-9.62c", "SI-12.11b"),
		c("si.client-version-as-interface-invalid", "an unsupported interface version is reported as interface_invalid", "SI-9.52d"),
		// inline schemas and limits
		c("si.client-validator-retrieval-enabled", "the validator's loader fetches external schema URLs", "SI-6.9a", "SI-6.11b"),
		c("si.client-ignore-unresolved-ref", "an unresolvable reference is treated as the true schema", "SI-6.11a"),
		c("si.client-accept-mixed-dialect", "embedded resources declaring another $schema are accepted", "SI-6.11c"),
		c("si.client-format-as-annotation", "format is an annotation during instance validation", "SI-6.12a"),
		c("si.client-lenient-date-time", "date-time accepts any string starting with a date (no offset, space separator)", "SI-6.13a"),
		c("si.client-no-limit-schema-size", "no schema size limit", "SI-12.2a"),
		c("si.client-no-limit-nesting", "no nesting limit on schemas", "SI-12.2b"),
		c("si.client-no-limit-reference-depth", "no reference depth limit", "SI-12.2c"),
		c("si.client-no-limit-reference-cycles", "in-place reference cycles are not detected", "SI-12.2d"),
		c("si.client-no-limit-compilation-time", "no compilation time budget", "SI-12.2e"),
		c("si.client-no-limit-payload-size", "no response size limit of its own", "SI-12.2f"),
		c("si.client-no-limit-cache-consumption", "the document cache grows without bound", "SI-12.2g"),
		c("si.client-limit-wrong-code", "limit refusals are reported as interface_invalid", "SI-12.3b"),
		// local conditions
		c("si.client-fake-remote-task", "local errors are reported as a synthetic remote Task in TASK_STATE_FAILED", "SI-9.44"),
		c("si.client-continue-after-local-error", "after a local skill_not_advertised the procedure sends describe_skill anyway", "SI-9.45a"),
		c("si.client-error-without-code", "local errors carry prose only, no condition code", "SI-9.45b"),
		c("si.client-unadvertised-wrong-code", "an unadvertised skill is reported as interface_unavailable", "SI-9.52c"),
		c("si.client-describe-unadvertised", "describe_skill is sent for a skill the card does not advertise", "SI-9.53"),
		c("si.client-assume-conformance", "the procedure runs against agents whose card lacks the extension or describe_skill", "SI-9.13"),
		c("si.client-infer-schema-from-media-type", "for non-conforming agents an input schema is synthesized from inputModes", "SI-9.14a"),
		c("si.client-claim-conformance-nonconforming", "base-A2A invocations of non-conforming agents are labelled schema-governed", "SI-9.14b"),
		// output
		c("si.client-output-failure-as-interface-invalid", "invalid output is reported as interface_invalid", "SI-9.49b"),
		c("si.client-details-no-instance-path", "output_invalid details carry schema_path only", "SI-9.56b"),
		c("si.client-skip-output-validation", "received output and records are not validated", "SI-9.59"),
		c("si.client-use-invalid-output", "invalid output is flagged but still handed to the caller", "SI-9.60a"),
		c("si.client-output-invalid-as-remote-state", "output_invalid is pushed to the agent with CancelTask and recorded as remote FAILED", "SI-9.60b"),
		// preconditions of delegation, cache, authority
		c("si.client-delegate-without-describe", "the domain skill is invoked with the advertised binding without calling describe_skill", "SI-9.61a"),
		c("si.client-delegate-without-describe-skill", "the domain skill is invoked when the card lacks describe_skill", "SI-9.62a"),
		c("si.client-delegate-after-describe-failure", "the domain skill is invoked with the advertised binding when describe_skill fails", "SI-9.62b"),
		c("si.client-cache-not-bound-to-target", "cache entries are keyed by skill id, version and digest only (not the target)", "SI-9.61b"),
		c("si.client-authority-as-permission", "the local permission and approval steps are skipped when authority says observe_only / no approval", "SI-8.2a", "SI-12.4a"),
		// delegation hops and composition
		c("si.client-reuse-upstream-task-id", "the downstream Message carries the upstream task id as taskId", "SI-6.1"),
		c("si.client-global-task-id-keying", "tasks are tracked by task id alone (a second endpoint's id overwrites the first)", "SI-6.2"),
		c("si.client-overload-task-id", "the correlation is recorded as one composed id <upstream>/<downstream> instead of named fields", "SI-6.3"),
		c("si.client-drop-upstream-task-id", "the correlation record keeps only the downstream task id", "SI-9.63"),
		c("si.compose-ignore-schema-uri", "composition eligibility ignores schema_uri", "SI-9.64a"),
		c("si.compose-ignore-version", "composition eligibility ignores version", "SI-9.64b"),
		c("si.compose-ignore-dialect", "composition eligibility ignores dialect", "SI-9.64c"),
		c("si.compose-ignore-digest", "composition eligibility ignores digest", "SI-9.64d"),
		c("si.compose-skip-downstream-validation", "the transferred instance is not validated against the downstream input schema", "SI-9.65a"),
		c("si.compose-on-validation-success", "composition proceeds whenever the instance validates downstream, whatever the references", "SI-9.66"),
		c("si.client-constraint-wrong-code", "a domain handler's constraint failure is reported as input_invalid", "SI-9.68b"),
	)
}
