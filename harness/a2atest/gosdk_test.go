package a2atest_test

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"io"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2aclient"
	"github.com/a2aproject/a2a-go/v2/a2aclient/agentcard"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/mockagents"
	"github.com/extconf/extconf/sabotage"
)

// The official Go SDK's client (a2a-go/v2) is an independent reader of the core's wire format: it resolves the card,
// then sends, reads back and streams over each binding. (The JavaScript SDK does the same in interop/.) The echo
// card has no securityRequirements; the reference agents' real cards are TestGoSDKClientReferenceCards's.
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

// goSDKSecurityRequirementsBug is upstream issue a2aproject/a2a-go#430: a2a-go/v2 v2.3.1 rejects a card whose
// securityRequirements (on the card or on a skill) use the proto-JSON form {"schemes": {"bearer": {"list": []}}} (and the equivalent
// {"schemes": {"bearer": {}}}), which A2A 1.0 defines; the cards are right.
const goSDKSecurityRequirementsBug = "a2aproject/a2a-go#430"

// The official Go SDK against every reference agent's real card (all five documents, clean agents): a card with
// securityRequirements must still fail to resolve (the upstream bug above; when it stops failing, the SDK has been
// fixed: update this test and the README's interoperability lines). Every other card resolves, and the SDK then
// sends a message over each binding (JSON-RPC and HTTP+JSON), reads back the task it created (or gets a Message
// carrying a contextId), and streams when the card offers it.
func TestGoSDKClientReferenceCards(t *testing.T) {
	tgt, err := mockagents.Start(sabotage.Set{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tgt.Close() })
	hc := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: tgt.RootCAs}}}

	byURL := map[string][]string{} // card URL → roles (several roles can share one agent)
	for role, u := range tgt.Agents {
		if strings.HasSuffix(u, a2a.CardPath) {
			byURL[u] = append(byURL[u], role)
		}
	}
	urls := make([]string, 0, len(byURL))
	for u := range byURL {
		sort.Strings(byURL[u])
		urls = append(urls, u)
	}
	sort.Strings(urls)
	if len(urls) < 5 {
		t.Fatalf("only %d reference cards: %v", len(urls), byURL)
	}
	var rejected, resolved []string
	for _, u := range urls {
		name := strings.Join(byURL[u], "+")
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			res, err := hc.Get(u)
			if err != nil {
				t.Fatal(err)
			}
			raw, _ := io.ReadAll(res.Body)
			res.Body.Close()
			var top struct {
				SecurityRequirements []json.RawMessage `json:"securityRequirements"`
				Skills               []struct {
					SecurityRequirements []json.RawMessage `json:"securityRequirements"`
				} `json:"skills"`
			}
			if err := json.Unmarshal(raw, &top); err != nil || res.StatusCode != 200 {
				t.Fatalf("card %s: %d %v", u, res.StatusCode, err)
			}
			withReqs := len(top.SecurityRequirements) > 0 // on the card or on a skill
			for _, sk := range top.Skills {
				withReqs = withReqs || len(sk.SecurityRequirements) > 0
			}
			card, err := agentcard.NewResolver(hc).Resolve(ctx, strings.TrimSuffix(u, a2a.CardPath))
			if withReqs {
				if err == nil {
					t.Fatalf("the Go SDK now reads a card with securityRequirements: upstream %s looks fixed; "+
						"update this test and the README's interoperability lines", goSDKSecurityRequirementsBug)
				}
				t.Logf("known upstream bug %s: %v", goSDKSecurityRequirementsBug, err)
				rejected = append(rejected, name)
				return
			}
			if err != nil {
				t.Fatalf("resolve %s: %v", u, err)
			}
			resolved = append(resolved, name)
			for _, binding := range []sdk.TransportProtocol{sdk.TransportProtocolJSONRPC, sdk.TransportProtocolHTTPJSON} {
				client, err := a2aclient.NewFromCard(ctx, card,
					a2aclient.WithJSONRPCTransport(hc), a2aclient.WithRESTTransport(hc),
					a2aclient.WithConfig(a2aclient.Config{PreferredTransports: []sdk.TransportProtocol{binding}}))
				if err != nil {
					t.Fatalf("%s: %v", binding, err)
				}
				sent, err := client.SendMessage(ctx, &sdk.SendMessageRequest{Message: sdk.NewMessage(sdk.MessageRoleUser, sdk.NewTextPart("hello"))})
				if err != nil {
					t.Fatalf("%s SendMessage: %v", binding, err)
				}
				switch r := sent.(type) {
				case *sdk.Task:
					got, err := client.GetTask(ctx, &sdk.GetTaskRequest{ID: r.ID})
					if err != nil || got.ID != r.ID || got.ContextID != r.ContextID || got.ContextID == "" {
						t.Fatalf("%s GetTask: %v %#v", binding, err, got)
					}
				case *sdk.Message:
					if r.ContextID == "" || r.Role != sdk.MessageRoleAgent {
						t.Fatalf("%s SendMessage reply Message without contextId or agent role: %#v", binding, r)
					}
				default:
					t.Fatalf("%s SendMessage result %#v", binding, sent)
				}
				if _, err := client.GetTask(ctx, &sdk.GetTaskRequest{ID: "no-such-task"}); err == nil {
					t.Fatalf("%s GetTask of a missing task succeeded", binding)
				}
				if !card.Capabilities.Streaming {
					continue
				}
				n := 0
				for _, err := range client.SendStreamingMessage(ctx, &sdk.SendMessageRequest{Message: sdk.NewMessage(sdk.MessageRoleUser, sdk.NewTextPart("hello"))}) {
					if err != nil {
						t.Fatalf("%s stream: %v", binding, err)
					}
					n++
				}
				if n == 0 {
					t.Fatalf("%s stream: no events", binding)
				}
			}
		})
	}
	t.Logf("Go SDK: resolved %v; rejected (upstream %s) %v", resolved, goSDKSecurityRequirementsBug, rejected)
	if len(resolved) == 0 || len(rejected) == 0 {
		t.Fatalf("resolved %v, rejected %v: expected both kinds among the reference cards", resolved, rejected)
	}
}
