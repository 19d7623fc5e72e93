package a2a

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gowebpki/jcs"
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

func TestOversizedBody(t *testing.T) {
	var written atomic.Int64
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer close(done)
		w.Header().Set("Content-Type", "application/json")
		chunk := bytes.Repeat([]byte("x"), 32<<10)
		for range 2048 { // 64 MiB if the client read it all
			n, err := w.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	c := newTestClient(t, Options{})
	var ex *Exchange
	err := within(t, time.Second, func() (err error) {
		ex, err = c.HTTP(context.Background(), http.MethodGet, srv.URL, nil, Call{})
		return err
	})
	wantErr(t, err, ErrBodyTooLarge)
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != LimitMaxBody || !strings.HasPrefix(err.Error(), "limit exceeded: max-body (65536 bytes)") {
		t.Fatalf("error = %v, want a max-body LimitError", err)
	}
	if len(ex.ResponseBody) != 64<<10 || !ex.Truncated || ex.Status != 200 || ex.Error == "" {
		t.Fatalf("exchange: body %d bytes, truncated %v, status %d, error %q", len(ex.ResponseBody), ex.Truncated, ex.Status, ex.Error)
	}
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("server still writing: the client did not close the connection")
	}
	if w := written.Load(); w >= 32<<20 {
		t.Fatalf("server wrote %d bytes: the client read far past the cap", w)
	}
	wantRecorded(t, c, 1)
}

func TestSSENeverEndingEventCount(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for i := 0; r.Context().Err() == nil; i++ {
			if _, err := fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"n\":%d}}\n\n", i); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
	}))
	defer srv.Close()
	c := newTestClient(t, Options{})
	resps, ex, err := streamWithinSecond(t, c, srv.URL)
	wantErr(t, err, ErrTooManySSEEvents)
	if len(resps) != 20 || len(ex.Events) != 20 || !ex.Truncated {
		t.Fatalf("got %d responses, %d events, truncated %v; want 20, 20, true", len(resps), len(ex.Events), ex.Truncated)
	}
	wantRecorded(t, c, 1)
}

func TestSSENeverEndingTimeout(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n")
		for r.Context().Err() == nil {
			if _, err := io.WriteString(w, ": keep-alive\n"); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			time.Sleep(50 * time.Millisecond)
		}
	}))
	defer srv.Close()
	c := newTestClient(t, Options{})
	resps, ex, err := streamWithinSecond(t, c, srv.URL)
	wantErr(t, err, ErrTimeout)
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != LimitStreamTimeout {
		t.Fatalf("error = %v, want stream-timeout", err)
	}
	if len(resps) != 1 || len(ex.Events) != 1 {
		t.Fatalf("got %d responses, %d events before the timeout; want 1", len(resps), len(ex.Events))
	}
	wantRecorded(t, c, 1)
}

func TestSlowLorisBody(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", "100")
		w.WriteHeader(200)
		for range 100 {
			if _, err := w.Write([]byte(" ")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(time.Second):
			}
		}
	}))
	defer srv.Close()
	c := newTestClient(t, Options{})
	ex, err := getTaskWithinSecond(t, c, srv.URL)
	wantErr(t, err, ErrTimeout)
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != LimitCallTimeout {
		t.Fatalf("error = %v, want call-timeout", err)
	}
	if ex.Status != 200 || !ex.Truncated || len(ex.ResponseBody) == 0 {
		t.Fatalf("exchange: status %d, truncated %v, body %q", ex.Status, ex.Truncated, ex.ResponseBody)
	}
	wantRecorded(t, c, 1)
}

