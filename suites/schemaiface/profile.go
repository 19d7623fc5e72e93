package schemaiface

import (
	"encoding/json"
	"fmt"
)

// ProfileKey is the target-configuration requests key whose first value is the schema-interface profile (JSON).
// The profile is what the document leaves to the operator: valid arguments, the second principal's refusals,
// approvals, revocations, constraints, limits, and the skills deliberately unavailable, corrupt or failed at
// start-up. Each member is optional; a spec that needs a missing one is blocked naming it.
const ProfileKey = "schema-interface.profile"

// Case is one domain request: skill id and arguments.
type Case struct {
	// Skill is the skill id.
	Skill string `json:"skill"`
	// Arguments are the skill's domain input (a JSON object).
	Arguments json.RawMessage `json:"arguments"`
}

// Hook is an operator-side control (grant one approval, revoke a grant): POST Body to URL.
type Hook struct {
	// URL is the operator's endpoint the harness POSTs to.
	URL string `json:"url"`
	// Body is the JSON body of the POST (default: none).
	Body json.RawMessage `json:"body,omitempty"`
}

// PairCase is a request principal B may make (Allowed) next to one it may not (Denied); Check is a read whose
// result shows whether the denied request had an effect; Canaries are strings of the denied resource B must
// never see.
type PairCase struct {
	// Skill is the skill id both requests invoke.
	Skill string `json:"skill"`
	// Allowed are arguments principal B may send.
	Allowed json.RawMessage `json:"allowed"`
	// Denied are arguments beyond principal B's grant.
	Denied json.RawMessage `json:"denied"`
	// Check are arguments of a read whose result shows whether the denied request had an effect.
	Check json.RawMessage `json:"check,omitempty"`
	// Canaries are strings of the denied resource principal B must never see.
	Canaries []string `json:"canaries,omitempty"`
}

// AuthzProfile: requests principal A may make and principal B may not.
type AuthzProfile struct {
	// Skill is a request of principal A for a skill principal B holds no grant for.
	Skill *Case `json:"skill,omitempty"`
	// Modes: authority.default_mode → a request principal A may make and principal B is refused.
	Modes map[string]Case `json:"modes,omitempty"`
	// Resource is a resource within principal B's grant next to one beyond it.
	Resource *PairCase `json:"resource,omitempty"`
	// Operation is an operation within principal B's grant next to one beyond it.
	Operation *PairCase `json:"operation,omitempty"`
	// Constraint is a constraint value within principal B's grant next to one beyond it.
	Constraint *PairCase `json:"constraint,omitempty"`
}

// ApprovalCase: Approved completes after Grant; Unapproved (no approval) is refused; Check reads its target.
type ApprovalCase struct {
	// Approved are arguments that complete once the grant hook has approved them.
	Approved json.RawMessage `json:"approved"`
	// Grant is the hook that grants one approval.
	Grant Hook `json:"grant"`
	// Unapproved are arguments that need an approval nobody granted, so they are refused.
	Unapproved json.RawMessage `json:"unapproved"`
	// Check are arguments of a read showing the unapproved request's target is unchanged.
	Check json.RawMessage `json:"check,omitempty"`
}

// RevocationCase: First completes; Revoke withdraws the grant Second needs; Second is then refused.
type RevocationCase struct {
	// First are arguments the grant permits (the request completes).
	First json.RawMessage `json:"first"`
	// Revoke is the hook that withdraws the grant.
	Revoke Hook `json:"revoke"`
	// Second are arguments the revoked grant was needed for (the request is then refused).
	Second json.RawMessage `json:"second"`
}

