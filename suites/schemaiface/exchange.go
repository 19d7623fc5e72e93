package schemaiface

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/refclients/skiface"
)

// answer is one request's outcome, whatever the binding or delivery mode.
type answer struct {
	ex      *a2a.Exchange
	err     error           // transport, limit or decoding trouble
	task    *a2a.Task       // the (assembled) task
	msg     *a2a.Message    // a message result
	bindErr json.RawMessage // the binding's error object (JSON-RPC error / google.rpc.Status error member)
	events  []a2a.StreamEvent
}

// Delivery modes.
const (
	modeSync   = "SendMessage"
	modeStream = "SendStreamingMessage"
)

func newID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "extconf-" + hex.EncodeToString(b[:])
}

// message is a user Message carrying one Data Part, with the extension listed.
func message(data any) a2a.Message {
	return a2a.Message{MessageID: newID(), Role: a2a.RoleUser, Parts: []a2a.Part{a2a.DataPart(data)}, Extensions: []string{URI}}
}

func describeReq(skill string) map[string]any {
	return map[string]any{"skill": skiface.DescribeSkill, "arguments": map[string]any{"skill_id": skill}}
}

func invokeReq(skill, version, digest string, args json.RawMessage) map[string]any {
	if args == nil {
		args = json.RawMessage("{}")
	}
	return map[string]any{"skill": skill, "skill_version": version, "interface_digest": digest, "arguments": args}
}

// send sends m over JSON-RPC (rest=false) or HTTP+JSON, synchronously or streamed, activating the extension.
// An agent that refuses unauthenticated callers when no credential is configured blocks the spec.
func (s *sess) send(cl *a2a.Client, rest bool, mode string, m a2a.Message, note string) *answer {
	an := s.send1(cl, rest, mode, m, note)
	if r := s.unauthenticated(an); r != "" {
		s.w.Blocked(r)
	}
	return an
}

// unauthenticated says why a spec is blocked when the agent refuses a caller the configuration gave no credential.
func (s *sess) unauthenticated(an *answer) string {
	if an.ex == nil || an.ex.Status != http.StatusUnauthorized {
		return ""
	}
	if p, ok := s.e.Target.Config.PrincipalOf(docID, "A"); ok && p.Header != "" {
		return ""
	}
	// The member leads and the exchange follows on its own line: every spec this blocks is one cause, in any
	// process of a split run.
	return "documents.schema-interface.principals.A is missing: the agent refuses unauthenticated requests (HTTP 401): name a credential in credentials and documents.schema-interface.principals.A\n  " + an.ex.ID
}

func (s *sess) send1(cl *a2a.Client, rest bool, mode string, m a2a.Message, note string) *answer {
	if want := s.deliverable(skillOf(m), mode); want != mode {
		mode, note = want, note+" (as "+want+": "+mode+" not offered)"
	}
	an, why := post(s.w.Ctx(), cl, s.rpc, s.rest, rest, mode, m, note)
	if why != "" {
		s.w.Inapplicable(why)
	}
	if mode == modeSync {
		an = s.settle(cl, rest, an, note)
	}
	return an
}

// settleWait bounds how long a reply's task still in progress is polled.
const settleWait = 5 * time.Second

// settle polls a SendMessage reply's task that is neither terminal nor interrupted until it is (bounded): A2A 1.0
// makes SendMessage wait for that state unless returnImmediately is asked, which the run never asks, but the
// document's rows are about the state the task reaches ("the A2A task MUST reach the completed state"), so a reply
// still in TASK_STATE_SUBMITTED or TASK_STATE_WORKING is read through GetTask rather than graded as it stands.
func (s *sess) settle(cl *a2a.Client, rest bool, an *answer, note string) *answer {
	if an.task == nil || an.task.ID == "" {
		return an
	}
	deadline := time.Now().Add(settleWait)
	for wait := 50 * time.Millisecond; inProgress(an.task.Status.State) && time.Now().Before(deadline); wait = min(2*wait, time.Second) {
		select {
		case <-s.w.Ctx().Done():
			return an
		case <-time.After(wait):
		}
		g := s.getTask(cl, rest, an.task.ID, note+" (polled: the reply's task was "+an.task.Status.State+")")
		if g.task == nil {
			return an
		}
		s.w.Note("a SendMessage reply's task still in progress was followed with GetTask until it settled")
		an.task, an.ex = g.task, g.ex
	}
	return an
}

func inProgress(state string) bool { return state == a2a.StateSubmitted || state == a2a.StateWorking }

