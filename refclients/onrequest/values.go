package onrequest

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode"
)

var (
	urlInText      = regexp.MustCompile(`(?i)\b(?:https?|tel):[^\s<>"'\x60]+`)
	telInText      = regexp.MustCompile(`\+[0-9][0-9 ().\-]{5,}[0-9]`)
	nationalInText = regexp.MustCompile(`(?:\(\d{1,5}\)[ .\-]?|\b\d{2,5}[ .\-])\d{2,4}[ .\-]?\d{3,4}\b`)
)

// TextAddresses extracts the addresses a reader finds in text: absolute http(s) and tel: URIs (trailing
// punctuation dropped), telephone numbers written as +<digits> (returned as "tel:+<digits>") and numbers written in
// a national format such as "(202) 555-0143" or "020 7946 0000" (returned as "tel:<digits>", no "+").
func TextAddresses(text string) []string {
	var out []string
	for _, m := range urlInText.FindAllString(text, -1) {
		m = strings.TrimRight(m, ".,;:!?)]}")
		if strings.HasPrefix(strings.ToLower(m), "tel:") {
			m = "tel:+" + Digits(m)
		}
		out = append(out, m)
	}
	for _, m := range telInText.FindAllString(text, -1) {
		t := "tel:+" + Digits(m)
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	for _, m := range nationalInText.FindAllString(text, -1) {
		t := "tel:" + Digits(m)
		if !slices.Contains(out, t) && !slices.Contains(out, "tel:+"+Digits(m)) {
			out = append(out, t)
		}
	}
	return out
}

// TextGivesAddress reports whether text gives the personEntry (TextGivesAddressIn with no stated country code).
func TextGivesAddress(text, personEntry string) bool {
	return TextGivesAddressIn(text, personEntry, "")
}

// TextGivesAddressIn reports whether text gives the personEntry: an https address equal to it after RFC 3986 §6
// normalisation (SameURL), never a copy with another query or fragment; a tel: number by its digits, written
// globally or in the national format of the operator's country (SameNumber).
func TextGivesAddressIn(text, personEntry, countryCode string) bool {
	if personEntry == "" {
		return false
	}
	tel := strings.HasPrefix(personEntry, "tel:")
	for _, a := range TextAddresses(text) {
		if tel && SameNumber(a, personEntry, countryCode) {
			return true
		}
		if !tel && SameURL(a, personEntry) {
			return true
		}
	}
	return false
}

// AddressVariants returns the addresses in text that point at the same page as personEntry (same origin and path,
// compared normalised) without being the same address: a personalised copy (another query, a fragment) of the
// card's address. A copy that differs only in case, default port, percent-encoding or a trailing slash is the
// same address, not a variant.
func AddressVariants(text, personEntry string) []string {
	pu, err := url.Parse(personEntry)
	if err != nil || pu.Host == "" {
		return nil
	}
	var out []string
	for _, a := range TextAddresses(text) {
		au, err := url.Parse(a)
		if err != nil || SameURL(a, personEntry) {
			continue
		}
		if Origin(a) == Origin(personEntry) && samePath(au, pu) {
			out = append(out, a)
		}
	}
	return out
}

func samePath(a, b *url.URL) bool {
	strip := func(u *url.URL) string {
		c := *u
		c.RawQuery, c.ForceQuery, c.Fragment, c.RawFragment = "", false, "", ""
		return trimSlash(NormalizeURL(c.String()))
	}
	return strip(a) == strip(b)
}

// NormalizeValue folds a value for comparison: lower case, letters and digits only ("GBP 1,950" → "gbp1950").
func NormalizeValue(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// ContainsValue reports whether text contains value (MatchValue found it; an ambiguous figure is not a match).
// An empty value is never contained.
func ContainsValue(text, value string) bool {
	hit, _ := MatchValue(text, value)
	return hit != ""
}

// currencyCodes are the ISO 4217 codes MoneyAmounts reads before or after a number; any three capitals would read
// "RPC 2.0" or "for 10" (case-folded) as money, and a false amount is a false failure where amounts are values.
const currencyCodes = `USD|EUR|GBP|JPY|CHF|CAD|AUD|NZD|SEK|NOK|DKK|ISK|PLN|CZK|HUF|RON|BGN|INR|CNY|HKD|SGD|KRW|ZAR|MXN|BRL|ARS|CLP|ILS|AED|SAR|TRY|THB|MYR|IDR|PHP`

// MoneyAmounts returns the amounts of money in text ("GBP 2,400", "€90", "1.200 EUR"): the values an agent gives on
// request are mostly prices, and these are what OR-3.9 looks for in skill text when the operator named no values.
func MoneyAmounts(text string) []string {
	var out []string
	for _, m := range FindMoney(text) {
		if !slices.Contains(out, m.Text) {
			out = append(out, m.Text)
		}
	}
	return out
}
