package agentcards

import (
	"encoding/json"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
)

func registerAdvertisement(s *session, spec specFn) {
	facetCheck := func(w *harness.W, row string, d *discovery) {
		ok, obs := d.facet("a2a", "agentCards", true)
		w.Check(ok, "the v2 discovery document's a2a record carries agentCards: true", obs, d.ex)
	}
	profile := func(w *harness.W, row string) {
		d := s.needDiscovery(w, row)
		facetCheck(w, row, d)
		ok, obs := d.a2a10()
		w.Check(ok, "a host advertising a2a.agentCards offers the a2a-1.0 profile (\"a2a-1.0\" in a2a.profiles or \"1.0\" in a2a.versions)", obs, d.ex)
	}
	runtime := func(w *harness.W, row string) {
		d := s.needDiscovery(w, row)
		facetCheck(w, row, d)
		ok, obs := d.facet("agents", "manifestRuntime", false)
		w.Check(ok, "a host advertising a2a.agentCards advertises agents.manifestRuntime (the key present in the v2 root's agents record)", obs, d.ex)
	}
	extended := func(w *harness.W, row string) {
		for _, pc := range s.publicCards(w, row) {
			var c struct {
				Capabilities map[string]json.RawMessage `json:"capabilities"`
			}
			_ = json.Unmarshal(pc.raw, &c)
			v := string(c.Capabilities["extendedAgentCard"])
			if v == "" {
				v = "absent"
			}
			w.Check(v == "true", "the public card at "+pc.url+" declares capabilities.extendedAgentCard: true (the JSON boolean)",
				"capabilities.extendedAgentCard is "+v, pc.ex)
		}
	}
	spec("AC-A.1a", "a host advertising a2a.agentCards offers the a2a-1.0 profile", profile)
	spec("AC-V2.1a", "a host advertising a2a.agentCards offers the a2a-1.0 profile (interop.md)", profile)
	spec("AC-A.1b", "a host advertising a2a.agentCards advertises agents.manifestRuntime", runtime)
	spec("AC-V2.1b", "a host advertising a2a.agentCards offers agents.manifestRuntime (interop.md)", runtime)
	spec("AC-A.1c", "a host advertising a2a.agentCards declares capabilities.extendedAgentCard: true on its public card", extended)
	spec("AC-V2.1c", "a host advertising a2a.agentCards declares capabilities.extendedAgentCard: true on its public card (interop.md)", extended)
}

// publicCard is one location of the unauthenticated card.
type publicCard struct {
	url string
	raw []byte
	ex  *a2a.Exchange
}

// publicCards returns every distinct location of the public card: the target's card URL and the discovery
// document's agentCardUrl (when it names another URL on the target's origins).
func (s *session) publicCards(w *harness.W, row string) []publicCard {
	_, raw, ex := w.Card(role)
	u, _ := s.e.Target.CardURL(role)
	out := []publicCard{{url: u, raw: raw, ex: ex}}
	d := s.discovery(w.Ctx())
	if d.err != nil {
		return out
	}
	other := d.agentCardURL()
	if other == "" || other == u || !s.allowed(other) {
		return out
	}
	f := memo(s, "card-at:"+other, func() publicCard {
		_, ex, err := s.e.Client.FetchCard(w.Ctx(), other, a2a.Call{Note: "public card at the discovery document's agentCardUrl"})
		pc := publicCard{url: other, ex: ex}
		if err == nil && ex != nil {
			pc.raw = ex.ResponseBody
		}
		return pc
	})
	if f.raw == nil {
		w.Failf(f.ex, "the public card at agentCardUrl "+other+" can be fetched", "no card")
	}
	return append(out, f)
}
