package hostile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/extconf/extconf/harness/target"
)

// Issue 37.6: a configuration naming files the harness must not read whole (caFile "/dev/zero", a 600 MB
// configuration) is refused at once, and credential header names and values net/http would refuse to send are
// refused at load (runsuite exits 2), never sent as 42 failing rows.
func TestConfigFilesAndHeadersBounded(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	big := filepath.Join(dir, "big.json")
	f, _ := os.Create(big)
	_ = f.Truncate(600 << 20) // sparse
	f.Close()
	cases := map[string]string{
		"caFile /dev/zero":     write("zero.json", `{"caFile":"/dev/zero"}`),
		"600 MB config":        big,
		"header name with :":   write("h1.json", `{"credentials":{"a":{"header":"Author:ization","value":"x"}}}`),
		"header name space":    write("h2.json", `{"credentials":{"a":{"header":"X Key","value":"x"}}}`),
		"value with CRLF":      write("h3.json", `{"credentials":{"a":{"header":"Authorization","value":"Bearer x\r\nX-Injected: 1"}}}`),
		"legacy principal NUL": write("h4.json", `{"principals":{"A":{"header":"Authorization","value":"Bearer \u0000"}}}`),
	}
	for name, p := range cases {
		start := time.Now()
		_, err := target.LoadConfig(p)
		took := time.Since(start)
		if err == nil {
			t.Errorf("%s: loaded", name)
			continue
		}
		if took > time.Second {
			t.Errorf("%s: refused only after %s", name, took)
		}
		t.Logf("%-22s refused in %8s: %.110s", name, took.Round(time.Microsecond), err)
	}
	if _, err := target.LoadConfig(write("ok.json", `{"credentials":{"a":{"header":"X-Api-Key","value":"Bearer ok\tvalue"}}}`)); err != nil && strings.Contains(err.Error(), "header") {
		t.Errorf("a valid header refused: %v", err)
	}
}
