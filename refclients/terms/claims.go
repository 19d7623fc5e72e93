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
		for _, s := range sentenceEnd.Split(p.Text, -1) {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, ProseSpan{p.Where, s})
			}
		}
	}
	return out
}

var sentenceEnd = regexp.MustCompile(`[.!?;](\s+|$)`)

// PriceClaim is a price the card's prose states.
type PriceClaim struct {
	Where    string `json:"where"`
	Text     string `json:"text"`
	Currency string `json:"currency,omitempty"`
	Minor    int64  `json:"minor,omitempty"`   // in ISO 4217 minor units (for reports)
	Decimal  string `json:"decimal,omitempty"` // the amount as the prose wrote it, "." as the decimal mark
	NoCharge bool   `json:"noCharge,omitempty"`
}

var (
	codeFirst   = regexp.MustCompile(`\b(GBP|USD|EUR|JPY|CHF|AUD|CAD|SEK|NOK|DKK)\s?(\d{1,9}(?:[.,]\d{1,3})?)`)
	codeLast    = regexp.MustCompile(`(\d{1,9}(?:[.,]\d{1,3})?)\s?(GBP|USD|EUR|JPY|CHF|AUD|CAD|SEK|NOK|DKK)\b`)
	symbolFirst = regexp.MustCompile(`([£$€¥])\s?(\d{1,9}(?:[.,]\d{1,3})?)`)
	// pence: "pence" spelled out, or a bare "p" only where a price reads on ("99p per statement", "50p each", "for
	// 75p."): "1080p" is a video resolution, not GBP 10.80.
	pence      = regexp.MustCompile(`\b(\d{1,9})\s?(pence\b|p(?:\s+(?:per|each|a|an)\b|\s*/|\s*[.,;!?]?\s*$))`)
	resolution = map[string]bool{"144": true, "240": true, "360": true, "480": true, "540": true, "576": true, "720": true, "1080": true, "1440": true, "2160": true, "4320": true}
	// noCharge: phrases that state a price of nothing. A bare "free" is not one: "feel free", "error-free",
	// "free-text" and "free to cancel" say nothing about price.
	noCharge = regexp.MustCompile(`(?i)\b(free of charge|for free|at no (?:cost|charge)|no charge|without charge|free to use|(?:is|are|it's|completely|totally|entirely|always) free(?:\s*$|[.,;!?]))`)
	symbols  = map[string]string{"£": "GBP", "$": "USD", "€": "EUR", "¥": "JPY"}
)

// minorUnits converts a decimal amount to the currency's smallest unit (ISO 4217 exponent 2; 0 for JPY).
func minorUnits(amount, currency string) (int64, bool) {
	amount = strings.Replace(amount, ",", ".", 1)
	exp := 2
	if currency == "JPY" {
		exp = 0
	}
	whole, frac, _ := strings.Cut(amount, ".")
	if len(frac) > exp {
		return 0, false
	}
	frac += strings.Repeat("0", exp-len(frac))
	n, err := strconv.ParseInt(whole+frac, 10, 64)
	return n, err == nil
}

// CardPriceClaims extracts every price statement of the card's prose: amounts with a currency code or symbol,
// pence, and no-charge words ("free", "no charge", "at no cost", …; "free-" compounds excluded).
func CardPriceClaims(card *a2a.AgentCard) []PriceClaim {
	var out []PriceClaim
	for _, s := range Sentences(card) {
		add := func(text, cur, amt string) {
			if n, ok := minorUnits(amt, cur); ok {
				out = append(out, PriceClaim{Where: s.Where, Text: s.Text, Currency: cur, Minor: n, Decimal: strings.Replace(amt, ",", ".", 1)})
			}
		}
		for _, m := range codeFirst.FindAllStringSubmatch(s.Text, -1) {
			add(m[0], m[1], m[2])
		}
		for _, m := range codeLast.FindAllStringSubmatch(s.Text, -1) {
			add(m[0], m[2], m[1])
		}
		for _, m := range symbolFirst.FindAllStringSubmatch(s.Text, -1) {
			add(m[0], symbols[m[1]], m[2])
		}
		for _, m := range pence.FindAllStringSubmatch(s.Text, -1) {
			if !strings.HasPrefix(m[2], "pence") && resolution[m[1]] {
				continue
			}
			n, _ := strconv.ParseInt(m[1], 10, 64)
			d := fmt.Sprintf("%d.%02d", n/100, n%100)
			out = append(out, PriceClaim{Where: s.Where, Text: s.Text, Currency: "GBP", Minor: n, Decimal: d})
		}
		if noCharge.MatchString(s.Text) {
			out = append(out, PriceClaim{Where: s.Where, Text: s.Text, NoCharge: true})
		}
	}
	return out
}

