package agentcards

import (
	"context"
	"fmt"
	"net/http"
	"net/url"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
)

// registerTenant is §D rule 9 ("R is resolved within the caller's tenant of record", RFC 0208 §C's rule, which
// the RFC's falsifiability list grades as .tenant-of-record): a run A makes through a shared agent's R is not
// served to B through that agent's R.
func registerTenant(s *session, spec specFn) {
	spec("AC-D.9", "a run made through R stays in the caller's tenant of record", func(w *harness.W, row string) {
		w.UnlessAbsent("sharedAgent") // no agent in two inventories: a run has one tenant it can land in
		_, _, _, ifs := s.needCard(w, row)
		if _, ok := principalFor(s.cfg(), roleB); !ok {
			w.Blocked(blockedPrincipal(roleB))
		}
		lA := s.needListing(w, row, roleA, true)
		lB := s.needListing(w, row, roleB, false)
		var eA, eB entry
		for _, a := range lA.withR() {
			if b, ok := lB.byID(a.AgentID); ok && b.HasR && b.R != "" {
				eA, eB = a, b
				break
			}
		}
		w.NeedStated("sharedAgent", eA.AgentID != "", "documents.agent-cards.sharedAgent: no agent is in both A's and B's inventories with an a2aTenant; install one agent in tenant B that A's workspace also holds (host-scoped, or installed in both tenants), so a run made through it has two tenants it could land in")
		cA, _ := s.client(roleA)
		cB, _ := s.client(roleB)
		ctx := w.Ctx()
		msg := a2a.Message{MessageID: "extconf-ac-tenant-of-record", Role: a2a.RoleUser, Parts: []a2a.Part{a2a.TextPart(probeText)}}
		var res *a2a.SendResult
		var ex *a2a.Exchange
		var err error
		if ifs.rpc != "" {
			var resp *a2a.RPCResponse
			res, resp, ex, err = cA.SendMessage(ctx, ifs.rpc, a2a.SendMessageRequest{Message: msg, Tenant: eA.R}, a2a.Call{Note: row + ": A runs " + eA.AgentID + " through its R"})
			if err == nil && resp != nil && resp.Error != nil {
				err = fmt.Errorf("JSON-RPC error %d %q", resp.Error.Code, resp.Error.Message)
			}
		} else {
			res, ex, err = restSend(ctx, cA, ifs.rest, eA.R, msg)
		}
		w.Control(err == nil && res != nil, fmt.Sprintf("A's SendMessage through the R of %s (which B's inventory also lists) is answered", eA.AgentID), fmt.Sprint(err), ex)
		if res.Task == nil || res.Task.ID == "" {
			w.Inapplicable(fmt.Sprintf("SendMessage through the R of %s answered a Message: no run was created, so it has no tenant to land in (%s)", eA.AgentID, ex.ID))
		}
		id := res.Task.ID
		seenA, exA := taskVisible(ctx, cA, ifs, eA.R, id, row+": A reads its own run")
		w.Control(seenA, fmt.Sprintf("A reads its run %s back through the R of %s", id, eA.AgentID), "not served", exA)
		seenB, exB := taskVisible(ctx, cB, ifs, eB.R, id, row+": B asks for A's run")
		w.Negative(!seenB, fmt.Sprintf("B, through its R of %s, is not served A's run %s (GetTask)", eB.AgentID, id), "B was served A's run", exB)
		if ifs.rpc != "" {
			ids, exL := listTasks(ctx, cB, ifs.rpc, eB.R, row+": B lists the runs of "+eB.AgentID)
			w.Negative(!contains(ids, id), fmt.Sprintf("B's ListTasks through its R of %s does not list A's run %s", eB.AgentID, id), fmt.Sprintf("listed %v", ids), exL)
		}
	})
}

// taskVisible reports whether c is served task id through tenant r (JSON-RPC GetTask, else HTTP+JSON
// GET /{r}/tasks/{id}).
func taskVisible(ctx context.Context, c *a2a.Client, ifs ifaces, r, id, note string) (bool, *a2a.Exchange) {
	if ifs.rpc != "" {
		t, resp, ex, err := c.GetTask(ctx, ifs.rpc, id, r, a2a.Call{Note: note})
		return err == nil && (resp == nil || resp.Error == nil) && t != nil && t.ID == id, ex
	}
	ex, err := c.REST(ctx, http.MethodGet, ifs.rest, "/"+url.PathEscape(r)+"/tasks/"+url.PathEscape(id), nil, a2a.Call{Note: note})
	return err == nil && ex != nil && ex.Status >= 200 && ex.Status < 300, ex
}
