package hostile

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

// remoteListen serves h as a truly remote target: on loopback, but every harness client reaches it as
// 203.0.113.7 (a documentation address: public, not this host, as far as the reach rule can tell), carried there
// by harness.SimulateRemote after the rule judged the address. It returns the remote base URL.
func remoteListen(t *testing.T, h http.HandlerFunc) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	simMu.Lock()
	simPorts[port] = true
	simMu.Unlock()
	restore := a2a.SimulateRemote(simDial)
	t.Cleanup(restore)
	return "http://" + net.JoinHostPort(simIP, port)
}

const simIP = "203.0.113.7"

var (
	simMu    sync.Mutex
	simPorts = map[string]bool{}
)

func simDial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, _ := net.SplitHostPort(addr)
	simMu.Lock()
	ok := simPorts[port]
	simMu.Unlock()
	if host == simIP && ok {
		addr = net.JoinHostPort("127.0.0.1", port)
	} else if strings.HasPrefix(host, "203.0.113.") {
		return nil, &net.OpError{Op: "dial", Net: network, Err: errSim}
	}
	return (&net.Dialer{}).DialContext(ctx, network, addr)
}

type simErr struct{}

func (simErr) Error() string { return "simulated remote address with no listener" }

var errSim = simErr{}
