package a2atest

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
)

// Environment variables that let the reference agents serve from inside a container. Only the reference image
// (Dockerfile) sets them; with both unset the core behaves as before: loopback only, an ephemeral port.
//
// With EnvPorts set, every Start whose Options.Addr is empty listens on the lowest free port of the range, on
// the address EnvBind names (default 127.0.0.1), and its card still advertises https://127.0.0.1:<port>: the
// container's port is published on the host's 127.0.0.1 under the same number, so one URL works on both sides.
// Options.Addr, when given, wins and keeps its loopback check.
const (
	EnvBind  = "EXTCONF_MOCK_BIND"  // e.g. "0.0.0.0" in a container; any IP address
	EnvPorts = "EXTCONF_MOCK_PORTS" // e.g. "9400-9423", inclusive
)

// envListen is the EnvBind/EnvPorts listener; ok is false when EnvPorts is unset (the default path).
func envListen() (ln net.Listener, advertise string, ok bool, err error) {
	ports := strings.TrimSpace(os.Getenv(EnvPorts))
	bind := strings.TrimSpace(os.Getenv(EnvBind))
	if ports == "" {
		if bind != "" {
			return nil, "", true, fmt.Errorf("server: %s=%q is set without %s: the advertised port would be unknowable", EnvBind, bind, EnvPorts)
		}
		return nil, "", false, nil
	}
	lo, hi, err := ParsePortRange(ports)
	if err != nil {
		return nil, "", true, fmt.Errorf("server: %s: %w", EnvPorts, err)
	}
	if bind == "" {
		bind = "127.0.0.1"
	}
	if net.ParseIP(bind) == nil {
		return nil, "", true, fmt.Errorf("server: %s=%q: want an IP address", EnvBind, bind)
	}
	envMu.Lock() // one Start at a time walks the range, so two agents never race for a port
	defer envMu.Unlock()
	var errs []error
	for p := lo; p <= hi; p++ {
		l, err := net.Listen("tcp", net.JoinHostPort(bind, strconv.Itoa(p)))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		return l, "127.0.0.1:" + strconv.Itoa(p), true, nil
	}
	return nil, "", true, fmt.Errorf("server: no free port in %s=%s on %s: %w", EnvPorts, ports, bind, errors.Join(errs...))
}

var envMu sync.Mutex

// ParsePortRange reads "LO-HI" (inclusive) or a single port "P"; ports 1–65535, at most 1024 of them.
func ParsePortRange(s string) (lo, hi int, err error) {
	a, b, found := strings.Cut(strings.TrimSpace(s), "-")
	if lo, err = strconv.Atoi(strings.TrimSpace(a)); err != nil {
		return 0, 0, fmt.Errorf("port range %q: %w", s, err)
	}
	hi = lo
	if found {
		if hi, err = strconv.Atoi(strings.TrimSpace(b)); err != nil {
			return 0, 0, fmt.Errorf("port range %q: %w", s, err)
		}
	}
	if lo < 1 || hi > 65535 || hi < lo || hi-lo >= 1024 {
		return 0, 0, fmt.Errorf("port range %q: want LO-HI with 1 ≤ LO ≤ HI ≤ 65535 and at most 1024 ports", s)
	}
	return lo, hi, nil
}
