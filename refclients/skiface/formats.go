package skiface

import (
	"errors"
	"net/netip"
	"strings"
	"unicode"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/net/idna"
)

// "For interface version 1.0, a format value defined by JSON Schema Validation MUST be evaluated as an assertion
// during instance validation." The vocabulary of JSON Schema Validation 2020-12 §7.3 is asserted; the validator
// library's extra formats outside it (period, semver) are annotations again, and the two it lacks (idn-email,
// idn-hostname, RFC 6531 / RFC 5890) are added.
var (
	annotationOnly = []string{"period", "semver"}
	idnFormats     = []*jsonschema.Format{
		{Name: "idn-hostname", Validate: validateIDNHostname},
		{Name: "idn-email", Validate: validateIDNEmail},
	}
)

func registerFormats(c *jsonschema.Compiler) {
	for _, n := range annotationOnly {
		c.RegisterFormat(&jsonschema.Format{Name: n, Validate: func(any) error { return nil }})
	}
	for _, f := range idnFormats {
		c.RegisterFormat(f)
	}
}

var idnProfile = idna.New(idna.ValidateForRegistration(), idna.MapForLookup(), idna.StrictDomainName(true))

// validateIDNHostname accepts an internationalized host name (RFC 5890 A-labels or U-labels, RFC 1123 LDH).
func validateIDNHostname(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	return idnHostname(s)
}

func idnHostname(s string) error {
	if s == "" {
		return errors.New("empty host name")
	}
	// U+3002, U+FF0E, U+FF61 are label separators too (RFC 3490 §3.1).
	s = strings.NewReplacer("\u3002", ".", "\uff0e", ".", "\uff61", ".").Replace(s)
	a, err := idnProfile.ToASCII(strings.TrimSuffix(s, "."))
	if err != nil {
		return err
	}
	if len(a) > 253 {
		return errors.New("more than 253 characters long")
	}
	for _, l := range strings.Split(a, ".") {
		if len(l) < 1 || len(l) > 63 {
			return errors.New("label must be 1 to 63 characters long")
		}
	}
	return nil
}

// validateIDNEmail accepts an RFC 6531 address: a non-empty local part (dot-atom of any non-control, non-space
// characters, or a quoted string) and an idn-hostname or an address literal.
func validateIDNEmail(v any) error {
	s, ok := v.(string)
	if !ok {
		return nil
	}
	at := strings.LastIndexByte(s, '@')
	if at <= 0 || at == len(s)-1 {
		return errors.New("not local@domain")
	}
	local, domain := s[:at], s[at+1:]
	if !(len(local) > 1 && strings.HasPrefix(local, `"`) && strings.HasSuffix(local, `"`)) {
		if strings.HasPrefix(local, ".") || strings.HasSuffix(local, ".") || strings.Contains(local, "..") {
			return errors.New("misplaced dot in the local part")
		}
		for _, r := range local {
			if unicode.IsControl(r) || unicode.IsSpace(r) || strings.ContainsRune(`()<>[]:;@\,"`, r) {
				return errors.New("character not allowed in an unquoted local part")
			}
		}
	}
	if strings.HasPrefix(domain, "[") && strings.HasSuffix(domain, "]") {
		lit := strings.TrimPrefix(domain[1:len(domain)-1], "IPv6:")
		if _, err := netip.ParseAddr(lit); err != nil {
			return errors.New("invalid address literal")
		}
		return nil
	}
	return idnHostname(domain)
}
