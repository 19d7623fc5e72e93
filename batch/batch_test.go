package batch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/extconf/extconf/harness/evidence"
)

func write(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// The targets file is decoded strictly and checked whole before any run starts.
func TestLoadRefusesWhatItCannotRun(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "c.json", "{}")
	for body, want := range map[string]string{
		`{"targets": [{"target": "https://a.example/", "confg": "c.json"}]}`:  `unknown member "confg"`,
		`{"targets": [{"target": "https://a.example/", "Config": "c.json"}]}`: `"Config"`,
		`{"targets": []}`:                     "lists no target",
		`{"targets": [{"config": "c.json"}]}`: "exactly one of",
		`{"targets": [{"target": "https://a.example/", "image": "x"}]}`:             "exactly one of",
		`{"targets": [{"target": "ftp://a.example/"}]}`:                             "want an http(s) URL",
		`{"targets": [{"target": "https://a.example/", "config": "missing.json"}]}`: "not a readable file",
		`{"targets": [{"name": "../x", "target": "https://a.example/"}]}`:           "names the bundle directory",
		`{"targets": [{"name": "A", "image": "x"}, {"name": "a", "image": "y"}]}`:   "another target has this name",
		`{"targets": [{"image": "x"}]} {}`:                                          "",
		`{"targets": [{"image": "x"}], "targets": []}`:                              "duplicate",
	} {
		_, err := Load(write(t, dir, "t.json", body))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one containing %q", body, err, want)
		}
	}
}

// Names: given ones kept, derived ones from the host and port or the image, never colliding.
func TestLoadNamesEveryTarget(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "c.json", "{}")
	ts, err := Load(write(t, dir, "t.json", `{"targets": [
		{"target": "https://agent.example:8443/.well-known/agent-card.json", "config": "c.json"},
		{"target": "https://agent.example:8443/"},
		{"name": "agent.example-8443-3", "image": "x"},
		{"image": "registry.local/team/agent:1.2"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, x := range ts {
		got = append(got, x.Name)
	}
	if strings.Join(got, " ") != "agent.example-8443 agent.example-8443-2 agent.example-8443-3 registry.local-team-agent-1.2" {
		t.Errorf("names %v", got)
	}
	if ts[0].Config != filepath.Join(dir, "c.json") {
		t.Errorf("config %q: relative paths are read from the targets file's directory", ts[0].Config)
	}
	if s := Shard(ts, 1, 3); len(s) != 1 || s[0].Name != "agent.example-8443-2" {
		t.Errorf("shard 1/3: %v", s)
	}
}

func TestWorstOrdersOutcomes(t *testing.T) {
	order := []int{ExitPass, ExitIncomplete, ExitInterrupted, ExitFail, ExitUsage, ExitDefect}
	for i, a := range order {
		for j, b := range order {
			if w := Worst(a, b); w != order[max(i, j)] {
				t.Errorf("Worst(%d, %d) = %d", a, b, w)
			}
		}
	}
	if Worst(ExitPass, 77) != ExitDefect {
		t.Error("an unknown exit status is not counted as a defect")
	}
}

// Bundle directories from elsewhere: a link (here to /dev/zero, which would never end hashing) and an
// oversized file are unverified without being read whole; an empty directory is missing.
func TestIndexRefusesWhatItCannotRead(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"link", "huge", "empty"} {
		os.Mkdir(filepath.Join(dir, n), 0o755)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "link", BundleFile)); err != nil {
		t.Skip(err)
	}
	f, _ := os.Create(filepath.Join(dir, "huge", BundleFile))
	f.Truncate(MaxBundleBytes + 1)
	f.Close()
	idx, err := BuildIndex(dir, evidence.VerifyOptions{}, 2)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, e := range idx.Entries {
		got[e.Name] = e.Status
	}
	if got["link"] != StatusUnverified || got["huge"] != StatusUnverified || got["empty"] != StatusMissing || idx.Exit != ExitDefect {
		t.Errorf("statuses %v, exit %d", got, idx.Exit)
	}
}
