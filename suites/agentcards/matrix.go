package agentcards

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/extconf/extconf/harness"
	"net/http"
	"net/url"
	"sync"

	"github.com/extconf/extconf/harness/a2a"
)

// setup is what every operation probe shares: A's primary routing value and a task A created through it, so the
// task-addressed operations name a task that exists for A.
type setup struct {
	primary entry
	taskID  string
	ex      *a2a.Exchange
	failed  string
}

// probeWidth is how many legs of a refused set are probed at once.
const probeWidth = 8

const probeText = "extconf agent-cards probe: please acknowledge this message."

func (s *session) setup(ctx context.Context, ifs ifaces) *setup {
	return memo(s, "setup", func() *setup {
		st := &setup{}
		l := s.listing(ctx, roleA)
		rs := l.withR()
		c, ok := s.client(roleA)
		if !ok || len(rs) == 0 {
			st.failed = "no routing value for principal A"
			return st
		}
		st.primary = rs[0]
		msg := a2a.Message{MessageID: "extconf-ac-setup", Role: a2a.RoleUser, Parts: []a2a.Part{a2a.TextPart(probeText)}}
		req := a2a.SendMessageRequest{Message: msg, Tenant: st.primary.R}
		var res *a2a.SendResult
		var resp *a2a.RPCResponse
		var err error
		// A2A 1.0 §5.2 lets an agent serve any one binding ("Agents MUST declare all supported protocols in their
		// AgentCard"): the setup task is created on JSON-RPC when served, else on HTTP+JSON.
		switch {
		case ifs.rpc != "":
			res, resp, st.ex, err = c.SendMessage(ctx, ifs.rpc, req, a2a.Call{Note: "setup: A creates a task through its own R"})
		case ifs.rest != "":
			res, st.ex, err = restSend(ctx, c, ifs.rest, st.primary.R, msg)
		default:
			st.failed = "no JSON-RPC or HTTP+JSON interface to create the setup task on"
			return st
		}
		switch {
		case err != nil:
			st.failed = err.Error()
		case resp != nil && resp.Error != nil:
			st.failed = fmt.Sprintf("JSON-RPC error %d %q", resp.Error.Code, resp.Error.Message)
		case res == nil || res.Task == nil || res.Task.ID == "":
			// A message reply is legal; the task-addressed probes then use an id no task has.
			st.taskID = "extconf-ac-no-such-task"
		default:
			st.taskID = res.Task.ID
		}
		return st
	})
}

// foreignB is the routing value of an agent only tenant B holds: in B's inventory, absent from A's.
type foreignB struct {
	entry  entry
	ok     bool
	reason string
}

func (s *session) foreignB(ctx context.Context) foreignB {
	return memo(s, "foreign-b", func() foreignB {
		a, b := s.listing(ctx, roleA), s.listing(ctx, roleB)
		if a.err != nil || b.err != nil {
			return foreignB{reason: "the inventories of A and B could not both be read"}
		}
		for _, e := range b.withR() {
			if _, inA := a.byID(e.AgentID); !inA && !contains(a.rs(), e.R) {
				return foreignB{entry: e, ok: true}
			}
		}
		return foreignB{reason: "tenant B's inventory (GET /agents as B) lists no agent with an a2aTenant that A's inventory lacks; install an agent in tenant B only"}
	})
}

// answers probes every operation on every served binding with one caller and one routing value ("set" names
// the combination; see sets below). Pairs that are compared share the message id and the JSON-RPC id, so their
// requests differ in the routing value alone.
func (s *session) answers(ctx context.Context, ifs ifaces, set string) map[leg]answer {
	return memo(s, "answers:"+set, func() map[leg]answer {
		st := s.setup(ctx, ifs)
		c, tenant, ok := s.setFor(ctx, set, st)
		out := map[leg]answer{}
		if !ok {
			return out
		}
		// The control set acts on A's own task (get, cancel, subscribe), so its legs go in order; every other set
		// is refused before anything happens, so its legs are independent and go probeWidth at a time: against
		// an agent far away they would otherwise wait one round trip each.
		width := probeWidth
		if set == "ctrl" {
			width = 1
		}
		var mu sync.Mutex
		var wg sync.WaitGroup
		slots := make(chan struct{}, width)
		for _, b := range ifs.bindings() {
			for _, op := range operations {
				l := leg{b, op}
				msgID := "extconf-ac-" + op
				if set == "ctrl" {
					msgID = "extconf-ac-ctrl-" + op
				}
				req := probeReq{tenant: tenant, taskID: st.taskID, msgID: msgID, text: probeText,
					note: fmt.Sprintf("%s: %s with tenant %s", set, l, tenant)}
				slots <- struct{}{}
				wg.Add(1)
				go func() {
					defer wg.Done()
					a := probe(ctx, c, ifs, l, req)
					mu.Lock()
					out[l] = a
					mu.Unlock()
					<-slots
				}()
			}
		}
		wg.Wait()
		return out
	})
}

