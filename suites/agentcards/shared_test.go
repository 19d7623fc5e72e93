package agentcards

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/target"
)

// config check predicts AC-B.2f and AC-D.9 blocked exactly where the run blocks them: A's and B's inventories share no agent.
func TestSharedAgentNeedIsDerived(t *testing.T) {
	inventories := map[string]string{
		"Bearer a": `{"agents": [{"agentId": "x", "a2aTenant": "r1"}]}`,
		"Bearer b": `{"agents": [{"agentId": "y", "a2aTenant": "r2"}]}`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(inventories[r.Header.Get("Authorization")]))
	}))
	defer srv.Close()
	cfg := target.Config{Principals: map[string]target.Principal{
		"agent-cards.A": {Header: "Authorization", Value: "Bearer a"}, "agent-cards.B": {Header: "Authorization", Value: "Bearer b"}}}
	cl := a2a.NewClient(a2a.Options{})
	sec := map[string]any{"inventory": srv.URL + "/agents"}
	if n := sharedAgentNeeds(context.Background(), cl, cfg, sec); len(n) != 1 || n[0].Member != "sharedAgent" || len(n[0].Rows) != 2 {
		t.Errorf("no shared agent: needs %+v, want sharedAgent", n)
	}
	inventories["Bearer b"] = `{"agents": [{"agentId": "x", "a2aTenant": "r1"}]}`
	if n := sharedAgentNeeds(context.Background(), cl, cfg, sec); len(n) != 0 {
		t.Errorf("a shared agent: needs %+v, want none", n)
	}
}
