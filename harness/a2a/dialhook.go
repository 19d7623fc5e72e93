package a2a

import (
	"context"
	"net"
	"sync/atomic"
)

// DialHook sees every connection any Client in the process is about to open (addr as the transport dials it,
// "host:port", before name resolution); an error refuses the dial. Production code leaves it unset.
type DialHook func(ctx context.Context, network, addr string) error

var dialHook atomic.Pointer[DialHook]

// SetDialHook installs h for every Client, including clients built earlier and those the suites build for
// themselves, and returns a function that restores the previous hook. Tests use it to record what a run
// contacts and to keep it on loopback: the proof that nothing outside the target's origin was dialled.
func SetDialHook(h DialHook) (restore func()) {
	var p *DialHook
	if h != nil {
		p = &h
	}
	prev := dialHook.Swap(p)
	return func() { dialHook.Store(prev) }
}

func consultDialHook(ctx context.Context, network, addr string) error {
	if h := dialHook.Load(); h != nil {
		return (*h)(ctx, network, addr)
	}
	return nil
}

// Route connects to an address the client's checks accepted ("ip:port", already pinned by CheckDial).
type Route func(ctx context.Context, network, addr string) (net.Conn, error)

var routeHook atomic.Pointer[Route]

// SimulateRemote makes every Client connect through r after its checks judged the address: tests serve a truly
// remote target on a documentation address (203.0.113.0/24: public, not this host, to every rule) that r carries
// to a listener on loopback. Production code never sets it. It returns a function restoring the previous route.
func SimulateRemote(r Route) (restore func()) {
	var p *Route
	if r != nil {
		p = &r
	}
	prev := routeHook.Swap(p)
	return func() { routeHook.Store(prev) }
}

func routed(dial func(ctx context.Context, network, addr string) (net.Conn, error)) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		if r := routeHook.Load(); r != nil {
			return (*r)(ctx, network, addr)
		}
		return dial(ctx, network, addr)
	}
}
