package terms

// Price claims (terms §4: "where the card's own prose or skill descriptions state a price … that claim MUST be backed
// by a clause of a listed proposal"). Only the card's description and its skills' descriptions state anything:
// names and tags are labels, examples are sample requests. An amount is a price only where the sentence prices
// something with it; thresholds ("above GBP 500"), referenced amounts ("the EUR 45 taxi receipt") and arithmetic
// ("$2 + 3$") are not prices. What the reader cannot decide is marked unsure: unbacked, it blocks with the quote.
// The labelled corpus in testdata/claims holds the reading to precision 100 % on sentences that state no price.

import (
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"github.com/extconf/extconf/harness/a2a"
)

// ClaimKind says which amounts of a price clause can back a claim.
type ClaimKind string

const (
	KindAny     ClaimKind = ""         // a rate, a schedule line, a ceiling or a cap
	KindPerUnit ClaimKind = "per-unit" // "GBP 2.50 per statement": a rate or schedule line only, never a ceiling
	KindCap     ClaimKind = "cap"      // "up to GBP 2,500 a month": a ceiling, a cap or a rate
)

// Amount is one reading of a written number: N × 10^-Scale.
type Amount struct {
	N     int64 `json:"n"`
	Scale int   `json:"scale"`
}

func (a Amount) String() string {
	s := strconv.FormatInt(a.N, 10)
	if a.Scale == 0 {
		return s
	}
	if len(s) <= a.Scale {
		s = strings.Repeat("0", a.Scale-len(s)+1) + s
	}
	return s[:len(s)-a.Scale] + "." + s[len(s)-a.Scale:]
}

// PriceClaim is a price the card's prose states.
type PriceClaim struct {
	Where      string    `json:"where"`
	Text       string    `json:"text"`
	Written    string    `json:"written,omitempty"`    // the amount as the prose wrote it, currency included
	Currencies []string  `json:"currencies,omitempty"` // every currency the written symbol or code can mean
	Readings   []Amount  `json:"readings,omitempty"`   // two when a separator can be a decimal or a thousands mark
	Kind       ClaimKind `json:"kind,omitempty"`
	NoCharge   bool      `json:"noCharge,omitempty"`
	// Unsure: the reader cannot tell whether this amount is a price (a range, a bound, an amount with no price word
	// near it). Backed it passes; unbacked it blocks with the quote, never fails.
	Unsure bool   `json:"unsure,omitempty"`
	Why    string `json:"why,omitempty"` // why it is a claim, or why unsure
}

// StatingProse returns the spans terms §4 binds: the card's description and each skill's description.
func StatingProse(card *a2a.AgentCard) []ProseSpan {
	if card == nil {
		return nil
	}
	out := []ProseSpan{{"description", card.Description}}
	for i, s := range card.Skills {
		out = append(out, ProseSpan{fmt.Sprintf("skills[%d].description", i), s.Description})
	}
	return out
}

// StatingSentences splits StatingProse into sentences.
func StatingSentences(card *a2a.AgentCard) []ProseSpan {
	var out []ProseSpan
	for _, p := range StatingProse(card) {
		for _, s := range SplitSentences(p.Text) {
			out = append(out, ProseSpan{p.Where, s})
		}
	}
	return out
}

