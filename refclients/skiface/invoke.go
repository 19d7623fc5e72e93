package skiface

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/sabotage"
)

// Assemble folds stream events into the task they describe: artifact updates with append=true add their parts
// to the artifact with the same id, any other update replaces it; status updates set the status.
func Assemble(events []a2a.StreamEvent) (*a2a.Task, *a2a.Message) {
	var task *a2a.Task
	for _, e := range events {
		switch {
		case e.Message != nil && task == nil:
			return nil, e.Message
		case e.Task != nil:
			t := *e.Task
			task = &t
		case task == nil:
			continue
		case e.StatusUpdate != nil:
			task.Status = e.StatusUpdate.Status
		case e.ArtifactUpdate != nil:
			u := e.ArtifactUpdate
			i := -1
			for j := range task.Artifacts {
				if task.Artifacts[j].ArtifactID == u.Artifact.ArtifactID {
					i = j
				}
			}
			switch {
			case i < 0:
				task.Artifacts = append(task.Artifacts, u.Artifact)
			case u.Append:
				task.Artifacts[i].Parts = append(task.Artifacts[i].Parts, u.Artifact.Parts...)
			default:
				task.Artifacts[i] = u.Artifact
			}
		}
	}
	return task, nil
}

// Invoke runs the eleven steps for one domain-skill invocation.
func (c *Client) Invoke(ctx context.Context, req Request) (*Result, error) {
	res := &Result{Target: req.CardURL, SkillID: req.SkillID}
	a, e := c.readCard(ctx, res, req.CardURL)
	if e != nil {
		return c.stop(res, e)
	}
	if e := c.selectBinding(a, req); e != nil {
		if e.Code == SkillNotAdvertised && (!a.hasExt || !a.hasDesc) && c.on(sabotage.SIClientAssumeConformance) {
			return c.blindDescribe(ctx, res, a, req.SkillID, e)
		}
		if e.Code == SkillNotAdvertised && a.hasExt && !a.hasDesc && c.on(sabotage.SIClientDelegateWithoutDescribeSkill) {
			return c.blindDelegate(ctx, res, a, req, e)
		}
		if (e.Code == SkillNotAdvertised || e.Code == InterfaceUnavailable) && a.hasExt && a.hasDesc &&
			(c.on(sabotage.SIClientContinueAfterLocalError) || c.on(sabotage.SIClientDescribeUnadvertised)) {
			return c.blindDescribe(ctx, res, a, req.SkillID, e)
		}
		return c.stop(res, e)
	}
	res.SkillVersion, res.InterfaceDigest = a.entry.SkillVersion, a.entry.InterfaceDigest
	res.step(Step2Select, true, nil, "selected %s %s %s", req.SkillID, a.entry.SkillVersion, a.entry.InterfaceDigest)

	if c.on(sabotage.SIClientDelegateWithoutDescribe) {
		return c.blindDelegate(ctx, res, a, req, nil)
	}
	iface, e := c.describe(ctx, res, a, req.SkillID)
	if e != nil {
		if res.RemoteCode != "" && c.on(sabotage.SIClientDelegateAfterDescribeFailure) {
			return c.blindDelegate(ctx, res, a, req, e)
		}
		if e.Code == InterfaceInvalid && c.on(sabotage.SIClientDelegateAfterInvalid) {
			return c.blindDelegate(ctx, res, a, req, e)
		}
		return c.stopOrRemote(res, e)
	}
	res.Interface = iface
	v := iface.Verified

	// step 7
	if !c.on(sabotage.SIClientSkipInputValidation) && !req.trusted {
		if e := c.checkInstance(v.Doc.InputSchema, v.Input, req.Arguments, InputInvalid, Step7Input, "the skill input"); e != nil {
			return c.stop(res, e)
		}
		res.step(Step7Input, true, nil, "arguments validate against input_schema %s", v.Doc.InputSchema.SchemaURI)
	}
	if e := c.permit(v.Doc, req); e != nil {
		return c.stop(res, e)
	}
	return c.delegate(ctx, res, a, req, v)
}

