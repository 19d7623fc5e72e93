package terms

import (
	"fmt"
	"slices"
	"strings"

	"github.com/extconf/extconf/harness"
)

// registerOfferingSpecs: terms §3 rule 3, "offering … names the offering the proposal prices". The proposal says
// what it prices: Agent SoW §5.2 scope.offerings ("the work covered, as a list of the provider's published offering
// identifiers") and §5.5.1 price.rates[].offering.
func registerOfferingSpecs(s *state) {
	harness.Spec(s.e, "TE-3.3g", "an entry's offering is one its proposal prices", func(w *harness.W) {
		d := s.declaration(w, "TE-3.3g")
		docs := s.fetchedEntries(w, d)
		checked := 0
		for i, en := range d.entries {
			off, ok := en.obj["offering"].(string)
			if !ok || off == "" {
				continue // offering is OPTIONAL
			}
			priced := ProposalOfferings(docs[i].parsed)
			if len(priced) == 0 {
				continue // the document names no offering: nothing to line up
			}
			checked++
			// Compared up to case and separators: that offering equal the skill id exactly is TE-3.3f's SHOULD.
			w.Check(slices.ContainsFunc(priced, func(p string) bool { return foldID(p) == foldID(off) }), fmt.Sprintf("proposals[%d].offering %q is one the document at %s prices (scope.offerings, price.rates[].offering)", en.index, off, en.url),
				fmt.Sprintf("the document names %v", priced), docs[i].ex)
		}
		if checked == 0 {
			w.Inapplicable("no entry names an offering, or no listed document names the offerings it prices")
		}
	})
}

func foldID(x string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' || r == '_' || r == '.' {
			return -1
		}
		return r
	}, strings.ToLower(x))
}

// ProposalOfferings lists the offering ids a proposal names: scope.offerings and price.rates[].offering.
func ProposalOfferings(doc map[string]any) []string {
	var out []string
	add := func(v any) {
		if s, ok := v.(string); ok && s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	if sc, ok := doc["scope"].(map[string]any); ok {
		if list, ok := sc["offerings"].([]any); ok {
			for _, v := range list {
				add(v)
			}
		}
	}
	if p, ok := doc["price"].(map[string]any); ok {
		if rates, ok := p["rates"].([]any); ok {
			for _, r := range rates {
				if m, ok := r.(map[string]any); ok {
					add(m["offering"])
				}
			}
		}
	}
	return out
}
