package a2atest_test

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/a2atest"
)

// ---- a raw client: nothing but net/http, trusting the test CA ----

var httpClient = &http.Client{
	Timeout:   5 * time.Second,
	Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: testpki.CAPool()}},
}

type resp struct {
	status int
	header http.Header
	body   []byte
}

func (r resp) json(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("body is not a JSON object: %v\n%s", err, r.body)
	}
	return m
}

// do sends one request; hdr "A2A-Version" defaults to 1.0 (pass "-" to omit it).
func do(t *testing.T, method, url string, body any, hdr map[string]string) resp {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set(a2a.HeaderVersion, "1.0")
	for k, v := range hdr {
		if v == "-" {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, v)
		}
	}
	res, err := httpClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp{res.StatusCode, res.Header, b}
}

var rpcID int

// rpc sends a JSON-RPC request and returns the HTTP response.
func rpc(t *testing.T, s *a2atest.Server, method string, params any, hdr map[string]string) resp {
	t.Helper()
	rpcID++
	return do(t, "POST", s.JSONRPCURL(), map[string]any{"jsonrpc": "2.0", "id": rpcID, "method": method, "params": params}, hdr)
}

// result decodes a successful JSON-RPC response's result into v.
func result(t *testing.T, r resp, v any) {
	t.Helper()
	var env struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  json.RawMessage `json:"result"`
		Error   *a2a.RPCError   `json:"error"`
	}
	if err := json.Unmarshal(r.body, &env); err != nil {
		t.Fatalf("not JSON-RPC: %v\n%s", err, r.body)
	}
	if r.status != 200 || env.Error != nil || env.JSONRPC != "2.0" || len(env.Result) == 0 {
		t.Fatalf("want a JSON-RPC result, got %d %s", r.status, r.body)
	}
	if err := json.Unmarshal(env.Result, v); err != nil {
		t.Fatalf("result: %v\n%s", err, env.Result)
	}
}

// rpcErr checks a JSON-RPC error response and its ErrorInfo, returning the error object.
func rpcErr(t *testing.T, r resp, status, code int, reason string) map[string]any {
	t.Helper()
	if r.status != status {
		t.Fatalf("HTTP status %d, want %d: %s", r.status, status, r.body)
	}
	if ct := r.header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("Content-Type %q", ct)
	}
	m := r.json(t)
	e, _ := m["error"].(map[string]any)
	if m["jsonrpc"] != "2.0" || e == nil || m["result"] != nil {
		t.Fatalf("not a JSON-RPC error: %s", r.body)
	}
	if int(e["code"].(float64)) != code {
		t.Fatalf("code %v, want %d: %s", e["code"], code, r.body)
	}
	data, _ := e["data"].([]any)
	if len(data) != 1 {
		t.Fatalf("error.data is not an array of one ErrorInfo: %s", r.body)
	}
	info := data[0].(map[string]any)
	if info["@type"] != a2atest.ErrorInfoType || info["domain"] != "a2a-protocol.org" || info["reason"] != reason {
		t.Fatalf("ErrorInfo %v, want reason %s", info, reason)
	}
	return e
}

// restErr checks a google.rpc.Status error.
func restErr(t *testing.T, r resp, status int, statusName, reason string) {
	t.Helper()
	if r.status != status {
		t.Fatalf("HTTP status %d, want %d: %s", r.status, status, r.body)
	}
	var body struct {
		Error struct {
			Code    int              `json:"code"`
			Status  string           `json:"status"`
			Message string           `json:"message"`
			Details []map[string]any `json:"details"`
		} `json:"error"`
	}
	if err := json.Unmarshal(r.body, &body); err != nil {
		t.Fatal(err)
	}
	e := body.Error
	if e.Code != status || e.Status != statusName || e.Message == "" || len(e.Details) != 1 ||
		e.Details[0]["@type"] != a2atest.ErrorInfoType || e.Details[0]["reason"] != reason || e.Details[0]["domain"] != "a2a-protocol.org" {
		t.Fatalf("google.rpc.Status %s, want %d %s %s", r.body, status, statusName, reason)
	}
}

// sse reads the data payloads (and event names) of an SSE response.
func sse(t *testing.T, r resp) (names []string, data []json.RawMessage) {
	t.Helper()
	if ct := r.header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q, want text/event-stream: %s", ct, r.body)
	}
	sc := bufio.NewScanner(bytes.NewReader(r.body))
	name, buf := "", []string{}
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if len(buf) > 0 {
				names, data = append(names, name), append(data, json.RawMessage(strings.Join(buf, "\n")))
			}
			name, buf = "", nil
		case strings.HasPrefix(line, "data: "):
			buf = append(buf, line[6:])
		case strings.HasPrefix(line, "event: "):
			name = line[7:]
		}
	}
	return names, data
}

