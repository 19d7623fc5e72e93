package a2atest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/a2atest"
)

func TestHTTPJSONBinding(t *testing.T) {
	s := start(t, a2atest.Agent{})
	r := do(t, "POST", s.RESTURL()+"/message:send", map[string]any{"message": textMsg("rest")}, nil)
	var sr a2a.SendResult
	if err := json.Unmarshal(r.body, &sr); err != nil || r.status != 200 || sr.Task == nil || r.header.Get("Content-Type") != "application/json" {
		t.Fatalf("message:send %d %s", r.status, r.body)
	}
	id := sr.Task.ID
	r = do(t, "GET", s.RESTURL()+"/tasks/"+id+"?historyLength=1", nil, nil)
	var task a2a.Task
	if err := json.Unmarshal(r.body, &task); err != nil || r.status != 200 || task.ID != id || len(task.History) != 1 {
		t.Fatalf("tasks/{id} %d %s", r.status, r.body)
	}
	r = do(t, "GET", s.RESTURL()+"/tasks?pageSize=10&status=TASK_STATE_COMPLETED", nil, nil)
	var list a2atest.ListTasksResponse
	if err := json.Unmarshal(r.body, &list); err != nil || r.status != 200 || len(list.Tasks) != 1 || list.PageSize != 10 {
		t.Fatalf("tasks %d %s", r.status, r.body)
	}
	restErr(t, do(t, "GET", s.RESTURL()+"/tasks/nope", nil, nil), 404, "NOT_FOUND", "TASK_NOT_FOUND")
	restErr(t, do(t, "POST", s.RESTURL()+"/tasks/nope:cancel", nil, nil), 404, "NOT_FOUND", "TASK_NOT_FOUND")
	restErr(t, do(t, "GET", s.RESTURL()+"/tasks?pageSize=x", nil, nil), 400, "INVALID_ARGUMENT", "INVALID_PARAMS")
	restErr(t, do(t, "POST", s.RESTURL()+"/message:send", "{not json", nil), 400, "INVALID_ARGUMENT", "PARSE_ERROR")
	restErr(t, do(t, "POST", s.RESTURL()+"/message:send", map[string]any{"message": map[string]any{"messageId": "x"}}, nil), 400, "INVALID_ARGUMENT", "INVALID_PARAMS")
	restErr(t, do(t, "GET", s.RESTURL()+"/extendedAgentCard", nil, nil), 400, "FAILED_PRECONDITION", "UNSUPPORTED_OPERATION")
	restErr(t, do(t, "POST", s.RESTURL()+"/tasks/"+id+"/pushNotificationConfigs", "{}", nil), 400, "FAILED_PRECONDITION", "PUSH_NOTIFICATION_NOT_SUPPORTED")
	restErr(t, do(t, "GET", s.RESTURL()+"/nowhere", nil, nil), 404, "NOT_FOUND", "METHOD_NOT_FOUND")
	if r := do(t, "GET", s.RESTURL()+"/message:send", nil, nil); r.status != 405 || r.header.Get("Allow") != "POST" {
		t.Fatalf("GET message:send: %d %v", r.status, r.header)
	}
	restErr(t, do(t, "POST", s.RESTURL()+"/message:send", map[string]any{"message": textMsg("v")}, map[string]string{a2a.HeaderVersion: "-"}),
		400, "FAILED_PRECONDITION", "VERSION_NOT_SUPPORTED")

	r = do(t, "POST", s.RESTURL()+"/message:stream", map[string]any{"message": textMsg("rs")}, nil)
	names, data := sse(t, r)
	if len(data) != 3 || names[0] != "" || !bytes.HasPrefix(data[0], []byte(`{"task":`)) || !bytes.HasPrefix(data[2], []byte(`{"statusUpdate":`)) {
		t.Fatalf("message:stream %s", r.body)
	}
	// A pre-stream error on HTTP+JSON is an HTTP error, not a stream.
	restErr(t, do(t, "POST", s.RESTURL()+"/tasks/nope:subscribe", nil, nil), 404, "NOT_FOUND", "TASK_NOT_FOUND")
	restErr(t, do(t, "POST", s.RESTURL()+"/tasks/"+id+":subscribe", nil, nil), 400, "FAILED_PRECONDITION", "UNSUPPORTED_OPERATION")
}

