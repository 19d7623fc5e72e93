package harness

import (
	"fmt"
	"net"
	"net/url"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/target"
)

// ReachOf is the reach rule of a target and the suites run against it (see Reach): what config init/check, the
// applicability probe and every other client built outside a run apply, the same rule the run applies.
func ReachOf(tgt *target.Target, suites []Suite) *Reach { return newReach(tgt, suites) }

// NewClient is the one constructor of every HTTP client the harness builds to talk to a target (the run, config
// init/check, applicability, operator statement, proposals, rules, client certification): whatever o says, the
// client checks r at URL time (every request and redirect hop) and at dial time (every address a name resolves to,
// so a hosts-file name, this host's other addresses or a 127.x spelling are judged as what they are). o.CheckURL and
// o.CheckDial only narrow it. allow, when set, widens the URL check for origins the operator states after the client
// is built (an operator statement's origins); those still never reach this host for a remote target.
// TestOneClientConstructor (hostile/) fails on any other http.Client, http.Transport or a2a.NewClient in the module.
func NewClient(r *Reach, o a2a.Options, allow ...func(u *url.URL) bool) *a2a.Client {
	if r == nil {
		r = newReach(nil, nil) // no origins: nothing but refusals
	}
	narrowURL, narrowDial := o.CheckURL, o.CheckDial
	allowed := func(u *url.URL) bool {
		for _, a := range allow {
			if a != nil && a(u) {
				return true
			}
		}
		return false
	}
	o.CheckURL = func(u *url.URL) error {
		if err := r.check(u); err != nil {
			if !allowed(u) || r.isLocalHost(u) {
				return err
			}
		}
		if narrowURL != nil {
			return narrowURL(u)
		}
		return nil
	}
	o.CheckDial = func(hostport string, ip net.IP) error {
		if err := r.dial(hostport, ip); err != nil {
			host, port, _ := net.SplitHostPort(hostport)
			hp := net.JoinHostPort(host, port)
			if isLocalIP(ip) || !(allowed(&url.URL{Scheme: "https", Host: hp}) || allowed(&url.URL{Scheme: "http", Host: hp})) {
				return err
			}
		}
		if narrowDial != nil {
			return narrowDial(hostport, ip)
		}
		return nil
	}
	if o.CredentialsTo == nil {
		o.CredentialsTo = r.credentialsTo
	}
	return a2a.NewClient(o)
}

// isLocalHost: u names this host (loopback, localhost, one of its addresses) and the target is remote.
func (r *Reach) isLocalHost(u *url.URL) bool {
	if r.local {
		return false
	}
	h := u.Hostname()
	ip := net.ParseIP(h)
	return h == "localhost" || (ip != nil && isLocalIP(ip))
}

// NewClient is harness.NewClient with the run's reach rule: suites build their extra clients (proposals, operator
// pages, fixtures) with it.
func (e *Env) NewClient(o a2a.Options, allow ...func(u *url.URL) bool) *a2a.Client {
	return NewClient(e.reachRule(), o, allow...)
}

// String names the rule's origins (for messages).
func (r *Reach) String() string { return fmt.Sprintf("reach %s", r.describe()) }
