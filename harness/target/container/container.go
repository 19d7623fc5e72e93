package container

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/extconf/extconf/harness/target"

	"github.com/moby/moby/api/types/container"
	"github.com/moby/moby/api/types/network"
	"github.com/moby/moby/client"
	"github.com/testcontainers/testcontainers-go"

	"github.com/extconf/extconf/fixtures/testpki"
)

// What testcontainers-go reads from the process environment (notes/containers.md). The harness sets both before
// its first engine call unless the user already did: no reaper (its image lives on a registry these machines
// cannot reach) and the published ports reached on 127.0.0.1 (never the default gateway, an address off the
// machine, which testcontainers otherwise picks when it believes it runs inside a container).
const (
	EnvRyukDisabled = "TESTCONTAINERS_RYUK_DISABLED"
	EnvHostOverride = "TESTCONTAINERS_HOST_OVERRIDE"
)

// Labels. An image carrying LabelMockProtocol speaks the extconf reference-agent protocol (see Container); the
// harness puts LabelHarness on every container it starts, so leftovers can be found (`docker ps --filter label=…`).
const (
	LabelMockProtocol = "org.extconf.mock-protocol" // value: how many ports its agents need, e.g. "24"
	LabelHarness      = "org.extconf.harness"
)

// The reference-agent protocol, on the container's stdout: one "ROLE<TAB>CARD-URL" line per agent, at most one
// MockConfigPrefix line holding the operator settings the agents supply for themselves (a Config in JSON), then
// MockReady. runsuite mock prints exactly this.
const (
	MockConfigPrefix = "# config\t"
	MockReady        = "# ready"
	// In-container variables the protocol sets (harness/a2atest/bind.go reads them).
	envMockBind  = "EXTCONF_MOCK_BIND"
	envMockPorts = "EXTCONF_MOCK_PORTS"
)

// ErrContainerConfig marks an operator mistake (no such local image, no Dockerfile, no port): exit status 2.
var ErrContainerConfig = errors.New("container target")

// Default bounds.
const (
	DefaultProbeTimeout = 10 * time.Second // is an engine there at all
	DefaultStartTimeout = 60 * time.Second // create, start, and every card answering
	DefaultBuildTimeout = 5 * time.Minute  // --dockerfile
	maxLogBytes         = 8 << 20          // container.log beside the bundle
	maxCardBytes        = 1 << 20
	cardPath            = "/.well-known/agent-card.json"
)

// Options say what to start. Exactly one of Image and Dockerfile.
type Options struct {
	Image      string        // a local image reference or id; never pulled
	Dockerfile string        // a build context directory holding a Dockerfile, or the Dockerfile itself
	Config     target.Config // operator settings; Port, CardPath, Scheme, Cmd for images that do not speak the mock protocol
	// Cmd replaces the image's command (the arguments to its entrypoint); nil: Config.Cmd, else the image's own.
	Cmd []string
	// Sabotage switches toggles (and latitudes) on in a reference-agent image (passed as its command: --sabotage a,b;
	// its runsuite mock accepts latitude ids there too).
	Sabotage []string
	// KeepImage keeps an image built from Dockerfile; by default it is removed when the target closes.
	KeepImage bool
	// Log receives progress: the engine library's own lines and the image build; nil: discarded.
	Log io.Writer
	// Bounds; zero means the defaults above.
	ProbeTimeout, StartTimeout, BuildTimeout time.Duration
}

