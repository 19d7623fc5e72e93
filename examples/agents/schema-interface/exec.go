package main

import (
	"context"
	"iter"
	"log"
	"strings"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
)

// agent is the A2A executor: it maps requests of the interface version 1.0 A2A mapping onto its skills.
type agent struct {
	skills   map[string]*skill
	order    []string
	routers  *inventory
	tokens   map[string]string // bearer token → principal
	policies map[string]policy // principal → its grant
}

// policy is one principal's grant under local policy; its id is policy state no caller is told.
type policy struct {
	id     string
	skills map[string]bool
}

// condition is one of the document's machine-readable error conditions, with the terminal state it ends in.
type condition struct {
	code, message string
	state         a2a.TaskState
	details       []any // input_invalid: where the input failed, never its values
}

func rejected(code, msg string) *condition {
	return &condition{code: code, message: msg, state: a2a.TaskStateRejected}
}
func failed(code, msg string) *condition {
	return &condition{code: code, message: msg, state: a2a.TaskStateFailed}
}

// Execute answers one request: a describe_skill request or a domain-skill request, each one Data Part.
func (ag *agent) Execute(ctx context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		req, ok := requestObject(ec.Message)
		if !ok {
			// Base A2A without a request object: say how to use the agent; no schema-interface task.
			msg := a2a.NewMessage(a2a.MessageRoleAgent, a2a.NewTextPart(
				"Send a skill request object as one Data Part; describe_skill returns each skill's interface."))
			msg.ContextID = ec.ContextID
			yield(msg, nil)
			return
		}
		if ec.StoredTask == nil && !yield(a2a.NewSubmittedTask(ec, ec.Message), nil) {
			return
		}
		var events []a2a.Event
		var c *condition
		if req["skill"] == "describe_skill" {
			events, c = ag.describe(ec, req)
		} else {
			events, c = ag.invoke(ec, req)
		}
		if c != nil {
			e := map[string]any{"code": c.code}
			if c.message != "" {
				e["message"] = c.message
			}
			if len(c.details) > 0 {
				e["details"] = c.details
			}
			msg := a2a.NewMessageForTask(a2a.MessageRoleAgent, ec, a2a.NewDataPart(map[string]any{"error": e}))
			yield(a2a.NewStatusUpdateEvent(ec, c.state, msg), nil)
			return
		}
		for _, e := range events {
			if !yield(e, nil) {
				return
			}
		}
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCompleted, nil), nil)
	}
}

// Cancel: the skills are short and declare cancellable false.
func (ag *agent) Cancel(_ context.Context, _ *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) { yield(nil, a2a.ErrTaskNotCancelable) }
}

// requestObject is the data value of the Message's single Data Part, when it is an object naming a skill.
func requestObject(m *a2a.Message) (map[string]any, bool) {
	if m == nil || len(m.Parts) != 1 {
		return nil, false
	}
	d, ok := m.Parts[0].Content.(a2a.Data)
	if !ok {
		return nil, false
	}
	obj, ok := d.Value.(map[string]any)
	if !ok {
		return nil, false
	}
	_, named := obj["skill"].(string)
	return obj, named
}

// principal is the authenticated caller (the guard admitted only known tokens).
func (ag *agent) principal(ec *a2asrv.ExecutorContext) string {
	vals, _ := ec.ServiceParams.Get("Authorization")
	for _, v := range vals {
		if p, ok := ag.tokens[strings.TrimPrefix(v, "Bearer ")]; ok {
			return p
		}
	}
	return ""
}

// artifact is one complete Artifact with one Data Part.
func artifact(ec *a2asrv.ExecutorContext, id, name string, data any) a2a.Event {
	e := a2a.NewArtifactEvent(ec, a2a.NewDataPart(data))
	e.Artifact.ID, e.Artifact.Name, e.LastChunk = a2a.ArtifactID(id), name, true
	return e
}

// describe returns the retained document of the selected skill; it never builds or alters one.
func (ag *agent) describe(ec *a2asrv.ExecutorContext, req map[string]any) ([]a2a.Event, *condition) {
	args, _ := req["arguments"].(map[string]any)
	id, ok := args["skill_id"].(string)
	if !ok || len(args) != 1 {
		return nil, rejected("input_invalid", "arguments must be {\"skill_id\": <string>}")
	}
	sk := ag.skills[id]
	if sk == nil {
		return nil, rejected("skill_not_advertised", "no such skill is advertised")
	}
	return []a2a.Event{artifact(ec, "describe_skill", "describe_skill", map[string]any{
		"skill": "describe_skill", "result": map[string]any{"interface_digest": sk.digest, "interface": sk.doc},
	})}, nil
}

// invoke runs a domain skill: authorization, the binding, the input, domain logic, then the output and records.
func (ag *agent) invoke(ec *a2asrv.ExecutorContext, req map[string]any) ([]a2a.Event, *condition) {
	id, _ := req["skill"].(string)
	sk := ag.skills[id]
	if sk == nil {
		return nil, rejected("skill_not_advertised", "no such skill is advertised")
	}
	if who := ag.principal(ec); !ag.policies[who].skills[id] {
		log.Printf("denied %s to %s under %s", id, who, ag.policies[who].id) // the operator's log, not the caller's
		return nil, rejected("authorization_failed", "the caller may not invoke this skill")
	}
	if req["skill_version"] != sk.version || req["interface_digest"] != sk.digest {
		return nil, rejected("interface_mismatch", "skill_version and interface_digest must name the active interface")
	}
	args, present := req["arguments"]
	if err := valid(sk.input, args); !present || err != nil {
		c := rejected("input_invalid", "the arguments do not validate against input_schema")
		c.details = details(err)
		return nil, c
	}
	if why := semantic(id, args.(map[string]any)); why != "" {
		return nil, rejected("constraint_rejected", why)
	}
	result, records := ag.run(id, args.(map[string]any))
	if valid(sk.output, result) != nil {
		return nil, failed("output_invalid", "the skill produced output that does not validate")
	}
	var events []a2a.Event
	for _, r := range records {
		if s := sk.records[r.kind]; s == nil || valid(s, r.value) != nil {
			return nil, failed("output_invalid", "a supporting record does not validate")
		}
		events = append(events, artifact(ec, r.id, r.kind, r.value))
	}
	return append(events, artifact(ec, "result-1", id, map[string]any{"skill": id, "result": result})), nil
}
