package schemaiface

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/refclients/skiface"
	"github.com/extconf/extconf/sabotage"
)

// Limits the agent enforces on incoming requests (the operator declares them in the profile).
const (
	LimitPayloadBytes = 256 << 10 // the JSON of the request's Message
	LimitNesting      = 64        // array/object nesting of the request's Message
)

// call is one SendMessage / SendStreamingMessage in flight.
type call struct {
	c         *a2atest.Ctx
	req       a2a.SendMessageRequest
	p         principal
	streaming bool
	taskID    string
	contextID string
}

func (a *agent) onSend(c *a2atest.Ctx, req a2a.SendMessageRequest) a2atest.Reply {
	k := &call{c: c, req: req, p: principalOf(c), streaming: c.Method == a2a.MethodSendStreamingMessage,
		taskID: newID(), contextID: req.Message.ContextID}
	if k.contextID == "" {
		k.contextID = newID()
	}
	if a.set.On(sabotage.SINoExtensionsEcho) {
		c.RespHeader.Del(a2a.HeaderExtensions) // activated, not echoed (the SHOULD of section 9)
	}
	if r := a.limits(k); r != nil {
		return *r
	}
	data, textOnly, ok := requestObject(req.Message)
	if textOnly != "" && a.set.On(sabotage.SIDescribeTextOnly) {
		if f := strings.Fields(textOnly); len(f) == 2 && f[0] == skiface.DescribeSkill {
			return a.describe(k, f[1])
		}
	}
	if !ok {
		return a.fail(k, a2a.StateRejected, skiface.InputInvalid,
			"the message must carry exactly one Data Part whose data is a schema-interface request object", nil)
	}
	name, _ := data["skill"].(string)
	if name == skiface.DescribeSkill {
		if a.set.On(sabotage.SIDescribeTextOnly) {
			return a.fail(k, a2a.StateRejected, skiface.InputInvalid, "describe_skill expects a text part naming the skill", nil)
		}
		args, _ := data["arguments"].(map[string]any)
		id, ok := args["skill_id"].(string)
		if !ok {
			return a.fail(k, a2a.StateRejected, skiface.InputInvalid, "describe_skill needs arguments.skill_id",
				[]any{detail("/arguments/skill_id", "required", "a skill_id string is required")})
		}
		return a.describe(k, id)
	}
	return a.invoke(k, name, data)
}

// requestObject returns the data object of the message's single Data Part (ok), or the text of a single text
// part.
func requestObject(m a2a.Message) (map[string]any, string, bool) {
	if len(m.Parts) != 1 {
		return nil, "", false
	}
	if t := m.Parts[0].Text; t != nil {
		return nil, *t, false
	}
	if len(m.Parts[0].Data) == 0 {
		return nil, "", false
	}
	d := json.NewDecoder(bytes.NewReader(m.Parts[0].Data))
	d.UseNumber()
	var v map[string]any
	if d.Decode(&v) != nil || v == nil {
		return nil, "", false
	}
	return v, "", true
}

// limits refuses requests over the payload or nesting limit before any task exists: a binding error.
func (a *agent) limits(k *call) *a2atest.Reply {
	b := mustJSON(k.req.Message)
	var msg string
	var asTask bool
	switch {
	case len(b) > LimitPayloadBytes && !a.set.On(sabotage.SIAgentNoPayloadLimit):
		msg = "the request exceeds the payload size limit"
	case a.nestingOf(k, b) > LimitNesting && !a.set.On(sabotage.SIAgentNoNestingLimit):
		// The nesting limit is refused through a Task, checked before acceptance: "A resource_limit_exceeded
		// condition uses TASK_STATE_REJECTED when the limit is checked before acceptance" (the payload limit stays
		// a binding error, so both ways of refusing are shown).
		msg, asTask = "the request exceeds the nesting limit", true
	default:
		return nil
	}
	code := skiface.ResourceLimitExceeded
	if a.set.On(sabotage.SILimitReportedAsInputInvalid) {
		code = skiface.InputInvalid
	}
	if asTask && !a.set.On(sabotage.SIPreTaskErrorAsMessage) {
		state := a2a.StateRejected
		if a.set.On(sabotage.SILimitTaskCanceled) {
			state = a2a.StateCanceled
		}
		r := a.fail(k, state, code, msg, nil)
		return &r
	}
	if a.set.On(sabotage.SIPreTaskErrorAsMessage) {
		return &a2atest.Reply{Message: &a2a.Message{Role: a2a.RoleAgent, Parts: []a2a.Part{errorPart(a, code, msg, nil)}}}
	}
	infos := []a2atest.ErrorInfo{{Type: a2atest.ErrorInfoType, Reason: a.reason(code), Domain: URI}}
	if a.opt.Status413 && len(b) > LimitPayloadBytes {
		return &a2atest.Reply{RawBody: []byte("Request Entity Too Large\n"), HTTPStatus: http.StatusRequestEntityTooLarge}
	}
	return &a2atest.Reply{Err: &a2a.RPCError{Code: a2a.CodeInvalidParams, Message: msg, Data: mustJSON(infos)}}
}