func TestRedirectOffOrigin(t *testing.T) {
	var other atomic.Int32
	srv2 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		other.Add(1)
		io.WriteString(w, rpcOK)
	}))
	defer srv2.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, srv2.URL+"/card", http.StatusFound)
	}))
	defer srv.Close()
	if !strings.HasPrefix(srv2.URL, "http://127.0.0.1:") {
		t.Fatalf("second server not on 127.0.0.1: %s", srv2.URL)
	}
	c := newTestClient(t, Options{})
	_, ex, err := c.FetchJSON(context.Background(), srv.URL+"/card", Call{})
	wantErr(t, err, ErrRedirectOffOrigin)
	if n := other.Load(); n != 0 {
		t.Fatalf("other origin received %d requests", n)
	}
	if ex.Status != http.StatusFound || len(ex.Redirects) != 1 || ex.Redirects[0] != srv2.URL+"/card" {
		t.Fatalf("exchange: status %d, redirects %v", ex.Status, ex.Redirects)
	}
	wantRecorded(t, c, 1)
}

func TestRedirectLoop(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := hits.Add(1)
		http.Redirect(w, r, fmt.Sprintf("/loop/%d", n), http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	c := newTestClient(t, Options{})
	ex, err := getTaskWithinSecond(t, c, srv.URL)
	wantErr(t, err, ErrTooManyRedirects)
	if n := hits.Load(); n != 4 { // the request and MaxRedirects (3) followed hops
		t.Fatalf("server saw %d requests, want 4", n)
	}
	if len(ex.Redirects) != 4 {
		t.Fatalf("redirects recorded %v, want 4 hops (3 followed, 1 refused)", ex.Redirects)
	}
	wantRecorded(t, c, 1)
}

func TestInvalidJSON(t *testing.T) {
	bodies := map[string]string{
		"/truncated": `{"jsonrpc":"2.0",`,
		"/trailing":  `{"jsonrpc":"2.0","id":1,"result":{}} {}`,
		"/empty":     ``,
		"/html":      `<html>nope</html>`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, bodies[r.URL.Path])
	}))
	defer srv.Close()
	c := newTestClient(t, Options{})
	for path := range bodies {
		_, ex, err := c.RPC(context.Background(), srv.URL+path, MethodGetTask, nil, Call{})
		wantErr(t, err, ErrInvalidJSON)
		if ex.Error == "" || string(ex.ResponseBody) != bodies[path] {
			t.Fatalf("%s: exchange error %q body %q", path, ex.Error, ex.ResponseBody)
		}
		_, _, err = c.FetchJSON(context.Background(), srv.URL+path, Call{})
		wantErr(t, err, ErrInvalidJSON)
	}
	wantRecorded(t, c, 2*len(bodies))
	if err := DecodeStrict([]byte(`{"a":1}`+"\n"), &map[string]any{}); err != nil {
		t.Fatalf("trailing whitespace rejected: %v", err)
	}
}

func TestFetchCardContentType(t *testing.T) {
	card := `{"name":"a","description":"d","supportedInterfaces":[],"version":"1","capabilities":{},` +
		`"defaultInputModes":[],"defaultOutputModes":[],"skills":[]}`
	types := map[string]error{
		"/html":   ErrContentType,
		"/none":   ErrContentType,
		"/json":   nil,
		"/plus":   nil,
		"/status": ErrStatus,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/html":
			w.Header().Set("Content-Type", "text/html")
		case "/none":
			w.Header()["Content-Type"] = nil // stop Go sniffing one
		case "/json":
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
		case "/plus":
			w.Header().Set("Content-Type", "application/a2a-card+json")
		case "/status":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
		}
		io.WriteString(w, card)
	}))
	defer srv.Close()
	c := newTestClient(t, Options{})
	for path, want := range types {
		got, ex, err := c.FetchCard(context.Background(), srv.URL+path, Call{})
		if want == nil {
			if err != nil || got.Name != "a" {
				t.Fatalf("%s: card %+v, error %v", path, got, err)
			}
			continue
		}
		wantErr(t, err, want)
		if got != nil || ex == nil || ex.Error == "" {
			t.Fatalf("%s: card %+v, exchange %+v", path, got, ex)
		}
	}
	wantRecorded(t, c, len(types))
}

