package a2atest_test

import (
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/extconf/extconf/harness/a2atest"
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
	t.Setenv(a2atest.EnvBind, "127.0.0.1") // the image uses 0.0.0.0; a test stays on loopback
	t.Setenv(a2atest.EnvPorts, fmt.Sprintf("%d-%d", lo, lo+1))
	var urls []string
	for i := 0; i < 2; i++ {
		s, err := a2atest.Start(a2atest.Agent{Name: "echo"}, a2atest.Options{TLS: true})
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
	if s, err := a2atest.Start(a2atest.Agent{Name: "third"}, a2atest.Options{TLS: true}); err == nil {
		s.Close()
		t.Fatalf("a third agent started on %s although the range holds two ports", s.URL())
	} else if !strings.Contains(err.Error(), "no free port") {
		t.Fatalf("full range: %v", err)
	}
	// An explicit address still wins and is still checked.
	s, err := a2atest.Start(a2atest.Agent{Name: "explicit"}, a2atest.Options{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := a2atest.Start(a2atest.Agent{}, a2atest.Options{Addr: "0.0.0.0:0"}); err == nil {
		t.Fatal("explicit non-loopback address accepted")
	}
}

func TestEnvMisconfigured(t *testing.T) {
	t.Setenv(a2atest.EnvBind, "0.0.0.0")
	t.Setenv(a2atest.EnvPorts, "")
	if s, err := a2atest.Start(a2atest.Agent{}, a2atest.Options{}); err == nil {
		s.Close()
		t.Fatal("bind without ports accepted")
	}
	t.Setenv(a2atest.EnvBind, "not-an-ip")
	t.Setenv(a2atest.EnvPorts, "9400-9401")
	if s, err := a2atest.Start(a2atest.Agent{}, a2atest.Options{}); err == nil {
		s.Close()
		t.Fatal("a bind address that is not an IP accepted")
	}
	for _, bad := range []string{"x", "0-3", "5-4", "1-70000", "1000-3000"} {
		if _, _, err := a2atest.ParsePortRange(bad); err == nil {
			t.Errorf("ParsePortRange(%q) accepted", bad)
		}
	}
	if lo, hi, err := a2atest.ParsePortRange("9400"); err != nil || lo != 9400 || hi != 9400 {
		t.Errorf("ParsePortRange(9400) = %d %d %v", lo, hi, err)
	}
}
