package harness

import (
	"fmt"
	"net"
	"net/url"
	"sort"
	"strings"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/target"
)

// reach is where a run may send requests. The harness follows URLs it reads from target data (interface URLs,
// terms proposal URLs, a signature's jku, redirects), and a hostile target can aim them at the operator's network
// or the cloud metadata service (SSRF). The rule, applied to every request of the run's client before dialing:
//
//   - only http and https (the client itself refuses every other scheme: a file: URL is never read);
//   - the target's origins are reachable: every agent's card URL (all roles), the configuration's agents, the
//     URLs the documents' operator input names (Document.Origins), and limits.allowOrigins;
//   - loopback (127.0.0.0/8, ::1, "localhost") is reachable: it is the harness's own host, where the reference
//     agents, the fixture servers and the suites' stand-ins run;
//   - anything else is refused by name: a private, link-local, shared or unspecified address, or a non-loopback
//     host off the target's origins.
type reach struct {
	origins map[string]bool
	names   []string
}

func newReach(tgt *target.Target, suites []Suite) *reach {
	r := &reach{origins: map[string]bool{}}
	add := func(raw string) {
		u, err := url.Parse(raw)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return
		}
		r.origins[a2a.Origin(u)] = true
	}
	if tgt != nil {
		for _, u := range tgt.Agents {
			add(u)
		}
		for _, u := range tgt.Config.Agents {
			add(u)
		}
		for _, s := range suites { // the documents' operator input (e.g. agent-cards' inventory and discovery)
			if s.Origins != nil {
				for _, o := range s.Origins(tgt.Config) {
					add(o)
				}
			}
		}
		if l, err := ParseLimits(tgt.Config.Limits); err == nil {
			for _, o := range l.AllowOrigins {
				r.origins[o] = true
			}
		}
	}
	for o := range r.origins {
		r.names = append(r.names, o)
	}
	sort.Strings(r.names)
	return r
}

// check is the run client's a2a.Options.CheckURL; the client wraps its error as "URL refused: <url>: …".
func (r *reach) check(u *url.URL) error {
	if r.origins[a2a.Origin(u)] {
		return nil
	}
	host := strings.ToLower(u.Hostname())
	if i := strings.IndexByte(host, '%'); i >= 0 {
		host = host[:i] // an IPv6 zone
	}
	ip := net.ParseIP(host)
	if host == "localhost" || (ip != nil && ip.IsLoopback()) {
		return nil
	}
	var what string
	switch {
	case ip == nil:
		what = fmt.Sprintf("off-origin host %q (a non-loopback address)", clipHost(host))
	case ip.IsUnspecified():
		what = fmt.Sprintf("off-origin unspecified address %s", ip)
	case ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast():
		what = fmt.Sprintf("off-origin link-local address %s (the cloud metadata range)", ip)
	case ip.IsPrivate():
		what = fmt.Sprintf("off-origin private address %s", ip)
	case sharedSpace.Contains(ip):
		what = fmt.Sprintf("off-origin shared (carrier-grade NAT) address %s", ip)
	case ip.IsMulticast():
		what = fmt.Sprintf("off-origin multicast address %s", ip)
	default:
		what = fmt.Sprintf("off-origin non-loopback address %s", ip)
	}
	return fmt.Errorf("%s: not one of the target's origins %s; list it in the target configuration's limits.allowOrigins to follow it",
		what, r.describe())
}

func (r *reach) describe() string {
	if len(r.names) == 0 {
		return "(none)"
	}
	if len(r.names) > 4 {
		return "[" + strings.Join(r.names[:4], " ") + fmt.Sprintf(" and %d more]", len(r.names)-4)
	}
	return "[" + strings.Join(r.names, " ") + "]"
}

// CheckURL applies the run's reach rule (see reach) to u: nil when the harness may send a request there. Suites
// that build their own a2a.Client for URLs read from target data set it as (part of) that client's CheckURL.
func (e *Env) CheckURL(u *url.URL) error {
	if e.reach == nil {
		e.reach = newReach(e.Target, nil)
	}
	return e.reach.check(u)
}

var sharedSpace = &net.IPNet{IP: net.IPv4(100, 64, 0, 0), Mask: net.CIDRMask(10, 32)}

func clipHost(h string) string {
	if len(h) > 100 {
		return h[:100] + "…"
	}
	return h
}
