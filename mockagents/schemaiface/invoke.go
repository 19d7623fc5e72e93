package schemaiface

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/refclients/skiface"
	"github.com/extconf/extconf/sabotage"
)

// invoke runs one domain-skill invocation in the order the mapping fixes: skill grant, binding comparison (before
// any argument is looked at), input validation, the rest of the authorization decision, approval, domain checks
// and logic, output validation, then the completed task.
func (a *agent) invoke(k *call, name string, data map[string]any) a2atest.Reply {
	on := a.set.On
	sk := a.skills[name]
	if k.p.name == anonymous { // sabotage si.authn-skipped-one-skill
		if name != skillMeasure {
			return a.deny(k, decision{rule: ruleSkill})
		}
		k.p = principal{"A", tenantA}
	}
	if sk == nil || !sk.advertised {
		if a.opt.CodelessPreTask {
			return codeless("unknown skill " + name)
		}
		return a.fail(k, a2a.StateRejected, skiface.SkillNotAdvertised, "the skill is not advertised by this agent", nil)
	}
	if !on(sabotage.SIAuthzBypassedByValidRequest) {
		if d := a.authorize(k.p, sk, nil, false); !d.ok {
			if a.opt.CodelessPreTask {
				return codeless("permission denied")
			}
			return a.deny(k, d)
		}
	}
	args, _ := data["arguments"].(map[string]any)
	validate := func() []skiface.Violation {
		raw, ok := data["arguments"]
		if !ok {
			return []skiface.Violation{{InstancePath: "", Keyword: "required", Message: "arguments is required"}}
		}
		if sk.input == nil {
			return nil
		}
		return sk.input.ValidateJSON(mustJSON(a.lenient(raw)))
	}
	if on(sabotage.SIValidateBeforeCompare) {
		if vs := validate(); len(vs) > 0 {
			return a.inputInvalid(k, data["arguments"], vs)
		}
	}
	version, _ := data["skill_version"].(string)
	digest, _ := data["interface_digest"].(string)
	if on(sabotage.SIBindingMissingAsCurrent) {
		// The sabotage: a binding member absent (or not a string) is read as the current one.
		v, d := a.active(sk)
		if version == "" {
			version = v
		}
		if digest == "" {
			digest = d
		}
	}
	if !a.bindingOK(sk, version, digest) {
		state := a2a.StateRejected
		if on(sabotage.SIMismatchStateFailed) {
			state = a2a.StateFailed
		}
		return a.fail(k, state, skiface.InterfaceMismatch,
			"skill_version and interface_digest must identify the currently active Skill Interface Document of the skill", nil)
	}
	switch {
	case sk.id == skillUnavailable:
		return a.fail(k, a2a.StateFailed, skiface.InterfaceUnavailable, "the skill's interface is currently unavailable", nil)
	case sk.id == skillCorrupt && !on(sabotage.SIInvalidDocumentExecutes):
		return a.fail(k, a2a.StateFailed, skiface.InterfaceInvalid, "the skill's stored Skill Interface Document is invalid; nothing is executed under it", nil)
	}
	meta := k.req.Message.Metadata
	if on(sabotage.SIInputValidatedAfterDomain) {
		a.domain(k.p, sk, args, meta) // side effects first: the sabotage
	}
	if a.opt.AuthorizeFirst {
		// The resource is authorized before the arguments are validated: a request naming no resource is denied.
		if _, ok := args["resource_id"].(string); !ok && (sk.id == skillEvaluate || sk.id == skillManage) {
			return a.deny(k, decision{rule: ruleResource})
		}
		if d := a.authorize(k.p, sk, args, true); !d.ok {
			return a.deny(k, d)
		}
	}
	if !on(sabotage.SIInputNotValidated) {
		if vs := validate(); len(vs) > 0 {
			return a.inputInvalid(k, data["arguments"], vs)
		}
	}
	if a.opt.NestedConstraints && sk.id == skillMeasure {
		args = flattenConstraints(args)
	}
	if d := a.authorize(k.p, sk, args, true); !d.ok {
		return a.deny(k, d)
	}
	out := a.domain(k.p, sk, args, meta)
	if a.opt.NestedConstraints && sk.id == skillMeasure && out.code == "" {
		out.result, out.partial = renameOutput(out.result), renameOutput(out.partial)
	}
	if out.code != "" {
		state := out.state
		if out.code == skiface.ConstraintRejected && on(sabotage.SIConstraintStateFailed) {
			state = a2a.StateFailed
		}
		if out.code == skiface.AuthorizationFailed && on(sabotage.SIAuthzStateFailed) {
			state = a2a.StateFailed
		}
		return a.fail(k, state, out.code, out.msg, out.details)
	}
	if sk.ver != nil && !on(sabotage.SIOutputViolatesSchema) && !on(sabotage.SIOutputInvalidStateCompleted) {
		if vs := sk.ver.Output.ValidateJSON(mustJSON(out.result)); len(vs) > 0 {
			return a.fail(k, a2a.StateFailed, skiface.OutputInvalid, "the produced output does not validate against output_schema",
				detailsOf(vs, nil, false))
		}
		recordToggles := on(sabotage.SIRecordMissingObservedAt) || on(sabotage.SIRecordBadDateTime)
		for _, r := range out.records {
			c := sk.ver.Records[r.kind]
			if c == nil || recordToggles {
				continue
			}
			if vs := c.ValidateJSON(mustJSON(r.value)); len(vs) > 0 {
				return a.fail(k, a2a.StateFailed, skiface.OutputInvalid, "a produced supporting record does not validate against its kind's schema", nil)
			}
		}
	}
	return a.complete(k, sk, out)
}