// post sends m over JSON-RPC (rest=false, when the card declares it) or HTTP+JSON, synchronously or streamed,
// activating the extension. why is set when the card declares no interface to send it over.
func post(ctx context.Context, cl *a2a.Client, rpc, restIf *a2a.AgentInterface, rest bool, mode string, m a2a.Message, note string) (_ *answer, why string) {
	if !rest && rpc == nil && restIf != nil {
		rest = true // an agent serving HTTP+JSON only
	}
	call := a2a.Call{Extensions: []string{URI}, Note: note}
	if rest {
		if restIf == nil {
			return &answer{err: errors.New("no HTTP+JSON interface")}, "the card declares no HTTP+JSON interface"
		}
		path := "/message:send"
		if mode == modeStream {
			path = "/message:stream"
		}
		if restIf.Tenant != "" {
			path = "/" + url.PathEscape(restIf.Tenant) + path
		}
		ex, err := cl.REST(ctx, http.MethodPost, restIf.URL, path, a2a.SendMessageRequest{Message: m}, call)
		an := &answer{ex: ex, err: err}
		if err != nil {
			return an, ""
		}
		if ex.Status != http.StatusOK {
			var st struct {
				Error json.RawMessage `json:"error"`
			}
			if json.Unmarshal(ex.ResponseBody, &st) == nil && len(st.Error) > 0 {
				an.bindErr = st.Error
			} else {
				an.err = fmt.Errorf("HTTP %d without a google.rpc.Status body", ex.Status)
			}
			return an, ""
		}
		if mode == modeStream {
			for i, ev := range ex.Events {
				var e a2a.StreamEvent
				if err := json.Unmarshal(ev, &e); err != nil {
					an.err = fmt.Errorf("SSE event %d: %w", i+1, err)
					return an, ""
				}
				an.events = append(an.events, e)
			}
			an.task, an.msg = assembleStream(an.events)
			return an, ""
		}
		var res a2a.SendResult
		if err := json.Unmarshal(ex.ResponseBody, &res); err != nil {
			an.err = fmt.Errorf("message:send result: %w", err)
		}
		an.task, an.msg = res.Task, res.Message
		return an, ""
	}
	if rpc == nil {
		return &answer{err: errors.New("no interface")}, "the card declares neither a JSON-RPC nor an HTTP+JSON interface"
	}
	req := a2a.SendMessageRequest{Message: m, Tenant: rpc.Tenant}
	if mode == modeStream {
		evs, resps, ex, err := cl.SendStreamingMessage(ctx, rpc.URL, req, call)
		an := &answer{ex: ex, err: err, events: evs}
		for _, r := range resps {
			if r.Error != nil {
				an.bindErr, _ = json.Marshal(r.Error)
				return an, ""
			}
		}
		an.task, an.msg = assembleStream(evs)
		return an, ""
	}
	res, resp, ex, err := cl.SendMessage(ctx, rpc.URL, req, call)
	an := &answer{ex: ex, err: err}
	if resp != nil && resp.Error != nil {
		an.bindErr, _ = json.Marshal(resp.Error)
		an.err = nil
	}
	if res != nil {
		an.task, an.msg = res.Task, res.Message
	}
	return an, ""
}

// skillOf is the skill a request object names ("" when m carries none).
func skillOf(m a2a.Message) string {
	if len(m.Parts) != 1 || len(m.Parts[0].Data) == 0 {
		return ""
	}
	var r struct {
		Skill string `json:"skill"`
	}
	_ = json.Unmarshal(m.Parts[0].Data, &r)
	return r.Skill
}

// cardStreams reports whether the card offers streaming (AgentCapabilities.streaming).
func (s *sess) cardStreams() bool { return s.card != nil && s.card.Capabilities.Streaming }

// responseModes returns interaction.supported_response_modes of skill's surveyed document (nil when the skill is
// describe_skill, unsurveyed, or the document declares none).
func (s *sess) responseModes(skill string) []string {
	if skill == "" || skill == skiface.DescribeSkill {
		return nil
	}
	if _, ok := s.entry(skill); !ok || s.faulty(skill) {
		return nil
	}
	d := s.survey().bySk[skill]
	if d == nil || d.tree == nil {
		return nil
	}
	in, _ := d.tree["interaction"].(map[string]any)
	list, _ := in["supported_response_modes"].([]any)
	var out []string
	for _, v := range list {
		if m, ok := v.(string); ok {
			out = append(out, m)
		}
	}
	return out
}

