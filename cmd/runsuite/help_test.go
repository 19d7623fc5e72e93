package main

import (
	"regexp"
	"strings"
	"testing"
)

// runsuite -h, runsuite run -h, runsuite run --help and runsuite help run print usage with flags and examples to
// stdout and exit 0.
func TestHelpExitsZeroWithUsageAndExamples(t *testing.T) {
	for _, args := range [][]string{{"-h"}, {"--help"}, {"help"}} {
		code, out, _ := runCLI(args...)
		if code != exitPass || !strings.Contains(out, "Commands:") || !strings.Contains(out, "Exit status:") {
			t.Errorf("%v: exit %d\n%s", args, code, out)
		}
		for _, c := range commands {
			if !strings.Contains(out, "  "+c.name+" ") {
				t.Errorf("%v: overview does not list %s", args, c.name)
			}
		}
	}
	for _, c := range commands {
		for _, args := range [][]string{{c.name, "-h"}, {c.name, "--help"}, {"help", c.name}} {
			code, out, errOut := runCLI(args...)
			if code != exitPass || !strings.HasPrefix(out, "runsuite "+c.name+": ") || !strings.Contains(out, "Usage:\n  runsuite "+c.name) ||
				!strings.Contains(out, "Examples:\n") {
				t.Errorf("%v: exit %d stderr %q\n%s", args, code, errOut, out)
			}
		}
	}
	_, out, _ := runCLI("run", "-h")
	for _, flag := range []string{"--target URL", "--req IDS", "--out DIR", "--sign-key FILE", "--quiet", "-h, --help"} {
		if !strings.Contains(out, flag) {
			t.Errorf("run -h lacks %q", flag)
		}
	}
}

func TestSuggestions(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"rn"}, `unknown command "rn" (did you mean run?)`},
		{[]string{"verfy"}, "did you mean verify?"},
		{[]string{"run", "--targt", "x"}, "unknown flag --targt (did you mean --target?)"},
		{[]string{"falsify", "--sabotge", "x"}, "did you mean --sabotage?"},
		{[]string{"run", "--suite", "term"}, "did you mean terms?"},
		{[]string{"help", "rendr"}, "did you mean render?"}, // "rnder" is 2 edits from index too
		{[]string{"run", "--req", "0202.advertisment"}, "did you mean 0202.advertisement?"},
	}
	for _, c := range cases {
		code, _, stderr := runCLI(c.args...)
		if code != exitUsage || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d stderr %q, want 2 and %q", c.args, code, stderr, c.want)
		}
	}
}

func TestCompletion(t *testing.T) {
	code, out, _ := runCLI("completion", "bash")
	if code != exitPass || !strings.Contains(out, "complete -o filenames -F _runsuite runsuite") ||
		!strings.Contains(out, "run) words=") || !strings.Contains(out, "--target") || !strings.Contains(out, "verify) words=\"--key --help\"") {
		t.Fatalf("exit %d\n%s", code, out)
	}
}

// Progress: one plain line per document on a stderr that is not a terminal; none with --quiet.
func TestProgressLines(t *testing.T) {
	code, _, stderr := runCLI("run", "--suite", "terms", "--out", t.TempDir()+"/b")
	if code != exitPass || !regexp.MustCompile(`(?m)^runsuite: terms +\d+/\d+ rows +\d`).MatchString(stderr) {
		t.Fatalf("exit %d stderr %q", code, stderr)
	}
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		code, out, _ := runCLI(args...)
		if code != exitPass || !strings.HasPrefix(out, "runsuite (extconf) ") || !strings.Contains(out, "catalog ") ||
			!strings.Contains(out, "document terms ") || !strings.Contains(out, "build ") {
			t.Errorf("%v: exit %d\n%s", args, code, out)
		}
	}
	code, out, _ := runCLI("version", "--json")
	if code != exitPass || !strings.Contains(out, `"textSha256": "sha256:`) || !strings.Contains(out, `"digest": "sha256:`) {
		t.Errorf("version --json: exit %d\n%s", code, out)
	}
}
