package a2atest

import (
	"context"
	"fmt"
	"net"
)

// DialLoopbackOnly dials addr only when it is a loopback IP: what a proxy in front of a local test agent (the
// client-certification recorder, the rule prover's patcher) uses so it can never be pointed elsewhere.
func DialLoopbackOnly(ctx context.Context, network, addr string) (net.Conn, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return nil, fmt.Errorf("proxy: %s is not a loopback address", addr)
	}
	var d net.Dialer
	return d.DialContext(ctx, network, addr)
}