// SplitSentences splits text at . ! ? ; followed by space or the end (a full stop inside a number does not end one).
func SplitSentences(text string) []string {
	var out []string
	for _, s := range sentenceEnd.Split(text, -1) {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

const num = `\d{1,3}(?:[,.'’\x{00A0}\x{202F}]\d{3})+(?:[.,]\d{1,6})?|\d+(?:[.,]\d{1,6})?`

var (
	codeFirst = regexp.MustCompile(`\b([A-Z]{3})\s?(` + num + `)`)
	codeLast  = regexp.MustCompile(`(` + num + `)\s?([A-Z]{3})\b`)
	symFirst  = regexp.MustCompile(`(US\$|AU\$|A\$|CA\$|C\$|NZ\$|HK\$|S\$|R\$|MX\$|[£€¥₹₩₽₺₪₫₴฿₦₱$])\s?(` + num + `)`)
	symLast   = regexp.MustCompile(`(` + num + `)\s?([£€¥₹₩₽₺₪₫₴฿₦₱])`)
	// pence: "pence" spelled out, or a bare "p" only where a price reads on ("99p per statement", "50p each", "for
	// 75p."): "1080p" is a video resolution, not GBP 10.80.
	pence      = regexp.MustCompile(`\b(\d{1,9})\s?(pence\b|p(?:\s+(?:per|each|a|an)\b|\s*/|\s*[.,;!?]?\s*$))`)
	resolution = map[string]bool{"144": true, "240": true, "360": true, "480": true, "540": true, "576": true, "720": true, "1080": true, "1440": true, "2160": true, "4320": true}
	// noCharge: phrases that state a price of nothing. A bare "free" is not one: "feel free", "error-free",
	// "free-text" and "free to cancel" say nothing about price.
	noCharge = regexp.MustCompile(`(?i)\b(?:(?:free of charge|for free|at no (?:extra )?(?:cost|charge)|no charge|without charge|free to use)\b|(?:is|are|it's|completely|totally|entirely|always) free(?:\s*$|[.,;!?]))`)

	arithmeticAfter  = regexp.MustCompile(`^\s*(?:[+*×÷=^<>−]|-\s*\d|/\s*\d)`)
	arithmeticBefore = regexp.MustCompile(`\d\s*[+*×÷=/^−-]\s*\S{0,4}$`)
	rangeAfter       = regexp.MustCompile(`^\s*(?:[–—-]|to|and)\s*(?:[A-Z]{3}\s?|[£€$¥]\s?)?\d`)
	rangeBefore      = regexp.MustCompile(`(?i)(?:\d\s*(?:[–—-]|to|and)\s*\S{0,4}|between\s+\S{0,4})$`)
	perAfter         = regexp.MustCompile(`(?i)^\s*(?:(?:per|each|every|a|an)\b\s*([\p{L}-]*)|/\s*(\p{L}+))`)
	periodWord       = regexp.MustCompile(`(?i)^(day|days|week|weeks|month|months|year|years|annum|quarter|period|mo|yr)$`)
	thresholdBefore  = regexp.MustCompile(`(?i)\b(above|over|below|under|exceed(?:s|ing)?|more than|less than|greater than|larger than|smaller than|higher than|lower than|at least|beyond|threshold(?: of)?|worth|valued at|totall?ing|amounting to|balances? of|transactions? of|payments? of)\s*(?:US|AU|A|CA|C|NZ|HK|S|R|MX)?\S{0,1}\s*$`)
	capBefore        = regexp.MustCompile(`(?i)\b(up to|at most|no more than|never more than|capped at|cap(?: of| at)?|ceiling(?: of| at)?|maximum(?: of)?|max\.?|limited to|spend limit of)\s*(?:US|AU|A|CA|C|NZ|HK|S|R|MX)?\S{0,1}\s*$`)
	priceBefore      = regexp.MustCompile(`(?i)\b(costs?|costing|priced(?: at)?|prices?(?: (?:is|are|of|at|from))?|pricing|fees?(?: (?:is|are|of))?|charges?(?: (?:is|are|of))?|charged(?: at)?|charging|pays?|paying|paid|billed(?: at)?|bills?|rates?(?: (?:is|are|of))?|tariff(?: of)?|for(?: only| just)?|from|only|just|starting at|starts at|flat)\s*:?\s*(?:US|AU|A|CA|C|NZ|HK|S|R|MX)?\S{0,1}\s*$`)
	// A word after the amount that keeps it a price ("GBP 2.50 plus VAT", "£3 flat"); any other word makes the amount
	// a modifier of a noun ("the EUR 45 taxi receipt"), not a price.
	fillerAfter = regexp.MustCompile(`(?i)^\s*(?:,\s*)?(plus|excluding|including|excl|incl|inc|ex|flat|net|gross|vat|upfront|monthly|weekly|daily|yearly|annually|hourly|each|per|every|a|an|or|and|to|apiece)\b`)
	wordAfter   = regexp.MustCompile(`^\s*\p{Ll}`)
	perLater    = regexp.MustCompile(`(?i)\b(?:per|each|every)\b|/\s*\p{L}`)
)

type hit struct {
	start, end int
	written    string
	curs       []string
	amount     string
	unknown    bool // a three-letter code outside ISO 4217: a currency only if a listed clause uses it
}

// CardPriceClaims extracts every price statement of the card's description and skill descriptions.
func CardPriceClaims(card *a2a.AgentCard) []PriceClaim {
	var out []PriceClaim
	for _, s := range StatingSentences(card) {
		out = append(out, SentencePriceClaims(s)...)
	}
	return out
}

// SentencePriceClaims reads one sentence.
func SentencePriceClaims(s ProseSpan) []PriceClaim {
	var out []PriceClaim
	text := s.Text
	var hits []hit
	taken := func(a, b int) bool {
		for _, h := range hits {
			if a < h.end && b > h.start {
				return true
			}
		}
		return false
	}
	add := func(h hit) {
		if !taken(h.start, h.end) {
			hits = append(hits, h)
		}
	}
	for _, m := range symFirst.FindAllStringSubmatchIndex(text, -1) {
		sym := text[m[2]:m[3]]
		add(hit{m[0], m[1], text[m[0]:m[1]], currencySymbols[sym], text[m[4]:m[5]], false})
	}
	for _, m := range codeFirst.FindAllStringSubmatchIndex(text, -1) {
		code := text[m[2]:m[3]]
		_, iso := ISOExponent(code)
		add(hit{m[0], m[1], text[m[0]:m[1]], []string{code}, text[m[4]:m[5]], !iso})
	}
	for _, m := range codeLast.FindAllStringSubmatchIndex(text, -1) {
		code := text[m[4]:m[5]]
		_, iso := ISOExponent(code)
		add(hit{m[0], m[1], text[m[0]:m[1]], []string{code}, text[m[2]:m[3]], !iso})
	}
	for _, m := range symLast.FindAllStringSubmatchIndex(text, -1) {
		add(hit{m[0], m[1], text[m[0]:m[1]], currencySymbols[text[m[4]:m[5]]], text[m[2]:m[3]], false})
	}
	for _, m := range pence.FindAllStringSubmatchIndex(text, -1) {
		n, unit := text[m[2]:m[3]], text[m[4]:m[5]]
		if !strings.HasPrefix(unit, "pence") && resolution[n] {
			continue
		}
		if m[2] > 0 && strings.ContainsAny(text[m[2]-1:m[2]], "£$€.,") {
			continue // part of an amount already read
		}
		v, _ := strconv.ParseInt(n, 10, 64)
		end := m[4] + 1
		if strings.HasPrefix(unit, "pence") {
			end = m[4] + len("pence")
		}
		add(hit{m[2], end, text[m[2]:end], []string{"GBP"}, fmt.Sprintf("%d.%02d", v/100, v%100), false})
	}
	for _, h := range hits {
		c, ok := classify(text[:h.start], text[h.end:], h)
		if !ok {
			continue
		}
		c.Where, c.Text = s.Where, s.Text
		out = append(out, c)
	}
	if noCharge.MatchString(text) {
		out = append(out, PriceClaim{Where: s.Where, Text: s.Text, NoCharge: true, Why: "no-charge phrase"})
	}
	return out
}

func classify(before, after string, h hit) (PriceClaim, bool) {
	readings := ParseAmount(h.amount)
	if len(readings) == 0 {
		return PriceClaim{}, false
	}
	c := PriceClaim{Written: h.written, Currencies: h.curs, Readings: readings, Unsure: h.unknown}
	if h.unknown {
		c.Why = "a three-letter code outside ISO 4217"
	}
	if strings.HasPrefix(h.written, "$") && strings.Contains(after, "$") {
		if i := strings.Index(after, "$"); arithmeticAfter.MatchString(after) || strings.ContainsAny(after[:i], "+*/=^×÷−") {
			return c, false // "$2 + 3$": mathematics, not money
		}
	}
	if arithmeticAfter.MatchString(after) || arithmeticBefore.MatchString(before) {
		return c, false
	}
	per := perAfter.FindStringSubmatch(after)
	perUnit := per != nil && !periodWord.MatchString(per[1]+per[2]) && per[1]+per[2] != ""
	perAny := per != nil
	switch {
	case thresholdBefore.MatchString(before):
		if !perAny {
			return c, false // "above GBP 500": a threshold the agent applies, not its price
		}
		c.Unsure, c.Why = true, "a bound on a price (\"under GBP 3 per …\") rather than a price"
	case rangeBefore.MatchString(before) || rangeAfter.MatchString(after):
		if !perAny && !perLater.MatchString(after) && !priceBefore.MatchString(strings.TrimSuffix(strings.TrimSpace(before), "between")) {
			return c, false // "transactions between EUR 100 and EUR 500": a band the work sorts by
		}
		c.Unsure, c.Why = true, "one end of a range"
	case capBefore.MatchString(before):
		c.Kind, c.Why = KindCap, "a stated maximum"
		return c, true
	case perAny:
		c.Why = "an amount per unit or period"
	case priceBefore.MatchString(before):
		c.Why = "a price word before the amount"
	case wordAfter.MatchString(after) && !fillerAfter.MatchString(after):
		return c, false // "the EUR 45 taxi receipt": an amount the work is about
	default:
		c.Unsure, c.Why = true, "an amount with no price word near it"
	}
	if perUnit {
		c.Kind = KindPerUnit
	}
	return c, true
}

// ParseAmount reads a written number with its separators: "1,999.50", "1.999,50", "1'999", "2,50", "0.125". A lone
// separator followed by exactly three digits ("1,999", "1.999") is read both ways; every other spelling once.
func ParseAmount(s string) []Amount {
	type sep struct {
		i int
		r rune
	}
	var seps []sep
	for i, r := range s {
		if r < '0' || r > '9' {
			seps = append(seps, sep{i, r})
		}
	}
	digits := func(x string) string {
		return strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' {
				return r
			}
			return -1
		}, x)
	}
	mk := func(intPart, frac string) (Amount, bool) {
		n, err := strconv.ParseInt(digits(intPart)+frac, 10, 64)
		return Amount{n, len(frac)}, err == nil && len(frac) <= 6
	}
	if len(seps) == 0 {
		if a, ok := mk(s, ""); ok {
			return []Amount{a}
		}
		return nil
	}
	last := seps[len(seps)-1]
	tail := s[last.i+len(string(last.r)):]
	same := 0
	for _, p := range seps {
		if p.r == last.r {
			same++
		}
	}
	decimalMark := last.r == '.' || last.r == ','
	var out []Amount
	switch {
	case !decimalMark || same > 1:
		if a, ok := mk(s, ""); ok && len(tail) == 3 { // every separator groups thousands
			out = append(out, a)
		}
	case len(seps) > 1:
		if a, ok := mk(s[:last.i], tail); ok { // "1,999.50", "1.999,50"
			out = append(out, a)
		}
	case len(tail) == 3 && strings.TrimLeft(s[:last.i], "0") != "":
		if a, ok := mk(s, ""); ok { // "1,999": thousands …
			out = append(out, a)
		}
		if a, ok := mk(s[:last.i], tail); ok { // … or three decimals
			out = append(out, a)
		}
	default:
		if a, ok := mk(s[:last.i], tail); ok {
			out = append(out, a)
		}
	}
	return out
}