// lenient is the sabotaged date-time check: a timestamp without offset is read as UTC before validation.
func (a *agent) lenient(v any) any {
	if !a.set.On(sabotage.SIAgentLenientDateTime) {
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = a.lenient(e)
		}
		return out
	case string:
		if _, err := time.Parse("2006-01-02T15:04:05", x); err == nil {
			return x + "Z"
		}
	}
	return v
}

func (a *agent) bindingOK(sk *skill, version, digest string) bool {
	on := a.set.On
	v, d := a.active(sk)
	if (version == v || on(sabotage.SIMismatchIgnoreSkillVersion)) && (digest == d || on(sabotage.SIMismatchIgnoreDigest)) {
		return true
	}
	if on(sabotage.SIStaleBindingAccepted) {
		for _, b := range sk.prev {
			if b.version == version && b.digest == digest {
				return true
			}
		}
	}
	return false
}

func (a *agent) deny(k *call, d decision) a2atest.Reply {
	state := a2a.StateRejected
	if a.set.On(sabotage.SIAuthzStateFailed) {
		state = a2a.StateFailed
	}
	code := skiface.AuthorizationFailed
	if a.set.On(sabotage.SIAuthzFailureWrongCode) {
		code = skiface.InputInvalid
	}
	var details []any
	if d.resource != "" && a.set.On(sabotage.SIDetailsEchoOtherTenant) {
		a.mu.Lock()
		if r := a.resources[d.resource]; r != nil {
			details = []any{map[string]any{"instance_path": "/resource_id", "owner": r.owner, "label": r.label}}
		}
		a.mu.Unlock()
	}
	return a.fail(k, state, code, a.policyMsg("the caller is not authorized for the requested skill, resource, operation or constraint", d.rule), details)
}

// inputInvalid refuses arguments that fail input_schema, naming each failing member by JSON Pointer.
func (a *agent) inputInvalid(k *call, args any, vs []skiface.Violation) a2atest.Reply {
	on := a.set.On
	code := skiface.InputInvalid
	switch {
	case on(sabotage.SIInputInvalidWrongCode):
		code = skiface.ConstraintRejected
	case on(sabotage.SIInstanceFailureAsInterfaceInvalid):
		code = skiface.InterfaceInvalid
	}
	state := a2a.StateRejected
	if on(sabotage.SIInputInvalidStateFailed) {
		state = a2a.StateFailed
	}
	details := detailsOf(vs, args, on(sabotage.SIDetailsDottedPath))
	if on(sabotage.SIDetailsEchoProhibitedInput) {
		details = append(details, map[string]any{"instance_path": "", "keyword": "echo", "actual": args})
	}
	return a.fail(k, state, code, "the arguments do not validate against the skill's input_schema", details)
}

