package agentcards

import (
	"context"
	"fmt"

	"github.com/extconf/extconf/harness"
)

// ID is the catalog document id; its "URI" is the facet name a2a.agentCards.
const ID = "agent-cards"

// Suite returns the agent-cards suite.
func Suite() harness.Suite {
	return harness.Suite{Document: ID, Applicable: applicable, Register: register}
}

// applicable: the host's OpenWOP v2 discovery document (/.well-known/openwop on the card's origin, negotiated with
// OpenWOP-Version: 2; `discovery` in the target configuration overrides the location) carries the facet agentCards in
// its a2a capability record. Nothing OpenWOP at the well-known location, a v1-only host, or a v2 root without the
// facet: every row inapplicable, with that reason. A discovery document that cannot be fetched or parsed is not
// "inapplicable": the advertisement rows fail on it and the other rows are blocked.
func applicable(ctx context.Context, e *harness.Env) (bool, string) {
	d := sessionFor(e).discovery(ctx)
	switch {
	case d.absent != "":
		return false, "the target is not an OpenWOP host: no discovery document (" + d.absent + "), so it does not advertise a2a.agentCards; set `discovery` in the target configuration if the document lives elsewhere"
	case d.err != nil:
		return true, ""
	case d.v1 != "":
		return false, "the host serves only OpenWOP v1 discovery: " + d.v1 + "; a2a.agentCards is a facet of the v2 a2a record (RFC 0202 Compatibility: \"v1 is untouched\")"
	}
	if ok, obs := d.facet("a2a", "agentCards", true); !ok {
		return false, fmt.Sprintf("the v2 discovery document at %s (%s) does not advertise the facet a2a.agentCards: %s", d.url, d.ex.ID, obs)
	}
	return true, ""
}

// advertisement rows are graded on the discovery document itself; every other row needs it read first.
var advertisement = map[string]bool{"AC-A.1a": true, "AC-A.1b": true, "AC-V2.1a": true, "AC-V2.1b": true}

func register(e *harness.Env) {
	s := sessionFor(e)
	spec := func(row, text string, body func(w *harness.W, row string)) {
		harness.Spec(e, row, text, func(w *harness.W) {
			if d := s.discovery(w.Ctx()); d.err != nil && !advertisement[row] {
				w.BlockUnreached(d.ex, d.err)
				w.Blocked("the OpenWOP discovery document could not be read (" + d.err.Error() + "), so whether the host advertises a2a.agentCards is unknown; the advertisement rows fail on it")
			}
			body(w, row)
		})
	}
	registerAdvertisement(s, spec)
	registerRoutingValue(s, spec)
	registerCard(s, spec)
	registerSecrets(s, spec)
	registerAuth(s, spec)
	registerRefusal(s, spec)
	registerPublic(s, spec)
	registerTenant(s, spec)
}

type specFn func(row, text string, body func(w *harness.W, row string))

// ---- prerequisites shared by the specs ----

// ---- §A Advertisement ----

// ---- §B The routing value ----

// ---- §C The card ----

// ---- §C rule 5: nothing the entry may not carry (SR-1) ----

// ---- §D rule 6: authentication and authorization before resolution ----

// ---- §D rule 7: identical refusal; §D.9 tenant of record; the invariant ----

// ---- §D rule 8: nothing public; the invariant's card half ----
