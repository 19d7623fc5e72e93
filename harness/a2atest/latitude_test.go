package a2atest_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/a2atest"
)

func startWith(t *testing.T, a a2atest.Agent, o a2atest.Options) *a2atest.Server {
	t.Helper()
	o.TLS = true
	s, err := a2atest.Start(a, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

func sendParams(text string) map[string]any {
	return map[string]any{"message": map[string]any{"messageId": "m1", "role": "ROLE_USER", "parts": []any{map[string]any{"text": text}}}}
}

var v10 = map[string]string{a2a.HeaderVersion: "1.0"}

// Latitude a2a.lat.sync-only: the card does not offer streaming and SendStreamingMessage is refused with
// UnsupportedOperationError (A2A §3.3.1).
func TestLatitudeSyncOnly(t *testing.T) {
	s := startWith(t, a2atest.Agent{}, a2atest.Options{SyncOnly: true})
	var card a2a.AgentCard
	if err := json.Unmarshal(do(t, "GET", s.CardURL(), nil, nil).body, &card); err != nil || card.Capabilities.Streaming {
		t.Fatalf("card streaming %v (%v)", card.Capabilities.Streaming, err)
	}
	r := rpc(t, s, a2a.MethodSendStreamingMessage, sendParams("hi"), v10)
	if !strings.Contains(string(r.body), "-32004") {
		t.Fatalf("streaming not refused with -32004: %d %s", r.status, r.body)
	}
}

// Latitude a2a.lat.jsonrpc-only / http-json-only: the card lists one interface; the other binding is not served.
func TestLatitudeOneBinding(t *testing.T) {
	for _, b := range []string{a2a.BindingJSONRPC, a2a.BindingHTTPJSON} {
		s := startWith(t, a2atest.Agent{}, a2atest.Options{Binding: b})
		var card a2a.AgentCard
		if err := json.Unmarshal(do(t, "GET", s.CardURL(), nil, nil).body, &card); err != nil {
			t.Fatal(err)
		}
		if len(card.SupportedInterfaces) != 1 || card.SupportedInterfaces[0].ProtocolBinding != b {
			t.Fatalf("%s: card interfaces %+v", b, card.SupportedInterfaces)
		}
		rpcStatus := rpc(t, s, a2a.MethodSendMessage, sendParams("hi"), v10).status
		restStatus := do(t, "POST", s.RESTURL()+"/message:send", sendParams("hi"), v10).status
		if (b == a2a.BindingJSONRPC) != (rpcStatus == 200) || (b == a2a.BindingHTTPJSON) != (restStatus == 200) {
			t.Fatalf("%s: JSON-RPC %d, HTTP+JSON %d", b, rpcStatus, restStatus)
		}
		if rpcStatus != 200 && rpcStatus != 404 || restStatus != 200 && restStatus != 404 {
			t.Fatalf("%s: the binding not served answers %d/%d, want 404", b, rpcStatus, restStatus)
		}
	}
}

// Latitude a2a.lat.message-reply: SendMessage gets a Message carrying the echoed parts; no task is stored.
func TestLatitudeMessageReply(t *testing.T) {
	s := startWith(t, a2atest.Agent{}, a2atest.Options{MessageReply: true})
	var res a2a.SendResult
	result(t, rpc(t, s, a2a.MethodSendMessage, sendParams("hello"), v10), &res)
	if res.Message == nil || res.Task != nil || len(res.Message.Parts) != 1 || res.Message.Role != a2a.RoleAgent || res.Message.ContextID == "" {
		t.Fatalf("want a Message: %+v", res)
	}
	if s.Tasks().Len() != 0 {
		t.Fatal("a task was stored")
	}
}

// Latitude a2a.lat.no-card-cache: no Cache-Control, ETag or Last-Modified, and never 304.
func TestLatitudeNoCardCache(t *testing.T) {
	s := startWith(t, a2atest.Agent{}, a2atest.Options{NoCardCache: true})
	r := do(t, "GET", s.CardURL(), nil, map[string]string{"If-None-Match": "*"})
	if r.status != 200 || r.header.Get("Cache-Control") != "" || r.header.Get("ETag") != "" || r.header.Get("Last-Modified") != "" {
		t.Fatalf("card %d with %v", r.status, r.header)
	}
}

// Latitude a2a.lat.plain-401: an authentication failure is a plain-text 401 with WWW-Authenticate, no JSON.
func TestLatitudePlain401(t *testing.T) {
	s := startWith(t, a2atest.Agent{APIKeys: map[string]a2atest.Principal{"k": {Name: "a"}}, RequireAuth: true},
		a2atest.Options{Plain401: true})
	for _, r := range []resp{
		rpc(t, s, a2a.MethodSendMessage, sendParams("hi"), v10),
		rpc(t, s, a2a.MethodSendStreamingMessage, sendParams("hi"), v10),
		do(t, "POST", s.RESTURL()+"/message:send", sendParams("hi"), v10),
	} {
		if r.status != 401 || r.header.Get("WWW-Authenticate") == "" || !strings.HasPrefix(r.header.Get("Content-Type"), "text/plain") || json.Valid(r.body) {
			t.Fatalf("%d %v %q", r.status, r.header, r.body)
		}
	}
}

// Latitude a2a.lat.task-reply: an agent answering a Message gets its reply wrapped in a completed, stored Task.
func TestLatitudeTaskReply(t *testing.T) {
	s := startWith(t, a2atest.Agent{OnSend: func(c *a2atest.Ctx, req a2a.SendMessageRequest) a2atest.Reply {
		return a2atest.Reply{Message: &a2a.Message{Parts: []a2a.Part{a2a.TextPart("ok")}}}
	}}, a2atest.Options{TaskReply: true})
	var res a2a.SendResult
	result(t, rpc(t, s, a2a.MethodSendMessage, sendParams("hello"), v10), &res)
	if res.Task == nil || res.Message != nil || res.Task.Status.State != a2a.StateCompleted || res.Task.Status.Message == nil || len(res.Task.Artifacts) != 1 {
		t.Fatalf("want a completed Task: %+v", res)
	}
	if s.Tasks().Len() != 1 {
		t.Fatal("the task was not stored")
	}
}
