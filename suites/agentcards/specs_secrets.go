package agentcards

import (
	"encoding/base64"
	"encoding/json"
	"fmt"

	"github.com/extconf/extconf/harness"
)

func registerSecrets(s *session, spec specFn) {
	kinds := map[string]string{
		"system-prompt":  "system-prompt body",
		"handoff-schema": "resolved handoff schema",
		"credential":     "credential material",
	}
	search := func(w *harness.W, row string, which ...string) {
		_, _, _, ifs := s.needCard(w, row)
		type canary struct{ kind, value string }
		var cs []canary
		for _, k := range which {
			for _, v := range input(s.cfg(), "canary:"+k) {
				if v != "" {
					cs = append(cs, canary{k, v})
				}
			}
		}
		if len(cs) == 0 {
			member := canariesAny
			if len(which) == 1 {
				member = "canaries." + camelKind(which[0])
			}
			w.Need(member, false, "no canary is configured to search per-agent cards for: list strings planted in the agents' secrets")
		}
		for _, c := range s.needAgentCards(w, row, ifs) {
			for b, f := range c.all() {
				for _, cn := range cs {
					planted := plant(f.raw, cn.value)
					found, _ := findCanary(planted, cn.value)
					w.Control(found, fmt.Sprintf("the search finds the %s canary %q when it is planted (plainly and base64) in %s's card", kinds[cn.kind], cn.value, c.entry.AgentID), "not found", nil)
					found, where := findCanary(f.raw, cn.value)
					w.Negative(!found, fmt.Sprintf("the card of %s (%s) carries no %s (canary %q)", c.entry.AgentID, b, kinds[cn.kind], cn.value), "found "+where, f.ex)
				}
			}
		}
	}
	spec("AC-C.5a", "the per-agent card carries no part of the agent's system-prompt body", func(w *harness.W, row string) { search(w, row, "system-prompt") })
	spec("AC-C.5b", "the per-agent card carries none of the agent's resolved handoff schemas", func(w *harness.W, row string) { search(w, row, "handoff-schema") })
	spec("AC-C.5c", "the per-agent card carries no credential material of the agent", func(w *harness.W, row string) { search(w, row, "credential") })
	spec("AC-V2.4", "the per-agent card carries nothing the inventory entry may not carry (SR-1, interop.md)", func(w *harness.W, row string) {
		search(w, row, "system-prompt", "handoff-schema", "credential")
	})
	spec("AC-V2.4b", "degraded[] and memoryDegraded stay on the inventory entry: the card does not replace it", func(w *harness.W, row string) {
		ids := input(s.cfg(), "degraded:"+roleA)
		if len(ids) == 0 {
			w.Need("degraded.A", false, "list agentIds of A's inventory whose agents are degraded (degradation is the host's internal state)")
		}
		l := s.needListing(w, row, roleA, true)
		for _, id := range ids {
			e, ok := l.byID(id)
			w.Control(ok, "A's GET /agents lists the degraded agent "+id, "not listed", l.ex)
			var deg []json.RawMessage
			_ = json.Unmarshal(e.fields["degraded"], &deg)
			mem := string(e.fields["memoryDegraded"]) == "true"
			w.Check(len(deg) > 0 || mem, "the GET /agents entry of "+id+" (degraded, says the operator) still carries degraded[] or memoryDegraded: true",
				fmt.Sprintf("degraded = %s, memoryDegraded = %s", showRaw(e.fields["degraded"]), showRaw(e.fields["memoryDegraded"])), l.ex)
		}
	})
}

// plant returns a copy of a card with canary added as a plain and a base64 string member (the search's control).
func plant(raw []byte, canary string) []byte {
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil || m == nil {
		m = map[string]any{}
	}
	m["extconfPlanted"] = map[string]any{"plain": "x " + canary + " y", "b64": base64.StdEncoding.EncodeToString([]byte(canary))}
	b, _ := json.Marshal(m)
	return b
}
