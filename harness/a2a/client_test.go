package a2a

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// shortLimits keep the misbehaving-server tests fast.
func shortLimits() Limits {
	return Limits{
		ConnectTimeout: 300 * time.Millisecond,
		CallTimeout:    300 * time.Millisecond,
		StreamTimeout:  400 * time.Millisecond,
		MaxBody:        64 << 10,
		MaxSSEEvent:    4 << 10,
		MaxSSEEvents:   20,
		MaxRedirects:   3,
	}
}

func newTestClient(t *testing.T, o Options) *Client {
	t.Helper()
	if o.Limits == (Limits{}) {
		o.Limits = shortLimits()
	}
	c := NewClient(o)
	t.Cleanup(c.hc.CloseIdleConnections)
	return c
}

// within fails the test when fn takes longer than d, and returns what fn returned.
func within(t *testing.T, d time.Duration, fn func() error) error {
	t.Helper()
	start := time.Now()
	err := fn()
	if el := time.Since(start); el > d {
		t.Fatalf("took %s, bound %s", el, d)
	}
	return err
}

// streamWithinSecond opens a SendStreamingMessage stream to url, failing the test when it takes over a second.
func streamWithinSecond(t *testing.T, c *Client, url string) (resps []RPCResponse, ex *Exchange, err error) {
	t.Helper()
	err = within(t, time.Second, func() (err error) {
		resps, ex, err = c.RPCStream(context.Background(), url, MethodSendStreamingMessage, nil, Call{})
		return err
	})
	return resps, ex, err
}

// getTaskWithinSecond calls GetTask at url, failing the test when it takes over a second.
func getTaskWithinSecond(t *testing.T, c *Client, url string) (ex *Exchange, err error) {
	t.Helper()
	err = within(t, time.Second, func() (err error) {
		_, ex, err = c.RPC(context.Background(), url, MethodGetTask, nil, Call{})
		return err
	})
	return ex, err
}

func wantErr(t *testing.T, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("error = %v, want %v", err, target)
	}
}

func wantRecorded(t *testing.T, c *Client, n int) []*Exchange {
	t.Helper()
	all := c.Recorder().All()
	if len(all) != n {
		t.Fatalf("recorded %d exchanges, want %d", len(all), n)
	}
	return all
}

const rpcOK = `{"jsonrpc":"2.0","id":1,"result":{}}`

// echoServer answers a JSON-RPC result holding the request headers it saw.
func echoServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h, _ := json.Marshal(r.Header)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set(HeaderExtensions, r.Header.Get(HeaderExtensions))
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":1,"result":%s}`, h)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestRPCHeaders(t *testing.T) {
	srv := echoServer(t)
	empty := ""
	cases := []struct {
		name    string
		call    Call
		version []string // nil: header absent
		ext     []string
	}{
		{"default", Call{}, []string{"1.0"}, nil},
		{"omitted", Call{OmitVersion: true}, nil, nil},
		{"empty", Call{Version: &empty}, []string{""}, nil},
		{"other", Call{Version: new("0.3")}, []string{"0.3"}, nil},
		{"extensions", Call{Extensions: []string{"https://a.example/x", "https://b.example/y"}}, []string{"1.0"},
			[]string{"https://a.example/x, https://b.example/y"}},
	}
	c := newTestClient(t, Options{Header: http.Header{"Authorization": {"Bearer A"}}})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, ex, err := c.RPC(context.Background(), srv.URL, MethodGetTask, map[string]string{"id": "t"}, tc.call)
			if err != nil {
				t.Fatal(err)
			}
			var seen http.Header
			if err := json.Unmarshal(resp.Result, &seen); err != nil {
				t.Fatal(err)
			}
			for _, h := range []http.Header{seen, ex.RequestHeader} {
				if got := h[http.CanonicalHeaderKey(HeaderVersion)]; fmt.Sprint(got) != fmt.Sprint(tc.version) || (got == nil) != (tc.version == nil) {
					t.Fatalf("A2A-Version = %#v, want %#v", got, tc.version)
				}
				if got := h[http.CanonicalHeaderKey(HeaderExtensions)]; fmt.Sprint(got) != fmt.Sprint(tc.ext) {
					t.Fatalf("A2A-Extensions = %#v, want %#v", got, tc.ext)
				}
				if h.Get("Authorization") != "Bearer A" || h.Get("Content-Type") != "application/json" {
					t.Fatalf("headers %v", h)
				}
			}
			if ex.Status != 200 || ex.ResponseHeader.Get("Content-Type") != "application/json" {
				t.Fatalf("exchange status %d header %v", ex.Status, ex.ResponseHeader)
			}
		})
	}

	// A second principal, and a call that removes a header.
	b := c.WithHeader("Authorization", "Bearer B")
	resp, _, err := b.RPC(context.Background(), srv.URL, MethodGetTask, nil, Call{Header: http.Header{"user-agent": {}, "X-Extra": {"1"}}})
	if err != nil {
		t.Fatal(err)
	}
	var seen http.Header
	json.Unmarshal(resp.Result, &seen)
	if seen.Get("Authorization") != "Bearer B" || seen.Get("X-Extra") != "1" || seen["User-Agent"] != nil {
		t.Fatalf("second principal sent %v", seen)
	}
	if b.Recorder() != c.Recorder() {
		t.Fatal("WithHeader did not share the recorder")
	}
	wantRecorded(t, c, len(cases)+1)
}

