package a2atest_test

import (
	"encoding/json"
	"testing"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/a2atest"
)

// A reply Message always carries contextId (a2a.proto: server messages carry context_id): the client's when it sent
// one, its task's when it named a task, a new one otherwise; an agent's own contextId is kept. Both paths that can
// answer a send with a Message (OnSend and Before) and both send methods are covered.
func TestReplyMessageCarriesContextID(t *testing.T) {
	onSend := func(c *a2atest.Ctx, req a2a.SendMessageRequest) a2atest.Reply {
		if string(req.Metadata) == `{"own":true}` {
			return a2atest.Reply{Message: &a2a.Message{ContextID: "agent-ctx", Parts: []a2a.Part{a2a.TextPart("own")}}}
		}
		return a2atest.Reply{Message: &a2a.Message{Parts: []a2a.Part{a2a.TextPart("reply")}}}
	}
	before := func(c *a2atest.Ctx) *a2atest.Reply {
		if c.R.Header.Get("X-Before") == "" {
			return nil
		}
		return &a2atest.Reply{Message: &a2a.Message{Parts: []a2a.Part{a2a.TextPart("early")}}}
	}
	s := start(t, a2atest.Agent{OnSend: onSend, Before: before})

	send := func(srv *a2atest.Server, method string, msg a2a.Message, meta string, hdr map[string]string) *a2a.Message {
		t.Helper()
		params := map[string]any{"message": msg}
		if meta != "" {
			params["metadata"] = json.RawMessage(meta)
		}
		r := rpc(t, srv, method, params, hdr)
		if method == "SendStreamingMessage" {
			_, data := sse(t, r)
			if len(data) != 1 {
				t.Fatalf("%d events: %s", len(data), r.body)
			}
			r.body = data[0]
		}
		var sr a2a.SendResult
		result(t, r, &sr)
		if sr.Message == nil || sr.Message.MessageID == "" || sr.Message.Role != a2a.RoleAgent {
			t.Fatalf("%s: not a complete Message: %s", method, r.body)
		}
		return sr.Message
	}
	for _, method := range []string{"SendMessage", "SendStreamingMessage"} {
		for _, hdr := range []map[string]string{nil, {"X-Before": "1"}} {
			m1 := send(s, method, textMsg("a"), "", hdr)
			m2 := send(s, method, textMsg("b"), "", hdr)
			if m1.ContextID == "" || m2.ContextID == "" || m1.ContextID == m2.ContextID {
				t.Fatalf("%s %v: no contextId sent: want two new ones, got %q and %q", method, hdr, m1.ContextID, m2.ContextID)
			}
			in := textMsg("c")
			in.ContextID = "client-ctx"
			if m := send(s, method, in, "", hdr); m.ContextID != "client-ctx" {
				t.Fatalf("%s %v: contextId %q, want the client's", method, hdr, m.ContextID)
			}
		}
		if m := send(s, method, textMsg("d"), `{"own":true}`, nil); m.ContextID != "agent-ctx" {
			t.Fatalf("%s: the agent's own contextId was replaced by %q", method, m.ContextID)
		}
	}

	// A message naming a task (no contextId) gets the task's context.
	var sr a2a.SendResult
	work := start(t, a2atest.Agent{OnSend: func(c *a2atest.Ctx, req a2a.SendMessageRequest) a2atest.Reply {
		if req.Message.TaskID == "" {
			return a2atest.Reply{Task: &a2a.Task{Status: a2a.TaskStatus{State: a2a.StateInputRequired}}}
		}
		return a2atest.Reply{Message: &a2a.Message{Parts: []a2a.Part{a2a.TextPart("noted")}}}
	}})
	result(t, rpc(t, work, "SendMessage", map[string]any{"message": textMsg("open")}, nil), &sr)
	if sr.Task == nil || sr.Task.ContextID == "" {
		t.Fatalf("%+v", sr)
	}
	follow := textMsg("more")
	follow.TaskID = sr.Task.ID
	if m := send(work, "SendMessage", follow, "", nil); m.ContextID != sr.Task.ContextID {
		t.Fatalf("contextId %q, want the task's %q", m.ContextID, sr.Task.ContextID)
	}
}
