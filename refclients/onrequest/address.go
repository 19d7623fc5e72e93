package onrequest

import (
	"net/url"
	"path"
	"regexp"
	"strings"
)

// NormalizeURL is the comparison form of an absolute URL under RFC 3986 §6.2.2 and §6.2.3: scheme and host in
// lower case, the scheme's default port dropped, percent-encodings of unreserved characters decoded and the rest in
// upper-case hex, dot segments removed, an empty path read as "/". Query and fragment are kept as they are: they are
// what would make an address personal (OR-3.8). "" when raw is not an absolute URL with a host.
func NormalizeURL(raw string) string {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.Scheme == "" || u.Host == "" || u.Opaque != "" {
		return ""
	}
	scheme := strings.ToLower(u.Scheme)
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if (scheme == "https" && port == "443") || (scheme == "http" && port == "80") {
		port = ""
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]"
	}
	if port != "" {
		host += ":" + port
	}
	p := normPercent(u.EscapedPath())
	if p == "" {
		p = "/"
	} else {
		trailing := strings.HasSuffix(p, "/")
		p = path.Clean(p)
		if trailing && p != "/" {
			p += "/"
		}
	}
	out := scheme + "://" + host + p
	if u.ForceQuery || u.RawQuery != "" {
		out += "?" + normPercent(u.RawQuery)
	}
	if u.Fragment != "" {
		out += "#" + normPercent(u.EscapedFragment())
	}
	return out
}

var pctEnc = regexp.MustCompile(`%[0-9a-fA-F]{2}`)

// normPercent decodes percent-encoded unreserved characters and upper-cases the hex of the others (RFC 3986 §6.2.2.1,
// §6.2.2.2).
func normPercent(s string) string {
	return pctEnc.ReplaceAllStringFunc(s, func(m string) string {
		b, err := url.PathUnescape(m)
		if err == nil && len(b) == 1 && isUnreserved(b[0]) {
			return b
		}
		return strings.ToUpper(m)
	})
}

func isUnreserved(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
}

// SameURL reports whether two https addresses lead to the same place: equal after NormalizeURL, where a trailing
// slash on the path is also ignored (a reading: "/talk" and "/talk/" are one page to a person; README).
func SameURL(a, b string) bool {
	na, nb := NormalizeURL(a), NormalizeURL(b)
	if na == "" || nb == "" {
		return false
	}
	return trimSlash(na) == trimSlash(nb)
}

// trimSlash drops one trailing slash from the path of a normalised URL (before any query or fragment).
func trimSlash(n string) string {
	i := strings.IndexAny(n, "?#")
	head, tail := n, ""
	if i >= 0 {
		head, tail = n[:i], n[i:]
	}
	if strings.Count(head, "/") > 3 || !strings.HasSuffix(head, "/") { // keep the root path's slash
		head = strings.TrimSuffix(head, "/")
	}
	return head + tail
}

// SameNumber reports whether a number found in text (global "tel:+<digits>" or national "tel:<digits>") is the
// personEntry's global tel: number. A national number matches when, its trunk prefix 0 dropped, it is the
// personEntry's number after the country code: the code countryCode gives when set, else any of 1 to 3 digits.
func SameNumber(found, personEntry, countryCode string) bool {
	pd := Digits(personEntry)
	if pd == "" || !strings.HasPrefix(found, "tel:") {
		return false
	}
	fd := Digits(found)
	if strings.HasPrefix(found, "tel:+") {
		return fd == pd
	}
	if fd == pd && countryCode == "" {
		return true // a global number written without its "+"
	}
	nat := strings.TrimPrefix(fd, "0")
	if len(nat) < 6 || !strings.HasSuffix(pd, nat) {
		return false
	}
	cc := pd[:len(pd)-len(nat)]
	if countryCode != "" {
		return cc == Digits(countryCode)
	}
	return len(cc) >= 1 && len(cc) <= 3
}

// OtherPages returns the addresses in text on personEntry's origin that lead to another page than it (another
// path): what a reply gives instead of, or beside, the card's address.
func OtherPages(text, personEntry string) []string {
	pu, err := url.Parse(personEntry)
	if err != nil || pu.Host == "" {
		return nil
	}
	var out []string
	for _, a := range TextAddresses(text) {
		au, err := url.Parse(a)
		if err != nil || !strings.HasPrefix(strings.ToLower(a), "http") || Origin(a) != Origin(personEntry) || samePath(au, pu) {
			continue
		}
		out = append(out, a)
	}
	return out
}
