package agentcards

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strings"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
)

func registerAuth(s *session, spec specFn) {
	unauthenticated := func(w *harness.W, row string) {
		ifs := s.needProbes(w, row)
		defer untested(w, ifs)
		ctrl := s.answers(w.Ctx(), ifs, "ctrl")
		for _, l := range legs(ifs) {
			w.Control(ctrl[l].ex != nil && !ctrl[l].authRefused(), fmt.Sprintf("%s with A's credentials and A's own R is not refused as unauthenticated", l), ctrl[l].describe(), ctrl[l].ex)
			for _, sw := range [][2]string{{"unauth:A", "without credentials"}, {"bad:A", "with a credential the host never issued"}} {
				set, who := sw[0], sw[1]
				a := s.answers(w.Ctx(), ifs, set)[l]
				if notRouted(a, ctrl[l]) {
					// The binding routes no such operation for anyone: it resolves no R and serves nothing, which is
					// what §D.6 guards (README, reading on unrouted operations).
					w.Negative(true, fmt.Sprintf("%s carrying A's R %s is refused as unauthenticated, or not routed at all", l, who),
						fmt.Sprintf("not routed: %s, the same with A's credentials (%s)", a.describe(), ctrl[l].describe()), a.ex)
					continue
				}
				w.Negative(a.authRefused(), fmt.Sprintf("%s carrying A's R %s is refused as unauthenticated (HTTP 401 or 403) and answered with no card and no result", l, who),
					a.describe(), a.ex)
			}
		}
	}
	spec("AC-D.6a", "a request carrying R without valid credentials is refused as unauthenticated on every operation and binding", unauthenticated)
	spec("AC-V2.5a", "a request carrying R is authenticated: without valid credentials it is refused, never served (interop.md)", unauthenticated)

	authorized := func(w *harness.W, row string) {
		ifs := s.needProbes(w, row)
		defer untested(w, ifs)
		_, ok := principalFor(s.cfg(), roleRestricted)
		w.NeedStated("principals.A-restricted", ok, blockedPrincipal(roleRestricted))
		st := s.setup(w.Ctx(), ifs)
		agentURL := strings.TrimRight(s.inventoryURL(), "/") + "/" + url.PathEscape(st.primary.AgentID)
		cA, _ := s.client(roleA)
		cR, _ := s.client(roleRestricted)
		getA := memo(s, "get-agent:A", func() *a2a.Exchange {
			ex, _ := cA.HTTP(w.Ctx(), "GET", agentURL, nil, a2a.Call{Note: "GET /agents/{agentId} as A"})
			return ex
		})
		getR := memo(s, "get-agent:restricted", func() *a2a.Exchange {
			ex, _ := cR.HTTP(w.Ctx(), "GET", agentURL, nil, a2a.Call{Note: "GET /agents/{agentId} as A-restricted"})
			return ex
		})
		if getR != nil && getR.Status == 200 {
			w.Blocked("the configured principal A-restricted is served by GET /agents/" + st.primary.AgentID + " (" + getR.ID + "): it cannot show a policy difference; configure a principal that endpoint refuses")
		}
		w.Control(getA != nil && getA.Status == 200, "GET /agents/"+st.primary.AgentID+" serves A", statusOf(getA), getA)
		w.Control(getR != nil && getR.Status != 200, "GET /agents/"+st.primary.AgentID+" refuses A-restricted", statusOf(getR), getR)
		ctrl := s.answers(w.Ctx(), ifs, "ctrl")
		restricted, restrictedNever := s.answers(w.Ctx(), ifs, "restricted:A"), s.answers(w.Ctx(), ifs, "restricted:never")
		// The refusal of an R outside the inventory is recognised against its own baseline (what two identical
		// never-minted requests differ in: an SSE event id, a timestamp), as §D.6c's is (README, reading 4).
		restrictedNever2 := s.answers(w.Ctx(), ifs, "restricted:never2")
		rR, rn := s.rOf(w.Ctx(), ifs, "restricted:A"), s.rOf(w.Ctx(), ifs, "restricted:never")
		for _, l := range legs(ifs) {
			w.Check(ctrl[l].ex != nil && !ctrl[l].authRefused(), fmt.Sprintf("%s carrying R is served for A, whom GET /agents/{agentId} serves", l), ctrl[l].describe(), ctrl[l].ex)
			a, n := restricted[l], restrictedNever[l]
			st, cd, bd := sameAsBaseline(a, n, restrictedNever2[l], rR, rn)
			refused := !a.result && (a.authRefused() || st && cd && bd)
			w.Negative(refused, fmt.Sprintf("%s carrying A's R is refused for A-restricted, whom GET /agents/{agentId} refuses (an authorization refusal, or the refusal of an R outside its inventory)", l),
				fmt.Sprintf("A-restricted with R: %s | with a never-minted R: %s", a.describe(), n.describe()), a.ex)
		}
	}
	spec("AC-D.6b", "a request carrying R is authorized under GET /agents/{agentId}'s policy: refused for a principal it refuses, served for one it serves", authorized)
	spec("AC-V2.5b", "a request carrying R is authorized as GET /agents/{agentId} is (interop.md)", authorized)

	before := func(w *harness.W, row string) {
		ifs := s.needProbes(w, row)
		defer untested(w, ifs)
		s.controlRMatters(w, row, ifs)
		rA, rn := s.rOf(w.Ctx(), ifs, "unauth:A"), s.rOf(w.Ctx(), ifs, "unauth:never")
		for _, l := range legs(ifs) {
			for _, sets := range [][3]string{{"unauth:A", "unauth:never", "unauth:never2"}, {"bad:A", "bad:never", "bad:never2"}} {
				a, n, n2 := s.answers(w.Ctx(), ifs, sets[0])[l], s.answers(w.Ctx(), ifs, sets[1])[l], s.answers(w.Ctx(), ifs, sets[2])[l]
				st, cd, bd := sameAsBaseline(a, n, n2, rA, rn)
				w.Negative(st && cd && bd, fmt.Sprintf("%s without valid credentials (%s): a minted R and a never-minted R get the same refusal (status, code, body apart from R itself and what two identical never-minted requests differ in)", l, sets[0]),
					fmt.Sprintf("minted R: %s | never-minted R: %s | never-minted again: %s", a.describe(), n.describe(), n2.describe()), a.ex)
			}
		}
	}
	spec("AC-D.6c", "authentication precedes resolution: unauthenticated requests with a minted and a never-minted R get identical refusals", before)
	spec("AC-V2.5c", "authentication precedes resolution of R (interop.md)", before)
}

var tenantPattern = regexp.MustCompile(`^[A-Za-z0-9._~-]+$`)

func showRaw(r json.RawMessage) string {
	if len(r) == 0 {
		return "absent"
	}
	return clip(string(r), 120)
}

func jsonOfFields(f map[string]json.RawMessage) []byte {
	b, _ := json.Marshal(f)
	return b
}

func statusOf(ex *a2a.Exchange) string {
	if ex == nil {
		return "no exchange"
	}
	return fmt.Sprintf("HTTP %d %s", ex.Status, clip(string(ex.ResponseBody), 160))
}

// notRouted reports an operation the binding does not route for anyone: the answer without valid credentials is
// the answer with them (same status and code, no result), and it says "no such route" (HTTP 404, 405 or 501, or
// JSON-RPC method not found).
func notRouted(a, withCreds answer) bool {
	if a.result || withCreds.result || a.status != withCreds.status || a.code != withCreds.code {
		return false
	}
	switch {
	case a.status == http.StatusNotFound, a.status == http.StatusMethodNotAllowed, a.status == http.StatusNotImplemented:
		return true
	case a.code == "-32601", a.code == "METHOD_NOT_FOUND", a.code == "UNIMPLEMENTED":
		return true
	}
	return false
}
