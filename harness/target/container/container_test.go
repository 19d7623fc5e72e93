package container

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/extconf/extconf/harness/target"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/moby/moby/client"
	"github.com/testcontainers/testcontainers-go"

	"github.com/extconf/extconf/sabotage"
)

// ---- without an engine ----

// No engine at DOCKER_HOST: a blocked target with the reason, quickly, and no error or panic. testcontainers
// would fall back to another engine (the default socket): the DOCKER_HOST the user chose is the one asked.
func TestNoEngineIsBlocked(t *testing.T) {
	t.Setenv("DOCKER_HOST", "unix://"+filepath.Join(t.TempDir(), "no-such.sock"))
	start := time.Now()
	tgt, err := Start(context.Background(), Options{Image: "extconf-mock:ci", ProbeTimeout: 3 * time.Second})
	took := time.Since(start)
	if err != nil {
		t.Fatalf("no engine must give a blocked target, not an error: %v", err)
	}
	if !strings.HasPrefix(tgt.Blocked, "no container engine reachable: ") || !strings.Contains(tgt.Blocked, "no-such.sock") {
		t.Fatalf("Blocked = %q", tgt.Blocked)
	}
	if tgt.Kind != target.KindContainer || len(tgt.Agents) != 0 || tgt.Close != nil {
		t.Fatalf("blocked target: kind %q, agents %v, close set %v", tgt.Kind, tgt.Agents, tgt.Close != nil)
	}
	if took > 4*time.Second {
		t.Fatalf("took %s, bound 3s", took)
	}
}

// An engine socket that accepts and never answers: the probe ends at its bound (the libraries' own checks have
// no deadline).
func TestHungEngineIsBounded(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "hung.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Skipf("unix socket: %v", err)
	}
	defer ln.Close()
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c) // read nothing, answer nothing
		}
	}()
	t.Setenv("DOCKER_HOST", "unix://"+sock)
	start := time.Now()
	tgt, err := Start(context.Background(), Options{Image: "x", ProbeTimeout: 1500 * time.Millisecond})
	took := time.Since(start)
	if err != nil || !strings.Contains(tgt.Blocked, "no answer within 1.5s") {
		t.Fatalf("hung engine: target %+v, err %v", tgt, err)
	}
	if took > 3*time.Second {
		t.Fatalf("took %s, bound 1.5s", took)
	}
}

func TestContainerOptionsChecked(t *testing.T) {
	for _, o := range []Options{{}, {Image: "a", Dockerfile: "b"}, {Dockerfile: filepath.Join(t.TempDir(), "absent")}} {
		if _, err := Start(context.Background(), o); !errors.Is(err, ErrContainerConfig) {
			t.Errorf("%+v: err %v, want ErrContainerConfig", o, err)
		}
	}
}

// The environment testcontainers-go reads is in place before the first engine call, in a fresh process (its
// configuration is read once per process), and a user's own settings are kept.
func TestEnvSetBeforeFirstEngineCall(t *testing.T) {
	if os.Getenv("EXTCONF_TARGET_HELPER") == "env" {
		engineCall = func(what string) {
			fmt.Printf("CALL %s|%s=%s|%s=%s\n", what, EnvRyukDisabled, os.Getenv(EnvRyukDisabled), EnvHostOverride, os.Getenv(EnvHostOverride))
		}
		_, _ = Start(context.Background(), Options{Image: "extconf-test-absent:never", ProbeTimeout: 5 * time.Second})
		fmt.Printf("CONFIG ryuk-disabled=%v\n", testcontainers.ReadConfig().RyukDisabled)
		return
	}
	cases := []struct {
		name, dockerHost, userOverride, wantOverride string
		wantCalls                                    []string
	}{
		// DOCKER_HOST unset: the probe goes through testcontainers itself (engine present or not).
		{"testcontainers discovery", "", "", "127.0.0.1", []string{"testcontainers.NewDockerProvider"}},
		{"user's DOCKER_HOST", "unix:///nonexistent/docker.sock", "", "127.0.0.1", []string{"docker client (DOCKER_HOST)"}},
		{"user's own override kept", "unix:///nonexistent/docker.sock", "127.0.0.2", "127.0.0.2", []string{"docker client (DOCKER_HOST)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestEnvSetBeforeFirstEngineCall$", "-test.count=1")
			var env []string
			for _, kv := range os.Environ() {
				if !strings.HasPrefix(kv, "TESTCONTAINERS_") && !strings.HasPrefix(kv, "DOCKER_HOST=") {
					env = append(env, kv)
				}
			}
			env = append(env, "EXTCONF_TARGET_HELPER=env")
			if c.dockerHost != "" {
				env = append(env, "DOCKER_HOST="+c.dockerHost)
			}
			if c.userOverride != "" {
				env = append(env, EnvHostOverride+"="+c.userOverride)
			}
			cmd.Env = env
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("helper: %v\n%s", err, out)
			}
			var calls []string
			for _, line := range strings.Split(string(out), "\n") {
				if !strings.HasPrefix(line, "CALL ") {
					continue
				}
				f := strings.Split(strings.TrimPrefix(line, "CALL "), "|")
				calls = append(calls, f[0])
				if f[1] != EnvRyukDisabled+"=true" || f[2] != EnvHostOverride+"="+c.wantOverride {
					t.Errorf("at %s the environment was %s %s", f[0], f[1], f[2])
				}
			}
			if len(calls) == 0 || calls[0] != c.wantCalls[0] {
				t.Fatalf("engine calls %v, want first %v\n%s", calls, c.wantCalls, out)
			}
			if !strings.Contains(string(out), "CONFIG ryuk-disabled=true") {
				t.Errorf("testcontainers' configuration does not have the reaper disabled:\n%s", out)
			}
		})
	}
}