func TestSubscribeToTask(t *testing.T) {
	s := start(t, a2atest.Agent{OnSend: func(c *a2atest.Ctx, req a2a.SendMessageRequest) a2atest.Reply {
		return a2atest.Reply{Task: &a2a.Task{Status: a2a.TaskStatus{State: a2a.StateWorking}}}
	}})
	var sr a2a.SendResult
	result(t, rpc(t, s, "SendMessage", map[string]any{"message": textMsg("x")}, nil), &sr)
	go func() {
		time.Sleep(30 * time.Millisecond)
		tk, _ := s.Tasks().Get(sr.Task.ID)
		tk.Status = a2a.TaskStatus{State: a2a.StateInputRequired, Timestamp: a2atest.Timestamp(time.Now())}
		s.Tasks().Put(tk)
	}()
	r := do(t, "POST", s.JSONRPCURL(), map[string]any{"jsonrpc": "2.0", "id": 1, "method": "SubscribeToTask", "params": map[string]any{"id": sr.Task.ID}}, nil)
	_, data := sse(t, r)
	if len(data) != 2 || !bytes.Contains(data[0], []byte(`"task":`)) || !bytes.Contains(data[1], []byte(a2a.StateInputRequired)) {
		t.Fatalf("subscribe %s", r.body)
	}
}

func TestActivationEcho(t *testing.T) {
	var seen *a2atest.Ctx
	s := start(t, a2atest.Agent{Card: cardWith(false, false), Before: func(c *a2atest.Ctx) *a2atest.Reply { seen = c; return nil }})
	r := rpc(t, s, "SendMessage", map[string]any{"message": textMsg("x")}, map[string]string{a2a.HeaderExtensions: " https://other.test/x , " + extURI + ","})
	if got := r.header.Get(a2a.HeaderExtensions); got != extURI {
		t.Fatalf("echo %q", got)
	}
	if !seen.IsActive(extURI) || seen.IsActive("https://other.test/x") || len(seen.Requested) != 2 || !seen.IsRequested("https://other.test/x") {
		t.Fatalf("ctx requested %v activated %v", seen.Requested, seen.Activated)
	}
	r = do(t, "GET", s.RESTURL()+"/tasks", nil, map[string]string{a2a.HeaderExtensions: extURI})
	if r.header.Get(a2a.HeaderExtensions) != extURI || seen.Binding != a2a.BindingHTTPJSON || seen.Method != "ListTasks" {
		t.Fatalf("REST echo %q %s %s", r.header.Get(a2a.HeaderExtensions), seen.Binding, seen.Method)
	}
	r = rpc(t, s, "SendMessage", map[string]any{"message": textMsg("x")}, nil)
	if _, ok := r.header[a2a.HeaderExtensions]; ok || len(seen.Activated) != 0 {
		t.Fatal("nothing requested, nothing may be echoed")
	}
	// An agent may suppress the echo (sabotage) through RespHeader.
	s2 := start(t, a2atest.Agent{Card: cardWith(false, false), Before: func(c *a2atest.Ctx) *a2atest.Reply { c.RespHeader.Del(a2a.HeaderExtensions); return nil }})
	if r := rpc(t, s2, "GetTask", map[string]any{"id": "x"}, map[string]string{a2a.HeaderExtensions: extURI}); r.header.Get(a2a.HeaderExtensions) != "" {
		t.Fatal("echo not suppressed")
	}
	// A required extension not requested: -32008.
	s3 := start(t, a2atest.Agent{Card: cardWith(false, true)})
	rpcErr(t, rpc(t, s3, "ListTasks", nil, nil), 200, a2a.CodeExtensionSupportRequired, "EXTENSION_SUPPORT_REQUIRED")
	var l a2atest.ListTasksResponse
	result(t, rpc(t, s3, "ListTasks", nil, map[string]string{a2a.HeaderExtensions: extURI}), &l)
}

