package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/extconf/extconf/harness/target/container"
)

// The README's quick start is a promise to a new user: these names let the test binary stand in for the commands
// the block calls, so the block runs as written (TestMain dispatches on the name it was started under).
const (
	quickStartRunsuite = "runsuite"
	quickStartEditor   = "extconf-test-editor" // the operator, stating the facts (EXTCONF_TEST_FACTS) into the file
	quickStartFactsEnv = "EXTCONF_TEST_FACTS"
	quickStartMarker   = "<!-- quick-start:"
)

// quickStartMain runs the test binary as runsuite or as the editor when started under their names; it returns
// false otherwise.
func quickStartMain() bool {
	switch filepath.Base(os.Args[0]) {
	case quickStartRunsuite:
		os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
	case quickStartEditor:
		if err := stateFacts(os.Getenv(quickStartFactsEnv), os.Args[len(os.Args)-1]); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	return false
}

// stateFacts writes the operator's facts into the file config init wrote: the common members and credentials, and
// each document section init wrote, member by member (what the operator states wins over what init derived).
// Sections of documents the target does not declare are not added.
func stateFacts(factsPath, file string) error {
	var facts, cfg map[string]json.RawMessage
	for p, v := range map[string]*map[string]json.RawMessage{factsPath: &facts, file: &cfg} {
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(b, v); err != nil {
			return err
		}
	}
	var fdocs, docs map[string]map[string]json.RawMessage
	json.Unmarshal(facts["documents"], &fdocs)
	json.Unmarshal(cfg["documents"], &docs)
	for k, v := range facts {
		if k != "documents" {
			cfg[k] = v
		}
	}
	for id, sec := range docs {
		for k, v := range fdocs[id] {
			sec[k] = v
		}
	}
	cfg["documents"], _ = json.Marshal(docs)
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(file, b, 0o600)
}

// quickStartBlock returns the commands of the README's quick-start block (the fenced block after the marker),
// one per line as the shell would read them.
func quickStartBlock(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	i := strings.Index(s, quickStartMarker)
	if i < 0 {
		t.Fatalf("README.md has no %q marker before its quick start", quickStartMarker)
	}
	s = s[i:]
	open := strings.Index(s, "\n```")
	if open < 0 {
		t.Fatal("no code block after the quick-start marker")
	}
	s = s[open+4:]
	s = s[strings.Index(s, "\n")+1:]
	s = s[:strings.Index(s, "\n```")]
	var cmds []string
	cur := ""
	for _, l := range strings.Split(s, "\n") {
		if strings.HasSuffix(l, "\\") {
			cur += strings.TrimSuffix(l, "\\") + " "
			continue
		}
		l = cur + l
		cur = ""
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "#") {
			cmds = append(cmds, l)
		}
	}
	return cmds
}

// TestReadmeQuickStart runs README.md's "Certify your agent" block as written, with only AGENT set to a reference
// agent served by `runsuite mock` as a URL target (each of the five in turn) and the editor step stating the
// operator's facts (the mock's "# config" announcement). Every step must exit 0, and the result the README points
// to must be there: the bundle, the JUnit and HTML reports.
func TestReadmeQuickStart(t *testing.T) {
	if testing.Short() {
		t.Skip("runs five certification runs")
	}
	cmds := quickStartBlock(t)
	if len(cmds) < 4 {
		t.Fatalf("the quick start has %d commands: %q", len(cmds), cmds)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	for _, name := range []string{quickStartRunsuite, quickStartEditor} {
		if err := os.Symlink(exe, filepath.Join(bin, name)); err != nil {
			t.Fatal(err)
		}
	}
	dir := t.TempDir()
	agents, announced := serveMock(t, filepath.Join(dir, "mock-ca.pem"))
	facts := filepath.Join(dir, "facts.json")
	if err := os.WriteFile(facts, []byte(announced), 0o600); err != nil {
		t.Fatal(err)
	}
	docs := make([]string, 0, len(agents))
	for d := range agents {
		docs = append(docs, d)
	}
	sort.Strings(docs)
	if len(docs) != 5 {
		t.Fatalf("runsuite mock announced %d documents' agents: %v", len(docs), docs)
	}
	for _, doc := range docs {
		t.Run(doc, func(t *testing.T) {
			work := t.TempDir()
			env := append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"),
				"AGENT="+agents[doc], "EDITOR="+filepath.Join(bin, quickStartEditor), quickStartFactsEnv+"="+facts)
			for _, c := range cmds {
				cmd := exec.Command("sh", "-c", c)
				cmd.Dir, cmd.Env = work, env
				out, err := cmd.CombinedOutput()
				code := 0
				var ee *exec.ExitError
				if errors.As(err, &ee) {
					code = ee.ExitCode()
				} else if err != nil {
					t.Fatalf("%s: %v", c, err)
				}
				if code != 0 {
					t.Fatalf("step %q: exit %d, want 0\n%s", c, code, tail(out, 60))
				}
			}
			for _, f := range []string{"result/bundle.json", "junit.xml", "report.html"} {
				if _, err := os.Stat(filepath.Join(work, f)); err != nil {
					t.Errorf("the README points to %s: %v", f, err)
				}
			}
		})
	}
}

// serveMock starts `runsuite mock` for the test and returns each document's card URL and the "# config" line.
func serveMock(t *testing.T, caFile string) (map[string]string, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan struct{})
	go func() {
		defer close(done)
		run(ctx, []string{"mock", "--ca-file", caFile}, pw, io.Discard)
		pw.Close()
	}()
	t.Cleanup(func() { cancel(); <-done })
	agents := map[string]string{}
	var cfgLine string
	sc := bufio.NewScanner(pr)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		l := sc.Text()
		if l == container.MockReady {
			break
		}
		if strings.HasPrefix(l, container.MockConfigPrefix) {
			cfgLine = strings.TrimPrefix(l, container.MockConfigPrefix)
		} else if role, u, ok := strings.Cut(l, "\t"); ok && !strings.Contains(role, ".") {
			agents[role] = u
		}
	}
	go io.Copy(io.Discard, pr)
	if cfgLine == "" {
		t.Fatal("runsuite mock announced no configuration")
	}
	return agents, cfgLine
}

func tail(b []byte, n int) string {
	lines := bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return string(bytes.Join(lines, []byte("\n")))
}
