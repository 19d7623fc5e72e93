package a2atest_test

import (
	"context"
	"sync"
	"testing"
	"time"

	sdk "github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"

	"github.com/extconf/extconf/harness/a2atest"
)

// The official Go SDK's client (a2a-go/v2) is an independent reader of the core's wire format: it resolves the card,
// then sends, reads back and streams over each binding. (The JavaScript SDK does the same in interop/.)
func TestGoSDKClientInterop(t *testing.T) {
	seen := map[string]bool{}
	var mu sync.Mutex
	s := start(t, a2atest.Agent{Before: func(c *a2atest.Ctx) *a2atest.Reply {
		mu.Lock()
		defer mu.Unlock()
		seen[c.Binding+" "+c.Method] = true
		return nil
	}})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	card, err := agentcard.NewResolver(httpClient).Resolve(ctx, s.URL())
	if err != nil {
		t.Fatalf("resolve card: %v", err)
	}
	for _, binding := range []sdk.TransportProtocol{sdk.TransportProtocolJSONRPC, sdk.TransportProtocolHTTPJSON} {
		t.Run(string(binding), func(t *testing.T) {
			client, err := a2aclient.NewFromCard(ctx, card,
				a2aclient.WithJSONRPCTransport(httpClient), a2aclient.WithRESTTransport(httpClient),
				a2aclient.WithConfig(a2aclient.Config{PreferredTransports: []sdk.TransportProtocol{binding}}))
			if err != nil {
				t.Fatal(err)
			}
			res, err := client.SendMessage(ctx, &sdk.SendMessageRequest{Message: sdk.NewMessage(sdk.MessageRoleUser, sdk.NewTextPart("hi "+string(binding)))})
			if err != nil {
				t.Fatalf("SendMessage: %v", err)
			}
			task, ok := res.(*sdk.Task)
			if !ok || task.Status.State != sdk.TaskStateCompleted || len(task.Artifacts) != 1 || task.Artifacts[0].Parts[0].Text() != "hi "+string(binding) {
				t.Fatalf("SendMessage result %#v", res)
			}
			got, err := client.GetTask(ctx, &sdk.GetTaskRequest{ID: task.ID})
			if err != nil || got.ID != task.ID || got.Status.Timestamp == nil {
				t.Fatalf("GetTask: %v %#v", err, got)
			}
			if _, err := client.GetTask(ctx, &sdk.GetTaskRequest{ID: "missing"}); err == nil {
				t.Fatal("GetTask of a missing task succeeded")
			}
			list, err := client.ListTasks(ctx, &sdk.ListTasksRequest{})
			if err != nil || len(list.Tasks) == 0 {
				t.Fatalf("ListTasks: %v %#v", err, list)
			}
			var kinds []string
			for ev, err := range client.SendStreamingMessage(ctx, &sdk.SendMessageRequest{Message: sdk.NewMessage(sdk.MessageRoleUser, sdk.NewTextPart("s"))}) {
				if err != nil {
					t.Fatalf("stream: %v", err)
				}
				switch e := ev.(type) {
				case *sdk.Task:
					kinds = append(kinds, "task")
				case *sdk.TaskArtifactUpdateEvent:
					kinds = append(kinds, "artifact")
				case *sdk.TaskStatusUpdateEvent:
					kinds = append(kinds, string(e.Status.State))
				}
			}
			if len(kinds) != 3 || kinds[0] != "task" || kinds[1] != "artifact" || kinds[2] != string(sdk.TaskStateCompleted) {
				t.Fatalf("stream events %v", kinds)
			}
			mu.Lock()
			defer mu.Unlock()
			for _, m := range []string{"SendMessage", "GetTask", "ListTasks", "SendStreamingMessage"} {
				if !seen[string(binding)+" "+m] {
					t.Fatalf("%s did not reach the core over %s (seen %v)", m, binding, seen)
				}
			}
		})
	}
}
