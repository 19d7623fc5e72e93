package a2a

import (
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/url"
	"syscall"
)

// Unreachable is a transport failure: the run got no answer from a URL at all (the name does not resolve, the
// connection is refused, reset or times out before any response, the server's certificate comes from an authority
// the operator did not configure). It is never a verdict on the target: the rows that needed the answer are
// blocked, naming the URL and the remedy. A certificate invalid whatever the trust store (expired, another name)
// and anything the target sent (a status, a body, a response cut short) are answers, and never Unreachable.
type Unreachable struct {
	URL    string // the URL the run fetched
	Origin string // its origin: one shared cause per origin and failure
	Cause  string // what failed, in a few words
	Remedy string // what the operator can do
	Err    error  // the failure as the transport reported it
}

// Remedies a transport failure names.
const (
	RemedyCAFile      = "set caFile in the target configuration to the PEM of the CA that issued it"
	RemedyNotReached  = "not reachable from this run: check that it is running and that this run's network reaches it"
	RemedyCallTimeout = "not reachable from this run within limits.callTimeout: check that it is running, or raise the limit"
)

func (u *Unreachable) Error() string { return u.Detail() }

// Detail is the blocked row's detail: its first line, the same for every row the cause blocked (origin, cause,
// remedy), is what summaries group by; the second names the URL and the transport's own words.
func (u *Unreachable) Detail() string {
	return fmt.Sprintf("not answered: %s: %s (%s)\n  %s: %v", u.Origin, u.Cause, u.Remedy, u.URL, u.Err)
}

// Unreached classifies err, the failure of an exchange with rawURL: the transport failure, or nil when err is nil,
// an answer (resp is the status seen: 0 for none) or a failure of another kind (a limit on what was sent, a URL
// the reach rule refused, a certificate invalid whatever the trust store).
func Unreached(rawURL string, status int, err error) *Unreachable {
	if err == nil || status != 0 {
		return nil
	}
	var ue *url.Error
	if rawURL == "" && errors.As(err, &ue) {
		rawURL = ue.URL
	}
	cause, remedy := transportCause(err)
	if cause == "" {
		return nil
	}
	origin := rawURL
	if u, perr := url.Parse(rawURL); perr == nil && u.Host != "" {
		origin = Origin(u)
	}
	return &Unreachable{URL: rawURL, Origin: origin, Cause: cause, Remedy: remedy, Err: err}
}

// UnreachedIn is the transport failure among errs (values a spec formats into an observation), or nil.
func UnreachedIn(rawURL string, vals ...any) *Unreachable {
	for _, v := range vals {
		if err, ok := v.(error); ok {
			var u *Unreachable
			if errors.As(err, &u) {
				return u
			}
			if u := Unreached(rawURL, 0, err); u != nil {
				return u
			}
		}
	}
	return nil
}

func transportCause(err error) (cause, remedy string) {
	var ua x509.UnknownAuthorityError
	var dns *net.DNSError
	var le *LimitError
	switch {
	case errors.As(err, &ua):
		return "its TLS certificate is signed by an authority this run does not trust", RemedyCAFile
	case errors.Is(err, ErrCircuitOpen):
		return "it stopped answering (several exchanges in a row got no response)", RemedyNotReached
	case errors.As(err, &dns):
		return "the host name does not resolve from this run", RemedyNotReached
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused", RemedyNotReached
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset before any answer", RemedyNotReached
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return "no route to the host", RemedyNotReached
	case errors.As(err, &le) && le.Limit == LimitConnectTimeout:
		return "no connection within limits.connectTimeout", RemedyNotReached
	case errors.As(err, &le) && (le.Limit == LimitCallTimeout || le.Limit == LimitStreamTimeout):
		return "no answer within the " + le.Limit + " limit", RemedyCallTimeout
	}
	return "", "" // a reach-rule refusal, a limit on what was sent, a certificate invalid for any trust store: not here
}

// Unreached is the transport failure that left the exchange without an answer, or nil when it got one.
func (e *Exchange) Unreached() *Unreachable {
	if e == nil {
		return nil
	}
	return e.unreached
}
