package agentcards

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
)

// foreignSets are the foreign routing values compared with the never-minted one: tenant B's (required) and the
// operator's unapproved and uninstalled ones (optional).
func (s *session) needForeign(w *harness.W, row string) (ifaces, []string) {
	ifs := s.needProbes(w, row)
	if _, ok := principalFor(s.cfg(), roleB); !ok {
		w.Blocked(blockedPrincipal(roleB))
	}
	lA := s.listing(w.Ctx(), roleA)
	s.needListing(w, row, roleB, true)
	fb := s.foreignB(w.Ctx())
	if !fb.ok {
		w.Blocked(fb.reason)
	}
	f := s.bCard(w, ifs, fb.entry)
	w.Control(f.raw != nil, fmt.Sprintf("B's GetExtendedAgentCard with its R %q returns the card of %s: the agent exists", fb.entry.R, fb.entry.AgentID), f.failed, f.ex)
	_, listed := lA.byID(fb.entry.AgentID)
	w.Control(!listed && !contains(lA.rs(), fb.entry.R), "A's GET /agents does not list "+fb.entry.AgentID+" nor its R", "listed", lA.ex)
	s.controlRMatters(w, row, ifs)
	sets := []string{"foreign:B"}
	for _, k := range []string{"unapproved", "uninstalled"} {
		if len(input(s.cfg(), "foreign-r:"+k)) > 0 {
			sets = append(sets, "foreign:"+k)
		}
	}
	return ifs, sets
}

func (s *session) bCard(w *harness.W, ifs ifaces, e entry) fetched {
	return memo(s, "b-card", func() fetched {
		c, _ := s.client(roleB)
		if ifs.rpc != "" {
			return getCardRPC(w.Ctx(), c, ifs.rpc, e.R, "positive control: B's card of its own agent "+e.AgentID)
		}
		return getCardREST(w.Ctx(), c, ifs.rest, e.R, "positive control: B's card of its own agent "+e.AgentID)
	})
}

var foreignLabel = map[string]string{"foreign:B": "tenant B's R", "foreign:unapproved": "an unapproved agent's R", "foreign:uninstalled": "an uninstalled agent's R"}

func registerRefusal(s *session, spec specFn) {
	// compare grades each foreign R against the never-minted one; withHeaders also compares the response headers
	// apart from the per-response ones (perResponse, and those the never-minted baseline shows varying).
	// literal keeps R in the body comparison (§D.7c: a refusal quoting R differs) and skips only what two identical
	// never-minted requests differ in; otherwise R itself is not compared either (sameAsBaseline).
	compare := func(what string, withHeaders, literal bool, ok func(st, cd, bd bool) bool) func(w *harness.W, row string) {
		return func(w *harness.W, row string) {
			ifs, sets := s.needForeign(w, row)
			never := s.answers(w.Ctx(), ifs, "never")
			never2 := s.answers(w.Ctx(), ifs, "never2")
			rn := s.rOf(w.Ctx(), ifs, "never")
			defer untested(w, ifs)
			for _, set := range sets {
				got := s.answers(w.Ctx(), ifs, set)
				rs := s.rOf(w.Ctx(), ifs, set)
				for _, l := range legs(ifs) {
					st, cd, bd := same(got[l], never[l])
					if literal && !bd {
						// "the same body" of a never-minted R: what two identical never-minted requests already
						// differ in (an SSE event id, a timestamp) is no body of its own; R is still compared, so
						// a refusal quoting R differs (README, reading 16).
						_, _, bd = sameAsBaseline(got[l], never[l], never2[l], "", "")
					}
					if !literal {
						st, cd, bd = sameAsBaseline(got[l], never[l], never2[l], rs, rn)
					}
					good, diff := ok(st, cd, bd), ""
					if good && withHeaders {
						good, diff = sameHeaders(got[l], never[l], volatile(never[l], never2[l]))
					}
					w.Negative(good, fmt.Sprintf("as A, %s with %s gets the %s it gets with a never-minted R", l, foreignLabel[set], what),
						fmt.Sprintf("%s: %s | never-minted R: %s %s", foreignLabel[set], got[l].describe(), never[l].describe(), diff), got[l].ex)
				}
			}
		}
	}
	spec("AC-D.7a", "every operation answers an R outside the caller's inventory with the HTTP status of a never-minted R", compare("same HTTP status", false, true, func(st, _, _ bool) bool { return st }))
	spec("AC-D.7b", "every operation answers an R outside the caller's inventory with the error code of a never-minted R", compare("same error code", false, true, func(_, cd, _ bool) bool { return cd }))
	spec("AC-D.7c", "every operation answers an R outside the caller's inventory with the body of a never-minted R, byte for byte", compare("same body, byte for byte apart from what two identical never-minted requests differ in", false, true, func(_, _, bd bool) bool { return bd }))
	spec("AC-V2.6", "every operation returns for an R outside the caller's inventory what it returns for a never-minted R (interop.md)", compare("same status, headers and body (apart from what two never-minted requests differ in)", true, false, func(st, _, bd bool) bool { return st && bd }))

	spec("AC-INV.1b", "no operation addressed by R discloses whether an agent outside the caller's inventory exists, authenticated or not", func(w *harness.W, row string) {
		ifs := s.needProbes(w, row)
		defer untested(w, ifs)
		compare("same refusal (status, code, headers, body, apart from what two never-minted requests differ in)", true, false, func(st, cd, bd bool) bool { return st && cd && bd })(w, row)
		a, n, n2 := s.answers(w.Ctx(), ifs, "unauth:B"), s.answers(w.Ctx(), ifs, "unauth:never"), s.answers(w.Ctx(), ifs, "unauth:never2")
		rb, rn := s.rOf(w.Ctx(), ifs, "unauth:B"), s.rOf(w.Ctx(), ifs, "unauth:never")
		for _, l := range legs(ifs) {
			st, cd, bd := sameAsBaseline(a[l], n[l], n2[l], rb, rn)
			good, diff := st && cd && bd, ""
			if good {
				good, diff = sameHeaders(a[l], n[l], volatile(n[l], n2[l]))
			}
			w.Negative(good, fmt.Sprintf("without credentials, %s with tenant B's R gets the refusal a never-minted R gets (status, code, headers, body)", l),
				fmt.Sprintf("tenant B's R: %s | never-minted R: %s %s", a[l].describe(), n[l].describe(), diff), a[l].ex)
		}
	})
}

func rpcOutcome(resp *a2a.RPCResponse, err error) string {
	switch {
	case err != nil:
		return err.Error()
	case resp == nil:
		return "no response"
	case resp.Error != nil:
		return fmt.Sprintf("JSON-RPC error %d %q", resp.Error.Code, resp.Error.Message)
	}
	return "result " + clip(string(resp.Result), 200)
}

func listTasks(ctx context.Context, c *a2a.Client, u, tenant, note string) ([]string, *a2a.Exchange) {
	raw, _, ex, err := c.ListTasks(ctx, u, map[string]any{"tenant": tenant}, a2a.Call{Note: note})
	if err != nil {
		return nil, ex
	}
	var res struct {
		Tasks []struct {
			ID string `json:"id"`
		} `json:"tasks"`
	}
	_ = json.Unmarshal(raw, &res)
	var ids []string
	for _, t := range res.Tasks {
		ids = append(ids, t.ID)
	}
	return ids, ex
}