// Backing is the verdict on one claim against the verified price clauses.
type Backing struct {
	Backed    bool
	Undecided string // why the harness cannot compare (no scale known, more decimals than the scale carries)
	Near      string // a clause amount the claim misses by a power of ten, for the failure message
}

// PriceBacked reports whether a verified proposal's price clause backs the claim, exactly as stated: the same
// currency, and the amount in the clause's scale (its stated exponent, else ISO 4217's minor unit) equal to the
// claim's. A no-charge claim needs arrangement no_charge.
func PriceBacked(c PriceClaim, verified []map[string]any) Backing {
	var b Backing
	for _, doc := range verified {
		p, _ := doc["price"].(map[string]any)
		if p == nil {
			continue
		}
		if c.NoCharge {
			if p["arrangement"] == "no_charge" {
				return Backing{Backed: true}
			}
			continue
		}
		cur, _ := p["currency"].(string)
		if !containsStr(c.Currencies, cur) {
			continue
		}
		scale, ok := statedScale(p)
		if !ok {
			if scale, ok = ISOExponent(cur); !ok {
				b.Undecided = fmt.Sprintf("the clause's currency %s has no ISO 4217 minor unit and the clause states no scale (exponent, minor_units or decimals)", cur)
				continue
			}
		}
		comparable := false
		for _, r := range c.Readings {
			if perCountBacked(p, r, scale) {
				return Backing{Backed: true}
			}
			if r.Scale > scale {
				continue // "1,999" read as 1.999 in GBP: not a reading this clause can state
			}
			comparable = true
			want := r.N
			for i := r.Scale; i < scale; i++ {
				want *= 10
			}
			for _, a := range priceAmounts(p, c.Kind) {
				if a == want {
					return Backing{Backed: true}
				}
				if k := powerOfTen(a, want); k != 0 && b.Near == "" {
					b.Near = fmt.Sprintf("%s %d in the clause is %s %s off by a factor of 10^%d", cur, a, cur, r, k)
				}
			}
		}
		if !comparable {
			b.Undecided = fmt.Sprintf("%s has more decimals than %s's scale (%d) carries", c.Written, cur, scale)
		}
	}
	return b
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func powerOfTen(a, b int64) int {
	if a == 0 || b == 0 {
		return 0
	}
	for k, x, y := 1, a, b; k <= 9; k++ {
		x *= 10
		y *= 10
		if x == b {
			return -k
		}
		if y == a {
			return k
		}
	}
	return 0
}

func statedScale(p map[string]any) (int, bool) {
	for _, k := range []string{"exponent", "minor_units", "decimals"} {
		if n, ok := jsonInt(p[k]); ok {
			return int(n), true
		}
	}
	return 0, false
}

func jsonInt(v any) (int64, bool) {
	switch n := v.(type) {
	case float64:
		return int64(n), n == float64(int64(n))
	case interface{ Int64() (int64, error) }:
		i, err := n.Int64()
		return i, err == nil
	}
	return 0, false
}

// perCountBacked: a schedule line prices one raw meter count at per_unit/per (Agent SoW §5.5.2 "`per` is the
// divisor: the number of raw meter counts that make one billable unit"; "A line rates as floor(count × per_unit /
// per)"), so "EUR 0.12 per source word" is backed by {"per": 100, "per_unit": 1200} in cents, exactly, whatever
// decimals the per-count price needs (USD 0.002 per token, {"per": 1000, "per_unit": 200}).
func perCountBacked(p map[string]any, r Amount, scale int) bool {
	items, _ := p["schedule"].([]any)
	for _, it := range items {
		m, _ := it.(map[string]any)
		unit, ok := jsonInt(m["per_unit"])
		per, perOK := jsonInt(m["per"])
		if !ok || !perOK || per <= 1 {
			continue // per absent or 1: the line's per_unit is the per-count price, compared as any amount
		}
		// r.N × 10^-r.Scale × per == unit × 10^-scale, in integers.
		lhs := new(big.Int).Mul(big.NewInt(r.N), big.NewInt(per))
		lhs.Mul(lhs, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(scale)), nil))
		rhs := new(big.Int).Mul(big.NewInt(unit), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(r.Scale)), nil))
		if lhs.Cmp(rhs) == 0 {
			return true
		}
	}
	return false
}

// priceAmounts lists the amounts of a price clause that can back a claim of the kind: a per-unit claim only a rate
// or schedule line (a ceiling bounds a period's spend, it prices nothing).
func priceAmounts(p map[string]any, kind ClaimKind) []int64 {
	var out []int64
	if kind != KindPerUnit {
		for _, k := range []string{"ceiling", "cap"} {
			if n, ok := jsonInt(p[k]); ok {
				out = append(out, n)
			}
			if m, ok := p[k].(map[string]any); ok { // §5.5.1 {"amount", "period"}, §5.5.3 {"amount"}
				if n, ok := jsonInt(m["amount"]); ok {
					out = append(out, n)
				}
			}
		}
	}
	for _, list := range []string{"rates", "schedule"} {
		items, _ := p[list].([]any)
		for _, it := range items {
			m, _ := it.(map[string]any)
			for k, v := range m {
				if strings.HasPrefix(k, "per_") {
					if n, ok := jsonInt(v); ok {
						out = append(out, n)
					}
				}
			}
		}
	}
	return out
}