// Start starts an image (or builds one from a Dockerfile) with testcontainers-go and returns it as a target.
//
// Every published port is bound to 127.0.0.1 only, and the started container is checked for it. The image is
// never pulled: one missing locally is an error naming it. The container is terminated by Target.Close and on
// every error path after it was created; an interrupt (ctx cancelled) is such a path.
//
// With no engine reachable within ProbeTimeout the result is a Target whose Blocked says why (and err is nil):
// the caller turns that into a run whose rows are all blocked, never a pass.
//
// Two kinds of image:
//   - A reference-agent image (label LabelMockProtocol=N): N free consecutive ports of the host's 127.0.0.1 are
//     chosen and published under the same numbers; the container gets EXTCONF_MOCK_BIND=0.0.0.0 and
//     EXTCONF_MOCK_PORTS=LO-HI, so each agent's card advertises https://127.0.0.1:PORT, which is also the host's
//     URL. The roles come from its stdout (the mock protocol); each card URL is then waited on over HTTPS
//     trusting the test CA. Operator settings it announces fill members the operator's Config leaves empty.
//   - Any other image: Config.Port (default: the image's one exposed port) is published on a random port of
//     127.0.0.1 and the single agent (role "") is waited on at Config.Scheme://127.0.0.1:PORT/Config.CardPath.
func Start(ctx context.Context, o Options) (*target.Target, error) {
	PrepareEnv()
	if (o.Image == "") == (o.Dockerfile == "") {
		return nil, fmt.Errorf("%w: give exactly one of an image and a Dockerfile", ErrContainerConfig)
	}
	if o.Dockerfile != "" {
		if _, _, err := dockerfileContext(o.Dockerfile); err != nil {
			return nil, err
		}
	}
	bound := orDefault(o.ProbeTimeout, DefaultProbeTimeout)
	if err := ProbeEngine(ctx, bound); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return &target.Target{Kind: target.KindContainer, Agents: map[string]string{}, Config: o.Config,
			Blocked: "no container engine reachable: " + err.Error()}, nil
	}

	c := &ctr{o: o, logger: tcLogger(o.Log)}
	t, err := c.start(ctx)
	if err != nil {
		if cerr := c.close(); cerr != nil {
			err = fmt.Errorf("%w (and cleaning up: %v)", err, cerr)
		}
		if ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
			err = fmt.Errorf("%w: %v", ctx.Err(), err)
		}
		return nil, err
	}
	return t, nil
}

// ctr is one container being started or running.
type ctr struct {
	o        Options
	logger   *logger
	provider *testcontainers.DockerProvider
	built    string // image tag built from the Dockerfile (removed at close unless KeepImage)
	c        *testcontainers.DockerContainer

	closeOnce sync.Once
	closeErr  error
	logMu     sync.Mutex
	logs      []byte // cached at close
}

func (c *ctr) start(ctx context.Context) (*target.Target, error) {
	o := c.o
	engineCall("testcontainers.NewDockerProvider")
	p, err := testcontainers.NewDockerProvider(testcontainers.WithLogger(c.logger))
	if err != nil {
		return nil, fmt.Errorf("container engine: %w", err)
	}
	c.provider = p

	ref := o.Image
	if o.Dockerfile != "" {
		if ref, err = c.build(ctx); err != nil {
			return nil, err
		}
	}
	img, err := p.Client().ImageInspect(ctx, ref)
	if err != nil {
		if isNotFound(err) {
			return nil, fmt.Errorf("%w: image %q is not present locally (extconf never pulls an image: build or load it first)", ErrContainerConfig, ref)
		}
		return nil, fmt.Errorf("inspecting image %q: %w", ref, err)
	}
	var labels map[string]string
	var exposed []string
	if img.Config != nil {
		labels = img.Config.Labels
		for p := range img.Config.ExposedPorts {
			exposed = append(exposed, p)
		}
		sort.Strings(exposed)
	}

	startCtx, cancel := context.WithTimeout(ctx, orDefault(o.StartTimeout, DefaultStartTimeout))
	defer cancel()
	if n, ok := labels[LabelMockProtocol]; ok {
		return c.startMock(startCtx, img.ID, ref, n)
	}
	return c.startExternal(startCtx, img.ID, ref, exposed)
}

