package schemaiface

import (
	"encoding/json"

	sifx "github.com/extconf/extconf/fixtures/schemaiface"
)

type m = map[string]any

// profile is what an operator would write for this agent in the target configuration: valid arguments per skill,
// the requests that exercise authorization, approval, revocation, constraints and limits, the control hooks, and
// the skills deliberately unavailable, corrupt or failed at start-up. The suite reads it; keys are documented in
// suites/schemaiface/README.md.
func (a *agent) profile(base string) ([]byte, error) {
	var req struct {
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal(sifx.Example("request"), &req); err != nil {
		return nil, err
	}
	example := req.Arguments
	read := func(id string) m { return m{"operation": "read", "resource_id": id} }
	del := func(id string) m { return m{"operation": "delete", "resource_id": id, "reason": "decommissioned"} }
	measure := func(extra m) m {
		out := m{"link_id": "link-7", "metric": "available_bandwidth", "unit": "Gbps"}
		for k, v := range extra {
			out[k] = v
		}
		if a.opt.NestedConstraints {
			return nestConstraints(out)
		}
		return out
	}
	hook := func(path string, body m) m { return m{"url": base + path, "body": body} }
	approval := func(approved, unapproved string) m {
		return m{"approved": del(approved), "grant": hook("/control/approve", m{"principal": "A", "resource_id": approved}),
			"unapproved": del(unapproved), "check": read(unapproved)}
	}
	revocation := func(first, second string) m {
		return m{"first": del(first), "revoke": hook("/control/revoke", m{"principal": "A", "resource_id": second, "operation": "delete"}),
			"second": del(second)}
	}
	fault := tree(example)
	fault["resource_id"] = FaultResourceID
	prop := m{"incident_id": "inc-42", "objective": "restore link-7 capacity"}
	p := m{
		"primary": skillEvaluate,
		"arguments": m{
			skillEvaluate: example,
			skillManage:   read("r-shared"),
			skillMeasure:  measure(nil),
			skillPropose:  prop,
		},
		"authorization": m{
			"skill": m{"skill": skillEvaluate, "arguments": example},
			"modes": m{
				"observe_only":   m{"skill": skillEvaluate, "arguments": example},
				"recommend_only": m{"skill": skillPropose, "arguments": prop},
				"execute":        m{"skill": skillManage, "arguments": read("r-a-only")},
			},
			"resource":   m{"skill": skillManage, "allowed": read("r-shared"), "denied": read("r-a-only"), "canaries": []string{CanaryLabel, CanaryOwner}},
			"operation":  m{"skill": skillManage, "allowed": read("r-shared"), "denied": del("r-shared"), "check": read("r-shared")},
			"constraint": m{"skill": skillMeasure, "allowed": measure(m{"max_age_seconds": 3600}), "denied": measure(m{"max_age_seconds": 45})},
		},
		"approval":   m{"skill": skillManage, "cases": []m{approval("r-1", "r-2"), approval("r-3", "r-4"), approval("r-5", "r-6")}},
		"revocation": m{"skill": skillManage, "cases": []m{revocation("r-rev-1", "r-rev-2"), revocation("r-rev-3", "r-rev-4")}},
		"multiOperation": m{"skill": skillManage, "selector": "operation", "operations": []string{"read", "delete"},
			"requires": m{"delete": "reason"}, "arguments": m{"read": read("r-shared"), "delete": del("r-mo-1")}},
		"approvalSkills": []string{skillManage},
		"constraints": m{"skill": skillMeasure,
			"members":     constraintMembers(a.opt.NestedConstraints),
			"satisfiable": measure(m{"unit": "Mbps", "scope": "link", "window_seconds": 120, "max_age_seconds": 3600}),
			"reflects":    constraintReflects(a.opt.NestedConstraints),
			"invalid":     measure(m{"window_seconds": "ten"}),
			"unsatisfiable": m{
				"window":    measure(m{"window_seconds": 5}),
				"scope":     measure(m{"scope": "path"}),
				"unit":      measure(m{"unit": "pps"}),
				"freshness": measure(m{"max_age_seconds": 1}),
			}},
		"semantic":         m{"skill": skillManage, "valid": del("r-sem-1"), "invalid": del("sys-root"), "check": read("sys-root")},
		"inputSideEffect":  m{"skill": skillManage, "invalid": m{"operation": "delete", "resource_id": "r-keep-1", "reason": "cleanup", "force": true}, "check": read("r-keep-1")},
		"faultInput":       m{"skill": skillEvaluate, "arguments": fault},
		"unavailableSkill": skillUnavailable,
		"corruptSkill":     m{"skill": skillCorrupt, "arguments": m{"target": "10.0.0.1"}},
		"failedInitSkill":  m{"skill": skillBrokenInit, "arguments": m{}},
		"sensitive": m{"policyStrings": PolicyRules,
			"prohibited": m{"skill": skillManage, "canary": "SECRET-CANARY-91",
				"arguments": m{"operation": "read", "resource_id": "r-shared", "secret_ref": "SECRET-CANARY-91", "unexpected": true}}},
		"limits": m{"skill": skillEvaluate, "arguments": example, "pad": "/resource_id",
			"payloadBytes": LimitPayloadBytes, "nestingDepth": LimitNesting},
		"staleBinding": m{"skill": skillPropose, "skillVersion": "1.0",
			"interfaceDigest": a.skills[skillPropose].prev[0].digest, "arguments": prop},
	}
	return json.Marshal(p)
}

func constraintMembers(nested bool) []string {
	if nested {
		return []string{"/unit", "/constraints/scope", "/constraints/window/seconds", "/max_age_seconds", "/observed_after"}
	}
	return []string{"/unit", "/scope", "/window_seconds", "/max_age_seconds", "/observed_after"}
}

// constraintReflects maps each constraint member to the output member that shows it honoured.
func constraintReflects(nested bool) any {
	if nested {
		return m{"/unit": "/unit", "/constraints/scope": "/measured_scope", "/constraints/window/seconds": "/aggregation_window_seconds"}
	}
	return []string{"/unit", "/scope", "/window_seconds"}
}
