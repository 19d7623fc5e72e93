package terms

// ISO 4217 currency codes and their minor-unit exponents (the standard's "minor unit" column), current codes and
// those withdrawn in the last decade, so a card quoting either is read. Codes without a minor unit (metals, SDR,
// testing) are absent: an amount in them is no price a clause can back in minor units.

import "strings"

var iso4217Exp0 = "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF"
var iso4217Exp3 = "BHD IQD JOD KWD LYD OMR TND"
var iso4217Exp4 = "CLF UYW"
var iso4217Exp2 = "AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP BYN " +
	"BZD CAD CDF CHE CHF CHW CNY COP COU CRC CUC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD " +
	"GTQ GYD HKD HNL HRK HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA MKD " +
	"MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR " +
	"SBD SCR SDG SEK SGD SHP SLE SLL SOS SRD SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD USN UYU UZS " +
	"VED VES WST XCD XCG YER ZAR ZMW ZWG ZWL"

var iso4217 = func() map[string]int {
	m := map[string]int{}
	for exp, list := range map[int]string{0: iso4217Exp0, 2: iso4217Exp2, 3: iso4217Exp3, 4: iso4217Exp4} {
		for _, c := range strings.Fields(list) {
			m[c] = exp
		}
	}
	return m
}()

// ISOExponent returns the ISO 4217 minor-unit exponent of a currency code.
func ISOExponent(code string) (int, bool) {
	e, ok := iso4217[code]
	return e, ok
}

// Symbols a card may write instead of a code, with every currency each can mean: "$" alone is any dollar, so the
// claim is backed by a clause in any of them (reading the symbol as USD alone would fail an AUD price).
var currencySymbols = map[string][]string{
	"£": {"GBP", "GIP", "FKP", "SHP", "EGP"}, "€": {"EUR"}, "¥": {"JPY", "CNY"}, "₹": {"INR"}, "₩": {"KRW"},
	"₽": {"RUB"}, "₺": {"TRY"}, "₪": {"ILS"}, "₫": {"VND"}, "₴": {"UAH"}, "฿": {"THB"}, "₦": {"NGN"}, "₱": {"PHP"},
	"US$": {"USD"}, "A$": {"AUD"}, "AU$": {"AUD"}, "C$": {"CAD"}, "CA$": {"CAD"}, "NZ$": {"NZD"}, "HK$": {"HKD"},
	"S$": {"SGD"}, "R$": {"BRL"}, "MX$": {"MXN"},
	"$": {"USD", "AUD", "CAD", "NZD", "HKD", "SGD", "TWD", "MXN", "ARS", "CLP", "COP", "BSD", "BBD", "BZD", "BMD",
		"BND", "FJD", "GYD", "JMD", "KYD", "LRD", "NAD", "SBD", "SRD", "TTD", "XCD", "ZWL"},
}
