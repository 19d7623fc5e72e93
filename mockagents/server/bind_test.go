package server_test

import (
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/extconf/extconf/mockagents/server"
)

// freeRange finds n consecutive ports free on 127.0.0.1 (the test binds loopback only).
func freeRange(t *testing.T, n int) int {
	t.Helper()
	for base := 20000 + (int(uint16(t.Name()[0]))*97)%20000; base < 60000; base += n {
		ok := true
		for p := base; p < base+n && ok; p++ {
			l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p))
			if err != nil {
				ok = false
				continue
			}
			l.Close()
		}
		if ok {
			return base
		}
	}
	t.Fatal("no free port range on 127.0.0.1")
	return 0
}

// The container path: EXTCONF_MOCK_PORTS makes every default Start take the next port of the range on the bind
// address and advertise https://127.0.0.1:<port>; a full range is an error, never a silent ephemeral port.
func TestEnvPortRange(t *testing.T) {
	lo := freeRange(t, 2)
	t.Setenv(server.EnvBind, "127.0.0.1") // the image uses 0.0.0.0; a test stays on loopback
	t.Setenv(server.EnvPorts, fmt.Sprintf("%d-%d", lo, lo+1))
	var urls []string
	for i := 0; i < 2; i++ {
		s, err := server.Start(server.Agent{Name: "echo"}, server.Options{TLS: true})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		urls = append(urls, s.URL())
		r := do(t, "GET", s.CardURL(), nil, nil)
		if r.status != 200 || !strings.Contains(string(r.body), s.URL()) {
			t.Fatalf("card at %s: %d %s", s.CardURL(), r.status, r.body)
		}
	}
	want := []string{fmt.Sprintf("https://127.0.0.1:%d", lo), fmt.Sprintf("https://127.0.0.1:%d", lo+1)}
	if urls[0] != want[0] || urls[1] != want[1] {
		t.Fatalf("advertised %v, want %v", urls, want)
	}
	if s, err := server.Start(server.Agent{Name: "third"}, server.Options{TLS: true}); err == nil {
		s.Close()
		t.Fatalf("a third agent started on %s although the range holds two ports", s.URL())
	} else if !strings.Contains(err.Error(), "no free port") {
		t.Fatalf("full range: %v", err)
	}
	// An explicit address still wins and is still checked.
	s, err := server.Start(server.Agent{Name: "explicit"}, server.Options{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := server.Start(server.Agent{}, server.Options{Addr: "0.0.0.0:0"}); err == nil {
		t.Fatal("explicit non-loopback address accepted")
	}
}

func TestEnvMisconfigured(t *testing.T) {
	t.Setenv(server.EnvBind, "0.0.0.0")
	t.Setenv(server.EnvPorts, "")
	if s, err := server.Start(server.Agent{}, server.Options{}); err == nil {
		s.Close()
		t.Fatal("bind without ports accepted")
	}
	t.Setenv(server.EnvBind, "not-an-ip")
	t.Setenv(server.EnvPorts, "9400-9401")
	if s, err := server.Start(server.Agent{}, server.Options{}); err == nil {
		s.Close()
		t.Fatal("a bind address that is not an IP accepted")
	}
	for _, bad := range []string{"x", "0-3", "5-4", "1-70000", "1000-3000"} {
		if _, _, err := server.ParsePortRange(bad); err == nil {
			t.Errorf("ParsePortRange(%q) accepted", bad)
		}
	}
	if lo, hi, err := server.ParsePortRange("9400"); err != nil || lo != 9400 || hi != 9400 {
		t.Errorf("ParsePortRange(9400) = %d %d %v", lo, hi, err)
	}
}
