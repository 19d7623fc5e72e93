package a2a

import (
	"context"
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
