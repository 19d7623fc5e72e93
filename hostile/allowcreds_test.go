package hostile

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/harness/harnesstest"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/suites"
)

// Issue 37.6: an origin listed in limits.allowOrigins (for proposals) is reachable, but receives no credential:
// a card whose RPC interface points there gets its requests sent without the configured Authorization.
func TestAllowOriginsGetNoCredentials(t *testing.T) {
	var mu sync.Mutex
	reqs, withAuth := 0, 0
	other := harnesstest.RemoteListen(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		reqs++
		if r.Header.Get("Authorization") != "" || r.Header.Get("X-Api-Key") != "" {
			withAuth++
		}
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}`))
	})
	card := harnesstest.RemoteListen(t, func(w http.ResponseWriter, r *http.Request) {
		var exts []any
		for _, d := range catalog.Documents {
			exts = append(exts, map[string]any{"uri": d.URI})
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"name": "n", "description": "d", "version": "1.0.0",
			"supportedInterfaces":  []any{map[string]any{"url": other + "/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}},
			"capabilities":         map[string]any{"extensions": exts},
			"securitySchemes":      map[string]any{"bearer": map[string]any{"httpAuthSecurityScheme": map[string]any{"scheme": "Bearer"}}},
			"securityRequirements": []any{map[string]any{"schemes": map[string]any{"bearer": map[string]any{"list": []string{}}}}},
			"defaultInputModes":    []string{"text/plain"}, "defaultOutputModes": []string{"text/plain"},
			"skills": []any{map[string]any{"id": "s", "name": "s", "description": "d", "tags": []string{"t"}, "examples": []string{"hi"}}}})
	})
	lim, _ := json.Marshal(map[string]any{"allowOrigins": []string{other}})
	cfg := target.Config{Limits: lim, Principals: map[string]target.Principal{
		"A": {Header: "Authorization", Value: "Bearer allow-origins-secret-01"}, "B": {Header: "X-Api-Key", Value: "allow-origins-key-02"}}}
	tgt, err := target.URL(card+"/.well-known/agent-card.json", cfg)
	if err != nil {
		t.Fatal(err)
	}
	l := testLimits()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := harness.Run(ctx, tgt, harness.Options{Suites: suites.All(), Limits: &l, Seed: 1, SpecTimeout: 10 * time.Second}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if reqs == 0 {
		t.Fatal("the allowOrigins origin got no request: nothing tested")
	}
	if withAuth > 0 {
		t.Errorf("%d of %d requests to an allowOrigins origin carried a credential", withAuth, reqs)
	}
	t.Logf("%d requests to the allowOrigins origin, %d with a credential", reqs, withAuth)
}