// ---- with an engine ----

// requireEngine skips without an engine, except in CI, which always has one: there a missing engine fails.
func requireEngine(t *testing.T) {
	t.Helper()
	if err := ProbeEngine(context.Background(), DefaultProbeTimeout); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true but no container engine is reachable: %v", err)
		}
		t.Skipf("no container engine reachable (%v): the container target is NOT tested here (CI requires an engine)", err)
	}
}

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// buildStatic cross-compiles pkg as a static linux binary (what a FROM scratch image needs).
func buildStatic(t *testing.T, pkg, out string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-o", out, pkg)
	cmd.Dir = repoRoot(t)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+runtime.GOARCH)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, b)
	}
}

type tWriter struct{ t *testing.T }

func (w tWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

func engineClient(t *testing.T) *client.Client {
	t.Helper()
	PrepareEnv()
	p, err := testcontainers.NewDockerProvider()
	if err != nil {
		t.Fatal(err)
	}
	cli, ok := p.Client().(*testcontainers.DockerClient)
	if !ok || cli == nil {
		t.Fatalf("provider client %T", p.Client())
	}
	return cli.Client
}

// leftovers lists the harness's containers of an image (all states).
func leftovers(t *testing.T, imageID string) []string {
	t.Helper()
	res, err := engineClient(t).ContainerList(context.Background(), client.ContainerListOptions{All: true,
		Filters: client.Filters{}.Add("label", LabelHarness).Add("ancestor", imageID)})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range res.Items {
		ids = append(ids, shortID(c.ID)+" "+string(c.State))
	}
	return ids
}

// The reference agents' image, built from docker/Dockerfile around a fresh static runsuite: the mock protocol,
// loopback-only ports under the same numbers, the test CA, announced settings, logs, teardown, image removal.
func TestContainerReferenceAgents(t *testing.T) {
	requireEngine(t)
	dir := t.TempDir()
	buildStatic(t, "./cmd/runsuite", filepath.Join(dir, "bin", "runsuite"))
	df, err := os.ReadFile(filepath.Join(repoRoot(t), "docker", "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Dockerfile"), df, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	start := time.Now()
	var toggle string // any agent-side toggle: the image's command must carry it (the suites judge its effect in CI)
	for _, tg := range sabotage.All() {
		if tg.Side == "agent" {
			toggle = string(tg.ID)
			break
		}
	}
	if toggle == "" {
		t.Fatal("the sabotage registry has no agent-side toggle")
	}
	tgt, err := Start(ctx, Options{Dockerfile: dir, Sabotage: []string{toggle}, Log: tWriter{t}})
	if err != nil {
		t.Fatal(err)
	}
	closed := false
	defer func() {
		if !closed {
			tgt.Close()
		}
	}()
	t.Logf("built and started in %s", time.Since(start))
	if tgt.Blocked != "" || tgt.Kind != target.KindContainer || !strings.HasPrefix(tgt.ImageID, "sha256:") {
		t.Fatalf("target: blocked %q kind %q image %q", tgt.Blocked, tgt.Kind, tgt.ImageID)
	}
	if len(tgt.Sabotage) != 1 || tgt.Sabotage[0] != toggle {
		t.Errorf("Sabotage = %v", tgt.Sabotage)
	}
	if len(tgt.Agents) < 2 {
		t.Fatalf("roles: %v", tgt.Agents)
	}
	hc := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{Proxy: nil, TLSClientConfig: &tls.Config{RootCAs: tgt.RootCAs}}}
	for role, u := range tgt.Agents {
		if !strings.HasPrefix(u, "https://127.0.0.1:") {
			t.Errorf("role %q at %s: not https://127.0.0.1", role, u)
		}
		if !strings.HasSuffix(u, "/.well-known/agent-card.json") {
			continue
		}
		resp, err := hc.Get(u)
		if err != nil {
			t.Fatalf("role %q: %v", role, err)
		}
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		// The card names its own origin, which is also the host's URL: same port inside and out.
		origin := strings.TrimSuffix(u, "/.well-known/agent-card.json")
		if resp.StatusCode != 200 || !strings.Contains(string(body), origin) {
			t.Errorf("role %q: %d, card does not name %s", role, resp.StatusCode, origin)
		}
	}
	// The announcement is a configuration file's credentials and sections (the caller decodes the sections).
	if len(tgt.Config.Credentials) == 0 || len(tgt.Config.Documents) != 5 {
		t.Errorf("the agents' announced operator settings were not taken: %d credentials, sections %v", len(tgt.Config.Credentials), slices.Sorted(maps.Keys(tgt.Config.Documents)))
	}
	if logs := string(tgt.Logs()); !strings.Contains(logs, MockReady) {
		t.Errorf("logs lack %q:\n%s", MockReady, logs)
	}
	if left := leftovers(t, tgt.ImageID); len(left) != 1 {
		t.Errorf("running containers of the image: %v", left)
	}
	if err := tgt.Close(); err != nil {
		t.Fatal(err)
	}
	closed = true
	if left := leftovers(t, tgt.ImageID); len(left) != 0 {
		t.Errorf("containers left after Close: %v", left)
	}
	if _, err := engineClient(t).ImageInspect(context.Background(), tgt.ImageID); err == nil {
		t.Errorf("the image built from the Dockerfile was kept")
	}
	if logs := string(tgt.Logs()); !strings.Contains(logs, MockReady) {
		t.Errorf("logs after Close lack %q", MockReady)
	}
}

// Any other image: one port on a random 127.0.0.1 port, one role; and every way a start can go wrong ends
// bounded, with the container gone.
func TestContainerExternalImage(t *testing.T) {
	requireEngine(t)
	dir := t.TempDir()
	buildStatic(t, "./harness/target/testdata/cardserver", filepath.Join(dir, "cardserver"))
	df := "FROM scratch\nCOPY cardserver /cardserver\nEXPOSE 8080\nENTRYPOINT [\"/cardserver\"]\n"
	if err := os.WriteFile(filepath.Join(dir, "Dockerfile"), []byte(df), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tgt, err := Start(ctx, Options{Dockerfile: filepath.Join(dir, "Dockerfile"), KeepImage: true, Log: tWriter{t}})
	if err != nil {
		t.Fatal(err)
	}
	image := tgt.ImageID
	t.Cleanup(func() {
		if _, err := engineClient(t).ImageRemove(context.Background(), image, client.ImageRemoveOptions{Force: true, PruneChildren: true}); err != nil {
			t.Errorf("removing the test image: %v", err)
		}
	})
	u := tgt.Agents[""]
	if len(tgt.Agents) != 1 || !strings.HasPrefix(u, "http://127.0.0.1:") || !strings.HasSuffix(u, "/.well-known/agent-card.json") {
		t.Fatalf("agents %v", tgt.Agents)
	}
	resp, err := http.Get(u)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("card: %v %v", resp, err)
	}
	resp.Body.Close()
	if err := tgt.Close(); err != nil {
		t.Fatal(err)
	}
	if left := leftovers(t, image); len(left) != 0 {
		t.Fatalf("left after Close: %v", left)
	}

	t.Run("dies at once", func(t *testing.T) {
		start := time.Now()
		_, err := Start(ctx, Options{Image: image, Cmd: []string{"-exit"}, StartTimeout: 30 * time.Second})
		if err == nil || !strings.Contains(err.Error(), "stopped") || !strings.Contains(err.Error(), "exiting on purpose") {
			t.Fatalf("err %v", err)
		}
		if time.Since(start) > 20*time.Second {
			t.Errorf("took %s to notice", time.Since(start))
		}
		if left := leftovers(t, image); len(left) != 0 {
			t.Errorf("left: %v", left)
		}
	})
	t.Run("never ready", func(t *testing.T) {
		start := time.Now()
		_, err := Start(ctx, Options{Image: image, Config: target.Config{Cmd: []string{"-mute"}}, StartTimeout: 4 * time.Second})
		if err == nil || !strings.Contains(err.Error(), "did not answer 200 in time") {
			t.Fatalf("err %v", err)
		}
		if d := time.Since(start); d > 20*time.Second {
			t.Errorf("took %s, bound 4s (+ teardown)", d)
		}
		if left := leftovers(t, image); len(left) != 0 {
			t.Errorf("left: %v", left)
		}
	})
	t.Run("interrupted", func(t *testing.T) {
		ictx, cancel := context.WithCancel(ctx)
		time.AfterFunc(1500*time.Millisecond, cancel)
		_, err := Start(ictx, Options{Image: image, Cmd: []string{"-mute"}, StartTimeout: time.Minute})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err %v, want context.Canceled", err)
		}
		if left := leftovers(t, image); len(left) != 0 {
			t.Errorf("left: %v", left)
		}
	})
	t.Run("absent image is never pulled", func(t *testing.T) {
		_, err := Start(ctx, Options{Image: "extconf-test-absent:never"})
		if !errors.Is(err, ErrContainerConfig) || !strings.Contains(err.Error(), `"extconf-test-absent:never" is not present locally`) {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("sabotage needs the mock protocol", func(t *testing.T) {
		_, err := Start(ctx, Options{Image: image, Sabotage: []string{"iv.refusal-wrong-reason"}})
		if !errors.Is(err, ErrContainerConfig) {
			t.Fatalf("err %v", err)
		}
	})
}

// The mock protocol parser: card URLs only on published origins; the announced settings filtered.
func TestParseAnnouncement(t *testing.T) {
	allowed := map[string]bool{"127.0.0.1:9400": true, "127.0.0.1:9401": true}
	log := "noise\nterms\thttps://127.0.0.1:9400/.well-known/agent-card.json\n" +
		"terms.hook\thttps://127.0.0.1:9400/_hook\n" +
		MockConfigPrefix + `{"inventory":"https://127.0.0.1:9401/inv","caFile":"/etc/shadow","principals":{"A":{"header":"Authorization","value":"Bearer x"}}}` + "\n" +
		MockReady + "\nlater\tignored\n"
	ann, done, err := parseAnnouncement([]byte(log), allowed)
	if err != nil || !done {
		t.Fatalf("done %v err %v", done, err)
	}
	if len(ann.roles) != 2 || ann.config.CAFile != "" || ann.config.Inventory == "" || ann.config.Principals["A"].Value != "Bearer x" {
		t.Fatalf("%+v", ann)
	}
	if _, done, _ := parseAnnouncement([]byte("terms\thttps://127.0.0.1:9400/x\n"), allowed); done {
		t.Error("done before the ready line")
	}
	for _, bad := range []string{
		"terms\thttps://203.0.113.7:9400/.well-known/agent-card.json\n" + MockReady,
		"terms\thttps://127.0.0.1:9999/.well-known/agent-card.json\n" + MockReady,
		"terms\thttps://127.0.0.1:9400/a\n" + MockConfigPrefix + `{"inventory":"https://example.com/inv"}` + "\n" + MockReady,
		"terms\thttps://127.0.0.1:9400/a\n" + MockConfigPrefix + `{"unknownMember":1}` + "\n" + MockReady,
		// A hook inside a document section is a URL too: it must be on the container's own origins.
		"terms\thttps://127.0.0.1:9400/a\n" + MockConfigPrefix + `{"documents":{"terms":{"changeHook":"https://203.0.113.7/hook"}}}` + "\n" + MockReady,
		MockReady,
	} {
		if _, _, err := parseAnnouncement([]byte(bad), allowed); err == nil {
			t.Errorf("accepted:\n%s", bad)
		}
	}
	// The operator's settings win over the announced ones.
	m := mergeAnnounced(target.Config{Inventory: "op", Principals: map[string]target.Principal{"A": {Value: "op"}}},
		target.Config{Inventory: "ann", Discovery: "ann", Principals: map[string]target.Principal{"A": {Value: "ann"}, "B": {Value: "ann"}}})
	if m.Inventory != "op" || m.Discovery != "ann" || m.Principals["A"].Value != "op" || m.Principals["B"].Value != "ann" {
		t.Errorf("merge: %+v", m)
	}
	// Sections merge member by member, the operator's winning; credentials by name.
	m = mergeAnnounced(target.Config{Credentials: map[string]target.Credential{"a": {Header: "op"}},
		Documents: map[string]json.RawMessage{"terms": json.RawMessage(`{"changeHook":"op"}`)}},
		target.Config{Credentials: map[string]target.Credential{"a": {Header: "ann"}, "b": {Header: "ann"}},
			Documents: map[string]json.RawMessage{"terms": json.RawMessage(`{"changeHook":"ann","principals":["b"]}`), "interview": json.RawMessage(`{}`)}})
	var terms map[string]any
	json.Unmarshal(m.Documents["terms"], &terms)
	if m.Credentials["a"].Header != "op" || m.Credentials["b"].Header != "ann" || terms["changeHook"] != "op" || terms["principals"] == nil || m.Documents["interview"] == nil {
		t.Errorf("merge: %+v, terms %v", m, terms)
	}
}
