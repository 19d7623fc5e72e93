package onrequest

import (
	"regexp"
	"strconv"
	"strings"
)

// Money is an amount written with its currency: a value given on request is compared as this pair, never as its
// digits alone ("£1,950" is not "since 1950", "£90" is not "09:00").
type Money struct {
	Currency string // ISO 4217 code, or a family for an ambiguous sign: "$", "¥", "kr"
	Minor    int64  // the amount in hundredths
	Text     string // as written
}

// Same reports whether two amounts are one value: equal amounts, and currencies that can be the same ("$" is any
// dollar, "¥" yen or yuan).
func (m Money) Same(o Money) bool {
	return m.Minor == o.Minor && sameCurrency(m.Currency, o.Currency)
}

var currencyFamilies = map[string][]string{
	"$":  {"USD", "CAD", "AUD", "NZD", "HKD", "SGD", "MXN"},
	"¥":  {"JPY", "CNY"},
	"kr": {"SEK", "NOK", "DKK", "ISK"},
}

func sameCurrency(a, b string) bool {
	if a == b {
		return true
	}
	for fam, codes := range currencyFamilies {
		for _, c := range codes {
			if (a == fam && b == c) || (b == fam && a == c) {
				return true
			}
		}
	}
	return false
}

var currencyWords = map[string]string{
	"£": "GBP", "€": "EUR", "$": "$", "¥": "¥", "₹": "INR", "₩": "KRW", "₪": "ILS", "kr": "kr", "fr.": "CHF", "chf": "CHF",
	"pound": "GBP", "pounds": "GBP", "sterling": "GBP", "pounds sterling": "GBP", "quid": "GBP",
	"euro": "EUR", "euros": "EUR", "dollar": "$", "dollars": "$", "us dollars": "USD", "yen": "JPY",
	"francs": "CHF", "swiss francs": "CHF", "rupees": "INR", "us$": "USD", "a$": "AUD", "c$": "CAD", "nz$": "NZD",
}

// number is a figure with digit groups ("1,950", "1.950,00", "1 950", "2400.50").
const number = `\d{1,3}(?:[,.\x{00a0}\x{202f} ]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?`

var (
	signs     = `US\$|A\$|C\$|NZ\$|[£€$¥₹₩₪]`
	words     = `pounds sterling|pounds?|sterling|quid|euros?|us dollars|dollars?|yen|swiss francs|francs|rupees`
	codes     = `(?-i:` + currencyCodes + `|CHF)|gbp|eur|usd`
	scale     = `(?:(\s?(?:thousand|million)|[km])\b)?`
	moneyBare = regexp.MustCompile(`(?i)(?:\b(` + codes + `)\.?\s{0,3}|(` + signs + `)\s{0,3})(` + number + `)` + scale +
		`|\b(` + number + `)` + scale + `\s?(?:(` + codes + `)\b|(` + signs + `)|\b(` + words + `)\b)`)
	numberWord = regexp.MustCompile(`(?i)\b((?:(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|and|a)[\s-]+)+)(` + words + `)\b`)
)

// FindMoney returns the amounts of money written in text: a currency sign, ISO 4217 code or currency word before
// or after a figure (grouped either way: "1,950.00", "1.950,00", "1 950"), or written in words ("two thousand
// four hundred pounds").
func FindMoney(text string) []Money {
	var out []Money
	for _, m := range moneyBare.FindAllStringSubmatch(text, -1) {
		cur, num, scale := m[1]+m[2], m[3], m[4]
		if num == "" {
			cur, num, scale = m[7]+m[8]+m[9], m[5], m[6]
		}
		minor, ok := parseFigure(num)
		if !ok {
			continue
		}
		minor = scaled(minor, scale)
		out = append(out, Money{Currency: currencyOf(cur), Minor: minor, Text: strings.TrimSpace(m[0])})
	}
	for _, m := range numberWord.FindAllStringSubmatch(text, -1) {
		if n, ok := parseNumberWords(m[1]); ok {
			out = append(out, Money{Currency: currencyOf(m[2]), Minor: n * 100, Text: strings.TrimSpace(m[0])})
		}
	}
	return out
}

// ParseMoney reads a value that is an amount of money and nothing else ("GBP 1,950", "£1,950", "1.950,00 EUR").
func ParseMoney(value string) (Money, bool) {
	ms := FindMoney(value)
	if len(ms) != 1 {
		return Money{}, false
	}
	rest := strings.TrimSpace(strings.Replace(value, ms[0].Text, "", 1))
	if strings.Trim(rest, " .,;:()") != "" && len(rest) > 12 {
		return Money{}, false // a sentence holding an amount, not an amount: compared as words
	}
	return ms[0], true
}

