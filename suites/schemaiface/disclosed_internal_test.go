package schemaiface

import (
	"testing"

	"github.com/extconf/extconf/harness/a2a"
)

// TestDisclosedIgnoresTheCallersOwnMessage: the caller's own Message carried back in Task.history is not a
// disclosure (SI-9.57b–d); the same value in the error, in an agent Message, in another caller-role Message or in
// a stream's events is.
func TestDisclosedIgnoresTheCallersOwnMessage(t *testing.T) {
	const canary = "CHG-4471 approved by J. Doe"
	req := []byte(`{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{"message":{"messageId":"m-1","role":"ROLE_USER","parts":[{"data":{"arguments":{"reason":"` + canary + `"}}}]}}}`)
	own := `{"messageId":"m-1","role":"ROLE_USER","taskId":"t","parts":[{"data":{"arguments":{"reason":"` + canary + `"}}}]}`
	task := func(history, status string) []byte {
		return []byte(`{"jsonrpc":"2.0","id":1,"result":{"task":{"id":"t","history":[` + history + `],"status":{"state":"TASK_STATE_REJECTED","message":{"messageId":"a","role":"ROLE_AGENT","parts":[{"data":{"error":{"code":"input_invalid","message":"` + status + `"}}}]}}}}}`)
	}
	for _, c := range []struct {
		name string
		ex   a2a.Exchange
		want bool
	}{
		{"own message echoed in history", a2a.Exchange{RequestBody: req, ResponseBody: task(own, "invalid")}, false},
		{"echoed in the error message", a2a.Exchange{RequestBody: req, ResponseBody: task(own, "bad reason "+canary)}, true},
		{"an agent message in history", a2a.Exchange{RequestBody: req, ResponseBody: task(`{"messageId":"x","role":"ROLE_AGENT","parts":[{"text":"`+canary+`"}]}`, "invalid")}, true},
		{"another caller-role message", a2a.Exchange{RequestBody: req, ResponseBody: task(`{"messageId":"m-2","role":"ROLE_USER","parts":[{"text":"`+canary+`"}]}`, "invalid")}, true},
		{"stream: own message only", a2a.Exchange{RequestBody: req, ResponseBody: []byte("data: ...\n"), Events: [][]byte{task(own, "invalid")}}, false},
		{"stream: echoed in an event", a2a.Exchange{RequestBody: req, Events: [][]byte{task(own, "invalid"), []byte(`{"result":{"statusUpdate":{"status":{"message":{"parts":[{"text":"` + canary + `"}]}}}}}`)}}, true},
		{"not JSON", a2a.Exchange{RequestBody: req, ResponseBody: []byte("refused: " + canary)}, true},
	} {
		if got := disclosed(&c.ex, canary); got != c.want {
			t.Errorf("%s: disclosed %v, want %v", c.name, got, c.want)
		}
	}
}
