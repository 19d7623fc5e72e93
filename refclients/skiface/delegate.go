package skiface

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/sabotage"
)

// blindDescribe is what a broken client does: send describe_skill although the card rules it out.
func (c *Client) blindDescribe(ctx context.Context, res *Result, a *advertised, skillID string, why *Error) (*Result, error) {
	msg := c.message(map[string]any{"skill": DescribeSkill, "arguments": map[string]any{"skill_id": skillID}}, false, false)
	_, _, _ = c.send(ctx, res, a, msg, false, Step3Describe, false)
	return c.stop(res, why)
}

// blindDelegate is what a broken client does: delegate without a validated document.
func (c *Client) blindDelegate(ctx context.Context, res *Result, a *advertised, req Request, why *Error) (*Result, error) {
	version, digest := "", ""
	if a.entry != nil {
		version, digest = a.entry.SkillVersion, a.entry.InterfaceDigest
	} else {
		for _, s := range a.params.Skills {
			if s.SkillID == req.SkillID {
				version, digest = s.SkillVersion, s.InterfaceDigest
			}
		}
	}
	obj := map[string]any{"skill": req.SkillID, "skill_version": version, "interface_digest": digest, "arguments": json.RawMessage(orNull(req.Arguments))}
	task, ex, e := c.send(ctx, res, a, c.message(obj, false, false), req.Stream, Step8Delegate, false)
	if e == nil {
		c.track(res, a, req, task)
		res.step(Step8Delegate, true, ex, "(sabotaged) delegated without a validated document")
		res.Output = primaryResult(task, req.SkillID)
	}
	if why != nil {
		res.Err, res.Local = why, true
		return res, why
	}
	return res, nil
}

func orNull(b json.RawMessage) json.RawMessage {
	if len(bytes.TrimSpace(b)) == 0 {
		return json.RawMessage("null")
	}
	return b
}

func primaryResult(task *a2a.Task, skill string) json.RawMessage {
	if task == nil {
		return nil
	}
	for _, art := range task.Artifacts {
		if art.Name == skill && len(art.Parts) == 1 {
			var o struct {
				Result json.RawMessage `json:"result"`
			}
			if json.Unmarshal(art.Parts[0].Data, &o) == nil {
				return o.Result
			}
		}
	}
	return nil
}

// delegate is steps 8–11.
func (c *Client) delegate(ctx context.Context, res *Result, a *advertised, req Request, v *Verified) (*Result, error) {
	skill := req.SkillID
	if c.on(sabotage.SIClientInvokeSkillName) && a.agentSkil.Name != "" {
		skill = a.agentSkil.Name
	}
	version, digest := a.sendVersion, a.entry.InterfaceDigest
	if c.on(sabotage.SIClientInvokeWrongSkillVersion) {
		version = bumpMinor(version)
	}
	if c.on(sabotage.SIClientInvokeWrongDigest) {
		digest = v.Doc.InputSchema.Digest
	}
	obj := map[string]any{"skill": skill, "skill_version": version, "interface_digest": digest, "arguments": json.RawMessage(orNull(req.Arguments))}
	if c.on(sabotage.SIClientInvokeOmitDigest) {
		delete(obj, "interface_digest")
	}
	if c.on(sabotage.SIClientInvokeFlatArguments) {
		delete(obj, "arguments")
		var m map[string]json.RawMessage
		_ = json.Unmarshal(req.Arguments, &m)
		for k, x := range m {
			obj[k] = x
		}
	}
	msg := c.message(obj, c.on(sabotage.SIClientInvokeExtraTextPart), false)
	if req.Upstream != nil && c.on(sabotage.SIClientReuseUpstreamTaskID) {
		msg.TaskID = req.Upstream.ID
	}
	task, ex, e := c.send(ctx, res, a, msg, req.Stream, Step8Delegate, false)
	if e != nil {
		if e.Code != "" && res.RemoteCode == "" {
			res.RemoteCode = e.Code // a binding error that carried a condition
			res.Err = e
			res.step(Step8Delegate, false, ex, "%s", e.Error())
			return res, e
		}
		return c.stop(res, e)
	}
	res.step(Step8Delegate, true, ex, "delegated %s %s %s", req.SkillID, version, digest)
	key := c.track(res, a, req, task)

	// step 9
	if req.Poll && a2a.IsTerminal(task.Status.State) {
		t, gex, err := c.getTask(ctx, a.endpoint, a.binding, task.ID)
		res.addExchange(gex)
		if err == nil && t != nil {
			task = t
			c.track(res, a, req, task)
		}
	}
	res.RemoteState = task.Status.State
	if task.Status.State != a2a.StateCompleted {
		code, m := errorCondition(task)
		if code == "" {
			m = "the task ended in " + task.Status.State + " without a condition code"
		}
		return remote(res, Step9Receive, code, m, ex)
	}
	res.step(Step9Receive, true, ex, "task %s completed at %s", key.ID, key.Endpoint)

	// step 10
	out, recs, e := c.checkOutput(task, req.SkillID, v)
	if e != nil {
		if c.on(sabotage.SIClientOutputFailureAsInterfaceInvalid) {
			e.Code = InterfaceInvalid
		}
		if c.on(sabotage.SIClientOutputInvalidAsRemoteState) {
			var cex *a2a.Exchange
			if a.binding == a2a.BindingHTTPJSON {
				cex, _ = c.A2A.REST(ctx, http.MethodPost, a.endpoint, "/tasks/"+url.PathEscape(task.ID)+":cancel", nil, c.call("CancelTask"))
			} else {
				_, _, cex, _ = c.A2A.CancelTask(ctx, a.endpoint, task.ID, "", c.call("CancelTask"))
			}
			res.addExchange(cex)
			res.RemoteState = a2a.StateFailed
		}
		if c.on(sabotage.SIClientUseInvalidOutput) {
			res.Output, res.Records = out, recs
		}
		return c.stop(res, e)
	}
	res.step(Step10Validate, true, nil, "output and %d records validate", len(recs))
	// step 11
	res.Output, res.Records, res.SchemaGoverned = out, recs, true
	res.step(Step11Deliver, true, nil, "output delivered")
	return res, nil
}

func bumpMinor(v string) string {
	maj, min, ok := strings.Cut(v, ".")
	if !ok {
		return v + ".1"
	}
	n := 0
	fmt.Sscanf(min, "%d", &n)
	return fmt.Sprintf("%s.%d", maj, n+1)
}