// setFor maps a set name to its caller and routing value.
func (s *session) setFor(ctx context.Context, set string, st *setup) (*a2a.Client, string, bool) {
	never := s.neverMinted(ctx)
	rA := st.primary.R
	withRole := func(role, r string) (*a2a.Client, string, bool) {
		c, ok := s.client(role)
		return c, r, ok && r != ""
	}
	switch set {
	case "ctrl":
		return withRole(roleA, rA)
	case "bad:never2":
		return s.badClient(), never, true
	case "never", "never2": // never2: the baseline, the same request again
		return withRole(roleA, never)
	case "unauth:A":
		return s.e.Client, rA, rA != ""
	case "unauth:never", "unauth:never2":
		return s.e.Client, never, true
	case "bad:A":
		return s.badClient(), rA, rA != ""
	case "bad:never":
		return s.badClient(), never, true
	case "restricted:A":
		return withRole(roleRestricted, rA)
	case "restricted:never", "restricted:never2": // never2: D.6b's baseline, the same request again
		return withRole(roleRestricted, never)
	case "foreign:B":
		return withRole(roleA, s.foreignB(ctx).entry.R)
	case "unauth:B":
		r := s.foreignB(ctx).entry.R
		return s.e.Client, r, r != ""
	case "foreign:unapproved", "foreign:uninstalled":
		l := input(s.cfg(), "foreign-r:"+set[len("foreign:"):])
		if len(l) == 0 {
			return nil, "", false
		}
		return withRole(roleA, l[0])
	}
	return nil, "", false
}

// restSend is the setup's SendMessage on the HTTP+JSON binding: POST {base}/{R}/message:send.
func restSend(ctx context.Context, c *a2a.Client, base, r string, msg a2a.Message) (*a2a.SendResult, *a2a.Exchange, error) {
	ex, err := c.REST(ctx, http.MethodPost, base, "/"+url.PathEscape(r)+"/message:send", map[string]any{"message": msg},
		a2a.Call{Note: "setup: A creates a task through its own R (HTTP+JSON)"})
	if err != nil {
		return nil, ex, err
	}
	if ex.Status < 200 || ex.Status > 299 {
		return nil, ex, fmt.Errorf("HTTP+JSON message:send answered %d", ex.Status)
	}
	var res a2a.SendResult
	if err := json.Unmarshal(ex.ResponseBody, &res); err != nil {
		return nil, ex, fmt.Errorf("HTTP+JSON message:send: %w", err)
	}
	return &res, ex, nil
}

// rOf is the routing value a set's requests carry.
func (s *session) rOf(ctx context.Context, ifs ifaces, set string) string {
	_, r, _ := s.setFor(ctx, set, s.setup(ctx, ifs))
	return r
}

// untested ends a row on every operation of every binding (§D.6, §D.7) as blocked when the host's card declares
// a gRPC interface: its legs were not probed (the harness speaks no gRPC), so the row is not complete. Called
// after the legs it could probe were graded, so a failure there still fails the row.
func untested(w *harness.W, ifs ifaces) {
	if len(ifs.grpc) > 0 {
		w.Blocked(fmt.Sprintf("the host card declares gRPC interface(s) %v; §D.6/§D.7 bind every operation on every binding, and the gRPC legs were not tested (the harness speaks JSON-RPC and HTTP+JSON only): the legs graded here passed", ifs.grpc))
	}
}
