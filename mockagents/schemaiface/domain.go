package schemaiface

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/refclients/skiface"
	"github.com/extconf/extconf/sabotage"
)

// resource is one managed resource of manage_resource.
type resource struct {
	owner, label  string
	exists        bool
	needsApproval bool
	protected     bool // deleting it is semantically invalid for the domain
	sharedRead    bool // principal B may read it
}

// Canaries seeded in a resource principal B may not see (its label and owner must never reach B).
const (
	CanaryLabel = "CANARY-LABEL-5d1c"
	CanaryOwner = tenantA
)

func seedResources() map[string]*resource {
	rs := map[string]*resource{
		"r-shared": {owner: tenantA, label: "shared resource", exists: true, sharedRead: true},
		"r-a-only": {owner: tenantA, label: CanaryLabel, exists: true},
		"sys-root": {owner: tenantA, label: "system root", exists: true, protected: true},
	}
	for i := 1; i <= 6; i++ {
		rs[fmt.Sprintf("r-%d", i)] = &resource{owner: tenantA, label: "approval-gated", exists: true, needsApproval: true}
	}
	for _, id := range []string{"r-rev-1", "r-rev-2", "r-rev-3", "r-rev-4", "r-mo-1", "r-keep-1", "r-sem-1"} {
		rs[id] = &resource{owner: tenantA, label: "ordinary", exists: true}
	}
	return rs
}

// outcome is what domain logic produced: a result and records, or a refusal.
type outcome struct {
	result  any
	partial any // the first, incomplete chunk of the result when streamed
	records []record
	// refusal
	state, code, msg string
	details          []any
}

type record struct {
	id, kind string
	value    map[string]any
}

func refuse(state, code, msg string) *outcome { return &outcome{state: state, code: code, msg: msg} }

// domain runs a skill's domain logic on validated arguments (checks of authority, approval, semantics and
// constraints that need the domain's knowledge included).
func (a *agent) domain(p principal, sk *skill, args map[string]any, meta json.RawMessage) *outcome {
	switch sk.id {
	case skillEvaluate:
		return a.evaluate(args)
	case skillManage:
		return a.manage(p, args)
	case skillMeasure:
		return a.measure(args, meta)
	case skillPropose:
		return &outcome{result: map[string]any{"proposal_id": "prop-1",
			"actions":         []any{"reroute traffic from link-7 to link-9", "schedule an optics replacement on link-7"},
			"applies_changes": false}}
	case skillCorrupt:
		return &outcome{result: map[string]any{"reachable": true}}
	case skillBrokenInit:
		return &outcome{result: map[string]any{"accepted": args}}
	}
	return refuse(a2a.StateFailed, skiface.InterfaceUnavailable, "the skill has no domain implementation")
}

// FaultResourceID makes evaluate_resource_condition's domain logic produce output outside its output_schema.
const FaultResourceID = "fault-invalid-output"

func (a *agent) evaluate(args map[string]any) *outcome {
	rid, _ := args["resource_id"].(string)
	cond, _ := args["condition"].(map[string]any)
	op, _ := cond["operator"].(string)
	th, _ := number(cond["threshold"])
	unit, _ := cond["unit"].(string)
	metric, _ := cond["metric"].(string)
	const observed = 42
	met := false
	switch op {
	case "gt":
		met = observed > th
	case "gte":
		met = observed >= th
	case "lt":
		met = observed < th
	case "lte":
		met = observed <= th
	}
	verdict := "condition_not_met"
	if met {
		verdict = "condition_met"
	}
	if rid == FaultResourceID {
		verdict = "unknown" // the fault: outside the output enumeration
	}
	if a.set.On(sabotage.SIOutputViolatesSchema) {
		verdict = "maybe"
	}
	rec := map[string]any{"record_id": "observation-7", "resource_id": rid, "metric": metric, "value": observed,
		"unit": unit, "observed_at": "2026-08-11T12:00:01Z"}
	if a.set.On(sabotage.SIRecordMissingObservedAt) {
		delete(rec, "observed_at")
	}
	if a.set.On(sabotage.SIRecordBadDateTime) {
		rec["observed_at"] = "2026-08-11T12:00:01"
	}
	if a.opt.NoRecords {
		return &outcome{
			result: map[string]any{"result": verdict, "observed_value": observed, "unit": unit,
				"supporting_record_refs": []any{}},
			partial: map[string]any{"result": verdict},
		}
	}
	return &outcome{
		result: map[string]any{"result": verdict, "observed_value": observed, "unit": unit,
			"supporting_record_refs": []any{"observation-7"}},
		partial: map[string]any{"result": verdict},
		records: []record{{id: "observation-7", kind: "resource-observation", value: rec}},
	}
}