func TestCheckURLRefused(t *testing.T) {
	var hits []string
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits = append(hits, r.URL.Path)
		mu.Unlock()
		if r.URL.Path == "/start" {
			http.Redirect(w, r, "/forbidden", http.StatusFound)
			return
		}
		io.WriteString(w, rpcOK)
	}))
	defer srv.Close()
	var dialed atomic.Int32
	d := &net.Dialer{}
	c := newTestClient(t, Options{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			dialed.Add(1)
			return d.DialContext(ctx, network, addr)
		},
		CheckURL: func(u *url.URL) error {
			if u.Hostname() == "forbidden.example" || u.Path == "/forbidden" {
				return errors.New("not in scope")
			}
			return nil
		},
	})

	_, ex, err := c.RPC(context.Background(), "http://forbidden.example:1/", MethodGetTask, nil, Call{})
	wantErr(t, err, ErrURLRefused)
	if dialed.Load() != 0 || ex.Status != 0 || ex.Error == "" {
		t.Fatalf("dialed %d times; exchange status %d error %q", dialed.Load(), ex.Status, ex.Error)
	}
	_, err = c.HTTP(context.Background(), http.MethodGet, "file:///etc/passwd", nil, Call{})
	wantErr(t, err, ErrURLRefused)
	if dialed.Load() != 0 {
		t.Fatal("dialed for a file: URL")
	}

	// A redirect hop is checked too: the first request goes out, the refused hop does not.
	_, err = c.HTTP(context.Background(), http.MethodGet, srv.URL+"/start", nil, Call{})
	wantErr(t, err, ErrURLRefused)
	mu.Lock()
	defer mu.Unlock()
	if len(hits) != 1 || hits[0] != "/start" {
		t.Fatalf("server saw %v, want only /start", hits)
	}
	wantRecorded(t, c, 3)
}

func TestConnectTimeout(t *testing.T) {
	lim := shortLimits()
	lim.ConnectTimeout = 100 * time.Millisecond
	c := newTestClient(t, Options{Limits: lim, DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		<-ctx.Done() // a blackholed address
		return nil, ctx.Err()
	}})
	err := within(t, time.Second, func() error {
		_, err := c.HTTP(context.Background(), http.MethodGet, "http://127.0.0.1:9/", nil, Call{})
		return err
	})
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != LimitConnectTimeout || !errors.Is(err, ErrTimeout) {
		t.Fatalf("error = %v, want connect-timeout", err)
	}
}

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

var idPattern = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

func TestExchangeIDsAndJSONL(t *testing.T) {
	srv := echoServer(t)
	c := newTestClient(t, Options{})
	for range 3 {
		if _, _, err := c.RPC(context.Background(), srv.URL, MethodGetTask, nil, Call{ID: 1, Note: "same"}); err != nil {
			t.Fatal(err)
		}
	}
	c.HTTP(context.Background(), http.MethodGet, "http://127.0.0.1:1/", nil, Call{}) // a failed one too
	all := wantRecorded(t, c, 4)
	seen := map[string]bool{}
	for i, e := range all {
		if e.Seq != i+1 || !idPattern.MatchString(e.ID) || seen[e.ID] {
			t.Fatalf("exchange %d: seq %d id %q (duplicate %v)", i, e.Seq, e.ID, seen[e.ID])
		}
		seen[e.ID] = true
		if again := e.computeID(); again != e.ID {
			t.Fatalf("ID not stable: %s then %s", e.ID, again)
		}
		if !strings.HasPrefix(e.Summary(), fmt.Sprintf("ex#%d %s… %s ", e.Seq, e.ID[:19], e.Method)) {
			t.Fatalf("summary %q", e.Summary())
		}
	}
	if all[3].Error == "" || all[3].Status != 0 {
		t.Fatalf("failed exchange recorded as %+v", all[3])
	}

	var buf bytes.Buffer
	if err := c.Recorder().WriteJSONL(&buf); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 4 {
		t.Fatalf("%d lines, want 4", len(lines))
	}
	for i, line := range lines {
		canon, err := jcs.Transform([]byte(line))
		if err != nil || string(canon) != line {
			t.Fatalf("line %d is not JCS canonical: %v", i, err)
		}
		// Anyone can recompute the ID from the line: blank it, canonicalise, hash.
		var m map[string]any
		json.Unmarshal([]byte(line), &m)
		if m["id"] != all[i].ID {
			t.Fatalf("line %d id %v", i, m["id"])
		}
		m["id"] = ""
		b, _ := json.Marshal(m)
		canon, _ = jcs.Transform(b)
		sum := sha256.Sum256(canon)
		if "sha256:"+hex.EncodeToString(sum[:]) != all[i].ID {
			t.Fatalf("line %d: ID does not recompute", i)
		}
	}
}

