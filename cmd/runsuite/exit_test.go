package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Each usage or configuration error is exit 2 before anything runs, and says what to do about it.
func TestConfigurationErrorsExit2WithRemedy(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a-file")
	os.WriteFile(file, []byte("x"), 0o644)
	badCfg := filepath.Join(dir, "target.json")
	os.WriteFile(badCfg, []byte(`{"cafile": "ca.pem"}`), 0o644)
	cases := map[string]struct {
		args []string
		want string
	}{
		"unknown req":         {[]string{"run", "--req", "TE-99.9"}, "--req TE-99.9: no such row or alias"},
		"req of another doc":  {[]string{"run", "--suite", "terms", "--req", "0202.advertisement"}, "which --suite terms does not select"},
		"unwritable out":      {[]string{"run", "--out", filepath.Join(file, "run")}, "--out " + filepath.Join(file, "run") + " is not writable"},
		"unwritable junit":    {[]string{"run", "--junit", filepath.Join(file, "j.xml")}, "--junit"},
		"html is a directory": {[]string{"run", "--html", dir}, "is a directory"},
		"unreadable sign key": {[]string{"run", "--sign-key", filepath.Join(dir, "missing.jwk")}, "--sign-key"},
		"unreadable verify key": {[]string{"verify", filepath.Join(dir, "b.json"), "--key", filepath.Join(dir, "missing.jwk")},
			"--key"},
		"config member":    {[]string{"run", "--config", badCfg}, "--config " + badCfg},
		"missing config":   {[]string{"run", "--config", filepath.Join(dir, "none.json")}, "fix the target configuration file"},
		"falsify json":     {[]string{"falsify", "--json", filepath.Join(file, "t.json")}, "--json"},
		"render junit":     {[]string{"render", "x.json", "--junit", filepath.Join(file, "j.xml")}, ""},
		"unknown command":  {[]string{"rn"}, "did you mean run?"},
		"unknown flag":     {[]string{"run", "--targt", "x"}, "did you mean --target?"},
		"positional arg":   {[]string{"run", "extra"}, `unexpected argument "extra"`},
		"keygen no out":    {[]string{"keygen"}, "--out FILE"},
		"version argument": {[]string{"version", "x"}, "unexpected argument"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			code, stdout, stderr := runCLI(tc.args...)
			if code != exitUsage || !strings.Contains(stderr, tc.want) || strings.Contains(stdout, "bundle:") {
				t.Fatalf("exit %d stderr %q, want 2 and %q before any run", code, stderr, tc.want)
			}
		})
	}
}

// --req takes catalog aliases: 0202.advertisement runs the rows carrying it.
func TestReqAcceptsAliases(t *testing.T) {
	rows, err := checkReq([]string{"0202.advertisement", "TE-3.1"}, nil)
	if err != nil || len(rows) < 2 || !strings.Contains(strings.Join(rows, ","), "TE-3.1") {
		t.Fatalf("rows %v err %v", rows, err)
	}
	out := filepath.Join(t.TempDir(), "run")
	code, stdout, stderr := runCLI("run", "--suite", "agent-cards", "--req", "0202.advertisement", "--out", out, "--quiet")
	if code != exitPass || stderr != "" {
		t.Fatalf("exit %d (--quiet: stderr %q)\n%s", code, stderr, stdout)
	}
}

// A card behind a certificate the harness does not trust: a transport failure, not a verdict. The rows are
// blocked naming the caFile member, the cause is named once, and the run is incomplete (exit 4), never failed.
func TestUntrustedCertificateNamesCAFile(t *testing.T) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("{}")) }))
	defer srv.Close()
	code, stdout, stderr := runCLI("run", "--target", srv.URL+"/card.json", "--suite", "terms", "--out", filepath.Join(t.TempDir(), "b"))
	if code != exitIncomplete || !strings.Contains(stdout, "set caFile in the target configuration") || strings.Contains(stdout, "EXECUTED-FAIL") ||
		!strings.Contains(stdout, "INCOMPLETE: 0 failed, ") {
		t.Fatalf("exit %d\nstdout %.3000s\nstderr %s", code, stdout, stderr)
	}
}

// Exit 1: a target row failed (a sabotaged reference agent).
func TestExitFailOnFailedRow(t *testing.T) {
	code, stdout, _ := runCLI("run", "--suite", "terms", "--sabotage", "terms.digest-uppercase-hex", "--out", filepath.Join(t.TempDir(), "b"), "--quiet")
	if code != exitFail || !strings.Contains(stdout, "EXECUTED-FAIL TE-3.3b") {
		t.Fatalf("exit %d\n%.2000s", code, stdout)
	}
}