// checkInstance validates an outgoing instance and runs the domain handler for its schema.
func (c *Client) checkInstance(ref SchemaReference, cs *Compiled, inst json.RawMessage, code, step, what string) *Error {
	if len(bytes.TrimSpace(inst)) == 0 {
		inst = json.RawMessage("null")
	}
	if vs := cs.ValidateJSON(inst); len(vs) > 0 {
		if vs[0].Keyword == "resource_limit" {
			return errf(ResourceLimitExceeded, step, "", "%s: %s", what, vs[0].Message)
		}
		return &Error{Code: code, Step: step, Path: vs[0].InstancePath, Details: c.details(vs),
			Msg: fmt.Sprintf("%s does not validate against %s: %s", what, ref.SchemaURI, vs[0].Message)}
	}
	return c.checkHandler(ref, inst, step, what)
}

// checkHandler runs the optional domain-aware handler for the schema an instance is bound to.
func (c *Client) checkHandler(ref SchemaReference, inst json.RawMessage, step, what string) *Error {
	if h := c.Handlers[ref.SchemaURI]; h != nil {
		if err := h(inst); err != nil {
			cc := ConstraintRejected
			if c.on(sabotage.SIClientConstraintWrongCode) {
				cc = InputInvalid
			}
			return &Error{Code: cc, Step: step, Msg: what + " fails the domain handler for " + ref.SchemaURI, Err: err}
		}
	}
	return nil
}

func (c *Client) details(vs []Violation) []Detail {
	d := Details(vs)
	if c.on(sabotage.SIClientDetailsNoInstancePath) {
		for i := range d {
			d[i].InstancePath = ""
		}
	}
	return d
}

// permit is the local permission and approval step; the document's authority member never replaces it.
func (c *Client) permit(d *Document, req Request) *Error {
	skipPermit := c.on(sabotage.SIClientAuthorityAsPermission) && d.Authority.DefaultMode == "observe_only"
	skipApprove := c.on(sabotage.SIClientAuthorityAsPermission) && !d.Authority.ApprovalMayBeRequired
	if c.Policy.Permit != nil && !skipPermit {
		if err := c.Policy.Permit(req.SkillID, req.Arguments); err != nil {
			return &Error{Code: AuthorizationFailed, Step: Step7Policy, Msg: "the local policy does not permit invoking " + req.SkillID, Err: err}
		}
	}
	if c.Policy.Approve != nil && !skipApprove {
		if err := c.Policy.Approve(req.SkillID, req.Arguments); err != nil {
			return &Error{Code: AuthorizationFailed, Step: Step7Policy, Msg: "the local approval step for " + req.SkillID + " did not approve", Err: err}
		}
	}
	return nil
}

// checkOutput finds the primary result artifact and the supporting records and validates them.
func (c *Client) checkOutput(task *a2a.Task, skill string, v *Verified) (json.RawMessage, []Record, *Error) {
	var (
		out     json.RawMessage
		recs    []Record
		primary int
	)
	for i, art := range task.Artifacts {
		if art.Name == skill {
			primary++
			if len(art.Parts) != 1 || len(art.Parts[0].Data) == 0 {
				return nil, nil, errf(OutputInvalid, Step10Validate, fmt.Sprintf("/artifacts/%d/parts", i), "the primary result artifact must hold exactly one Data Part")
			}
			var o struct {
				Skill  string          `json:"skill"`
				Result json.RawMessage `json:"result"`
			}
			if err := json.Unmarshal(art.Parts[0].Data, &o); err != nil || o.Skill != skill || len(o.Result) == 0 {
				return nil, nil, errf(OutputInvalid, Step10Validate, fmt.Sprintf("/artifacts/%d/parts/0/data", i), "the primary result data is not the skill result object {skill, result}")
			}
			out = o.Result
			continue
		}
		if _, declared := v.Records[art.Name]; !declared {
			continue // neither the primary result nor a declared record: not this mapping's concern
		}
		if len(art.Parts) != 1 || len(art.Parts[0].Data) == 0 {
			return nil, nil, errf(OutputInvalid, Step10Validate, fmt.Sprintf("/artifacts/%d/parts", i), "supporting record %q must be one Data Part", art.Name)
		}
		recs = append(recs, Record{Kind: art.Name, ArtifactID: art.ArtifactID, Value: art.Parts[0].Data})
	}
	if primary != 1 {
		return nil, nil, errf(OutputInvalid, Step10Validate, "/artifacts", "the completed task has %d primary result artifacts named %q, the mapping requires one", primary, skill)
	}
	if c.on(sabotage.SIClientSkipOutputValidation) {
		return out, recs, nil
	}
	if vs := v.Output.ValidateJSON(out); len(vs) > 0 {
		return out, recs, &Error{Code: OutputInvalid, Step: Step10Validate, Path: vs[0].InstancePath, Details: c.details(vs),
			Msg: "the output does not validate against output_schema " + v.Doc.OutputSchema.SchemaURI + ": " + vs[0].Message}
	}
	for _, r := range recs {
		if vs := v.Records[r.Kind].ValidateJSON(r.Value); len(vs) > 0 {
			return out, recs, &Error{Code: OutputInvalid, Step: Step10Validate, Path: vs[0].InstancePath, Details: c.details(vs),
				Msg: fmt.Sprintf("supporting record %s (%s) does not validate: %s", r.ArtifactID, r.Kind, vs[0].Message)}
		}
	}
	return out, recs, nil
}

