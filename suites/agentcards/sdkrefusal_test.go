package agentcards

import (
	"net/http"
	"strings"
	"testing"
	"time"

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

// TestBodyBaselineIgnoresPerResponseValues: an SSE event id and a timestamp of the answer's own time vary between
// identical requests and say nothing of R; a body quoting R still differs (§D.7c's "same body").
func TestBodyBaselineIgnoresPerResponseValues(t *testing.T) {
	now := time.Now().UTC()
	mk := func(id, r string, at time.Time) answer {
		body := "id: " + id + "\ndata: {\"error\":{\"code\":-31403,\"message\":\"no agent" + r + "\",\"data\":[{\"metadata\":{\"timestamp\":\"" + at.Format(time.RFC3339) + "\"}}]}}\n\n"
		return answer{status: 200, code: "-31403", body: []byte(body), header: http.Header{}, ex: &a2a.Exchange{Started: at, DurationMS: 3}}
	}
	never, never2 := mk("e6fcf990", "", now), mk("35751754", "", now)
	foreign := mk("be216183", "", now.Add(time.Second))
	if _, _, bd := sameAsBaseline(foreign, never, never2, "", ""); !bd {
		t.Error("a refusal differing from the never-minted one only in its event id and its own second is not the same body")
	}
	quoting := mk("be216183", " agt-8d75f240aaa25e9a6d9cb049", now)
	if _, _, bd := sameAsBaseline(quoting, never, never2, "", ""); bd {
		t.Error("a refusal quoting R reads as the never-minted body")
	}
	old := mk("be216183", "", now)
	old.body = []byte(strings.Replace(string(old.body), now.Format(time.RFC3339), "2026-01-02T03:04:05Z", 1))
	if _, _, bd := sameAsBaseline(old, never, never2, "", ""); bd {
		t.Error("a timestamp far from the exchange (an install date) is not compared")
	}
}

// TestRestrictedRefusalAgainstItsBaseline: AC-D.6b accepts, for A-restricted, the refusal of an R outside its
// inventory; on a2a-go v2 streams that refusal carries a fresh SSE event id each time, so it is recognised against
// a second identical never-minted request, not byte for byte.
func TestRestrictedRefusalAgainstItsBaseline(t *testing.T) {
	mk := func(id string) answer {
		return answer{status: 200, code: "-32602", body: []byte("id: " + id + "\ndata: {\"jsonrpc\":\"2.0\",\"id\":\"extconf-ac-probe\",\"error\":{\"code\":-32602,\"message\":\"unknown tenant\"}}\n\n")}
	}
	a, n, n2 := mk("ae3dc83a"), mk("0b1c2d3e"), mk("77aa0c1f")
	if _, _, bd := same(a, n); bd {
		t.Fatal("the fixture's bodies are byte-identical: the test shows nothing")
	}
	if st, cd, bd := sameAsBaseline(a, n, n2, "agt-94780557ee584d65fa47abd2", "agt-1f2e3d4c5b6a798812345678"); !st || !cd || !bd {
		t.Errorf("the never-minted refusal with another event id is not recognised: %v %v %v", st, cd, bd)
	}
}