// startMock runs a reference-agent image: same port numbers inside and out, roles from its stdout.
func (c *ctr) startMock(ctx context.Context, imageID, ref, nPorts string) (*target.Target, error) {
	o := c.o
	n, err := strconv.Atoi(strings.TrimSpace(nPorts))
	if err != nil || n < 1 || n > 256 {
		return nil, fmt.Errorf("%w: image %q label %s=%q: want a port count 1–256", ErrContainerConfig, ref, LabelMockProtocol, nPorts)
	}
	lo, err := freeLoopbackRange(n)
	if err != nil {
		return nil, err
	}
	hi := lo + n - 1
	ports := make([]string, 0, n)
	for p := lo; p <= hi; p++ {
		ports = append(ports, strconv.Itoa(p)+"/tcp")
	}
	cmd := o.Cmd
	if cmd == nil {
		cmd = o.Config.Cmd
	}
	if len(o.Sabotage) > 0 {
		if cmd != nil {
			return nil, fmt.Errorf("%w: give sabotage toggles or a command, not both", ErrContainerConfig)
		}
		cmd = []string{"--sabotage", strings.Join(o.Sabotage, ",")}
	}
	env := map[string]string{envMockBind: "0.0.0.0", envMockPorts: fmt.Sprintf("%d-%d", lo, hi)}
	if err := c.run(ctx, ref, ports, true, cmd, env); err != nil {
		return nil, err
	}
	published, err := c.checkBindings(ctx, ports)
	if err != nil {
		return nil, err
	}
	allowed := map[string]bool{}
	for _, hp := range published {
		allowed["127.0.0.1:"+hp] = true
	}

	ann, err := c.awaitAnnouncement(ctx, allowed)
	if err != nil {
		return nil, err
	}
	pool, err := o.Config.CAPool()
	if err != nil {
		return nil, err
	}
	if pool == nil {
		pool = x509.NewCertPool()
	}
	pool.AppendCertsFromPEM(testpki.CACertPEM()) // the reference agents' certificates come from the test CA
	cfg := mergeAnnounced(o.Config, ann.config)
	t := &target.Target{Kind: target.KindContainer, Agents: ann.roles, RootCAs: pool, Config: cfg, ImageID: imageID,
		Sabotage: append([]string(nil), o.Sabotage...), Close: c.close, Logs: c.logsNow}
	for role, u := range cfg.Agents {
		t.Agents[role] = u
	}
	// Wait on every announced card (a card GET changes nothing); other role URLs (hooks, operator statements)
	// live on the same origins and are never requested before the suites ask.
	seen := map[string]bool{}
	var urls []string
	for _, u := range ann.roles {
		if pu, err := url.Parse(u); err == nil && pu.Path == cardPath && !seen[u] {
			seen[u] = true
			urls = append(urls, u)
		}
	}
	if len(urls) == 0 {
		return nil, errors.New("the reference agents announced no card URL")
	}
	sort.Strings(urls)
	for _, u := range urls {
		if err := c.awaitCard(ctx, u, pool); err != nil {
			return nil, err
		}
	}
	c.logger.Printf("reference agents of %s up: %d roles on 127.0.0.1:%d-%d", ref, len(ann.roles), lo, hi)
	return t, nil
}

// startExternal runs any other image: one port, one agent.
func (c *ctr) startExternal(ctx context.Context, imageID, ref string, exposed []string) (*target.Target, error) {
	o := c.o
	if len(o.Sabotage) > 0 {
		return nil, fmt.Errorf("%w: sabotage toggles need a reference-agent image (label %s); %q has none", ErrContainerConfig, LabelMockProtocol, ref)
	}
	port := o.Config.Port
	if port == "" {
		if len(exposed) != 1 {
			return nil, fmt.Errorf("%w: image %q exposes %d ports (%s): name the one serving the card in the target configuration (\"port\": \"8080/tcp\")",
				ErrContainerConfig, ref, len(exposed), strings.Join(exposed, ", "))
		}
		port = exposed[0]
	}
	if !strings.Contains(port, "/") {
		port += "/tcp"
	}
	if _, err := network.ParsePort(port); err != nil {
		return nil, fmt.Errorf("%w: port %q: %v", ErrContainerConfig, port, err)
	}
	scheme := o.Config.Scheme
	if scheme == "" {
		scheme = "http"
	}
	if scheme != "http" && scheme != "https" {
		return nil, fmt.Errorf("%w: scheme %q: want http or https", ErrContainerConfig, scheme)
	}
	cp := o.Config.CardPath
	if cp == "" {
		cp = cardPath
	}
	if !strings.HasPrefix(cp, "/") {
		return nil, fmt.Errorf("%w: cardPath %q: want an absolute path", ErrContainerConfig, cp)
	}
	pool, err := o.Config.CAPool()
	if err != nil {
		return nil, err
	}
	cmd := o.Cmd
	if cmd == nil {
		cmd = o.Config.Cmd
	}
	if err := c.run(ctx, ref, []string{port}, false, cmd, nil); err != nil {
		return nil, err
	}
	published, err := c.checkBindings(ctx, []string{port})
	if err != nil {
		return nil, err
	}
	cardURL := scheme + "://127.0.0.1:" + published[0] + cp
	if err := c.awaitCard(ctx, cardURL, pool); err != nil {
		return nil, err
	}
	t := &target.Target{Kind: target.KindContainer, Agents: map[string]string{"": cardURL}, RootCAs: pool, Config: o.Config,
		ImageID: imageID, Close: c.close, Logs: c.logsNow}
	for role, u := range o.Config.Agents {
		t.Agents[role] = u
	}
	c.logger.Printf("%s up: card at %s", ref, cardURL)
	return t, nil
}

