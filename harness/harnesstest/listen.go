package harnesstest

import (
	"context"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/extconf/extconf/harness/a2a"
)

// Listen serves h on addr for the test's lifetime and returns its http base URL.
func Listen(t testing.TB, addr string, h http.HandlerFunc) string {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return "http://" + ln.Addr().String()
}

// RemoteIP is the address a RemoteListen target has to every harness client: a documentation address (public,
// not this host, as far as the reach rule can tell).
const RemoteIP = "203.0.113.7"

// RemoteListen serves h as a truly remote target: on loopback, but every harness client reaches it as RemoteIP,
// carried there by a2a.SimulateRemote after the reach rule judged the address. It returns the remote base URL.
func RemoteListen(t testing.TB, h http.HandlerFunc) string {
	t.Helper()
	base := Listen(t, "127.0.0.1:0", h)
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(base, "http://"))
	remote.Lock()
	remote.ports[port] = true
	remote.Unlock()
	t.Cleanup(a2a.SimulateRemote(remoteDial))
	return "http://" + net.JoinHostPort(RemoteIP, port)
}

var remote = struct {
	sync.Mutex
	ports map[string]bool
}{ports: map[string]bool{}}

// remoteDial carries RemoteIP:port to the loopback listener of that port; any other documentation address refuses.
func remoteDial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, _ := net.SplitHostPort(addr)
	remote.Lock()
	ok := remote.ports[port]
	remote.Unlock()
	if host == RemoteIP && ok {
		addr = net.JoinHostPort("127.0.0.1", port)
	} else if strings.HasPrefix(host, "203.0.113.") {
		return nil, &net.OpError{Op: "dial", Net: network, Err: errNoRemote}
	}
	return (&net.Dialer{}).DialContext(ctx, network, addr)
}

type noRemote struct{}

func (noRemote) Error() string { return "simulated remote address with no listener" }

var errNoRemote = noRemote{}