// Profile is the schema-interface part of a target configuration.
type Profile struct {
	// Primary is the skill the wire specs invoke (default: the first advertised skill with arguments).
	Primary string `json:"primary,omitempty"`
	// Arguments: skill id → valid arguments for principal A (derived for side-effect-free skills).
	Arguments map[string]json.RawMessage `json:"arguments,omitempty"`
	// Authorization are requests principal A may make and principal B may not.
	Authorization *AuthzProfile `json:"authorization,omitempty"`
	// Approval: grant one approval with the hook, the approved request completes, an unapproved one is refused.
	Approval *struct {
		// Skill is the skill whose operation needs an approval.
		Skill string `json:"skill"`
		// Cases are three approval cases (one per binding and mode the rows use).
		Cases []ApprovalCase `json:"cases"`
	} `json:"approval,omitempty"`
	// Revocation: a permitted side effect, then the grant is revoked, then the next request is refused.
	Revocation *struct {
		// Skill is the skill the revoked grant covers.
		Skill string `json:"skill"`
		// Cases are two revocation cases.
		Cases []RevocationCase `json:"cases"`
	} `json:"revocation,omitempty"`
	// MultiOperation is a skill whose input selects one of several operations.
	MultiOperation *struct {
		// Skill is the multi-operation skill.
		Skill string `json:"skill"`
		// Selector is the input member naming the operation ("op").
		Selector string `json:"selector"`
		// Operations are the selector's values.
		Operations []string `json:"operations"`
		// Requires: operation → an input member only that operation requires.
		Requires map[string]string `json:"requires,omitempty"`
		// Arguments: operation → valid arguments selecting it.
		Arguments map[string]json.RawMessage `json:"arguments"`
	} `json:"multiOperation,omitempty"`
	// ApprovalSkills are skills with an operation that may require approval under deployment policy.
	ApprovalSkills []string `json:"approvalSkills,omitempty"`
	// Constraints are a skill's constraint members, as its input_schema defines them: {"skill": "s",
	// "members": ["/constraints/window"], "satisfiable": {…arguments…}, "reflects": {"/constraints/window":
	// "/window"}, "invalid": {…arguments with a structurally invalid constraint value…}, "unsatisfiable":
	// {"window": {…}, "scope": {…}, "unit": {…}, "freshness": {…}}}.
	Constraints *struct {
		// Skill is the skill whose input_schema carries the constraints.
		Skill string `json:"skill"`
		// Members are JSON Pointers of the constraint members in the arguments (nested allowed).
		Members []string `json:"members"`
		// Satisfiable are arguments carrying constraints the target can honour.
		Satisfiable json.RawMessage `json:"satisfiable"`
		// Reflects maps each constraint member (input pointer) to the output member that shows it honoured.
		Reflects Reflects `json:"reflects,omitempty"`
		// Invalid are arguments with a structurally invalid constraint value.
		Invalid json.RawMessage `json:"invalid,omitempty"`
		// Unsatisfiable: constraint kind (window, scope, unit, freshness) → arguments the target cannot honour.
		Unsatisfiable map[string]json.RawMessage `json:"unsatisfiable,omitempty"`
	} `json:"constraints,omitempty"`
	// Semantic is a structurally valid but semantically invalid request.
	Semantic *struct {
		// Skill is the skill both requests invoke.
		Skill string `json:"skill"`
		// Valid are arguments that complete.
		Valid json.RawMessage `json:"valid"`
		// Invalid are arguments valid against input_schema that domain logic rejects.
		Invalid json.RawMessage `json:"invalid"`
		// Check are arguments of a read showing the invalid request's target is unchanged.
		Check json.RawMessage `json:"check,omitempty"`
		// CheckSkill is the skill the read invokes (default: skill), for an agent with one operation per skill.
		CheckSkill string `json:"checkSkill,omitempty"`
	} `json:"semantic,omitempty"`
	// InputSideEffect is an invalid request that would have a side effect if domain logic ran before validation.
	InputSideEffect *struct {
		// Skill is the skill with the side effect.
		Skill string `json:"skill"`
		// Invalid are arguments invalid against input_schema.
		Invalid json.RawMessage `json:"invalid"`
		// Check are arguments of a read showing no side effect happened.
		Check json.RawMessage `json:"check"`
		// CheckSkill is the skill the read invokes (default: skill), for an agent with one operation per skill.
		CheckSkill string `json:"checkSkill,omitempty"`
	} `json:"inputSideEffect,omitempty"`
	// FaultInput are arguments that drive the skill's domain logic to produce invalid output.
	FaultInput *Case `json:"faultInput,omitempty"`
	// UnavailableSkill is an advertised skill whose interface cannot currently be returned (derived).
	UnavailableSkill string `json:"unavailableSkill,omitempty"`
	// CorruptSkill is an advertised skill whose stored document is corrupt, with plausible arguments (derived).
	CorruptSkill *Case `json:"corruptSkill,omitempty"`
	// FailedInitSkill is a skill whose interface failed to load, assemble or validate at start-up (derived from
	// an AgentSkill params.skills does not list).
	FailedInitSkill *Case `json:"failedInitSkill,omitempty"`
	// Sensitive is local policy state no error may show.
	Sensitive *struct {
		// PolicyStrings are strings of local policy state no error may show.
		PolicyStrings []string `json:"policyStrings,omitempty"`
		// Prohibited is a prohibited input value next to one unrelated schema error.
		Prohibited *struct {
			// Skill is the skill invoked.
			Skill string `json:"skill"`
			// Arguments carry the prohibited value and one unrelated schema error.
			Arguments json.RawMessage `json:"arguments"`
			// Canary is the prohibited value, which no error may echo.
			Canary string `json:"canary"`
		} `json:"prohibited,omitempty"`
	} `json:"sensitive,omitempty"`
	// Limits are the target's payload size and nesting limits (derived by probing where the agent reports them).
	Limits *struct {
		// Skill is the skill the limit probes invoke.
		Skill string `json:"skill"`
		// Arguments are its valid arguments.
		Arguments json.RawMessage `json:"arguments"`
		// Pad is the JSON Pointer of a string member of arguments lengthened to cross the payload limit (default:
		// the message metadata carries the padding, for inputs whose every string is bounded).
		Pad string `json:"pad,omitempty"`
		// PayloadBytes is the payload size limit in bytes.
		PayloadBytes int `json:"payloadBytes,omitempty"`
		// NestingDepth is the nesting limit (the probe nests message.metadata).
		NestingDepth int `json:"nestingDepth,omitempty"`
	} `json:"limits,omitempty"`
	// StaleBinding is a previously advertised binding (default: the advertised version with another digest).
	StaleBinding *struct {
		// Skill is the skill id.
		Skill string `json:"skill"`
		// SkillVersion is the binding's skill version.
		SkillVersion string `json:"skillVersion"`
		// InterfaceDigest is the binding's interface digest.
		InterfaceDigest string `json:"interfaceDigest"`
		// Arguments are arguments to send with the stale binding.
		Arguments json.RawMessage `json:"arguments,omitempty"`
	} `json:"staleBinding,omitempty"`
}

func parseProfile(requests map[string][]string) (*Profile, error) {
	p := &Profile{}
	vals := requests[ProfileKey]
	if len(vals) == 0 || vals[0] == "" {
		return p, nil
	}
	if err := json.Unmarshal([]byte(vals[0]), p); err != nil {
		return nil, fmt.Errorf("requests[%q] is not a schema-interface profile: %w", ProfileKey, err)
	}
	return p, nil
}

// Reflects maps a constraint member of the input (a JSON Pointer into the arguments) to the output member that
// shows it honoured (a JSON Pointer into the result). Written as an object {"<input pointer>": "<output
// pointer>"}, or as an array of pointers the output echoes at the same place.
type Reflects map[string]string

// JSONSchema describes both forms (for the generated configuration schema).
func (Reflects) JSONSchema() map[string]any {
	return map[string]any{"oneOf": []any{
		map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"}},
		map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
	}}
}

func (r *Reflects) UnmarshalJSON(b []byte) error {
	var list []string
	if err := json.Unmarshal(b, &list); err == nil {
		*r = Reflects{}
		for _, p := range list {
			(*r)[p] = p
		}
		return nil
	}
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*r = m
	return nil
}
