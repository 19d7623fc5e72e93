package agents

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

var repo, _ = filepath.Abs("../..")

// example is one independent agent: its package and the document section its target.json configures.
type example struct {
	dir    string            // examples/agents/<dir>, a Go main package
	doc    string            // documents.<doc> in the configuration
	config string            // the configuration in dir (default target.json)
	args   []string          // the agent's flags beyond -addr
	env    map[string]string // the environment its configuration reads credentials from ({"fromEnv": …})
	// tls: the agent serves HTTPS with a certificate from a test CA it writes to -ca-file FILE; the run is given
	// that file as caFile (the trust a deployment gets from a public CA), which is no fact of the operator's.
	tls bool
	// credentialIDs: the ids of the configuration's credentials are operator facts too (the party each stands
	// for); without one the run names credentials.<name>.id.
	credentialIDs bool
	// elements names a member whose array items are each a fact (terms: each claim of the claim map); without one
	// the run names documents.<doc>.<member>.
	elements string
}

var examples = []example{
	{dir: "on-request", doc: "on-request"},
	{dir: "interview", doc: "interview"},
	// a2a-go's default task store: ListTasks answers named users only, so the operator declares it absent.
	{dir: "interview", doc: "interview", config: "target-private-tasks.json", args: []string{"-private-tasks"}},
	{dir: "schema-interface", doc: "schema-interface", env: map[string]string{
		"EDGE_NOC_BEARER": "Bearer test-only-noc-token", "EDGE_MONITOR_BEARER": "Bearer test-only-monitor-token"}},
	{dir: "agent-cards", doc: "agent-cards"},
	{dir: "terms", doc: "terms", tls: true, credentialIDs: true, elements: "claims"},
}

// name is the subtest's name: the directory, and the configuration when it is not target.json.
func (ex example) name() string {
	if ex.config == "" {
		return ex.dir
	}
	return ex.dir + "/" + strings.TrimSuffix(ex.config, ".json")
}

func (ex example) configFile() string { return filepath.Join(ex.dir, cmp.Or(ex.config, "target.json")) }

// build compiles a main package into dir and returns the binary's path.
func build(t *testing.T, dir, pkg, name string) string {
	t.Helper()
	out := filepath.Join(dir, name)
	cmd := exec.Command("go", "build", "-o", out, pkg)
	cmd.Dir = repo
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, b)
	}
	return out
}

// start runs an agent on a loopback port and returns its card URL (its first line: "agent <URL>").
func start(t *testing.T, bin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"-addr", "127.0.0.1:0"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		if sc.Scan() {
			line <- sc.Text()
		}
		close(line)
	}()
	select {
	case l := <-line:
		u, ok := strings.CutPrefix(l, "agent ")
		if !ok {
			t.Fatalf("%s: first line %q, want \"agent <card URL>\"", bin, l)
		}
		return u
	case <-time.After(30 * time.Second):
		t.Fatalf("%s did not announce its card URL", bin)
	}
	return ""
}

// run is `runsuite run --target url --config cfg --quiet` in its own directory (bundles land there); it returns
// the exit status and the headline.
func run(t *testing.T, runsuite, url string, cfg []byte) (int, string, string) {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "target.json")
	if err := os.WriteFile(path, cfg, 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(runsuite, "run", "--target", url, "--config", path, "--quiet")
	cmd.Dir = dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	headline := ""
	for _, l := range strings.Split(out.String(), "\n") {
		for _, p := range []string{"PASSED", "INCOMPLETE", "FAILED", "NOTHING"} {
			if strings.HasPrefix(l, p) {
				headline = l
			}
		}
	}
	return code, headline, out.String()
}

// withCAFile sets the configuration's caFile (a member outside documents: no fact is removed with it).
func withCAFile(t *testing.T, cfg []byte, caFile string) []byte {
	var c map[string]any
	if err := json.Unmarshal(cfg, &c); err != nil {
		t.Fatal(err)
	}
	c["caFile"] = caFile
	b, _ := json.Marshal(c)
	return b
}

func credentialsOf(t *testing.T, cfg []byte) map[string]map[string]any {
	var c struct {
		Credentials map[string]map[string]any `json:"credentials"`
	}
	if err := json.Unmarshal(cfg, &c); err != nil {
		t.Fatal(err)
	}
	return c.Credentials
}

// withoutElement returns cfg with item i of documents.<doc>.<member> removed.
func withoutElement(t *testing.T, cfg []byte, doc, member string, i int) []byte {
	var c map[string]any
	if err := json.Unmarshal(cfg, &c); err != nil {
		t.Fatal(err)
	}
	sec := c["documents"].(map[string]any)[doc].(map[string]any)
	items := sec[member].([]any)
	sec[member] = append(append([]any(nil), items[:i]...), items[i+1:]...)
	b, _ := json.Marshal(c)
	return b
}

// withoutCredentialID returns cfg with credentials.<name>.id removed.
func withoutCredentialID(t *testing.T, cfg []byte, name string) []byte {
	var c map[string]any
	if err := json.Unmarshal(cfg, &c); err != nil {
		t.Fatal(err)
	}
	delete(c["credentials"].(map[string]any)[name].(map[string]any), "id")
	b, _ := json.Marshal(c)
	return b
}