func TestTenantRouting(t *testing.T) {
	var tenants []string
	s := start(t, a2atest.Agent{Before: func(c *a2atest.Ctx) *a2atest.Reply { tenants = append(tenants, c.Tenant); return nil }})
	r := do(t, "POST", s.RESTURL()+"/tenant-a/message:send", map[string]any{"message": textMsg("a")}, nil)
	var sr a2a.SendResult
	if err := json.Unmarshal(r.body, &sr); err != nil || sr.Task == nil {
		t.Fatalf("%s", r.body)
	}
	id := sr.Task.ID
	if r := do(t, "GET", s.RESTURL()+"/tenant-a/tasks/"+id, nil, nil); r.status != 200 {
		t.Fatalf("own tenant: %d %s", r.status, r.body)
	}
	foreign := do(t, "GET", s.RESTURL()+"/tenant-b/tasks/"+id, nil, nil)
	never := do(t, "GET", s.RESTURL()+"/tenant-b/tasks/never-minted", nil, nil)
	restErr(t, foreign, 404, "NOT_FOUND", "TASK_NOT_FOUND")
	restErr(t, do(t, "GET", s.RESTURL()+"/tasks/"+id, nil, nil), 404, "NOT_FOUND", "TASK_NOT_FOUND")
	// a foreign task and a never-minted one differ only by the id in the ErrorInfo metadata
	if len(foreign.body) == 0 || !bytes.Equal(bytes.ReplaceAll(foreign.body, []byte(id), []byte("X")), bytes.ReplaceAll(never.body, []byte("never-minted"), []byte("X"))) {
		t.Fatalf("refusals differ:\n%s\n%s", foreign.body, never.body)
	}
	// JSON-RPC: params.tenant is the same routing value.
	var got a2a.Task
	result(t, rpc(t, s, "GetTask", map[string]any{"id": id, "tenant": "tenant-a"}, nil), &got)
	rpcErr(t, rpc(t, s, "GetTask", map[string]any{"id": id, "tenant": "tenant-b"}, nil), 200, a2a.CodeTaskNotFound, "TASK_NOT_FOUND")
	var list a2atest.ListTasksResponse
	result(t, rpc(t, s, "ListTasks", map[string]any{"tenant": "tenant-b"}, nil), &list)
	if len(list.Tasks) != 0 {
		t.Fatalf("tenant-b sees %d tasks", len(list.Tasks))
	}
	if len(s.Tasks().List("tenant-a")) != 1 || len(s.Tasks().List("")) != 0 {
		t.Fatal("TaskStore.List by tenant")
	}
	if strings.Join(tenants[:3], ",") != "tenant-a,tenant-a,tenant-b" {
		t.Fatalf("tenants seen %v", tenants)
	}
}

