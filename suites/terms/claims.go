package terms

// The claim map (terms §4: a term or data-use claim the card states is backed by a clause) and the helpers the
// TE-4.1a/b/c specs share.

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	vterms "github.com/extconf/extconf/refclients/terms"
)

// statedNotAClaim: a configured claim map has a kind "none" entry whose span occurs in the sentence. Without a
// configured map nothing is asked for.
func (s *state) statedNotAClaim(w *harness.W, sentence string) bool {
	_, mapped := s.e.Target.CardURL(RoleClaims)
	if _, inline := s.inlineClaims(); !inline && !mapped {
		return false
	}
	cm, _ := s.claimMap(w)
	for _, c := range cm.Claims {
		if c.Kind == NotAClaim && c.Span != "" && strings.Contains(strings.ToLower(sentence), strings.ToLower(c.Span)) {
			return true
		}
	}
	return false
}

func (d *decl) someEntryLacksURL() bool {
	for _, en := range d.entries {
		if en.url == "" {
			return true
		}
	}
	return false
}

// proposalURL is the claim's proposal as an absolute URL: a reference without a scheme ("/legal/sow/x.json") is
// resolved against the card's URL (RFC 3986 §5), so one claim map serves every deployment of the same card.
func (s *state) proposalURL(ref string) string {
	card, _ := s.e.Target.CardURL(Role)
	return resolveAgainst(card, ref)
}

func resolveAgainst(base, ref string) string {
	r, err := url.Parse(ref)
	if base == "" || err != nil || r.IsAbs() {
		return ref
	}
	b, err := url.Parse(base)
	if err != nil || !b.IsAbs() {
		return ref
	}
	return b.ResolveReference(r).String()
}

func (d *decl) entryByURL(u string) (rawEntry, bool) {
	for _, en := range d.entries {
		if en.url == u {
			return en, true
		}
	}
	return rawEntry{}, false
}

// claim is one mapped span of the operator's claim map (role terms.claims): see README.md.
type claim struct {
	// Kind is "term" (a price, a duration, a condition), "data-use" (what is done with the caller's data) or
	// "none" (the span states no claim: a threshold, an example, a capability).
	Kind string `json:"kind"`
	// Span is the card's prose that states the claim, as it appears in the card.
	Span string `json:"span"`
	// Proposal is the url of the listed proposal entry whose clause backs the claim; a reference without a scheme
	// ("/terms/x.sow.json") is resolved against the card's URL.
	Proposal string `json:"proposal"`
	// Path is the dotted path of the backing clause inside that proposal ("data_use.sale").
	Path string `json:"path"`
	// Value is what the clause at path must hold for the claim to be backed.
	Value any `json:"value"`
}

type claimMap struct {
	Claims []claim `json:"claims"`
}

// claimMap fetches the operator's claim map; blocked when none is configured.
func (s *state) claimMap(w *harness.W) (claimMap, *a2a.Exchange) {
	if cm, ok := s.inlineClaims(); ok {
		return cm, nil
	}
	u, ok := s.e.Target.CardURL(RoleClaims)
	if !ok {
		w.Need("claims", false, "no claim map: write it in documents.terms.claims [{kind: term|data-use, span, proposal (entry url), path (dotted clause path), value}] (legacy: agents."+RoleClaims+", the URL of a JSON document {\"claims\":[…]})")
	}
	body, ex, err := s.e.Client.FetchJSON(w.Ctx(), u, a2a.Call{Note: "terms claim map (operator input)"})
	if err != nil {
		w.Blocked(fmt.Sprintf("the claim map at %s could not be read: %v", u, err))
	}
	var cm claimMap
	if err := json.Unmarshal(body, &cm); err != nil {
		w.Blocked(fmt.Sprintf("the claim map at %s is malformed: %v", u, err))
	}
	return cm, ex
}

func spanIn(prose []vterms.ProseSpan, span string) bool {
	for _, p := range prose {
		if strings.Contains(strings.ToLower(p.Text), strings.ToLower(span)) {
			return true
		}
	}
	return false
}

// NotAClaim is the claim map's kind for a sentence the lexicon flags that states no term or data use.
const NotAClaim = "none"

func claimDesc(c vterms.PriceClaim) string {
	if c.NoCharge {
		return "arrangement no_charge"
	}
	var rs []string
	for _, r := range c.Readings {
		rs = append(rs, r.String())
	}
	where := "a rate, schedule line, ceiling or cap"
	switch c.Kind {
	case vterms.KindPerUnit:
		where = "a rate or schedule line (a per-unit price; a ceiling prices no unit)"
	case vterms.KindCap:
		where = "a ceiling, cap or rate"
	}
	return fmt.Sprintf("%q: %s %s exactly (ISO 4217 minor units unless the clause states its scale) as %s", c.Written, strings.Join(c.Currencies, "|"), strings.Join(rs, " or "), where)
}

func orWhy(a, b string) string {
	if b != "" {
		return b
	}
	return a
}

func pricesOf(docs []map[string]any) string {
	var out []string
	for _, d := range docs {
		out = append(out, jsonOf(d["price"]))
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

// partyNames are the names a credential's id may give for the party parties.offered_to names: its agent key (Agent
// SoW §12.1.1 "The match is on the agent key"), its handle and its owner ("labels for people"). Empty ones are
// left out.
func partyNames(to map[string]any) []string {
	var out []string
	for _, k := range []string{"agent", "handle", "owner"} {
		if v, _ := to[k].(string); v != "" {
			out = append(out, v)
		}
	}
	return out
}