// canStream reports whether skill may be asked over SendStreamingMessage: the card offers streaming and the
// skill's document, when it lists response modes, lists stream. "The client MUST invoke the A2A Send Message or
// Send Streaming Message operation" offers both operations; the suite never requires the one the agent does not
// offer.
func (s *sess) canStream(skill string) bool {
	if !s.cardStreams() {
		return false
	}
	ms := s.responseModes(skill)
	return ms == nil || contains(ms, "stream")
}

// deliverable maps a requested delivery mode to one the agent offers for skill: streaming falls back to
// SendMessage when it is not offered; SendMessage goes streamed only when the document lists stream and not sync.
func (s *sess) deliverable(skill, mode string) string {
	switch mode {
	case modeStream:
		if !s.canStream(skill) {
			return modeSync
		}
	case modeSync:
		if ms := s.responseModes(skill); ms != nil && !contains(ms, "sync") && contains(ms, "stream") && s.cardStreams() {
			return modeStream
		}
	}
	return mode
}

// modes is the delivery modes the suite uses for skill: SendMessage, and SendStreamingMessage when offered.
func (s *sess) modes(skill string) []string {
	if s.canStream(skill) {
		return []string{modeSync, modeStream}
	}
	return []string{s.deliverable(skill, modeSync)}
}

// httpRefusal reports whether the binding refused the request with HTTP 401 or 403 (RFC 7235 / RFC 9110), with or
// without a JSON body: the binding's own error mechanism for authentication and authorization failures.
func (an *answer) httpRefusal() bool {
	return an.ex != nil && (an.ex.Status == http.StatusUnauthorized || an.ex.Status == http.StatusForbidden)
}

// getTask retrieves a task over the binding.
func (s *sess) getTask(cl *a2a.Client, rest bool, id, note string) *answer {
	if !rest && s.rpc == nil && s.rest != nil {
		rest = true
	}
	call := a2a.Call{Extensions: []string{URI}, Note: note}
	if rest {
		if s.rest == nil {
			s.w.Inapplicable("the card declares no HTTP+JSON interface")
		}
		path := "/tasks/" + url.PathEscape(id)
		if s.rest.Tenant != "" {
			path = "/" + url.PathEscape(s.rest.Tenant) + path
		}
		ex, err := cl.REST(s.w.Ctx(), http.MethodGet, s.rest.URL, path, nil, call)
		an := &answer{ex: ex, err: err}
		if err == nil {
			var t a2a.Task
			if ex.Status != http.StatusOK {
				an.err = fmt.Errorf("GET tasks/%s: HTTP %d", id, ex.Status)
			} else if err := json.Unmarshal(ex.ResponseBody, &t); err != nil {
				an.err = err
			} else {
				an.task = &t
			}
		}
		return an
	}
	if s.rpc == nil {
		s.w.Inapplicable("the card declares neither a JSON-RPC nor an HTTP+JSON interface")
	}
	t, resp, ex, err := cl.GetTask(s.w.Ctx(), s.rpc.URL, id, s.rpc.Tenant, call)
	an := &answer{ex: ex, err: err, task: t}
	if resp != nil && resp.Error != nil {
		an.bindErr, _ = json.Marshal(resp.Error)
	}
	return an
}

// assembleStream applies A2A's update semantics: the Task event starts the task; an artifact update with append
// adds its parts to the Artifact with the same artifactId, otherwise it replaces (or adds) that Artifact; a status
// update replaces the status.
func assembleStream(evs []a2a.StreamEvent) (*a2a.Task, *a2a.Message) {
	var t *a2a.Task
	for _, e := range evs {
		switch {
		case e.Message != nil:
			if t == nil {
				return nil, e.Message
			}
		case e.Task != nil:
			c := *e.Task
			c.Artifacts = append([]a2a.Artifact(nil), e.Task.Artifacts...)
			t = &c
		case e.ArtifactUpdate != nil && t != nil:
			u := e.ArtifactUpdate
			found := false
			for i := range t.Artifacts {
				if t.Artifacts[i].ArtifactID != u.Artifact.ArtifactID {
					continue
				}
				found = true
				if u.Append {
					t.Artifacts[i].Parts = append(append([]a2a.Part(nil), t.Artifacts[i].Parts...), u.Artifact.Parts...)
				} else {
					t.Artifacts[i] = u.Artifact
				}
			}
			if !found {
				t.Artifacts = append(t.Artifacts, u.Artifact)
			}
		case e.StatusUpdate != nil && t != nil:
			t.Status = e.StatusUpdate.Status
		}
	}
	return t, nil
}