func textMsg(text string) a2a.Message {
	return a2a.Message{MessageID: fmt.Sprintf("m-%d", time.Now().UnixNano()), Role: a2a.RoleUser, Parts: []a2a.Part{a2a.TextPart(text)}}
}

func start(t *testing.T, a a2atest.Agent) *a2atest.Server {
	t.Helper()
	s, err := a2atest.Start(a, a2atest.Options{TLS: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

var tsRE = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$`)

const extURI = "https://example.test/ext/v1"

// cardWith returns an echo-like card declaring extURI, optionally the extended card.
func cardWith(extended bool, required bool) func(string) any {
	return func(base string) any {
		return &a2a.AgentCard{
			Name: "t", Description: "test agent", SupportedInterfaces: a2atest.Interfaces(base), Version: "1",
			Capabilities:      a2a.AgentCapabilities{Streaming: true, ExtendedAgentCard: extended, Extensions: []a2a.AgentExtension{{URI: extURI, Required: required}}},
			DefaultInputModes: []string{"text/plain"}, DefaultOutputModes: []string{"text/plain"},
			Skills: []a2a.AgentSkill{{ID: "s", Name: "s", Description: "d", Tags: []string{"t"}}},
		}
	}
}

// ---- tests ----

func TestCardServedAndSigned(t *testing.T) {
	s := start(t, a2atest.Agent{Name: "signed", Signer: &a2atest.CardSigner{Key: testpki.CardKeyEd25519(), Alg: "EdDSA", KID: testpki.KIDEd25519, JKU: true}})
	if !strings.HasPrefix(s.URL(), "https://127.0.0.1:") || s.CardURL() != s.URL()+"/.well-known/agent-card.json" {
		t.Fatalf("URLs %s %s", s.URL(), s.CardURL())
	}
	r := do(t, "GET", s.CardURL(), nil, map[string]string{a2a.HeaderVersion: "-"})
	if r.status != 200 || r.header.Get("Content-Type") != "application/json" {
		t.Fatalf("card: %d %v", r.status, r.header)
	}
	if !bytes.Equal(r.body, s.CardBytes()) {
		t.Fatal("served card differs from CardBytes")
	}
	var card a2a.AgentCard
	if err := json.Unmarshal(r.body, &card); err != nil {
		t.Fatal(err)
	}
	if card.Name != "signed" || len(card.SupportedInterfaces) != 2 || card.SupportedInterfaces[0].URL != s.JSONRPCURL() ||
		card.SupportedInterfaces[1].URL != s.RESTURL() || card.SupportedInterfaces[1].ProtocolBinding != a2a.BindingHTTPJSON ||
		card.SupportedInterfaces[0].ProtocolVersion != "1.0" || !card.Capabilities.Streaming || len(card.Signatures) != 1 {
		t.Fatalf("card %s", r.body)
	}
	hdr, err := base64.RawURLEncoding.DecodeString(card.Signatures[0].Protected)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf(`{"alg":"EdDSA","kid":"%s","typ":"JOSE","jku":"%s"}`, testpki.KIDEd25519, s.JWKSURL())
	if string(hdr) != want {
		t.Fatalf("protected header %s, want %s", hdr, want)
	}
	if bytes.Contains(r.body, []byte("null")) {
		t.Fatalf("card carries a null: %s", r.body)
	}
	jw := do(t, "GET", s.JWKSURL(), nil, nil)
	if jw.status != 200 || !bytes.Contains(jw.body, []byte(testpki.KIDEd25519)) || bytes.Contains(jw.body, []byte(`"d"`)) {
		t.Fatalf("jwks %d %s", jw.status, jw.body)
	}
	if r := do(t, "POST", s.CardURL(), "{}", nil); r.status != 405 {
		t.Fatalf("POST card: %d", r.status)
	}
}

func TestJSONRPCRoundTrip(t *testing.T) {
	s := start(t, a2atest.Agent{})
	msg := textMsg("hello")
	msg.Metadata = json.RawMessage(`{"k":"v"}`)
	r := rpc(t, s, "SendMessage", map[string]any{"message": msg}, nil)
	var sr a2a.SendResult
	result(t, r, &sr)
	task := sr.Task
	if task == nil || sr.Message != nil || task.ID == "" || task.ContextID == "" || task.Status.State != a2a.StateCompleted ||
		!tsRE.MatchString(task.Status.Timestamp) || len(task.Artifacts) != 1 || *task.Artifacts[0].Parts[0].Text != "hello" ||
		len(task.History) != 1 || task.History[0].TaskID != task.ID {
		t.Fatalf("SendMessage result %s", r.body)
	}
	if bytes.Contains(r.body, []byte("null")) || bytes.Contains(r.body, []byte(`"kind"`)) {
		t.Fatalf("unset members must be omitted: %s", r.body)
	}
	if s.Tasks().Len() != 1 {
		t.Fatalf("store has %d tasks", s.Tasks().Len())
	}

	var got a2a.Task
	result(t, rpc(t, s, "GetTask", map[string]any{"id": task.ID}, nil), &got)
	if got.ID != task.ID || got.Status.State != a2a.StateCompleted || len(got.History) != 1 {
		t.Fatalf("GetTask %+v", got)
	}
	r = rpc(t, s, "GetTask", map[string]any{"id": task.ID, "historyLength": 0}, nil)
	if bytes.Contains(r.body, []byte(`"history"`)) {
		t.Fatalf("historyLength 0 must omit history: %s", r.body)
	}
	rpcErr(t, rpc(t, s, "GetTask", map[string]any{"id": "nope"}, nil), 200, a2a.CodeTaskNotFound, "TASK_NOT_FOUND")

	// a second task in another context, then ListTasks: newest first, artifacts omitted by default, paging.
	var sr2 a2a.SendResult
	result(t, rpc(t, s, "SendMessage", map[string]any{"message": textMsg("two")}, nil), &sr2)
	r = rpc(t, s, "ListTasks", map[string]any{}, nil)
	var list a2atest.ListTasksResponse
	result(t, r, &list)
	if len(list.Tasks) != 2 || list.Tasks[0].ID != sr2.Task.ID || list.TotalSize != 2 || list.NextPageToken != "" ||
		!bytes.Contains(r.body, []byte(`"nextPageToken":""`)) || bytes.Contains(r.body, []byte(`"artifacts"`)) {
		t.Fatalf("ListTasks %s", r.body)
	}
	result(t, rpc(t, s, "ListTasks", map[string]any{"pageSize": 1, "includeArtifacts": true}, nil), &list)
	if len(list.Tasks) != 1 || list.NextPageToken == "" || len(list.Tasks[0].Artifacts) != 1 {
		t.Fatalf("page 1 %+v", list)
	}
	result(t, rpc(t, s, "ListTasks", map[string]any{"pageSize": 1, "pageToken": list.NextPageToken}, nil), &list)
	if len(list.Tasks) != 1 || list.Tasks[0].ID != task.ID || list.NextPageToken != "" {
		t.Fatalf("page 2 %+v", list)
	}
	result(t, rpc(t, s, "ListTasks", map[string]any{"contextId": task.ContextID}, nil), &list)
	if len(list.Tasks) != 1 || list.Tasks[0].ID != task.ID {
		t.Fatalf("contextId filter %+v", list)
	}
	rpcErr(t, rpc(t, s, "ListTasks", map[string]any{"pageToken": "garbage"}, nil), 200, a2a.CodeInvalidParams, "INVALID_PARAMS")

	// terminal task: not cancelable, and accepts no further message.
	rpcErr(t, rpc(t, s, "CancelTask", map[string]any{"id": task.ID}, nil), 200, a2a.CodeTaskNotCancelable, "TASK_NOT_CANCELABLE")
	rpcErr(t, rpc(t, s, "CancelTask", map[string]any{"id": "nope"}, nil), 200, a2a.CodeTaskNotFound, "TASK_NOT_FOUND")
	follow := textMsg("more")
	follow.TaskID = task.ID
	rpcErr(t, rpc(t, s, "SendMessage", map[string]any{"message": follow}, nil), 200, a2a.CodeUnsupportedOperation, "UNSUPPORTED_OPERATION")
}

func TestCancelWorkingTask(t *testing.T) {
	s := start(t, a2atest.Agent{OnSend: func(c *a2atest.Ctx, req a2a.SendMessageRequest) a2atest.Reply {
		return a2atest.Reply{Task: &a2a.Task{Status: a2a.TaskStatus{State: a2a.StateWorking}}}
	}})
	var sr a2a.SendResult
	result(t, rpc(t, s, "SendMessage", map[string]any{"message": textMsg("x")}, nil), &sr)
	if sr.Task.Status.State != a2a.StateWorking {
		t.Fatalf("%+v", sr.Task)
	}
	var c a2a.Task
	result(t, rpc(t, s, "CancelTask", map[string]any{"id": sr.Task.ID}, nil), &c)
	if c.Status.State != a2a.StateCanceled || !tsRE.MatchString(c.Status.Timestamp) {
		t.Fatalf("%+v", c)
	}
	// HTTP+JSON cancel of the now terminal task
	restErr(t, do(t, "POST", s.RESTURL()+"/tasks/"+sr.Task.ID+":cancel", nil, nil), 400, "FAILED_PRECONDITION", "TASK_NOT_CANCELABLE")
}

func TestStreamingJSONRPC(t *testing.T) {
	s := start(t, a2atest.Agent{})
	r := do(t, "POST", s.JSONRPCURL(), map[string]any{"jsonrpc": "2.0", "id": "s-1", "method": "SendStreamingMessage",
		"params": map[string]any{"message": textMsg("streamed")}}, map[string]string{"Accept": "text/event-stream"})
	_, data := sse(t, r)
	if len(data) != 3 {
		t.Fatalf("%d events: %s", len(data), r.body)
	}
	var kinds []string
	for _, d := range data {
		var env struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      string          `json:"id"`
			Result  a2a.StreamEvent `json:"result"`
		}
		if err := json.Unmarshal(d, &env); err != nil || env.ID != "s-1" || env.JSONRPC != "2.0" {
			t.Fatalf("event %s", d)
		}
		switch ev := env.Result; {
		case ev.Task != nil:
			kinds = append(kinds, "task:"+ev.Task.Status.State)
		case ev.ArtifactUpdate != nil:
			kinds = append(kinds, "artifact:"+*ev.ArtifactUpdate.Artifact.Parts[0].Text)
		case ev.StatusUpdate != nil:
			kinds = append(kinds, "status:"+ev.StatusUpdate.Status.State)
		}
	}
	want := "task:TASK_STATE_SUBMITTED artifact:streamed status:TASK_STATE_COMPLETED"
	if strings.Join(kinds, " ") != want {
		t.Fatalf("events %v, want %s", kinds, want)
	}
	// A streaming error is one SSE event holding the JSON-RPC error.
	r = do(t, "POST", s.JSONRPCURL(), map[string]any{"jsonrpc": "2.0", "id": 9, "method": "SendStreamingMessage",
		"params": map[string]any{"message": map[string]any{"role": "ROLE_USER", "parts": []any{}}}}, nil)
	_, data = sse(t, r)
	if len(data) != 1 || !bytes.Contains(data[0], []byte(`"code":-32602`)) || !bytes.Contains(data[0], []byte(`"id":9`)) {
		t.Fatalf("stream error %s", r.body)
	}
}

func TestStreamFollowsTaskToCompletion(t *testing.T) {
	var srv *a2atest.Server
	srv = start(t, a2atest.Agent{OnSend: func(c *a2atest.Ctx, req a2a.SendMessageRequest) a2atest.Reply {
		id := "follow-1"
		go func() {
			time.Sleep(20 * time.Millisecond)
			t2 := &a2a.Task{ID: id, ContextID: "ctx", Status: a2a.TaskStatus{State: a2a.StateCompleted, Timestamp: a2atest.Timestamp(time.Now())},
				Artifacts: []a2a.Artifact{{ArtifactID: "a1", Parts: []a2a.Part{a2a.TextPart("late")}}}}
			srv.Tasks().Put(t2)
		}()
		return a2atest.Reply{Task: &a2a.Task{ID: id, ContextID: "ctx", Status: a2a.TaskStatus{State: a2a.StateWorking}}}
	}})
	r := do(t, "POST", srv.RESTURL()+"/message:stream", map[string]any{"message": textMsg("x")}, nil)
	_, data := sse(t, r)
	if len(data) != 4 { // task, status WORKING, artifact a1, status COMPLETED
		t.Fatalf("%d events: %s", len(data), r.body)
	}
	if !bytes.Contains(data[2], []byte(`"late"`)) || !bytes.Contains(data[3], []byte(a2a.StateCompleted)) {
		t.Fatalf("events %s", r.body)
	}
	if bytes.Contains(r.body, []byte(`"jsonrpc"`)) {
		t.Fatal("HTTP+JSON stream events must be bare StreamResponses")
	}
}