func nesting(b []byte) int {
	depth, max := 0, 0
	in, esc := false, false
	for _, c := range b {
		if in {
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				in = false
			}
			continue
		}
		switch c {
		case '"':
			in = true
		case '{', '[':
			if depth++; depth > max {
				max = depth
			}
		case '}', ']':
			depth--
		}
	}
	return max
}

// describe answers describe_skill with the document assembled at start-up.
func (a *agent) describe(k *call, id string) a2atest.Reply {
	on := a.set.On
	sk := a.skills[id]
	if a.opt.DescribeRefusedToB && k.p.name == "B" {
		return a.deny(k, decision{rule: ruleSkill})
	}
	if sk == nil || !sk.advertised {
		if on(sabotage.SIUnadvertisedSkillGenericError) {
			infos := []a2atest.ErrorInfo{{Type: a2atest.ErrorInfoType, Reason: a.reason(skiface.InterfaceUnavailable), Domain: URI}}
			return a2atest.Reply{Err: &a2a.RPCError{Code: a2a.CodeInvalidParams, Message: "unknown skill " + id, Data: mustJSON(infos)}}
		}
		if a.opt.CodelessPreTask {
			return codeless("unknown skill " + id)
		}
		return a.fail(k, a2a.StateRejected, skiface.SkillNotAdvertised, "the skill_id is not advertised by this agent", nil)
	}
	failState := a2a.StateFailed
	if on(sabotage.SIDescribeFailureStateRejected) {
		failState = a2a.StateRejected
	}
	switch id {
	case skillUnavailable:
		code := skiface.InterfaceUnavailable
		if on(sabotage.SIUnavailableWrongCode) {
			code = skiface.InterfaceInvalid
		}
		return a.fail(k, failState, code, "the interface store holding this skill's document is offline", nil)
	case skillCorrupt:
		code := skiface.InterfaceInvalid
		if on(sabotage.SIInvalidDocumentWrongCode) {
			code = skiface.InterfaceUnavailable
		}
		return a.fail(k, failState, code, "the stored Skill Interface Document no longer matches its retained digest", nil)
	}

	doc, digest := sk.published, sk.cardDigest
	switch {
	case id == skillEvaluate && on(sabotage.SIDescribeOtherSkillVersion):
		doc = withVersion(sk.doc, "1.1")
		digest = interfaceDigest(doc)
	case id == skillEvaluate && on(sabotage.SIDescribeTamperedDocument):
		doc = editJSON(doc, func(m map[string]any) { obj(m, "interaction")["cancellable"] = false })
	}
	if on(sabotage.SIDescribeAssembledPerRequest) {
		a.mu.Lock()
		a.describes++
		n := a.describes
		a.mu.Unlock()
		m := tree(doc)
		in := obj(m, "input_schema")
		sch := obj(in, "resolution", "schema")
		sch["$comment"] = fmt.Sprintf("assembled for request %d", n)
		in["digest"] = jcsDigest(mustJSON(sch))
		doc = mustJSON(m)
		digest = interfaceDigest(doc)
	}
	if id == skillEvaluate && on(sabotage.SIDescribeDigestDiffers) {
		digest = a.skills[skillManage].cardDigest
	}

	var result any = map[string]any{"interface_digest": digest, "interface": json.RawMessage(doc)}
	if on(sabotage.SIDescribeOmitDigest) {
		result = map[string]any{"interface": json.RawMessage(doc)}
	}
	if on(sabotage.SIDescribeDocAsString) {
		result = map[string]any{"interface_digest": digest, "interface": string(doc)}
	}
	data := map[string]any{"skill": skiface.DescribeSkill, "result": result}
	if on(sabotage.SIDescribeOmitSkillMember) {
		delete(data, "skill")
	}
	name := skiface.DescribeSkill
	if on(sabotage.SIDescribeArtifactName) {
		name = "interface"
	}
	parts := []a2a.Part{a.dataPart(data)}
	if on(sabotage.SIDescribeExtraPart) {
		parts = append([]a2a.Part{a2a.TextPart("Skill Interface Document for " + id)}, parts...)
	}
	if id == skillManage && on(sabotage.SIDescribeOpaqueFallback) {
		parts = []a2a.Part{a2a.TextPart(string(doc))}
	}
	arts := []a2a.Artifact{{ArtifactID: "interface-" + id, Name: name, Parts: parts}}
	if on(sabotage.SIDescribeExtraArtifact) {
		arts = append(arts, a2a.Artifact{ArtifactID: "notes", Name: "notes", Parts: []a2a.Part{a2a.TextPart("assembled at start-up")}})
	}
	if on(sabotage.SIDescribeTaskNotCompleted) {
		return a2atest.Reply{Message: &a2a.Message{Role: a2a.RoleAgent, ContextID: k.contextID, Parts: parts}}
	}
	t := k.task(a2a.StateCompleted, arts)
	if id == skillEvaluate && on(sabotage.SISchemaDuplicateMember) {
		return a.duplicateMember(k, t)
	}
	return a2atest.Reply{Task: t}
}