func TestRequireAuth(t *testing.T) {
	s := start(t, a2atest.Agent{RequireAuth: true, APIKeys: map[string]a2atest.Principal{
		"key-a": {Name: "alice", Tenant: "A"}, "key-b": {Name: "bob", Tenant: "B"}}})
	// the card stays public
	if r := do(t, "GET", s.CardURL(), nil, nil); r.status != 200 || !bytes.Contains(r.body, []byte(`"securitySchemes"`)) {
		t.Fatalf("card %d %s", r.status, r.body)
	}
	r := rpc(t, s, "GetTask", map[string]any{"id": "x"}, nil)
	e := rpcErr(t, r, 401, a2atest.CodeUnauthenticated, "UNAUTHENTICATED")
	if r.header.Get("WWW-Authenticate") == "" || e["message"] == "" {
		t.Fatal("401 without challenge")
	}
	restErr(t, do(t, "GET", s.RESTURL()+"/tasks/x", nil, nil), 401, "UNAUTHENTICATED", "UNAUTHENTICATED")
	rpcErr(t, rpc(t, s, "GetTask", map[string]any{"id": "x"}, map[string]string{"Authorization": "Bearer wrong"}), 401, a2atest.CodeUnauthenticated, "UNAUTHENTICATED")
	// 401 comes before version and method checks: nothing is revealed unauthenticated.
	rpcErr(t, rpc(t, s, "NoSuchMethod", nil, map[string]string{a2a.HeaderVersion: "-"}), 401, a2atest.CodeUnauthenticated, "UNAUTHENTICATED")
	// streaming: a plain 401, not a stream
	rpcErr(t, rpc(t, s, "SendStreamingMessage", map[string]any{"message": textMsg("x")}, nil), 401, a2atest.CodeUnauthenticated, "UNAUTHENTICATED")

	var sr a2a.SendResult
	result(t, rpc(t, s, "SendMessage", map[string]any{"message": textMsg("x")}, map[string]string{"Authorization": "Bearer key-a"}), &sr)
	var got a2a.Task
	result(t, rpc(t, s, "GetTask", map[string]any{"id": sr.Task.ID}, map[string]string{"X-API-Key": "key-a"}), &got)
	// another principal's tenant sees TaskNotFound
	rpcErr(t, rpc(t, s, "GetTask", map[string]any{"id": sr.Task.ID}, map[string]string{"Authorization": "Bearer key-b"}), 200, a2a.CodeTaskNotFound, "TASK_NOT_FOUND")
}

func TestErrorShapes(t *testing.T) {
	s := start(t, a2atest.Agent{})
	post := func(body string, hdr map[string]string) resp { return do(t, "POST", s.JSONRPCURL(), body, hdr) }
	e := rpcErr(t, post(`{"jsonrpc":"2.0","id":1,"method":`, nil), 200, a2a.CodeParseError, "PARSE_ERROR")
	_ = e
	if r := post(`{bad`, nil); !bytes.Contains(r.body, []byte(`"id":null`)) {
		t.Fatalf("parse error id must be null: %s", r.body)
	}
	rpcErr(t, post(`[{"jsonrpc":"2.0","id":1,"method":"GetTask"}]`, nil), 200, a2a.CodeInvalidRequest, "INVALID_REQUEST")
	rpcErr(t, post(`{"jsonrpc":"1.0","id":1,"method":"GetTask"}`, nil), 200, a2a.CodeInvalidRequest, "INVALID_REQUEST")
	rpcErr(t, post(`{"jsonrpc":"2.0","method":"GetTask"}`, nil), 200, a2a.CodeInvalidRequest, "INVALID_REQUEST")
	rpcErr(t, post(`{"jsonrpc":"2.0","id":{},"method":"GetTask"}`, nil), 200, a2a.CodeInvalidRequest, "INVALID_REQUEST")
	rpcErr(t, post(`{"jsonrpc":"2.0","id":7,"method":5}`, nil), 200, a2a.CodeInvalidRequest, "INVALID_REQUEST")
	r := post(`{"jsonrpc":"2.0","id":"abc","method":"message/send","params":{}}`, nil)
	rpcErr(t, r, 200, a2a.CodeMethodNotFound, "METHOD_NOT_FOUND")
	if !bytes.Contains(r.body, []byte(`"id":"abc"`)) {
		t.Fatalf("id not echoed: %s", r.body)
	}
	rpcErr(t, post(`{"jsonrpc":"2.0","id":2,"method":"GetTask","params":{"id":5}}`, nil), 200, a2a.CodeInvalidParams, "INVALID_PARAMS")
	rpcErr(t, post(`{"jsonrpc":"2.0","id":2,"method":"GetTask","params":[1]}`, nil), 200, a2a.CodeInvalidParams, "INVALID_PARAMS")
	rpcErr(t, post(`{"jsonrpc":"2.0","id":2,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"a","url":"b"}]}}}`, nil),
		200, a2a.CodeInvalidParams, "INVALID_PARAMS")
	rpcErr(t, post(`{"jsonrpc":"2.0","id":2,"method":"SendMessage","params":{"message":{"messageId":"m","role":"user","parts":[{"text":"a"}]}}}`, nil),
		200, a2a.CodeInvalidParams, "INVALID_PARAMS")
	rpcErr(t, post(`{"jsonrpc":"2.0","id":2,"method":"CreateTaskPushNotificationConfig","params":{}}`, nil), 200, a2a.CodePushNotSupported, "PUSH_NOTIFICATION_NOT_SUPPORTED")
	rpcErr(t, post(`{"jsonrpc":"2.0","id":2,"method":"GetExtendedAgentCard"}`, nil), 200, a2a.CodeUnsupportedOperation, "UNSUPPORTED_OPERATION")
	if r := do(t, "GET", s.JSONRPCURL(), nil, nil); r.status != 405 {
		t.Fatalf("GET /jsonrpc: %d", r.status)
	}

	// versions: absent means 0.3 → -32009; 1.0 and 1.0.x accepted; 2.0 refused; the query parameter works too.
	ver := func(v string) resp {
		return post(`{"jsonrpc":"2.0","id":3,"method":"ListTasks"}`, map[string]string{a2a.HeaderVersion: v})
	}
	e = rpcErr(t, ver("-"), 200, a2a.CodeVersionNotSupported, "VERSION_NOT_SUPPORTED")
	if !strings.Contains(e["message"].(string), "0.3") {
		t.Fatalf("message %v", e["message"])
	}
	rpcErr(t, ver("0.3"), 200, a2a.CodeVersionNotSupported, "VERSION_NOT_SUPPORTED")
	rpcErr(t, ver("2.0"), 200, a2a.CodeVersionNotSupported, "VERSION_NOT_SUPPORTED")
	var l a2atest.ListTasksResponse
	result(t, ver("1.0.1"), &l)
	result(t, do(t, "POST", s.JSONRPCURL()+"?A2A-Version=1.0", `{"jsonrpc":"2.0","id":3,"method":"ListTasks"}`, map[string]string{a2a.HeaderVersion: "-"}), &l)

	// bounded bodies
	big := `{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"` +
		strings.Repeat("x", a2atest.MaxBodyBytes) + `"}]}}}`
	rpcErr(t, post(big, nil), 413, a2a.CodeInvalidRequest, "INVALID_REQUEST")
	restErr(t, do(t, "POST", s.RESTURL()+"/message:send", big, nil), 413, "INVALID_ARGUMENT", "INVALID_REQUEST")
}