func TestSendMessage(t *testing.T) {
	var got struct {
		JSONRPC string             `json:"jsonrpc"`
		ID      any                `json:"id"`
		Method  string             `json:"method"`
		Params  SendMessageRequest `json:"params"`
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := json.NewDecoder(r.Body).Decode(&got); err != nil {
			t.Error(err)
		}
		w.Header().Set("Content-Type", "application/json")
		if got.Params.Tenant == "bad" {
			io.WriteString(w, `{"jsonrpc":"2.0","id":"x","error":{"code":-32001,"message":"task not found"}}`)
			return
		}
		io.WriteString(w, `{"jsonrpc":"2.0","id":"x","result":{"task":{"id":"t1","contextId":"c1",`+
			`"status":{"state":"TASK_STATE_COMPLETED"},"artifacts":[{"artifactId":"a1","parts":[{"text":"hi"}]}]}}}`)
	}))
	defer srv.Close()
	c := newTestClient(t, Options{})
	req := SendMessageRequest{Message: Message{MessageID: "m1", Role: RoleUser, Parts: []Part{TextPart("hello")}}, Tenant: "T1"}
	res, resp, ex, err := c.SendMessage(context.Background(), srv.URL, req, Call{ID: "x", Note: "positive control"})
	if err != nil {
		t.Fatal(err)
	}
	if got.JSONRPC != "2.0" || got.ID != "x" || got.Method != MethodSendMessage || got.Params.Tenant != "T1" ||
		got.Params.Message.MessageID != "m1" || *got.Params.Message.Parts[0].Text != "hello" {
		t.Fatalf("server saw %+v", got)
	}
	if res.Task == nil || res.Task.ID != "t1" || res.Task.Status.State != StateCompleted || !IsTerminal(res.Task.Status.State) ||
		*res.Task.Artifacts[0].Parts[0].Text != "hi" || res.Message != nil {
		t.Fatalf("result %+v", res)
	}
	if string(resp.ID) != `"x"` || ex.Note != "positive control" {
		t.Fatalf("resp id %s, note %q", resp.ID, ex.Note)
	}

	// A JSON-RPC error is a response, not an error.
	req.Tenant = "bad"
	res, resp, _, err = c.SendMessage(context.Background(), srv.URL, req, Call{})
	if err != nil || res != nil || resp.Error == nil || resp.Error.Code != CodeTaskNotFound {
		t.Fatalf("result %+v, resp %+v, err %v", res, resp, err)
	}
	if _, ok := got.ID.(float64); !ok {
		t.Fatalf("default id %#v is not a number", got.ID)
	}
	wantRecorded(t, c, 2)
}