// detailsOf turns violations into details entries. Messages are built from the keyword only: the library's own
// messages may quote instance values, which local policy can forbid disclosing.
func detailsOf(vs []skiface.Violation, _ any, dotted bool) []any {
	var out []any
	seen := map[string]bool{}
	for _, d := range skiface.Details(vs) {
		p := d.InstancePath
		if dotted {
			p = strings.ReplaceAll(strings.TrimPrefix(p, "/"), "/", ".")
		}
		if seen[p+d.Keyword] {
			continue
		}
		seen[p+d.Keyword] = true
		e := map[string]any{"instance_path": p, "message": "the value does not satisfy " + orAll(d.Keyword)}
		if d.SchemaPath != "" {
			e["schema_path"] = d.SchemaPath
		}
		if d.Keyword != "" {
			e["keyword"] = d.Keyword
		}
		out = append(out, e)
	}
	return out
}

func orAll(kw string) string {
	if kw == "" {
		return "the schema"
	}
	return "keyword " + kw
}

// code spells a condition as sabotage dictates.
// reason is the ErrorInfo reason carrying condition c in a binding error: upper snake case under UpperReasons
// (google.rpc.ErrorInfo's own convention for reason).
func (a *agent) reason(c string) string {
	c = a.code(c)
	if a.opt.UpperReasons {
		c = strings.ToUpper(c)
	}
	return c
}

func (a *agent) code(c string) string {
	if a.set.On(sabotage.SIErrorSingleGenericCode) {
		c = skiface.InputInvalid
	}
	if a.set.On(sabotage.SIErrorCodeUppercase) {
		c = strings.ToUpper(c)
	}
	return c
}

// errorPart is the Data Part of a final status Message: {"error": {code, message?, details?}}.
func errorPart(a *agent, code, msg string, details []any) a2a.Part {
	e := map[string]any{"code": a.code(code), "message": msg}
	if len(details) > 0 {
		e["details"] = details
	}
	if a.set.On(sabotage.SIErrorCodeTopLevel) {
		return a2a.Part{Data: mustJSON(e)}
	}
	return a2a.Part{Data: mustJSON(map[string]any{"error": e})}
}

// fail ends the request as a Task in state with the condition in its final status Message.
func (a *agent) fail(k *call, state, code, msg string, details []any) a2atest.Reply {
	if a.set.On(sabotage.SIDetailsEchoCredential) {
		msg += " (request credential: " + k.c.R.Header.Get("Authorization") + ")"
	}
	parts := []a2a.Part{errorPart(a, code, msg, details)}
	if a.set.On(sabotage.SIErrorTwoDataParts) {
		parts = append(parts, a2a.Part{Data: mustJSON(map[string]any{"detail": msg})})
	}
	if a.opt.ErrorTextPart {
		parts = append([]a2a.Part{a2a.TextPart(msg)}, parts...)
	}
	t := k.task(state, nil)
	t.Status.Message = &a2a.Message{MessageID: newID(), Role: a2a.RoleAgent, TaskID: k.taskID, ContextID: k.contextID, Parts: parts}
	return a2atest.Reply{Task: t}
}

