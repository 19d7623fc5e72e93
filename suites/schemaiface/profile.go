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
	Skill     string          `json:"skill"`
	Arguments json.RawMessage `json:"arguments"`
}

// Hook is an operator-side control (grant one approval, revoke a grant): POST Body to URL.
type Hook struct {
	URL  string          `json:"url"`
	Body json.RawMessage `json:"body,omitempty"`
}

// PairCase is a request principal B may make (Allowed) next to one it may not (Denied); Check is a read whose
// result shows whether the denied request had an effect; Canaries are strings of the denied resource B must
// never see.
type PairCase struct {
	Skill    string          `json:"skill"`
	Allowed  json.RawMessage `json:"allowed"`
	Denied   json.RawMessage `json:"denied"`
	Check    json.RawMessage `json:"check,omitempty"`
	Canaries []string        `json:"canaries,omitempty"`
}

// AuthzProfile: requests principal A may make and principal B may not.
type AuthzProfile struct {
	Skill      *Case           `json:"skill,omitempty"` // B holds no grant for the skill
	Modes      map[string]Case `json:"modes,omitempty"` // authority.default_mode → a request B is refused
	Resource   *PairCase       `json:"resource,omitempty"`
	Operation  *PairCase       `json:"operation,omitempty"`
	Constraint *PairCase       `json:"constraint,omitempty"`
}

// ApprovalCase: Approved completes after Grant; Unapproved (no approval) is refused; Check reads its target.
type ApprovalCase struct {
	Approved   json.RawMessage `json:"approved"`
	Grant      Hook            `json:"grant"`
	Unapproved json.RawMessage `json:"unapproved"`
	Check      json.RawMessage `json:"check,omitempty"`
}

// RevocationCase: First completes; Revoke withdraws the grant Second needs; Second is then refused.
type RevocationCase struct {
	First  json.RawMessage `json:"first"`
	Revoke Hook            `json:"revoke"`
	Second json.RawMessage `json:"second"`
}

// Profile is the schema-interface part of a target configuration.
type Profile struct {
	Primary       string                     `json:"primary,omitempty"`
	Arguments     map[string]json.RawMessage `json:"arguments,omitempty"`
	Authorization *AuthzProfile              `json:"authorization,omitempty"`
	Approval      *struct {
		Skill string         `json:"skill"`
		Cases []ApprovalCase `json:"cases"`
	} `json:"approval,omitempty"`
	Revocation *struct {
		Skill string           `json:"skill"`
		Cases []RevocationCase `json:"cases"`
	} `json:"revocation,omitempty"`
	MultiOperation *struct {
		Skill      string                     `json:"skill"`
		Selector   string                     `json:"selector"`
		Operations []string                   `json:"operations"`
		Requires   map[string]string          `json:"requires,omitempty"`
		Arguments  map[string]json.RawMessage `json:"arguments"`
	} `json:"multiOperation,omitempty"`
	ApprovalSkills []string `json:"approvalSkills,omitempty"`
	Constraints    *struct {
		Skill         string                     `json:"skill"`
		Members       []string                   `json:"members"`
		Satisfiable   json.RawMessage            `json:"satisfiable"`
		Reflects      Reflects                   `json:"reflects,omitempty"`
		Invalid       json.RawMessage            `json:"invalid,omitempty"`
		Unsatisfiable map[string]json.RawMessage `json:"unsatisfiable,omitempty"` // window | scope | unit | freshness
	} `json:"constraints,omitempty"`
	Semantic *struct {
		Skill   string          `json:"skill"`
		Valid   json.RawMessage `json:"valid"`
		Invalid json.RawMessage `json:"invalid"`
		Check   json.RawMessage `json:"check,omitempty"`
	} `json:"semantic,omitempty"`
	InputSideEffect *struct {
		Skill   string          `json:"skill"`
		Invalid json.RawMessage `json:"invalid"`
		Check   json.RawMessage `json:"check"`
	} `json:"inputSideEffect,omitempty"`
	FaultInput       *Case  `json:"faultInput,omitempty"`
	UnavailableSkill string `json:"unavailableSkill,omitempty"`
	CorruptSkill     *Case  `json:"corruptSkill,omitempty"`
	FailedInitSkill  *Case  `json:"failedInitSkill,omitempty"`
	Sensitive        *struct {
		PolicyStrings []string `json:"policyStrings,omitempty"`
		Prohibited    *struct {
			Skill     string          `json:"skill"`
			Arguments json.RawMessage `json:"arguments"`
			Canary    string          `json:"canary"`
		} `json:"prohibited,omitempty"`
	} `json:"sensitive,omitempty"`
	Limits *struct {
		Skill        string          `json:"skill"`
		Arguments    json.RawMessage `json:"arguments"`
		Pad          string          `json:"pad"` // JSON Pointer of a string member of Arguments to lengthen
		PayloadBytes int             `json:"payloadBytes,omitempty"`
		NestingDepth int             `json:"nestingDepth,omitempty"`
	} `json:"limits,omitempty"`
	StaleBinding *struct {
		Skill           string          `json:"skill"`
		SkillVersion    string          `json:"skillVersion"`
		InterfaceDigest string          `json:"interfaceDigest"`
		Arguments       json.RawMessage `json:"arguments,omitempty"`
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