func TestSSEThreeEvents(t *testing.T) {
	stream := ": hello\n" +
		"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"task\":{\"id\":\"t1\",\"status\":{\"state\":\"TASK_STATE_SUBMITTED\"}}}}\n\n" +
		"event: message\r\nid: 2\r\n" +
		"data: {\"jsonrpc\":\"2.0\",\"id\":1,\r\ndata: \"result\":{\"statusUpdate\":{\"taskId\":\"t1\",\"status\":{\"state\":\"TASK_STATE_WORKING\"}}}}\r\n\r\n" +
		"data:{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"artifactUpdate\":{\"taskId\":\"t1\",\"artifact\":{\"artifactId\":\"a\",\"parts\":[{\"text\":\"x\"}]},\"lastChunk\":true}}}\n\n"
	var accept string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		accept = r.Header.Get("Accept")
		w.Header().Set("Content-Type", "text/event-stream")
		for _, part := range strings.SplitAfter(stream, "\n\n") { // one flush per event
			io.WriteString(w, part)
			w.(http.Flusher).Flush()
		}
	}))
	defer srv.Close()
	c := newTestClient(t, Options{})
	req := SendMessageRequest{Message: Message{MessageID: "m", Role: RoleUser, Parts: []Part{TextPart("go")}}}
	events, resps, ex, err := c.SendStreamingMessage(context.Background(), srv.URL, req, Call{})
	if err != nil {
		t.Fatal(err)
	}
	if accept != "text/event-stream" {
		t.Fatalf("Accept = %q", accept)
	}
	if len(events) != 3 || len(resps) != 3 || len(ex.Events) != 3 {
		t.Fatalf("%d events, %d responses, %d recorded", len(events), len(resps), len(ex.Events))
	}
	if events[0].Task == nil || events[1].StatusUpdate == nil || events[1].StatusUpdate.Status.State != StateWorking ||
		events[2].ArtifactUpdate == nil || !events[2].ArtifactUpdate.LastChunk {
		t.Fatalf("events %+v", events)
	}
	if !bytes.Contains(ex.Events[1], []byte("\n")) || string(ex.ResponseBody) != stream || ex.Truncated {
		t.Fatalf("multi-line data %q; raw body kept %v", ex.Events[1], string(ex.ResponseBody) == stream)
	}
}

func TestRPCStreamJSONAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/err" {
			io.WriteString(w, `{"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"bad params"}}`)
			return
		}
		io.WriteString(w, `{"jsonrpc":"2.0","id":1,"result":{"task":{"id":"t"}}}`)
	}))
	defer srv.Close()
	c := newTestClient(t, Options{})
	resps, _, err := c.RPCStream(context.Background(), srv.URL+"/err", MethodSendStreamingMessage, nil, Call{})
	if err != nil || len(resps) != 1 || resps[0].Error.Code != CodeInvalidParams {
		t.Fatalf("JSON-RPC error over JSON: %v %+v", err, resps)
	}
	resps, _, err = c.RPCStream(context.Background(), srv.URL+"/ok", MethodSendStreamingMessage, nil, Call{})
	wantErr(t, err, ErrContentType)
	if len(resps) != 1 {
		t.Fatalf("responses %+v", resps)
	}
}

func TestReadSSE(t *testing.T) {
	in := "\xEF\xBB\xBFid: 7\revent: e1\rdata: a\rdata\r\r" + // CR-only lines, BOM, "data" without colon
		"retry: 10\n:comment\ndata:  b\n\n" + // one leading space is removed, not two
		"data: dropped at EOF"
	var got []SSEEvent
	if err := ReadSSE(strings.NewReader(in), 100, 10, func(e SSEEvent) { got = append(got, e) }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || string(got[0].Data) != "a\n" || got[0].Type != "e1" || got[0].ID != "7" ||
		string(got[1].Data) != " b" || got[1].Type != "" || got[1].ID != "7" {
		t.Fatalf("events %+v", got)
	}
	err := ReadSSE(strings.NewReader("data: "+strings.Repeat("x", 200)+"\n\n"), 100, 10, func(SSEEvent) {})
	wantErr(t, err, ErrSSEEventTooLarge)
	err = ReadSSE(strings.NewReader(strings.Repeat("data: "+strings.Repeat("x", 60)+"\n", 2)+"\n"), 100, 10, func(SSEEvent) {})
	wantErr(t, err, ErrSSEEventTooLarge)
}

func TestREST(t *testing.T) {
	var gotPath, gotBody, gotMethod string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		gotPath, gotBody, gotMethod = r.URL.Path, string(b), r.Method
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"error":{"code":404,"status":"NOT_FOUND","message":"no"}}`)
	}))
	defer srv.Close()
	c := newTestClient(t, Options{})
	ex, err := c.REST(context.Background(), http.MethodPost, srv.URL+"/", "/T1/message:send", json.RawMessage(`{"x": 1 }`), Call{})
	if err != nil || gotPath != "/T1/message:send" || gotBody != `{"x": 1 }` || gotMethod != "POST" || ex.Status != 404 {
		t.Fatalf("err %v path %q body %q status %d", err, gotPath, gotBody, ex.Status)
	}
	ex, err = c.REST(context.Background(), http.MethodGet, srv.URL, "tasks/abc", nil, Call{})
	if err != nil || gotPath != "/tasks/abc" || gotBody != "" || ex.RequestHeader.Get("Content-Type") != "" {
		t.Fatalf("err %v path %q body %q header %v", err, gotPath, gotBody, ex.RequestHeader)
	}
}
