package schemaiface

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/jsonptr"
	"github.com/extconf/extconf/refclients/skiface"
)

type derivedPair struct {
	pc  *PairCase
	why string
}

// constraints probes one skill's root members: per member of a named kind, the first schema value for which
// principal A is refused with constraint_rejected; with wantPair, the first value principal B alone is refused
// with authorization_failed while B's request without it completes.
func (ag *Agent) constraints(skill string, doc map[string]any, base json.RawMessage, completedA func(string) *answer, wantPair bool) (*consProfile, *derivedPair) {
	sch := inputSchema(doc)
	props, _ := sch["properties"].(map[string]any)
	in := ag.input(skill)
	baseM := cloneArgs(base)
	type variant struct {
		member, kind string
		args         json.RawMessage
		a            *answer
	}
	var vs []variant
	for _, k := range sortedKeys(props) {
		ps, _ := props[k].(map[string]any)
		kind := kindOf(k, ps)
		if kind == "" {
			continue
		}
		for _, v := range schemaValues(ps) {
			if cur, ok := baseM[k]; ok && jsonOf(mustJSON(cur)) == jsonOf(mustJSON(v)) {
				continue
			}
			va := withMember(base, k, v)
			if len(in.Validate(va)) > 0 {
				continue
			}
			vs = append(vs, variant{member: k, kind: kind, args: va})
			if len(vs) >= 24 {
				break
			}
		}
	}
	if len(vs) == 0 || completedA(skill) == nil {
		return nil, nil
	}
	unsat := map[string]json.RawMessage{}
	var members []string
	var firstTyped string
	for i := range vs {
		v := &vs[i]
		v.a = ag.invoke(ag.A, skill, v.args, "derive constraints: "+skill+" with "+v.member+" "+jsonOf(mustJSON(cloneArgs(v.args)[v.member]))+" as principal A")
		if _, seen := unsat[v.kind]; seen || v.a.state() == a2a.StateCompleted || v.a.msg != nil || v.a.code() != skiface.ConstraintRejected {
			continue
		}
		unsat[v.kind] = v.args
		members = append(members, "/"+jsonptr.Escape(v.member))
		if ps, _ := props[v.member].(map[string]any); firstTyped == "" && wrongTypeValue(ps) != nil {
			firstTyped = v.member
		}
	}
	var cons *consProfile
	if len(unsat) > 0 {
		// No output member is assumed to reflect a constraint (an output member of the same name may mean
		// something else): which one shows it honoured is the operator's constraints.reflects.
		cons = &consProfile{Skill: skill, Members: members, Satisfiable: base, Unsatisfiable: unsat}
		if firstTyped != "" {
			ps, _ := props[firstTyped].(map[string]any)
			if bad := withMember(base, firstTyped, wrongTypeValue(ps)); len(in.Validate(bad)) > 0 {
				cons.Invalid = bad
			}
		}
	}
	var pair *derivedPair
	if wantPair && ag.B != nil {
		b0 := ag.invoke(ag.B, skill, base, "derive authorization.constraint: "+skill+" as principal B")
		if b0.state() == a2a.StateCompleted {
			for _, v := range vs {
				if v.a.code() == skiface.AuthorizationFailed || v.a.msg != nil || v.a.ex == nil {
					continue // principal A is refused too: not a grant B lacks
				}
				b := ag.invoke(ag.B, skill, v.args, "derive authorization.constraint: "+skill+" with "+v.member+" as principal B")
				if refusal(b) && b.msg == nil && b.code() == skiface.AuthorizationFailed {
					pair = &derivedPair{&PairCase{Skill: skill, Allowed: base, Denied: v.args},
						fmt.Sprintf("B completed %s (%s) and was refused with authorization_failed once %s (a %s constraint) was added (%s); A was not refused so (%s)", skill, exID(b0), v.member, v.kind, exID(b), exID(v.a))}
					break
				}
			}
		}
	}
	return cons, pair
}

// consProfile is the type of Profile.Constraints.
type consProfile = struct {
	Skill         string                     `json:"skill"`
	Members       []string                   `json:"members"`
	Satisfiable   json.RawMessage            `json:"satisfiable"`
	Reflects      Reflects                   `json:"reflects,omitempty"`
	Invalid       json.RawMessage            `json:"invalid,omitempty"`
	Unsatisfiable map[string]json.RawMessage `json:"unsatisfiable,omitempty"`
}

// kindOf is the one constraint kind a member's name or description names ("" for none or several).
func kindOf(name string, ps map[string]any) string {
	desc, _ := ps["description"].(string)
	text := strings.ToLower(name + " " + desc)
	found := ""
	for _, k := range constraintKinds {
		if strings.Contains(text, k.word) {
			if found != "" {
				return ""
			}
			found = k.kind
		}
	}
	return found
}

// schemaValues are the values a member schema itself states: its enum members, its minimum, true and false.
func schemaValues(ps map[string]any) []any {
	var out []any
	if en, ok := ps["enum"].([]any); ok {
		return en
	}
	switch ps["type"] {
	case "integer", "number":
		if n, ok := ps["minimum"].(float64); ok {
			out = append(out, n)
		} else if n, ok := ps["exclusiveMinimum"].(float64); ok && ps["type"] == "integer" {
			out = append(out, n+1)
		}
	case "boolean":
		out = append(out, true, false)
	}
	return out
}

// wrongTypeValue is a value of another JSON type than the member schema declares (nil when it declares none).
func wrongTypeValue(ps map[string]any) any {
	switch ps["type"] {
	case "integer", "number", "boolean":
		return "extconf-not-a-" + fmt.Sprint(ps["type"])
	case "string":
		return 12345
	}
	if _, ok := ps["enum"].([]any); ok {
		return "extconf-not-enumerated"
	}
	return nil
}
