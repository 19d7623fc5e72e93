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

func TestRESTStreamErrorEventIsNoResult(t *testing.T) {
	refusal := "id: 9cf81ad9\ndata: {\"error\":{\"code\":401,\"status\":\"UNAUTHENTICATED\",\"message\":\"a platform token is required\",\"details\":[{\"reason\":\"UNAUTHENTICATED\"}]}}\n\n"
	result, code := restStream([]byte(refusal))
	if result || code != "401/UNAUTHENTICATED/UNAUTHENTICATED" {
		t.Errorf("refusal stream: result %v code %q", result, code)
	}
	a := answer{leg: leg{a2a.BindingHTTPJSON, "SendStreamingMessage"}, status: 200, code: code}
	if !a.authRefused() {
		t.Error("a stream whose only event is a 401 google.rpc.Status is not read as a refusal")
	}
	served := "data: {\"task\":{\"id\":\"t1\",\"status\":{\"state\":\"TASK_STATE_SUBMITTED\"}}}\n\n"
	if result, _ := restStream([]byte(served)); !result {
		t.Error("a stream carrying a task is not read as a result")
	}
}