// facts lists the paths of every fact of a section: its members, the operator statement's members one by one,
// and each absence declaration.
func facts(sec map[string]any) [][]string {
	var out [][]string
	for k, v := range sec {
		m, nested := v.(map[string]any)
		if nested && (k == "operator" || k == "absent") {
			for kk := range m {
				out = append(out, []string{k, kk})
			}
			continue
		}
		out = append(out, []string{k})
	}
	sort.Slice(out, func(i, j int) bool { return strings.Join(out[i], ".") < strings.Join(out[j], ".") })
	return out
}

// without returns cfg with the fact at path (inside documents.<doc>) removed, and the member name the run must
// give for it.
func without(t *testing.T, cfg []byte, doc string, path []string) ([]byte, string) {
	var c map[string]any
	if err := json.Unmarshal(cfg, &c); err != nil {
		t.Fatal(err)
	}
	m := c["documents"].(map[string]any)[doc].(map[string]any)
	for _, k := range path[:len(path)-1] {
		m = m[k].(map[string]any)
	}
	delete(m, path[len(path)-1])
	b, _ := json.Marshal(c)
	name := strings.Join(path, ".")
	if path[0] == "absent" {
		name = path[1] // the declaration's member becomes the one to give
	}
	return b, name
}

// TestIndependentAgents runs the certification path against each independent agent: config check predicts nothing
// blocked and the run ends PASSED exit 0 with its operator's configuration; INCOMPLETE exit 4 naming the fact when any one fact is left out (every fact: a run
// takes a few seconds).
func TestIndependentAgents(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the harness against each example agent")
	}
	bin := t.TempDir()
	runsuite := build(t, bin, "./cmd/runsuite", "runsuite")
	for _, ex := range examples {
		t.Run(ex.name(), func(t *testing.T) {
			for k, v := range ex.env {
				t.Setenv(k, v)
			}
			args := ex.args
			caFile := filepath.Join(t.TempDir(), "ca.pem")
			if ex.tls {
				args = append(append([]string(nil), args...), "-ca-file", caFile)
			}
			url := start(t, build(t, bin, "./examples/agents/"+ex.dir, ex.dir), args...)
			cfg, err := os.ReadFile(ex.configFile())
			if err != nil {
				t.Fatal(err)
			}
			if ex.tls {
				cfg = withCAFile(t, cfg, caFile)
			}
			cfgPath := filepath.Join(t.TempDir(), filepath.Base(ex.configFile()))
			if err := os.WriteFile(cfgPath, cfg, 0o600); err != nil {
				t.Fatal(err)
			}
			check := exec.Command(runsuite, "config", "check", cfgPath, "--target", url)
			if b, err := check.CombinedOutput(); err != nil || !strings.Contains(string(b), "predicted: 0 rows blocked") {
				t.Fatalf("config check with %s: %v, want exit 0 and 0 rows predicted blocked\n%s", ex.configFile(), err, b)
			}
			code, head, out := run(t, runsuite, url, cfg)
			if code != 0 || !strings.HasPrefix(head, "PASSED") {
				t.Fatalf("with %s: exit %d %q, want 0 PASSED\n%s", ex.configFile(), code, head, out)
			}
			var c struct {
				Documents map[string]map[string]any `json:"documents"`
			}
			if err := json.Unmarshal(cfg, &c); err != nil {
				t.Fatal(err)
			}
			for _, f := range facts(c.Documents[ex.doc]) {
				less, name := without(t, cfg, ex.doc, f)
				t.Run("without "+strings.Join(f, "."), func(t *testing.T) {
					code, head, out := run(t, runsuite, url, less)
					if code != 4 || !strings.HasPrefix(head, "INCOMPLETE") {
						t.Fatalf("exit %d %q, want 4 INCOMPLETE\n%s", code, head, out)
					}
					if !strings.Contains(head, fmt.Sprintf("documents.%s.", ex.doc)) || !strings.Contains(head, name) {
						t.Errorf("headline %q does not name documents.%s.%s", head, ex.doc, name)
					}
				})
			}
			if ex.elements != "" {
				items, _ := c.Documents[ex.doc][ex.elements].([]any)
				for i := range items {
					t.Run(fmt.Sprintf("without %s[%d]", ex.elements, i), func(t *testing.T) {
						code, head, out := run(t, runsuite, url, withoutElement(t, cfg, ex.doc, ex.elements, i))
						if code != 4 || !strings.HasPrefix(head, "INCOMPLETE") || !strings.Contains(head, "documents."+ex.doc+"."+ex.elements) {
							t.Fatalf("exit %d %q, want 4 INCOMPLETE naming documents.%s.%s\n%s", code, head, ex.doc, ex.elements, out)
						}
					})
				}
			}
			if !ex.credentialIDs {
				return
			}
			for name := range credentialsOf(t, cfg) {
				t.Run("without credentials."+name+".id", func(t *testing.T) {
					code, head, out := run(t, runsuite, url, withoutCredentialID(t, cfg, name))
					if code != 4 || !strings.HasPrefix(head, "INCOMPLETE") || !strings.Contains(head, "credentials."+name+".id") {
						t.Fatalf("exit %d %q, want 4 INCOMPLETE naming credentials.%s.id\n%s", code, head, name, out)
					}
				})
			}
		})
	}
}