// InvokeBase invokes a skill of an agent through base A2A only (text parts, no extension, no request object):
// what a caller may do with an agent that does not provide the schema-interface procedure. The result is never
// schema-governed and carries no schema.
func (c *Client) InvokeBase(ctx context.Context, cardURL, skillID, text string) (*Result, error) {
	res := &Result{Target: cardURL, SkillID: skillID}
	a, e := c.readCard(ctx, res, cardURL)
	if e != nil {
		return c.stop(res, e)
	}
	sk, ok := a.card.Skill(skillID)
	if !ok {
		return c.stop(res, errf(SkillNotAdvertised, Step2Select, "", "skill %q is not in the card", skillID))
	}
	if c.on(sabotage.SIClientInferSchemaFromMediaType) {
		for _, m := range sk.InputModes {
			if m == "application/json" {
				res.InferredSchema = json.RawMessage(`{"type":"object"}`)
			}
		}
	}
	m := a2a.Message{MessageID: "extconf-" + newID(), Role: a2a.RoleUser, Parts: []a2a.Part{a2a.TextPart(text)}}
	task, ex, e := c.sendBase(ctx, res, a, m)
	if e != nil {
		return c.stop(res, e)
	}
	res.step("base A2A invocation", true, ex, "not schema-governed: the agent does not provide the schema-interface procedure")
	if task != nil {
		c.track(res, a, Request{SkillID: skillID}, task)
		res.RemoteState = task.Status.State
	}
	res.SchemaGoverned = c.on(sabotage.SIClientClaimConformanceNonconforming)
	return res, nil
}

func (c *Client) sendBase(ctx context.Context, res *Result, a *advertised, m a2a.Message) (*a2a.Task, *a2a.Exchange, *Error) {
	call := a2a.Call{Note: "base A2A invocation"}
	var task *a2a.Task
	var ex *a2a.Exchange
	var err error
	if a.binding == a2a.BindingHTTPJSON {
		var msg *a2a.Message
		var rerr *a2a.RPCError
		task, msg, ex, rerr, err = c.restSend(ctx, a, a2a.SendMessageRequest{Message: m}, call)
		_ = msg
		if rerr != nil && err == nil {
			err = rerr
		}
	} else {
		var sr *a2a.SendResult
		var resp *a2a.RPCResponse
		sr, resp, ex, err = c.A2A.SendMessage(ctx, a.endpoint, a2a.SendMessageRequest{Message: m}, call)
		if err == nil && resp.Error != nil {
			err = resp.Error
		}
		if sr != nil {
			task = sr.Task
		}
	}
	res.addExchange(ex)
	if err != nil {
		return nil, ex, &Error{Step: "base A2A invocation", Msg: "sending the message", Err: err}
	}
	return task, ex, nil
}
