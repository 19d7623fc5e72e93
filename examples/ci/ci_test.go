package ci

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/mockagents"
	"github.com/extconf/extconf/sabotage"
)

var repo, _ = filepath.Abs("../..")

// decodeFile decodes a YAML file into v, refusing members v does not declare.
func decodeFile(t *testing.T, path string, v any) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(raw))
	dec.KnownFields(true)
	if err := dec.Decode(v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

type action struct {
	Name, Description string
	Branding          map[string]string
	Inputs            map[string]struct {
		Description string
		Required    bool
		Default     string
	}
	Outputs map[string]struct{ Description, Value string }
	Runs    struct {
		Using string
		Steps []step
	}
}

type step struct {
	ID, Name, If, Uses, Shell, Run string
	Env                            map[string]string
	With                           map[string]string
}

// agent is a running set of reference agents and a workspace holding their configuration at cfgPath, with
// every credential given as {"fromEnv": VAR}; env holds the VARs.
type agent struct {
	url string
	env []string
}

func startAgent(t *testing.T, ws, cfgPath string, set sabotage.Set) agent {
	t.Helper()
	tgt, err := mockagents.Start(set)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tgt.Close() })
	an, err := tgt.Announce()
	if err != nil {
		t.Fatal(err)
	}
	cfg := *an
	cfg.CAFile = filepath.Join(repo, "fixtures/testpki/ca.pem")
	a := agent{url: tgt.Agents["interview"]}
	names := make([]string, 0, len(cfg.Credentials))
	for n := range cfg.Credentials {
		names = append(names, n)
	}
	sort.Strings(names)
	for i, n := range names {
		c := cfg.Credentials[n]
		v := fmt.Sprintf("EXTCONF_CI_SECRET_%d", i)
		a.env = append(a.env, v+"="+c.Value.Literal)
		c.Value = target.Secret{FromEnv: v}
		cfg.Credentials[n] = c
	}
	raw, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(raw, []byte(`"Bearer`)) {
		t.Fatal("a literal credential is left in the configuration")
	}
	os.MkdirAll(filepath.Dir(filepath.Join(ws, cfgPath)), 0o755)
	if err := os.WriteFile(filepath.Join(ws, cfgPath), raw, 0o600); err != nil {
		t.Fatal(err)
	}
	return a
}

var expr = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)

// subst replaces ${{ … }} as GitHub would, from vals; an expression vals lacks fails the test.
func subst(t *testing.T, s string, vals map[string]string) string {
	return expr.ReplaceAllStringFunc(s, func(m string) string {
		k := expr.FindStringSubmatch(m)[1]
		v, ok := vals[k]
		if !ok {
			t.Fatalf("no value for ${{ %s }}", k)
		}
		return v
	})
}

// runStep runs a composite action's bash step as the runner does: its env (expressions substituted), a fresh
// GITHUB_OUTPUT file; it returns the exit status and the outputs.
func runStep(t *testing.T, s step, vals map[string]string, dir string, extra []string) (int, map[string]string, string) {
	t.Helper()
	outFile := filepath.Join(t.TempDir(), "github_output")
	os.WriteFile(outFile, nil, 0o600)
	cmd := exec.Command("bash", "-e", "-c", subst(t, s.Run, vals))
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GITHUB_OUTPUT="+outFile, "RUNNER_TEMP="+vals["runner.temp"])
	cmd.Env = append(cmd.Env, extra...)
	for k, v := range s.Env {
		cmd.Env = append(cmd.Env, k+"="+subst(t, v, vals))
	}
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	err := cmd.Run()
	code := 0
	if err != nil {
		code = -1
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
	}
	outs := map[string]string{}
	raw, _ := os.ReadFile(outFile)
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		if k, v, ok := strings.Cut(line, "="); ok {
			outs[k] = v
		}
	}
	return code, outs, log.String()
}

