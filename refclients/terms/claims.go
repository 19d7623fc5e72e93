package terms

// What a card's own prose says about price, terms and data use (terms §4). Natural language cannot be decided
// mechanically: these extractors are a floor (amounts with a currency, no-charge words, a small lexicon of term and
// data-use words), stated as such in the suite README, never a proof that the prose says nothing else.

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/extconf/extconf/harness/a2a"
)

// ProseSpan is one piece of the card's own prose and where it is.
type ProseSpan struct {
	Where string `json:"where"` // "description", "skills[0].description", …
	Text  string `json:"text"`
}

// CardProse returns the card's own prose: description, and each skill's name, description, tags and examples.
func CardProse(card *a2a.AgentCard) []ProseSpan {
	if card == nil {
		return nil
	}
	out := []ProseSpan{{"description", card.Description}}
	for i, s := range card.Skills {
		p := fmt.Sprintf("skills[%d]", i)
		out = append(out, ProseSpan{p + ".name", s.Name}, ProseSpan{p + ".description", s.Description})
		for j, t := range s.Tags {
			out = append(out, ProseSpan{fmt.Sprintf("%s.tags[%d]", p, j), t})
		}
		for j, x := range s.Examples {
			out = append(out, ProseSpan{fmt.Sprintf("%s.examples[%d]", p, j), x})
		}
	}
	return out
}

// Sentences splits the card's prose into sentences (a full stop inside a number does not end one).
func Sentences(card *a2a.AgentCard) []ProseSpan {
	var out []ProseSpan
	for _, p := range CardProse(card) {
		for _, s := range SplitSentences(p.Text) {
			out = append(out, ProseSpan{p.Where, s})
		}
	}
	return out
}

var sentenceEnd = regexp.MustCompile(`[.!?;](\s+|$)`)

// ClauseValue returns the value at a dotted path ("termination.notice_days", "price.rates.0.per_task").
func ClauseValue(doc map[string]any, path string) (any, bool) {
	var cur any = doc
	for _, seg := range strings.Split(path, ".") {
		switch v := cur.(type) {
		case map[string]any:
			var ok bool
			if cur, ok = v[seg]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(v) {
				return nil, false
			}
			cur = v[i]
		default:
			return nil, false
		}
	}
	return cur, true
}
