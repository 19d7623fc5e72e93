package terms

import "testing"

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
