package agentcards

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/extconf/extconf/harness"
)

func registerPublic(s *session, spec specFn) {
	noR := func(w *harness.W, row string) {
		if _, ok := principalFor(s.cfg(), roleA); !ok {
			w.Blocked(blockedPrincipal(roleA)) // its Rs are the ones to look for; config check predicts it so
		}
		cards := s.publicCards(w, row)
		known := map[string]string{}
		for _, r := range []string{roleA, roleB} {
			if _, ok := principalFor(s.cfg(), r); ok {
				for _, v := range s.needListing(w, row, r, r == roleA).rs() {
					known[v] = "an a2aTenant principal " + r + " reads from GET /agents"
				}
			}
		}
		for _, k := range []string{"unapproved", "uninstalled"} {
			for _, v := range input(s.cfg(), "foreign-r:"+k) {
				known[v] = "the operator's " + k + " agent's R"
			}
		}
		keys := make([]string, 0, len(known))
		for k := range known {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, pc := range cards {
			w.Control(pc.raw != nil && len(keys) > 0, "the public card at "+pc.url+" was fetched and the harness holds routing values to look for", fmt.Sprintf("%d routing values", len(keys)), pc.ex)
			var c struct {
				SupportedInterfaces []struct {
					Tenant string `json:"tenant"`
				} `json:"supportedInterfaces"`
			}
			_ = json.Unmarshal(pc.raw, &c)
			for i, in := range c.SupportedInterfaces {
				_, isR := known[in.Tenant]
				w.Negative(!isR, fmt.Sprintf("supportedInterfaces[%d].tenant of the public card at %s is no routing value", i, pc.url), fmt.Sprintf("tenant %q is %s", in.Tenant, known[in.Tenant]), pc.ex)
			}
			strs := jsonStrings(pc.raw)
			for _, r := range keys {
				hit, unsure := listsR(strs, r)
				if hit == "" && unsure != "" {
					w.Blocked(fmt.Sprintf("the public card at %s holds %q as a whole token in %q: the routing value %q (%s) is too short, or too word-like, to tell a listing from chance (RFC 0202 §D.8)", pc.url, r, clip(unsure, 160), r, known[r]))
				}
				w.Negative(hit == "", fmt.Sprintf("no string of the public card at %s is or contains the routing value %q (%s)", pc.url, r, known[r]), fmt.Sprintf("found in %q", clip(hit, 160)), pc.ex)
			}
		}
	}
	spec("AC-D.8", "the unauthenticated card at agentCardUrl lists no R", noR)
	spec("AC-V2.7", "the public card at agentCardUrl lists no R (interop.md)", noR)

	spec("AC-INV.1a", "a per-agent card discloses no agent outside the caller's inventory", func(w *harness.W, row string) {
		_, _, _, ifs := s.needCard(w, row)
		if _, ok := principalFor(s.cfg(), roleB); !ok {
			w.Blocked(blockedPrincipal(roleB))
		}
		lA := s.needListing(w, row, roleA, true)
		lB := s.needListing(w, row, roleB, false)
		var needles []string
		personas := map[string]bool{}
		for _, e := range lA.entries {
			personas[e.Persona] = true
		}
		var sample entry
		for _, e := range lB.entries {
			if _, inA := lA.byID(e.AgentID); inA {
				continue
			}
			needles = append(needles, e.AgentID)
			if e.HasR && e.R != "" {
				needles = append(needles, e.R)
				if sample.AgentID == "" {
					sample = e
				}
			}
			if len(e.Persona) >= 8 && !personas[e.Persona] {
				needles = append(needles, e.Persona)
			}
		}
		if sample.AgentID == "" {
			w.Blocked("tenant B's inventory (GET /agents as B) lists no agent with an a2aTenant that A's inventory lacks; install an agent in tenant B only")
		}
		f := s.bCard(w, ifs, sample)
		w.Control(f.raw != nil, "B's GetExtendedAgentCard with its R returns the card of its own agent "+sample.AgentID, f.failed, f.ex)
		for _, c := range s.needAgentCards(w, row, ifs) {
			for b, card := range c.all() {
				strs := jsonStrings(card.raw)
				for _, n := range needles {
					hit := ""
					for _, v := range strs {
						if strings.Contains(v, n) {
							hit = v
							break
						}
					}
					w.Negative(hit == "", fmt.Sprintf("the card of %s (%s), as A, names no agent only tenant B holds (%q)", c.entry.AgentID, b, n), fmt.Sprintf("found in %q", clip(hit, 200)), card.ex)
				}
			}
		}
	})
}

// listsR finds the routing value r in the public card's strings (§D.8 "MUST NOT list any R"): a string equal to
// it, one containing it (r of 8 characters or more), or one holding it as a whole token, bounded by characters
// outside the a2aTenant alphabet ("…/a2a/ag-7f3c"): a listing when r has 4 characters or more with a digit (minted,
// not a word); otherwise unsure, returned so the row blocks quoting it.
func listsR(strs []string, r string) (hit, unsure string) {
	for _, v := range strs {
		if v == r || len(r) >= 8 && strings.Contains(v, r) {
			return v, ""
		}
		if unsure == "" && tokenIn(v, r) {
			if len(r) >= 4 && strings.ContainsAny(r, "0123456789") {
				return v, ""
			}
			unsure = v
		}
	}
	return "", unsure
}

// tokenIn reports r in v bounded on both sides by the start, the end, or a character outside ^[A-Za-z0-9._~-]$.
func tokenIn(v, r string) bool {
	in := func(c byte) bool {
		return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || strings.IndexByte("._~-", c) >= 0
	}
	for i := 0; i+len(r) <= len(v); i++ {
		j := strings.Index(v[i:], r)
		if j < 0 {
			return false
		}
		i += j
		if (i == 0 || !in(v[i-1])) && (i+len(r) == len(v) || !in(v[i+len(r)])) {
			return true
		}
	}
	return false
}