// The action: its install step builds runsuite from the action's own source, its run step certifies the
// reference agents (passed, exit 0; the bundle verifies; JUnit and HTML written) and a sabotaged set (failed,
// exit 1), with the inputs the example workflow passes and the secrets as fromEnv; every declared output is set.
func TestActionAndGitHubWorkflow(t *testing.T) {
	if testing.Short() {
		t.Skip("builds runsuite and runs two certifications")
	}
	var a action
	decodeFile(t, filepath.Join(repo, "action.yml"), &a)
	var wf struct {
		Name        string
		On          map[string]any
		Permissions map[string]string
		Jobs        map[string]struct {
			RunsOn         string `yaml:"runs-on"`
			TimeoutMinutes int    `yaml:"timeout-minutes"`
			Steps          []step
		}
	}
	decodeFile(t, "github-actions.yml", &wf)
	var use *step
	for _, j := range wf.Jobs {
		for i := range j.Steps {
			if strings.HasPrefix(j.Steps[i].Uses, "extconf/extconf@") {
				use = &j.Steps[i]
			}
		}
	}
	if use == nil {
		t.Fatal("the workflow does not use the action")
	}
	for k := range use.With {
		if _, ok := a.Inputs[k]; !ok {
			t.Errorf("the workflow passes %q, not an input of action.yml", k)
		}
	}
	for k, in := range a.Inputs {
		if _, ok := use.With[k]; in.Required && !ok {
			t.Errorf("the workflow leaves out the required input %q", k)
		}
	}
	if use.Env["AGENT_TOKEN"] != "${{ secrets.AGENT_TOKEN }}" {
		t.Errorf("the workflow's secret: env %v", use.Env)
	}
	if ex, _ := os.ReadFile("target.json"); !bytes.Contains(ex, []byte(`{"fromEnv": "AGENT_TOKEN"}`)) {
		t.Error("examples/ci/target.json does not take AGENT_TOKEN from the environment")
	}

	var install, run step
	for _, s := range a.Runs.Steps {
		switch s.ID {
		case "install":
			install = s
		case "run":
			run = s
		}
	}
	temp := t.TempDir()
	vals := map[string]string{"github.action_path": repo, "runner.temp": temp}
	code, outs, log := runStep(t, install, vals, repo, nil)
	if code != 0 || outs["runsuite"] == "" {
		t.Fatalf("install step: exit %d, outputs %v\n%s", code, outs, log)
	}
	vals["steps.install.outputs.runsuite"] = outs["runsuite"]

	for _, c := range []struct {
		name   string
		set    sabotage.Set
		status string
		exit   int
	}{
		{"reference agents", sabotage.Set{}, "passed", 0},
		{"sabotaged", sabotage.MustParse("terms.digest-uppercase-hex"), "failed", 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			ws := t.TempDir()
			ag := startAgent(t, ws, use.With["config"], c.set)
			v := map[string]string{}
			for k, x := range vals {
				v[k] = x
			}
			for k, in := range a.Inputs {
				v["inputs."+k] = in.Default
			}
			for k, w := range use.With {
				v["inputs."+k] = strings.ReplaceAll(w, "${{ vars.AGENT_URL }}", ag.url)
			}
			code, outs, log := runStep(t, run, v, ws, ag.env)
			if code != c.exit || outs["status"] != c.status {
				t.Fatalf("run step: exit %d status %q, want %d %q\n%s", code, outs["status"], c.exit, c.status, log)
			}
			for k, o := range a.Outputs {
				if o.Value != "${{ steps.run.outputs."+k+" }}" || outs[k] == "" {
					t.Errorf("output %s: value %q, set to %q", k, o.Value, outs[k])
				}
			}
			for _, f := range []string{outs["bundle"], outs["junit"], outs["html"]} {
				if fi, err := os.Stat(filepath.Join(ws, f)); err != nil || fi.Size() == 0 {
					t.Errorf("%s not written", f)
				}
			}
			if j, _ := os.ReadFile(filepath.Join(ws, outs["junit"])); !bytes.Contains(j, []byte(`name="TE-3.3b`)) {
				t.Errorf("%s is not the per-row JUnit report", outs["junit"])
			}
			verify := exec.Command(vals["steps.install.outputs.runsuite"], "verify", filepath.Join(ws, outs["bundle"]))
			if out, err := verify.CombinedOutput(); err != nil {
				t.Errorf("the bundle does not verify: %v\n%s", err, out)
			}
		})
	}
}