func TestLimitErrorMessage(t *testing.T) {
	err := error(&LimitError{Limit: LimitMaxBody, Detail: "(8388608 bytes): body is longer"})
	if err.Error() != "limit exceeded: max-body (8388608 bytes): body is longer" || !errors.Is(err, ErrBodyTooLarge) || errors.Is(err, ErrTimeout) {
		t.Fatalf("%v", err)
	}
	d := NewClient(Options{}).Limits()
	if d != DefaultLimits() || d.MaxBody != 8<<20 || d.CallTimeout != 10*time.Second {
		t.Fatalf("defaults %+v", d)
	}
}

// TestCanonicalMatchesJCS pins the hand-written canonical form to the reference: jcs over encoding/json.
func TestCanonicalMatchesJCS(t *testing.T) {
	exs := []*Exchange{
		{Method: "GET", URL: "http://x/", Started: time.Date(2026, 1, 2, 3, 4, 5, 600, time.UTC)},
		{
			ID: "sha256:00", Seq: 42, Note: "note <&> \u2028 \"q\" \\ \x01\x1f\t\n\r\b\f \x7f é 😀", Method: "POST",
			URL: "https://127.0.0.1:1/a?b=c&d=<e>", Redirects: []string{"https://127.0.0.1:1/z", "bad\xffutf8"},
			RequestHeader: http.Header{"A2a-Version": {""}, "Z": nil, "Y": {}, "\ue000": {"x"}, "😀": {"y"}, "a": {"1", "2"}},
			RequestBody:   []byte{0, 1, 2, 255}, Status: 599,
			ResponseHeader: http.Header{"Content-Type": {"text/event-stream"}, "X-Bad": {"\xc3\x28 \xed\xa0\x80"}},
			ResponseBody:   []byte("data: {}\n\n"), Events: [][]byte{[]byte("{}"), {}, nil}, Truncated: true,
			Started: time.Date(2026, 11, 30, 23, 59, 59, 0, time.UTC), Error: "limit exceeded: max-body (1 bytes)",
		},
	}
	for _, d := range []float64{0, 1, 0.5, 1.25, 123456.789, 1e-7, 3.3e-5, 1e20, 1e21, 2.5e22, 0.1 + 0.2, 1.0 / 3} {
		exs = append(exs, &Exchange{Method: "GET", URL: "u", DurationMS: d, RequestHeader: http.Header{}})
	}
	for i, e := range exs {
		j, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		want, err := jcs.Transform(j)
		if err != nil {
			t.Fatal(err)
		}
		if got := e.appendCanonical(nil); string(got) != string(want) {
			t.Fatalf("exchange %d:\n got %s\nwant %s", i, got, want)
		}
	}
}

func TestTLSRootCAs(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, rpcOK)
	}))
	defer srv.Close()
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	trusted := newTestClient(t, Options{RootCAs: pool})
	if _, _, err := trusted.RPC(context.Background(), srv.URL, MethodGetTask, nil, Call{}); err != nil {
		t.Fatalf("trusted CA: %v", err)
	}
	untrusted := newTestClient(t, Options{RootCAs: x509.NewCertPool()})
	_, ex, err := untrusted.RPC(context.Background(), srv.URL, MethodGetTask, nil, Call{})
	var uerr x509.UnknownAuthorityError
	if !errors.As(err, &uerr) || ex.Status != 0 || ex.Error == "" {
		t.Fatalf("untrusted CA: error %v, status %d", err, ex.Status)
	}
}
