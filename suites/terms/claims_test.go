package terms

import (
	"slices"
	"testing"
)

// The independent terms agent's operator writes its claim map once for every deployment of the card: a proposal
// reference without a scheme resolves against the card's URL (RFC 3986 §5); an absolute one is kept as written.
func TestClaimProposalResolvesAgainstTheCard(t *testing.T) {
	card := "https://127.0.0.1:8443/.well-known/agent-card.json"
	for ref, want := range map[string]string{
		"/legal/sow/x.json":                "https://127.0.0.1:8443/legal/sow/x.json",
		"../legal/sow/x.json":              "https://127.0.0.1:8443/legal/sow/x.json",
		"https://terms.example/x.sow.json": "https://terms.example/x.sow.json",
		"http://127.0.0.1:8443/x.json":     "http://127.0.0.1:8443/x.json",
	} {
		if got := resolveAgainst(card, ref); got != want {
			t.Errorf("%s: %s, want %s", ref, got, want)
		}
	}
	if got := resolveAgainst("", "/x.json"); got != "/x.json" {
		t.Errorf("no card URL: %s, want the reference as written", got)
	}
}

// Agent SoW §12.1.1: "The match is on the agent key. handle and owner are labels for people". An operator who gives
// a credential's id as its party's agent key (the independent terms agent's client Berger) must not fail TE-3.5f.
func TestPartyNamedByAgentKeyHandleOrOwner(t *testing.T) {
	to := map[string]any{"agent": "HR+H5uYF6OFqTkec28hyKZCBh85g2GWp+L2dmdV4txs=", "handle": "kanzlei@berger-partner.example",
		"owner": "Berger & Partner", "expires_at": "2027-03-31T23:59:59Z"}
	names := partyNames(to)
	for _, id := range []string{"HR+H5uYF6OFqTkec28hyKZCBh85g2GWp+L2dmdV4txs=", "kanzlei@berger-partner.example", "Berger & Partner"} {
		if !slices.Contains(names, id) {
			t.Errorf("%s does not name the party %v", id, names)
		}
	}
	if slices.Contains(names, "2027-03-31T23:59:59Z") || slices.Contains(partyNames(map[string]any{"handle": ""}), "") {
		t.Errorf("names %v: only agent, handle and owner, never empty", names)
	}
}
