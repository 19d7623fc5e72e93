package agentcards

import (
	"testing"

	"github.com/extconf/extconf/harness/a2a"
)

// The refusals of a host on a2a-go v2, as the independent RFC 0202 host (examples/agents/agent-cards) sends them.

func TestSDKRefusalsAreRefusals(t *testing.T) {
	rpc := leg{a2a.BindingJSONRPC, "SendMessage"}
	for _, code := range []string{"-31401", "-31403"} {
		if !(answer{leg: rpc, status: 200, code: code}).authRefused() {
			t.Errorf("JSON-RPC error %s at HTTP 200 is not read as a refusal", code)
		}
	}
	if (answer{leg: rpc, status: 200, code: "-32602"}).authRefused() {
		t.Error("JSON-RPC -32602 read as an authentication refusal")
	}
	if (answer{leg: rpc, status: 200, code: "-31401", result: true}).authRefused() {
		t.Error("an answer carrying a result read as a refusal")
	}
}