// run creates and starts the container. sameHostPort publishes each port under its own number, else on a
// random one; always on 127.0.0.1 only.
func (c *ctr) run(ctx context.Context, ref string, ports []string, sameHostPort bool, cmd []string, env map[string]string) error {
	opts := []testcontainers.ContainerCustomizer{
		testcontainers.WithLogger(c.logger),
		testcontainers.WithExposedPorts(ports...),
		testcontainers.WithLabels(map[string]string{LabelHarness: "1"}),
		testcontainers.WithHostConfigModifier(func(hc *container.HostConfig) {
			hc.PublishAllPorts = false
			hc.PortBindings = network.PortMap{}
			for _, s := range ports {
				p, err := network.ParsePort(s)
				if err != nil {
					continue
				}
				hostPort := ""
				if sameHostPort {
					hostPort = strconv.Itoa(int(p.Num()))
				}
				hc.PortBindings[p] = []network.PortBinding{{HostIP: netip.MustParseAddr("127.0.0.1"), HostPort: hostPort}}
			}
		}),
	}
	if cmd != nil {
		opts = append(opts, testcontainers.WithCmd(cmd...))
	}
	if env != nil {
		opts = append(opts, testcontainers.WithEnv(env))
	}
	engineCall("testcontainers.Run")
	dc, err := testcontainers.Run(ctx, ref, opts...)
	if dc != nil {
		c.c = dc
	}
	if err != nil {
		return fmt.Errorf("starting %s: %w%s", ref, err, c.logTail())
	}
	return nil
}

// checkBindings reads the published ports back from the engine and refuses anything not on 127.0.0.1: the
// loopback-only rule is checked on the running container, not only asked for.
func (c *ctr) checkBindings(ctx context.Context, ports []string) ([]string, error) {
	ins, err := c.c.Inspect(ctx)
	if err != nil {
		return nil, fmt.Errorf("inspecting the container: %w", err)
	}
	if st := ins.State; st != nil && !st.Running { // a stopped container has no bindings to check
		return nil, fmt.Errorf("the container stopped (%s, exit code %d) before it was ready%s", st.Status, st.ExitCode, c.logTail())
	}
	if ins.NetworkSettings == nil {
		return nil, errors.New("the engine reports no network settings for the container")
	}
	loop := netip.MustParseAddr("127.0.0.1")
	for p, bs := range ins.NetworkSettings.Ports {
		for _, b := range bs {
			if b.HostIP != loop {
				return nil, fmt.Errorf("the engine published %s on %s:%s, not on 127.0.0.1 only: refusing to run", p, b.HostIP, b.HostPort)
			}
		}
	}
	out := make([]string, 0, len(ports))
	for _, s := range ports {
		p, _ := network.ParsePort(s)
		bs := ins.NetworkSettings.Ports[p]
		if len(bs) != 1 || bs[0].HostPort == "" {
			return nil, fmt.Errorf("the engine did not publish %s (bindings %v)", s, bs)
		}
		out = append(out, bs[0].HostPort)
	}
	return out, nil
}

