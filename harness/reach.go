package harness

import (
	"context"
	"fmt"
	"maps"
	"net"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/target"
)

// Reach is where a run may send requests. The harness follows URLs it reads from target data (interface URLs,
// terms proposal URLs, a signature's jku, redirects), and a hostile target can aim them at the operator's network,
// the operator's own machine or the cloud metadata service (SSRF). The rule, applied to every request of the run's
// client before dialing (check) and again to every address a name resolves to (dial):
//
//   - only http and https (the client itself refuses every other scheme: a file: URL is never read);
//   - the target's origins are reachable: every agent's card URL (all roles), the configuration's agents, the
//     URLs the documents' operator input names (Document.Origins), and limits.allowOrigins;
//   - this host's own addresses (loopback, 0.0.0.0/::, the addresses of its interfaces) are reachable only when
//     the target itself is local — the in-process reference agents, a container the run started, or cards on
//     loopback — or for the run's own listeners (stand-ins, fixture servers), which register
//     themselves (Env.OwnListener): a remote target never reaches the operator's machine;
//   - anything else is refused by name: a private, link-local, shared or unspecified address, or a host off the
//     target's origins.
type Reach struct {
	origins map[string]bool
	creds   map[string]bool // the origins credentials go to: the target's own, never allowOrigins alone
	names   []string
	local   bool // the target itself runs on this host

	mu        sync.Mutex
	listeners map[string]bool // origins of the run's own listeners
}

func newReach(tgt *target.Target, suites []Suite) *Reach {
	r := &Reach{origins: map[string]bool{}, listeners: map[string]bool{}}
	add := func(raw string) {
		u, err := url.Parse(raw)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return
		}
		r.origins[a2a.Origin(u)] = true
	}
	if tgt != nil {
		r.local = tgt.Kind == target.KindMock || tgt.Kind == target.KindContainer
		cards := 0
		localCards := 0
		for _, u := range tgt.Agents {
			add(u)
			if pu, err := url.Parse(u); err == nil && (pu.Scheme == "http" || pu.Scheme == "https") {
				cards++
				if resolvesLoopback(pu.Hostname()) {
					localCards++
				}
			}
		}
		// A URL target is local when every card it names is on loopback (the operator pointed the harness at their
		// own machine); one card elsewhere — even on this host's other addresses — makes the whole target remote.
		if tgt.Kind == target.KindURL && cards > 0 && localCards == cards {
			r.local = true
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
		r.creds = maps.Clone(r.origins)
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
func (r *Reach) check(u *url.URL) error {
	o := a2a.Origin(u)
	if r.origins[o] || r.ownListener(o) {
		return nil
	}
	host := strings.ToLower(u.Hostname())
	if i := strings.IndexByte(host, '%'); i >= 0 {
		host = host[:i] // an IPv6 zone
	}
	ip := net.ParseIP(host)
	if host == "localhost" || (ip != nil && isLocalIP(ip)) {
		if r.local {
			return nil
		}
		return fmt.Errorf("%s is this host's own address, and the target is remote: a remote target never reaches the operator's machine (target data may not point there; a local target, a container the run started or the run's own listeners may)", host)
	}
	return r.refuse(host, ip)
}

// dial is the run client's a2a.Options.CheckDial: every address a name resolved to is checked again, so a public
// name that resolves to this host (or a private network) is refused for a remote target.
func (r *Reach) dial(hostport string, ip net.IP) error {
	host, port, _ := net.SplitHostPort(hostport)
	if !isLocalIP(ip) {
		if net.ParseIP(host) != nil || !(ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsUnspecified() || sharedSpace.Contains(ip)) {
			return nil // an IP literal was already judged by check; a public answer for a name check accepted is fine
		}
		if r.anyOriginHost(host) {
			return nil // the operator named this host: private addresses behind it are theirs
		}
		return fmt.Errorf("%q resolves to %s: %s", host, ip, r.refuse(ip.String(), ip))
	}
	if r.local || r.ownListener("http://"+net.JoinHostPort(ip.String(), port)) || r.ownListener("https://"+net.JoinHostPort(ip.String(), port)) {
		return nil
	}
	return fmt.Errorf("%q resolves to %s, this host's own address, and the target is remote: a remote target never reaches the operator's machine", host, ip)
}

func (r *Reach) anyOriginHost(host string) bool {
	for o := range r.origins {
		if u, err := url.Parse(o); err == nil && strings.EqualFold(u.Hostname(), host) {
			return true
		}
	}
	return false
}

func (r *Reach) refuse(host string, ip net.IP) error {
	var what string
	switch {
	case ip == nil:
		what = fmt.Sprintf("off-origin host %q (not one of this host's addresses)", clipHost(host))
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
		what = fmt.Sprintf("off-origin address %s", ip)
	}
	return fmt.Errorf("%s: not one of the target's origins %s; list it in the target configuration's limits.allowOrigins to follow it",
		what, r.describe())
}

func (r *Reach) ownListener(origin string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.listeners[origin]
}

// OwnListener registers a listener the run itself started (a stand-in, a fixture server) by one of its URLs: the
// run may reach it on this host even when the target is remote.
func (e *Env) OwnListener(raw string) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return
	}
	r := e.reachRule()
	r.mu.Lock()
	r.listeners[a2a.Origin(u)] = true
	r.mu.Unlock()
}

func (r *Reach) describe() string {
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
func (e *Env) CheckURL(u *url.URL) error { return e.reachRule().check(u) }

func (e *Env) reachRule() *Reach {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.reach == nil {
		e.reach = newReach(e.Target, nil)
	}
	return e.reach
}

var sharedSpace = &net.IPNet{IP: net.IPv4(100, 64, 0, 0), Mask: net.CIDRMask(10, 32)}

func clipHost(h string) string {
	if len(h) > 100 {
		return h[:100] + "…"
	}
	return h
}

// isLocalIP reports whether ip is this host: loopback, unspecified (which dials this host), or the address of one
// of its interfaces.
func isLocalIP(ip net.IP) bool {
	if ip.IsLoopback() || ip.IsUnspecified() {
		return true
	}
	for _, a := range hostAddrs() {
		if a.Equal(ip) {
			return true
		}
	}
	return false
}

var hostAddrs = sync.OnceValue(func() []net.IP {
	var out []net.IP
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok {
			out = append(out, n.IP)
		}
	}
	return out
})

// resolvesLoopback reports whether host (a name or an IP literal) is loopback; a name is resolved once, bounded.
func resolvesLoopback(host string) bool {
	if host == "" {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	if ip := net.ParseIP(strings.Trim(host, "[]")); ip != nil {
		return ip.IsLoopback()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	ips, err := net.DefaultResolver.LookupIPAddr(ctx, host)
	if err != nil || len(ips) == 0 {
		return false
	}
	for _, ip := range ips {
		if !ip.IP.IsLoopback() {
			return false
		}
	}
	return true
}

// credentialsTo says whether a request to u may carry the configured credentials: only to the target's own
// origins (its cards, the configuration's agents, its documents' operator input), never to an origin that is
// reachable only because limits.allowOrigins lists it (for proposals), nor to the run's own stand-ins on a
// remote target's run. A local target's run keeps everything on this host and is not narrowed.
func (r *Reach) credentialsTo(u *url.URL) bool {
	return r.local || r.creds[a2a.Origin(u)]
}
