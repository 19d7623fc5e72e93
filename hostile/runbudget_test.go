package hostile

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/harnesstest"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/suites"
)

// An agent whose every answer is just under the per-exchange body cap cannot grow the run without end: the run
// stops sending once it holds limits.maxRunBytes of bodies, the rows that needed more name that limit, and the
// heap stays bounded (go test -v prints the figure).
func TestEveryReplyNearTheBodyCap(t *testing.T) {
	const big = 8<<20 - 4096
	pad := bytes.Repeat([]byte("x"), big)
	var base string
	base = harnesstest.Listen(t, "127.0.0.1:0", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == "/.well-known/agent-card.json" {
			_ = json.NewEncoder(w).Encode(map[string]any{
				"name": "heavy", "description": "answers everything with 8 MiB", "version": "1",
				"supportedInterfaces": []any{map[string]any{"url": base + "/jsonrpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}},
				"capabilities": map[string]any{"streaming": false, "extensions": []any{
					map[string]any{"uri": "https://agentsow.com/extensions/a2a-interview/v1"},
					map[string]any{"uri": "https://agent-capability.org/ext/on-request/v1", "params": map[string]any{"skills": []any{}}}}},
				"defaultInputModes": []string{"text/plain"}, "defaultOutputModes": []string{"text/plain"},
				"skills": []any{map[string]any{"id": "s", "name": "s", "description": "d", "tags": []string{"t"}}},
			})
			return
		}
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{"pad":"`))
		_, _ = w.Write(pad)
		_, _ = w.Write([]byte(`"}}`))
	})
	tgt, err := target.URL(base+"/.well-known/agent-card.json", target.Config{})
	if err != nil {
		t.Fatal(err)
	}
	h := sampleHeap()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := harness.Run(ctx, tgt, harness.Options{Suites: suites.All(), Seed: 1, SpecTimeout: 20 * time.Second})
	peak, _ := h.finish()
	if err != nil {
		t.Fatal(err)
	}
	named := 0
	for _, r := range res.Rows {
		if strings.Contains(r.Detail, "max-run-bytes") {
			named++
		}
	}
	held := res.Env.Client.Recorder().Held()
	t.Logf("%d exchanges, %.1f MiB held, peak heap %.1f MiB, %d rows name max-run-bytes", len(res.Exchanges), mib(uint64(held)), mib(peak), named)
	if named == 0 {
		t.Error("no row names the run's byte budget")
	}
	if held > 64<<20+2*big {
		t.Errorf("the run holds %.1f MiB, past the budget", mib(uint64(held)))
	}
	if peak > 400<<20 {
		t.Errorf("peak heap %.1f MiB", mib(peak))
	}
}