func TestExtendedCard(t *testing.T) {
	keys := map[string]a2atest.Principal{"k": {Name: "p", Tenant: "T"}}
	// declared but not configured
	s := start(t, a2atest.Agent{Card: cardWith(true, false), APIKeys: keys})
	rpcErr(t, rpc(t, s, "GetExtendedAgentCard", nil, nil), 401, a2atest.CodeUnauthenticated, "UNAUTHENTICATED")
	rpcErr(t, rpc(t, s, "GetExtendedAgentCard", nil, map[string]string{"Authorization": "Bearer k"}), 200, a2a.CodeExtendedCardNotConfigured, "EXTENDED_AGENT_CARD_NOT_CONFIGURED")
	restErr(t, do(t, "GET", s.RESTURL()+"/extendedAgentCard", nil, map[string]string{"Authorization": "Bearer k"}), 400, "FAILED_PRECONDITION", "EXTENDED_AGENT_CARD_NOT_CONFIGURED")
	// configured, per tenant, signed like the public card
	s2 := start(t, a2atest.Agent{Card: cardWith(true, false), APIKeys: keys,
		Signer: &a2atest.CardSigner{Key: testpki.CardKeyES256(), Alg: "ES256", KID: testpki.KIDES256},
		ExtendedCard: func(c *a2atest.Ctx) (any, *a2a.RPCError) {
			if c.Tenant != "R1" {
				return nil, a2atest.NewError(a2a.CodeExtendedCardNotConfigured, "extended agent card is not configured", nil)
			}
			return map[string]any{"name": "extended for " + c.Principal.Name, "tenant": c.Tenant}, nil
		}})
	var card map[string]any
	result(t, rpc(t, s2, "GetExtendedAgentCard", map[string]any{"tenant": "R1"}, map[string]string{"Authorization": "Bearer k"}), &card)
	if card["name"] != "extended for p" || card["signatures"] == nil {
		t.Fatalf("extended card %v", card)
	}
	r := do(t, "GET", s2.RESTURL()+"/R1/extendedAgentCard", nil, map[string]string{"X-API-Key": "k"})
	if r.status != 200 || !bytes.Contains(r.body, []byte(`"extended for p"`)) {
		t.Fatalf("REST extended card %d %s", r.status, r.body)
	}
}

