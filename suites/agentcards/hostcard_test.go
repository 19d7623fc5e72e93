package agentcards

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/extconf/extconf/harness/a2a"
)

// A host that declares extendedAgentCard only for the per-agent cards has no card of its own: its
// ExtendedAgentCardNotConfigured answer, on either binding, is recognised as "none", not as a failed fetch.
func TestHostWithoutOwnExtendedCard(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodPost {
			w.Write([]byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32007,"message":"extended card not configured"}}`))
			return
		}
		w.WriteHeader(http.StatusBadRequest)
		w.Write([]byte(`{"error":{"code":400,"status":"FAILED_PRECONDITION","message":"extended card not configured","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"EXTENDED_AGENT_CARD_NOT_CONFIGURED","domain":"a2a-protocol.org"}]}}`))
	}))
	defer srv.Close()
	cl := a2a.NewClient(a2a.Options{})
	if f := getCardRPC(context.Background(), cl, srv.URL, "", "host card"); f.raw != nil || !f.notConfigured {
		t.Errorf("JSON-RPC -32007: %+v, want no card and notConfigured", f)
	}
	if f := getCardREST(context.Background(), cl, srv.URL, "", "host card"); f.raw != nil || !f.notConfigured {
		t.Errorf("HTTP+JSON EXTENDED_AGENT_CARD_NOT_CONFIGURED: %+v, want no card and notConfigured", f)
	}
}
