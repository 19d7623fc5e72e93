package schemaiface

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	sifx "github.com/extconf/extconf/fixtures/schemaiface"
	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/sabotage"
)

func sendData(t *testing.T, cl *a2a.Client, url string, data any, stream bool) (*a2a.Task, []a2a.StreamEvent) {
	t.Helper()
	req := a2a.SendMessageRequest{Message: a2a.Message{MessageID: "m1", Role: a2a.RoleUser, Parts: []a2a.Part{a2a.DataPart(data)}, Extensions: []string{URI}}}
	call := a2a.Call{Extensions: []string{URI}}
	if stream {
		evs, _, ex, err := cl.SendStreamingMessage(context.Background(), url, req, call)
		if err != nil {
			t.Fatalf("%v: %s", err, ex.ResponseBody)
		}
		return nil, evs
	}
	res, resp, ex, err := cl.SendMessage(context.Background(), url, req, call)
	if err != nil || resp.Error != nil || res.Task == nil {
		t.Fatalf("%v %+v: %s", err, resp, ex.ResponseBody)
	}
	return res.Task, nil
}

// A smoke test of the wire mapping: describe_skill returns the example document; the example invocation
// completes with the example's result and record, synchronously and streamed.
func TestWireExample(t *testing.T) {
	roles, cfg, stop, err := Start(sabotage.Set{})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	cl := a2a.NewClient(a2a.Options{RootCAs: testpki.CAPool()}).WithHeader("Authorization", cfg.Principals["A"].Value)
	card, _, err := cl.FetchCard(context.Background(), roles["schema-interface"], a2a.Call{})
	if err != nil {
		t.Fatal(err)
	}
	url := card.SupportedInterfaces[0].URL
	task, _ := sendData(t, cl, url, map[string]any{"skill": "describe_skill", "arguments": map[string]any{"skill_id": skillEvaluate}}, false)
	if task.Status.State != a2a.StateCompleted || len(task.Artifacts) != 1 || task.Artifacts[0].Name != "describe_skill" {
		t.Fatalf("describe task %+v", task)
	}
	if !strings.Contains(string(task.Artifacts[0].Parts[0].Data), sifx.ExampleInterfaceDigest) {
		t.Fatalf("describe result lacks the example digest: %s", task.Artifacts[0].Parts[0].Data)
	}
	var req map[string]any
	_ = json.Unmarshal(sifx.Example("request"), &req)
	task, _ = sendData(t, cl, url, req, false)
	if task.Status.State != a2a.StateCompleted || len(task.Artifacts) != 2 {
		b, _ := json.Marshal(task)
		t.Fatalf("invocation task %s", b)
	}
	_, evs := sendData(t, cl, url, req, true)
	if len(evs) != 5 || evs[4].StatusUpdate == nil || evs[4].StatusUpdate.Status.State != a2a.StateCompleted {
		b, _ := json.Marshal(evs)
		t.Fatalf("stream %s", b)
	}
	req["interface_digest"] = "sha256:" + strings.Repeat("0", 64)
	task, _ = sendData(t, cl, url, req, false)
	if task.Status.State != a2a.StateRejected || !strings.Contains(string(task.Status.Message.Parts[0].Data), "interface_mismatch") {
		b, _ := json.Marshal(task)
		t.Fatalf("mismatch task %s", b)
	}
}
