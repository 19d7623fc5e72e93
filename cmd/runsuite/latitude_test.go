package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/extconf/extconf/sabotage"
)

// runsuite latitude list names every latitude with its documents and what permits it; sabotage list names none.
func TestLatitudeList(t *testing.T) {
	code, out, _ := cliRun(t, "latitude", "list")
	if code != exitPass {
		t.Fatalf("exit %d", code)
	}
	_, sab, _ := cliRun(t, "sabotage", "list")
	for _, l := range sabotage.Latitudes() {
		if !strings.Contains(out, string(l.ID)) {
			t.Errorf("latitude list lacks %s", l.ID)
		}
		if strings.Contains(sab, string(l.ID)) {
			t.Errorf("sabotage list names latitude %s", l.ID)
		}
	}
}

// Toggle and latitude ids go to their own flags: the other is a usage error naming the right one.
func TestLatitudeFlagsAreUsageErrors(t *testing.T) {
	tg := string(sabotage.All()[0].ID)
	for _, args := range [][]string{
		{"falsify", "--sabotage", string(sabotage.LatNoCardCache)},
		{"falsify", "--latitude", tg},
		{"falsify", "--latitude", "a2a.lat.no-such-latitude"},
		{"run", "--sabotage", string(sabotage.LatNoCardCache)},
		{"mock", "--latitude", tg},
	} {
		if code, _, stderr := cliRun(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d (%s)", args, code, exitUsage, stderr)
		}
	}
}

// falsify --latitude runs only that latitude (no toggle), prints "latitudes survived 1/1", and its bundle carries
// the latitudes section, which verify accepts.
func TestFalsifyLatitudeBundleVerifies(t *testing.T) {
	dir := t.TempDir()
	code, out, stderr := cliRun(t, "falsify", "--latitude", string(sabotage.LatNoCardCache), "--out", dir)
	if code != exitPass {
		t.Fatalf("exit %d\n%s\n%s", code, out, stderr)
	}
	if !strings.Contains(out, "latitudes survived 1/1") || !strings.Contains(stderr, "then 0 sabotaged runs, then 1 latitude runs") {
		t.Fatalf("summary:\n%s\n%s", out, stderr)
	}
	m := regexp.MustCompile(`(?m)^bundle: (.+)$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no bundle path in:\n%s", out)
	}
	code, vout, _ := cliRun(t, "verify", m[1])
	if code != exitPass || !strings.Contains(vout, "latitudes survived 1/1") {
		t.Fatalf("verify exit %d:\n%s", code, vout)
	}
}
