package a2a

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// A2A 1.0 leaves open how a JSON-RPC server refuses SendStreamingMessage before any event: the extconf server core
// sends HTTP 200 text/event-stream with one event holding the JSON-RPC error; the official JS SDK's server answers
// application/json (HTTP 200, or 500 for a server fault). The typed client reads both as that JSON-RPC error: no
// events, one response carrying the error, and no transport error.
func TestSendStreamingMessageErrorAnswerLatitude(t *testing.T) {
	const refusal = `{"jsonrpc":"2.0","id":1,"error":{"code":-32004,"message":"streaming is not supported"}}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/sse":
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "data: "+refusal+"\n\n")
		case "/json":
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			io.WriteString(w, refusal)
		case "/json500":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusInternalServerError)
			io.WriteString(w, `{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"internal"}}`)
		}
	}))
	defer srv.Close()
	c := newTestClient(t, Options{})
	req := SendMessageRequest{Message: Message{MessageID: "m", Role: RoleUser, Parts: []Part{TextPart("x")}}}
	for path, code := range map[string]int{"/sse": CodeUnsupportedOperation, "/json": CodeUnsupportedOperation, "/json500": CodeInternalError} {
		events, resps, ex, err := c.SendStreamingMessage(context.Background(), srv.URL+path, req, Call{})
		if err != nil || len(events) != 0 || len(resps) != 1 || resps[0].Error == nil || resps[0].Error.Code != code || ex == nil {
			t.Fatalf("%s: err %v, %d events, responses %+v", path, err, len(events), resps)
		}
	}
}