// complete builds the completed Task: one primary result Artifact named after the skill, one Artifact per
// supporting record; when streamed, the records first, then the primary result in two chunks.
func (a *agent) complete(k *call, sk *skill, out *outcome) a2atest.Reply {
	on := a.set.On
	resultObj := func(r any) map[string]any {
		m := map[string]any{"skill": sk.id, "result": r}
		if on(sabotage.SIInvokeResultMissingSkillMember) {
			delete(m, "skill")
		}
		return m
	}
	primary := a2a.Artifact{ArtifactID: "result-1", Name: sk.id, Parts: []a2a.Part{a.dataPart(resultObj(out.result))}}
	var recs []a2a.Artifact
	for _, r := range out.records {
		name := r.kind
		switch {
		case on(sabotage.SIRecordArtifactWrongName):
			name = "observation"
		case on(sabotage.SIRecordArtifactNamedSkillID):
			name = sk.id
		}
		parts := []a2a.Part{a.dataPart(r.value)}
		if on(sabotage.SIRecordTwoParts) {
			parts = splitParts(a, r.value)
		}
		if on(sabotage.SIRecordInResultArtifact) {
			primary.Parts = append(primary.Parts, parts...)
			continue
		}
		id := r.id
		if on(sabotage.SIOutputRefsNotArtifactID) {
			id = fmt.Sprintf("rec-%d", len(recs)+1)
		}
		recs = append(recs, a2a.Artifact{ArtifactID: id, Name: name, Parts: parts})
	}
	arts := append([]a2a.Artifact{primary}, recs...)
	if on(sabotage.SIInvokeDuplicateResultArtifact) {
		arts = append(arts, a2a.Artifact{ArtifactID: "result-2", Name: sk.id, Parts: primary.Parts})
	}
	if a.opt.SummaryArtifact {
		arts = append(arts, a2a.Artifact{ArtifactID: "summary-1", Name: "summary", Parts: []a2a.Part{a2a.TextPart(sk.id + " completed")}})
	}
	if on(sabotage.SIInvokeTaskNotCompleted) {
		return a2atest.Reply{Message: &a2a.Message{Role: a2a.RoleAgent, ContextID: k.contextID, Parts: primary.Parts}}
	}
	t := k.task(a2a.StateCompleted, arts)
	if !k.streaming || out.partial == nil {
		return a2atest.Reply{Task: t}
	}
	ts := a2atest.Timestamp(now())
	first := a2a.Task{ID: k.taskID, ContextID: k.contextID, Status: a2a.TaskStatus{State: a2a.StateSubmitted, Timestamp: ts}}
	ev := []a2a.StreamEvent{{Task: &first}}
	upd := func(art a2a.Artifact, appendTo, last bool) {
		ev = append(ev, a2a.StreamEvent{ArtifactUpdate: &a2a.TaskArtifactUpdateEvent{TaskID: k.taskID, ContextID: k.contextID,
			Artifact: art, Append: appendTo, LastChunk: last}})
	}
	for _, r := range recs {
		upd(r, false, true)
	}
	chunk := a2a.Artifact{ArtifactID: primary.ArtifactID, Name: primary.Name, Parts: []a2a.Part{a.dataPart(resultObj(out.partial))}}
	upd(chunk, false, false)
	if on(sabotage.SIStreamAssembledResultInvalid) {
		rest := map[string]any{}
		for key, v := range out.result.(map[string]any) {
			if _, had := out.partial.(map[string]any)[key]; !had {
				rest[key] = v
			}
		}
		upd(a2a.Artifact{ArtifactID: primary.ArtifactID, Parts: []a2a.Part{a.dataPart(rest)}}, true, true)
	} else {
		upd(primary, false, true)
	}
	for _, x := range arts[1+len(recs):] {
		upd(x, false, true)
	}
	ev = append(ev, a2a.StreamEvent{StatusUpdate: &a2a.TaskStatusUpdateEvent{TaskID: k.taskID, ContextID: k.contextID,
		Status: a2a.TaskStatus{State: a2a.StateCompleted, Timestamp: ts}}})
	if on(sabotage.SIGetTaskPartialResult) {
		t.Artifacts[0] = chunk // what later retrievals see
	}
	t.Status.Timestamp = ts
	return a2atest.Reply{Task: t, Events: ev}
}

// splitParts splits a record's members over two Data Parts (sabotage).
func splitParts(a *agent, v map[string]any) []a2a.Part {
	keys := make([]string, 0, len(v))
	for k := range v {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	p1, p2 := map[string]any{}, map[string]any{}
	for i, k := range keys {
		if i%2 == 0 {
			p1[k] = v[k]
		} else {
			p2[k] = v[k]
		}
	}
	return []a2a.Part{a.dataPart(p1), a.dataPart(p2)}
}

func now() time.Time { return time.Now() }

func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

var _ = json.Valid

// codeless is a refusal before any task exists carried by the binding's error mechanism without a condition (the
// CodelessPreTask latitude): JSON-RPC -32602 / HTTP 400 with a message only.
func codeless(msg string) a2atest.Reply {
	return a2atest.Reply{Err: &a2a.RPCError{Code: a2a.CodeInvalidParams, Message: msg}}
}
