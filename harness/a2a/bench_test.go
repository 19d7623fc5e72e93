package a2a

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkRPCOverhead compares one harness RPC with the least a plain client does for the same call. Both encode
// the request envelope and decode the response inside the loop (the harness does both in RPC; a bare client that
// hoisted the encoding out of the loop would flatter itself). The harness client records and identifies every
// exchange (its recorder), as in a run: it keeps up to a default run's worth of exchanges (runExchanges), not every
// exchange of the benchmark (hundreds of thousands, a heap no run has, whose collection a run never pays).
func BenchmarkRPCOverhead(b *testing.B) {
	result := []byte(`{"jsonrpc":"2.0","id":1,"result":{"task":{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"}}}}`)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Write(result)
	}))
	defer srv.Close()
	params := map[string]string{"id": "t1"}

	b.Run("bare", func(b *testing.B) {
		hc := &http.Client{Transport: &http.Transport{}}
		defer hc.CloseIdleConnections()
		b.ReportAllocs()
		id := 0
		for b.Loop() {
			id++
			body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": MethodGetTask, "params": params})
			if err != nil {
				b.Fatal(err)
			}
			resp, err := hc.Post(srv.URL, "application/json", bytes.NewReader(body))
			if err != nil {
				b.Fatal(err)
			}
			raw, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				b.Fatal(err)
			}
			var r RPCResponse
			if err := json.Unmarshal(raw, &r); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("harness", func(b *testing.B) {
		c := NewClient(Options{})
		defer c.hc.CloseIdleConnections()
		b.ReportAllocs()
		n := 0
		for b.Loop() {
			if n++; n%runExchanges == 0 {
				c.rec = NewRecorder() // a run's records are dropped with the run
			}
			if _, _, err := c.RPC(context.Background(), srv.URL, MethodGetTask, params, Call{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkRedactedExchange is the redaction a run adds per exchange with three configured credentials (issue 37:
// every encoded form searched, escaped JSON strings decoded), recorded and written once each, as a run does.
func BenchmarkRedactedExchange(b *testing.B) {
	x := NewRedactor("Bearer tok/en+Secret=0123456789abc", "482915", "Bearer another-principal-token-77")
	ex := &Exchange{URL: "https://127.0.0.1:4443/jsonrpc", Method: "POST",
		RequestHeader:  http.Header{"Authorization": {"Bearer tok/en+Secret=0123456789abc"}, "Content-Type": {"application/json"}},
		RequestBody:    []byte(`{"jsonrpc":"2.0","id":7,"method":"GetTask","params":{"id":"task-1","historyLength":2}}`),
		ResponseHeader: http.Header{"Content-Type": {"application/json"}},
		ResponseBody:   bytes.Repeat([]byte(`{"kind":"text","text":"a reply with \u00e9 escapes and https:\/\/x"},`), 30)}
	b.ReportAllocs()
	for b.Loop() {
		_ = x.Exchange(ex)
		_ = x.Exchange(ex)
	}
}

// runExchanges is about the number of exchanges a default run of the five suites records.
const runExchanges = 2000