// awaitCard polls the card URL until it answers 200 (bounded by ctx), noticing a container that died.
func (c *ctr) awaitCard(ctx context.Context, cardURL string, pool *x509.CertPool) error {
	hc := &http.Client{
		Timeout: 3 * time.Second,
		Transport: &http.Transport{
			Proxy:           nil, // loopback only: never a proxy
			TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12},
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	defer hc.CloseIdleConnections()
	var last string
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, cardURL, nil)
		if err != nil {
			return err
		}
		resp, err := hc.Do(req)
		if err == nil {
			_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxCardBytes))
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			last = resp.Status
		} else {
			last = err.Error()
		}
		if err := c.stillRunning(ctx); err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("the card %s did not answer 200 in time (last: %s)%s", cardURL, last, c.logTail())
		case <-time.After(150 * time.Millisecond):
		}
	}
}

func (c *ctr) stillRunning(ctx context.Context) error {
	st, err := c.c.State(ctx)
	if err != nil || st.Running {
		return nil // an engine hiccup is not a verdict; the deadline bounds the wait
	}
	return fmt.Errorf("the container stopped (%s, exit code %d) before it was ready%s", st.Status, st.ExitCode, c.logTail())
}

// build builds the Dockerfile's image with the engine's legacy builder, bounded by BuildTimeout.
func (c *ctr) build(ctx context.Context) (string, error) {
	dir, file, err := dockerfileContext(c.o.Dockerfile)
	if err != nil {
		return "", err
	}
	var tag [6]byte
	_, _ = rand.Read(tag[:])
	req := testcontainers.ContainerRequest{FromDockerfile: testcontainers.FromDockerfile{
		Context: dir, Dockerfile: file, Repo: "extconf-target", Tag: hex.EncodeToString(tag[:]),
		BuildLogWriter: c.logWriter(), KeepImage: true, // removed by close unless the caller keeps it
	}}
	bctx, cancel := context.WithTimeout(ctx, orDefault(c.o.BuildTimeout, DefaultBuildTimeout))
	defer cancel()
	engineCall("testcontainers.DockerProvider.BuildImage")
	ref, err := c.provider.BuildImage(bctx, &req)
	if err != nil {
		return "", fmt.Errorf("building %s: %w", filepath.Join(dir, file), err)
	}
	c.built = ref
	return ref, nil
}

func dockerfileContext(p string) (dir, file string, err error) {
	st, err := os.Stat(p)
	if err != nil {
		return "", "", fmt.Errorf("%w: Dockerfile: %v", ErrContainerConfig, err)
	}
	if st.IsDir() {
		if _, err := os.Stat(filepath.Join(p, "Dockerfile")); err != nil {
			return "", "", fmt.Errorf("%w: %s holds no Dockerfile", ErrContainerConfig, p)
		}
		return p, "Dockerfile", nil
	}
	return filepath.Dir(p), filepath.Base(p), nil
}

// close keeps the logs, terminates the container and removes a built image; safe to call more than once.
func (c *ctr) close() error {
	c.closeOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		var errs []error
		if c.c != nil {
			if out, err := c.fetchLogs(ctx); err == nil {
				c.logMu.Lock()
				c.logs = out
				c.logMu.Unlock()
			}
			if err := c.c.Terminate(ctx, testcontainers.StopTimeout(5*time.Second)); err != nil {
				errs = append(errs, fmt.Errorf("terminating container %s: %w", shortID(c.c.GetContainerID()), err))
			}
		}
		if c.built != "" && !c.o.KeepImage && c.provider != nil {
			if _, err := c.provider.Client().ImageRemove(ctx, c.built, client.ImageRemoveOptions{Force: true, PruneChildren: true}); err != nil {
				errs = append(errs, fmt.Errorf("removing built image %s: %w", c.built, err))
			}
		}
		c.closeErr = errors.Join(errs...)
	})
	return c.closeErr
}

// freeLoopbackRange finds n consecutive ports free on 127.0.0.1, from 9400 up.
func freeLoopbackRange(n int) (int, error) {
	for base := 9400; base+n <= 65535; {
		ok := true
		for p := base; p < base+n; p++ {
			l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p))
			if err != nil {
				base, ok = p+1, false
				break
			}
			l.Close()
		}
		if ok {
			return base, nil
		}
	}
	return 0, fmt.Errorf("no %d consecutive free ports on 127.0.0.1", n)
}

func shortID(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}