// fail-on: an incomplete run (exit 4) fails the step only under fail-on incomplete; a usage error (exit 2) is
// status error whatever fail-on says. A stand-in runsuite gives the exit statuses.
func TestActionFailOn(t *testing.T) {
	stub := filepath.Join(t.TempDir(), "runsuite")
	os.WriteFile(stub, []byte("#!/bin/sh\nif [ \"$1\" = run ]; then exit \"$STUB_RUN\"; fi\nexit \"$STUB_INDEX\"\n"), 0o755)
	for _, c := range []struct {
		failOn, run, index string
		exit               int
		status             string
	}{
		{"failed", "4", "4", 0, "incomplete"},
		{"incomplete", "4", "4", 4, "incomplete"},
		{"failed", "1", "1", 1, "failed"},
		{"failed", "0", "0", 0, "passed"},
		{"failed", "2", "3", 2, "error"},
		{"failed", "0", "3", 3, "error"},
		{"sometimes", "0", "0", 2, ""},
	} {
		cmd := exec.Command(filepath.Join(repo, "scripts/ci-action.sh"))
		cmd.Dir = t.TempDir()
		cmd.Env = append(os.Environ(), "EXTCONF_TARGET=https://127.0.0.1:9/", "EXTCONF_RUNSUITE="+stub, "EXTCONF_FAIL_ON="+c.failOn,
			"STUB_RUN="+c.run, "STUB_INDEX="+c.index, "GITHUB_OUTPUT=")
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		if code != c.exit || (c.status != "" && !strings.Contains(string(out), "status="+c.status+"\n")) {
			t.Errorf("fail-on %s, run %s, index %s: exit %d, want %d, status %s\n%s", c.failOn, c.run, c.index, code, c.exit, c.status, out)
		}
	}
}

// The GitLab recipe's script, line by line in one shell as the runner runs it (the go install line skipped:
// runsuite is this build), against the reference agents (exit 0) and a sabotaged set (exit 1, not an allowed
// failure); the artifacts it declares are written.
func TestGitLabRecipe(t *testing.T) {
	if testing.Short() {
		t.Skip("builds runsuite and runs two certifications")
	}
	var gl map[string]struct {
		Image        string
		Timeout      string
		Variables    map[string]string
		Script       []string
		AllowFailure struct {
			ExitCodes []int `yaml:"exit_codes"`
		} `yaml:"allow_failure"`
		Artifacts struct {
			When    string
			Paths   []string
			Reports struct{ Junit string }
		}
	}
	decodeFile(t, "gitlab-ci.yml", &gl)
	job, ok := gl["extconf"]
	if !ok {
		t.Fatal("no extconf job")
	}
	if !slices.Equal(job.AllowFailure.ExitCodes, []int{4}) {
		t.Errorf("allow_failure exit codes %v, want [4] (incomplete only)", job.AllowFailure.ExitCodes)
	}
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", filepath.Join(bin, "runsuite"), "./cmd/runsuite")
	build.Dir = repo
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var script strings.Builder
	script.WriteString("set -e\n")
	cfgPath := ""
	for _, l := range job.Script {
		if strings.HasPrefix(l, "go install ") {
			continue
		}
		if m := regexp.MustCompile(`--config (\S+)`).FindStringSubmatch(l); m != nil {
			cfgPath = m[1]
		}
		script.WriteString(l + "\n")
	}
	for _, c := range []struct {
		name string
		set  sabotage.Set
		exit int
	}{{"reference agents", sabotage.Set{}, 0}, {"sabotaged", sabotage.MustParse("terms.digest-uppercase-hex"), 1}} {
		t.Run(c.name, func(t *testing.T) {
			ws := t.TempDir()
			ag := startAgent(t, ws, cfgPath, c.set)
			cmd := exec.Command("bash", "-c", script.String())
			cmd.Dir = ws
			cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "AGENT_URL="+ag.url)
			cmd.Env = append(cmd.Env, ag.env...)
			for k, v := range job.Variables {
				cmd.Env = append(cmd.Env, k+"="+v)
			}
			out, err := cmd.CombinedOutput()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			}
			if code != c.exit {
				t.Fatalf("exit %d, want %d\n%s", code, c.exit, out)
			}
			for _, p := range append(job.Artifacts.Paths, job.Artifacts.Reports.Junit, "extconf-results/agent/report.html", "extconf-results/agent/bundle.json", "extconf-results/index.json") {
				if _, err := os.Stat(filepath.Join(ws, p)); err != nil {
					t.Errorf("artifact %s not written", p)
				}
			}
		})
	}
}