func (a *agent) manage(p principal, args map[string]any) *outcome {
	op, _ := args["operation"].(string)
	rid, _ := args["resource_id"].(string)
	if op == "" {
		op = "read" // only reachable when the selector is not required (sabotage)
	}
	a.mu.Lock()
	var r *resource
	if cur := a.resources[rid]; cur != nil {
		snap := *cur
		r = &snap
	}
	a.mu.Unlock()
	out := map[string]any{"operation": op, "resource_id": rid, "exists": r != nil && r.exists}
	if op == "delete" && r != nil && r.exists {
		if r.needsApproval && !a.approve(p, rid) {
			code := skiface.AuthorizationFailed
			if a.set.On(sabotage.SIApprovalFailureWrongCode) {
				code = skiface.ConstraintRejected
			}
			return &outcome{state: a2a.StateRejected, code: code, msg: a.policyMsg("deleting this resource requires a current approval", ruleApproval)}
		}
		if r.protected && !a.set.On(sabotage.SISemanticValidationSkipped) {
			return refuse(a2a.StateRejected, skiface.ConstraintRejected,
				"the requested delete is structurally valid but semantically invalid: the resource is a protected system resource")
		}
		a.mu.Lock()
		a.resources[rid].exists = false
		a.mu.Unlock()
		out["exists"], out["deleted"] = false, true
		return &outcome{result: out}
	}
	if op == "delete" {
		out["deleted"] = false
	}
	if r != nil && r.exists {
		out["label"] = r.label
	}
	return &outcome{result: out}
}

// The link store of measure_link_bandwidth: 60-second aggregates of one link, last taken 30 s ago; no packet
// counters and no path measurements.
const (
	linkObservedAt = "2026-08-11T12:00:00Z"
	linkAgeSeconds = 30
	linkAggregate  = 60
)

func (a *agent) measure(args map[string]any, meta json.RawMessage) *outcome {
	on := a.set.On
	link, _ := args["link_id"].(string)
	metric, _ := args["metric"].(string)
	unit, _ := args["unit"].(string)
	scope, _ := args["scope"].(string)
	if scope == "" {
		scope = "link"
	}
	window := float64(linkAggregate)
	if w, ok := number(args["window_seconds"]); ok {
		window = w
	}
	maxAge, hasAge := number(args["max_age_seconds"])
	if on(sabotage.SIConstraintInMetadata) {
		var m map[string]any
		d := json.NewDecoder(bytesReader(meta))
		d.UseNumber()
		if d.Decode(&m) == nil {
			maxAge, hasAge = number(m["max_age_seconds"])
		}
	}
	ignoreAll := on(sabotage.SIConstraintSilentlyIgnored)
	reject := func(msg string) *outcome {
		code := skiface.ConstraintRejected
		if on(sabotage.SIConstraintWrongCode) {
			code = skiface.InputInvalid
		}
		return &outcome{state: a2a.StateRejected, code: code, msg: msg}
	}
	if math.Mod(window, linkAggregate) != 0 && !ignoreAll && !on(sabotage.SIConstraintIgnoreWindow) {
		return reject("window_seconds cannot be honoured: only 60-second aggregates are kept")
	}
	if scope != "link" && !ignoreAll && !on(sabotage.SIConstraintIgnoreScope) {
		return reject("scope path cannot be honoured: only single-link observations exist")
	}
	if unit == "pps" && !ignoreAll && !on(sabotage.SIConstraintIgnoreUnit) {
		return reject("unit pps cannot be honoured: the link counters measure bits, not packets")
	}
	if hasAge && maxAge < linkAgeSeconds && !ignoreAll && !on(sabotage.SIConstraintIgnoreFreshness) {
		return reject("max_age_seconds cannot be honoured: the newest observation is 30 seconds old")
	}
	if after, ok := args["observed_after"].(string); ok && after > linkObservedAt && !ignoreAll {
		return reject("observed_after cannot be honoured: no observation was taken after that instant")
	}
	// What was actually measured: ignored constraints show as the store's own values.
	if math.Mod(window, linkAggregate) != 0 {
		window = linkAggregate
	}
	if unit == "pps" {
		unit = "Gbps"
	}
	scope = "link"
	value := 37.5 // Gbps available on link-7
	if metric == "capacity" {
		value = 100
	}
	if unit == "Mbps" {
		value *= 1000
	}
	result := map[string]any{"link_id": link, "metric": metric, "value": value, "unit": unit, "scope": scope,
		"window_seconds": int(window), "age_seconds": linkAgeSeconds, "observed_at": linkObservedAt,
		"supporting_record_refs": []any{"obs-link-7"}}
	rec := map[string]any{"record_id": "obs-link-7", "link_id": link, "metric": metric, "value": value, "unit": unit,
		"window_seconds": int(window), "observed_at": linkObservedAt}
	kind := "link-observation"
	return &outcome{result: result,
		partial: map[string]any{"link_id": link, "metric": metric},
		records: []record{{id: "obs-link-7", kind: kind, value: rec}}}
}

// policyMsg is a refusal message; sabotage makes it disclose the policy rule.
func (a *agent) policyMsg(msg, rule string) string {
	if a.set.On(sabotage.SIDetailsEchoPolicy) {
		return msg + " (denied by policy rule " + rule + ")"
	}
	return msg
}

func itoa(i int) string { return strconv.Itoa(i) }