// PriceBacked reports whether a verified proposal's price clause backs the claim: a no-charge claim needs
// arrangement no_charge; an amount needs the same currency and that amount as a rate, hourly rate, ceiling or cap.
func PriceBacked(c PriceClaim, verified []map[string]any) bool {
	for _, doc := range verified {
		p, _ := doc["price"].(map[string]any)
		if p == nil {
			continue
		}
		if c.NoCharge {
			if p["arrangement"] == "no_charge" {
				return true
			}
			continue
		}
		if cur, _ := p["currency"].(string); cur != c.Currency {
			continue
		}
		for _, a := range priceAmounts(p) {
			if amountMatches(c, a, p) {
				return true
			}
		}
	}
	return false
}

// amountMatches compares a claim with an amount of a price clause. Agent SoW writes money as integers (§5.5.2 "in
// integers") but states no unit: the SPEC's own example prices XCR 2500000 per task. Unless the clause states its
// scale (an integer "exponent", "minor_units" or "decimals" member), the amount matches when it is the claim's
// decimal value times 10^k for some k in 0..9 (whole units, ISO 4217 minor units, micro-units, …).
func amountMatches(c PriceClaim, a int64, p map[string]any) bool {
	dec := c.Decimal
	if dec == "" {
		return a == c.Minor
	}
	whole, frac, _ := strings.Cut(dec, ".")
	digits := strings.TrimLeft(whole+frac, "0")
	if digits == "" {
		digits = "0"
	}
	fixed := -1
	for _, k := range []string{"exponent", "minor_units", "decimals"} {
		if v, ok := p[k]; ok {
			if n, ok := v.(interface{ Int64() (int64, error) }); ok {
				if i, err := n.Int64(); err == nil {
					fixed = int(i)
				}
			} else if f, ok := v.(float64); ok {
				fixed = int(f)
			}
		}
	}
	for k := 0; k <= 9; k++ {
		if fixed >= 0 && k != fixed {
			continue
		}
		if k < len(frac) {
			continue // the claim has more decimals than this scale carries
		}
		want := digits + strings.Repeat("0", k-len(frac))
		if want == strconv.FormatInt(a, 10) || (digits == "0" && a == 0) {
			return true
		}
	}
	return false
}

// priceAmounts lists every amount a price clause states.
func priceAmounts(p map[string]any) []int64 {
	var out []int64
	num := func(v any) (int64, bool) {
		switch n := v.(type) {
		case float64:
			return int64(n), n == float64(int64(n))
		case interface{ Int64() (int64, error) }:
			i, err := n.Int64()
			return i, err == nil
		}
		return 0, false
	}
	for _, k := range []string{"ceiling", "cap"} {
		if n, ok := num(p[k]); ok {
			out = append(out, n)
		}
		if m, ok := p[k].(map[string]any); ok { // §5.5.1 {"amount", "period"}, §5.5.3 {"amount"}
			if n, ok := num(m["amount"]); ok {
				out = append(out, n)
			}
		}
	}
	for _, list := range []string{"rates", "schedule"} {
		items, _ := p[list].([]any)
		for _, it := range items {
			m, _ := it.(map[string]any)
			for k, v := range m {
				if strings.HasPrefix(k, "per_") {
					if n, ok := num(v); ok {
						out = append(out, n)
					}
				}
			}
		}
	}
	return out
}

// Lexicons that flag a sentence as stating a term or a data-use claim. A floor, not a classifier.
var (
	TermLexicon    = regexp.MustCompile(`(?i)\b(notice|cancel\w*|terminat\w*|cap|capped|limit(s|ed)?|per (day|week|month|year)|jurisdiction|governed by|refus\w*|liabilit\w*|warrant\w*)\b`)
	DataUseLexicon = regexp.MustCompile(`(?i)\b(retain(s|ed)?|retention|delet(e|es|ed|ion)|train(s|ed|ing)?|shar(e|es|ed|ing)|third[- ]part(y|ies)|stored in|processed in|data location)\b`)
)

// FlaggedSentences returns the prose sentences the lexicon flags.
func FlaggedSentences(card *a2a.AgentCard, lexicon *regexp.Regexp) []ProseSpan {
	var out []ProseSpan
	for _, s := range Sentences(card) {
		if lexicon.MatchString(s.Text) {
			out = append(out, s)
		}
	}
	return out
}

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
