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

// BenchmarkRPCOverhead compares one recorded harness RPC with the least a plain client does for the same call.
func BenchmarkRPCOverhead(b *testing.B) {
	result := []byte(`{"jsonrpc":"2.0","id":1,"result":{"task":{"id":"t1","contextId":"c1","status":{"state":"TASK_STATE_COMPLETED"}}}}`)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Write(result)
	}))
	defer srv.Close()
	params := map[string]string{"id": "t1"}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": MethodGetTask, "params": params})

	b.Run("bare", func(b *testing.B) {
		hc := &http.Client{Transport: &http.Transport{}}
		defer hc.CloseIdleConnections()
		b.ReportAllocs()
		for b.Loop() {
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
		for b.Loop() {
			if _, _, err := c.RPC(context.Background(), srv.URL, MethodGetTask, params, Call{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