func currencyOf(s string) string {
	l := strings.ToLower(strings.TrimSpace(s))
	if c, ok := currencyWords[l]; ok {
		return c
	}
	if c, ok := currencyWords[strings.TrimSuffix(l, ".")]; ok {
		return c
	}
	return strings.ToUpper(l)
}

func scaled(minor int64, scale string) int64 {
	switch strings.ToLower(strings.TrimSpace(scale)) {
	case "k", "thousand":
		return minor * 1000
	case "m", "million":
		return minor * 1000000
	}
	return minor
}

// parseFigure reads a figure into hundredths. A separator followed by exactly three digits groups thousands; one
// followed by one or two digits at the end is the decimal mark, whichever character it is.
func parseFigure(s string) (int64, bool) {
	s = strings.NewReplacer("\u00a0", " ", "\u202f", " ").Replace(s)
	frac := ""
	if i := strings.LastIndexAny(s, ".,"); i >= 0 && len(s)-i-1 <= 2 {
		frac, s = s[i+1:], s[:i]
	}
	s = strings.NewReplacer(",", "", ".", "", " ", "").Replace(s)
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, false
	}
	f := int64(0)
	if frac != "" {
		f, _ = strconv.ParseInt(frac, 10, 64)
		if len(frac) == 1 {
			f *= 10
		}
	}
	return n*100 + f, true
}

var smallNumbers = map[string]int64{"zero": 0, "a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
	"seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
	"fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
	"forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}

// parseNumberWords reads "one thousand nine hundred and fifty" (and "nineteen hundred and fifty").
func parseNumberWords(s string) (int64, bool) {
	var total, cur int64
	seen := false
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r == ' ' || r == '-' || r == '\t' || r == '\n' }) {
		switch w {
		case "and":
			continue
		case "hundred":
			if cur == 0 {
				cur = 1
			}
			cur *= 100
		case "thousand":
			if cur == 0 {
				cur = 1
			}
			total += cur * 1000
			cur = 0
		case "million":
			if cur == 0 {
				cur = 1
			}
			total += cur * 1000000
			cur = 0
		default:
			n, ok := smallNumbers[w]
			if !ok {
				return 0, false
			}
			cur += n
		}
		seen = true
	}
	return total + cur, seen && total+cur > 0
}

// MatchValue finds a value given on request in text. A money value is found as a pair (the same amount in a
// compatible currency, however written); a figure of that amount with no currency, in a sentence about cost, is
// ambiguous and returned as such so that the caller blocks with the quote. Any other value is found as its words
// and figures in order, each whole ("Tuesday 10:00" is not in "Tuesday 10:005"). Empty value: never found.
func MatchValue(text, value string) (hit, ambiguous string) {
	if strings.TrimSpace(value) == "" {
		return "", ""
	}
	if mv, ok := ParseMoney(value); ok {
		for _, m := range FindMoney(text) {
			if m.Same(mv) {
				return m.Text, ""
			}
		}
		return "", bareAmount(text, mv)
	}
	vt := valueTokens(value)
	if len(vt) == 0 {
		return "", ""
	}
	tt := valueTokens(text)
	for i := 0; i+len(vt) <= len(tt); i++ {
		if slicesEqual(tt[i:i+len(vt)], vt) {
			return value, ""
		}
	}
	return "", ""
}

var (
	figure    = regexp.MustCompile(number)
	costWords = regexp.MustCompile(`(?i)\b(costs?|price[sd]?|fees?|charges?|charged|pay|payable|quote[sd]?|total|starts? at|from)\b`)
)

// bareAmount returns the sentence holding a currency-less figure equal to m's amount in a sentence about cost.
func bareAmount(text string, m Money) string {
	for _, loc := range figure.FindAllStringIndex(text, -1) {
		n, ok := parseFigure(text[loc[0]:loc[1]])
		if !ok || n != m.Minor {
			continue
		}
		if sentence, _ := sentenceAround(text, loc[0], loc[1]); costWords.MatchString(sentence) {
			return strings.TrimSpace(sentence)
		}
	}
	return ""
}

// valueTokens splits a value into lower-case words and figures, digit groups joined ("1,950" → "1950").
func valueTokens(s string) []string {
	var out []string
	for _, m := range tokenRe.FindAllString(strings.ToLower(s), -1) {
		out = append(out, strings.NewReplacer(",", "", ".", "").Replace(m))
	}
	return out
}

var tokenRe = regexp.MustCompile(`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?|[\p{L}]+`)

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
