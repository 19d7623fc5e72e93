package agentcards

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/target"
)

// A host that serves GET /agents elsewhere (/v2/agents): config check predicts every row listing A's inventory
// blocked on documents.agent-cards.inventory, as the run blocks them; one that serves it at /agents to principal A
// (and 401 to nobody in particular) has it derived.
func TestInventoryLocationIsPredicted(t *testing.T) {
	mounted := "/v2/agents"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer a" {
			http.Error(w, "unauthenticated", http.StatusUnauthorized)
			return
		}
		if r.URL.Path != mounted {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"agents": [{"agentId": "x", "a2aTenant": "r1"}]}`))
	}))
	defer srv.Close()
	cfg := target.Config{Principals: map[string]target.Principal{"agent-cards.A": {Header: "Authorization", Value: "Bearer a"}}}
	cl := a2a.NewClient(a2a.Options{})
	sec := map[string]any{}
	n := inventoryNeed(context.Background(), cl, cfg, sec, srv.URL+"/agents")
	if len(n) != 1 || n[0].Member != "inventory" || len(n[0].Rows) != len(rowsNeedingA) {
		t.Fatalf("inventory at %s: needs %+v, want inventory for A's rows", mounted, n)
	}
	if _, written := sec["inventory"]; written {
		t.Error("an inventory location that answers 404 was written into the section")
	}
	mounted = "/agents"
	if n := inventoryNeed(context.Background(), cl, cfg, sec, srv.URL+"/agents"); len(n) != 0 || sec["inventory"] != srv.URL+"/agents" {
		t.Errorf("inventory at /agents: needs %+v, section %v, want it derived", n, sec)
	}
}

// A configured inventory may be a path on the discovery document's origin, so one configuration serves every
// deployment (the independent host's target.json says "/v2/agents").
func TestInventoryPathResolvesOnDiscoveryOrigin(t *testing.T) {
	for in, want := range map[string]string{
		"/v2/agents":                    "https://host.example:8443/v2/agents",
		"https://inv.example/v2/agents": "https://inv.example/v2/agents",
	} {
		if got := resolveInventory(in, "https://host.example:8443/.well-known/openwop"); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
	}
	if got := resolveInventory("/v2/agents", ""); got != "" {
		t.Errorf("a path with no discovery origin resolved to %q", got)
	}
	if o := (document{}).Origins(target.Config{Discovery: "https://d.example/x", Inventory: "/v2/agents"}); len(o) != 1 {
		t.Errorf("a path-only inventory adds an origin: %v", o)
	}
}