func TestCustomMethodsBeforeAndSabotage(t *testing.T) {
	const method = "interview/identity"
	s := start(t, a2atest.Agent{
		Card: cardWith(false, false),
		Methods: map[string]func(*a2atest.Ctx, json.RawMessage) (any, *a2a.RPCError){
			method: func(c *a2atest.Ctx, params json.RawMessage) (any, *a2a.RPCError) {
				if !c.IsActive(extURI) {
					return nil, a2atest.NewError(a2a.CodeMethodNotFound, "method not found: "+c.Method, nil)
				}
				return map[string]any{"question": "identity", "params": params}, nil
			},
		},
		Before: func(c *a2atest.Ctx) *a2atest.Reply {
			switch {
			case c.Method == "interview/unknown" && c.IsActive(extURI): // a closed method set under activation
				return &a2atest.Reply{Result: map[string]any{"refused": true, "reason": "out_of_scope"}}
			case c.Method == "GetTask" && c.R.Header.Get("X-Sabotage") == "raw":
				return &a2atest.Reply{RawBody: []byte(`{"jsonrpc":"2.0","result":`), HTTPStatus: 200}
			case c.Method == "GetTask" && c.R.Header.Get("X-Sabotage") == "403":
				return &a2atest.Reply{Err: &a2a.RPCError{Code: a2atest.CodeUnauthorized, Message: "forbidden"}, HTTPStatus: 403}
			case c.Method == "SendStreamingMessage" && c.R.Header.Get("X-Sabotage") == "events":
				return &a2atest.Reply{Events: []a2a.StreamEvent{{StatusUpdate: &a2a.TaskStatusUpdateEvent{TaskID: "ghost", Status: a2a.TaskStatus{State: a2a.StateWorking}}}}}
			}
			return nil
		},
		Routes: map[string]http.HandlerFunc{"GET /proposals/{name}": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"proposal":%q}`, r.PathValue("name"))
		}},
	})
	act := map[string]string{a2a.HeaderExtensions: extURI}
	var res map[string]any
	result(t, rpc(t, s, method, map[string]any{"skill": "s"}, act), &res)
	if res["question"] != "identity" {
		t.Fatalf("%v", res)
	}
	rpcErr(t, rpc(t, s, method, nil, nil), 200, a2a.CodeMethodNotFound, "METHOD_NOT_FOUND")
	result(t, rpc(t, s, "interview/unknown", nil, act), &res)
	if res["refused"] != true {
		t.Fatalf("%v", res)
	}
	rpcErr(t, rpc(t, s, "interview/unknown", nil, nil), 200, a2a.CodeMethodNotFound, "METHOD_NOT_FOUND")
	// custom methods exist on JSON-RPC only
	if r := do(t, "POST", s.RESTURL()+"/interview/identity", "{}", act); r.status != 404 {
		t.Fatalf("REST custom method %d", r.status)
	}
	if r := rpc(t, s, "GetTask", map[string]any{"id": "x"}, map[string]string{"X-Sabotage": "raw"}); string(r.body) != `{"jsonrpc":"2.0","result":` {
		t.Fatalf("raw body %q", r.body)
	}
	rpcErr(t, rpc(t, s, "GetTask", map[string]any{"id": "x"}, map[string]string{"X-Sabotage": "403"}), 403, a2atest.CodeUnauthorized, "UNAUTHORIZED")
	restErr(t, do(t, "GET", s.RESTURL()+"/tasks/x", nil, map[string]string{"X-Sabotage": "403"}), 403, "PERMISSION_DENIED", "UNAUTHORIZED")
	r := rpc(t, s, "SendStreamingMessage", map[string]any{"message": textMsg("x")}, map[string]string{"X-Sabotage": "events"})
	if _, data := sse(t, r); len(data) != 1 || !bytes.Contains(data[0], []byte(`"ghost"`)) {
		t.Fatalf("explicit events %s", r.body)
	}
	if r := do(t, "GET", s.URL()+"/proposals/p1", nil, nil); r.status != 200 || string(r.body) != `{"proposal":"p1"}` {
		t.Fatalf("route %d %s", r.status, r.body)
	}
}

func TestMessageReplyAndReload(t *testing.T) {
	version := "1"
	s := start(t, a2atest.Agent{
		Card: func(base string) any {
			return map[string]any{"name": "odd", "version": version, "supportedInterfaces": a2atest.Interfaces(base), "capabilities": map[string]any{"streaming": "yes"}}
		},
		OnSend: func(c *a2atest.Ctx, req a2a.SendMessageRequest) a2atest.Reply {
			return a2atest.Reply{Message: &a2a.Message{Parts: []a2a.Part{a2a.DataPart(map[string]int{"n": 1})}, Metadata: json.RawMessage(`{"x":[1]}`)}}
		},
	})
	var sr a2a.SendResult
	result(t, rpc(t, s, "SendMessage", map[string]any{"message": textMsg("x")}, nil), &sr)
	if sr.Message == nil || sr.Task != nil || sr.Message.Role != a2a.RoleAgent || sr.Message.MessageID == "" || string(sr.Message.Metadata) != `{"x":[1]}` {
		t.Fatalf("%+v", sr)
	}
	// capabilities.streaming is not true (a string here): streaming is refused with -32004 inside the stream
	r := rpc(t, s, "SendStreamingMessage", map[string]any{"message": textMsg("x")}, nil)
	if _, data := sse(t, r); len(data) != 1 || !bytes.Contains(data[0], []byte(`-32004`)) {
		t.Fatalf("%s", r.body)
	}
	version = "2"
	s.Reload()
	if r := do(t, "GET", s.CardURL(), nil, nil); !bytes.Contains(r.body, []byte(`"version":"2"`)) {
		t.Fatalf("reload: %s", r.body)
	}
}

func TestStartRefusesNonLoopback(t *testing.T) {
	if _, err := a2atest.Start(a2atest.Agent{}, a2atest.Options{Addr: "0.0.0.0:0"}); err == nil {
		t.Fatal("0.0.0.0 accepted")
	}
	if _, err := a2atest.Start(a2atest.Agent{Routes: map[string]http.HandlerFunc{"BAD PATTERN WITH SPACES": nil, "GET /{x": func(http.ResponseWriter, *http.Request) {}}}, a2atest.Options{}); err == nil {
		t.Fatal("bad route accepted")
	}
	s, err := a2atest.Start(a2atest.Agent{}, a2atest.Options{}) // plain http
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !strings.HasPrefix(s.URL(), "http://127.0.0.1:") {
		t.Fatal(s.URL())
	}
}

func TestAgentPanicIsContained(t *testing.T) {
	s := start(t, a2atest.Agent{OnSend: func(*a2atest.Ctx, a2a.SendMessageRequest) a2atest.Reply { panic("boom") }})
	rpcErr(t, rpc(t, s, "SendMessage", map[string]any{"message": textMsg("x")}, nil), 200, a2a.CodeInternalError, "INTERNAL_ERROR")
	restErr(t, do(t, "POST", s.RESTURL()+"/message:send", map[string]any{"message": textMsg("x")}, nil), 500, "INTERNAL", "INTERNAL_ERROR")
	var l a2atest.ListTasksResponse
	result(t, rpc(t, s, "ListTasks", nil, nil), &l) // still serving
}