// duplicateMember serves the task with a second "type" member inside the input schema's raw JSON (encoding/json
// keeps the last one, so a lenient reader sees the same document).
func (a *agent) duplicateMember(k *call, t *a2a.Task) a2atest.Reply {
	t.Status.Timestamp = a2atest.Timestamp(now())
	raw := string(mustJSON(t))
	const anchor = `"schema":{"type":"object"`
	raw = strings.Replace(raw, anchor, `"schema":{"type":"array","type":"object"`, 1)
	if k.streaming {
		return a2atest.Reply{Result: json.RawMessage(`{"task":` + raw + `}`)}
	}
	return a2atest.Reply{Result: json.RawMessage(`{"task":` + raw + `}`)}
}

// dataPart is a Data Part, or under sabotage a text part holding the JSON.
func (a *agent) dataPart(v any) a2a.Part {
	if a.set.On(sabotage.SIMappingTextParts) {
		return a2a.TextPart(string(mustJSON(v)))
	}
	return a2a.Part{Data: mustJSON(v)}
}

func (k *call) task(state string, arts []a2a.Artifact) *a2a.Task {
	return &a2a.Task{ID: k.taskID, ContextID: k.contextID, Status: a2a.TaskStatus{State: state}, Artifacts: arts}
}

func detail(path, keyword, msg string) map[string]any {
	return map[string]any{"instance_path": path, "keyword": keyword, "message": msg}
}

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

// nestingOf is the nesting the agent counts: the whole Message, or (NestingInArguments) only the arguments of the
// request object, plus the levels above them in the Message, so both count against the same limit.
func (a *agent) nestingOf(k *call, b []byte) int {
	if !a.opt.NestingInArguments {
		return nesting(b)
	}
	for _, p := range k.req.Message.Parts {
		var req struct {
			Arguments json.RawMessage `json:"arguments"`
		}
		if len(p.Data) > 0 && json.Unmarshal(p.Data, &req) == nil && len(req.Arguments) > 0 {
			return nesting(req.Arguments) + argumentsLevel
		}
	}
	return 0
}

// argumentsLevel is how deep the arguments object sits in a Message (message, parts, part, data, arguments).
const argumentsLevel = 4
