package container

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/moby/moby/client"
	"github.com/testcontainers/testcontainers-go"
)

// PrepareEnv sets TESTCONTAINERS_RYUK_DISABLED=true and TESTCONTAINERS_HOST_OVERRIDE=127.0.0.1 unless the user set
// them. testcontainers-go reads its configuration once per process, so this must run before its first call;
// Container and ProbeEngine call it first thing.
func PrepareEnv() {
	envOnce.Do(func() {
		for k, v := range map[string]string{EnvRyukDisabled: "true", EnvHostOverride: "127.0.0.1"} {
			if _, set := os.LookupEnv(k); !set {
				_ = os.Setenv(k, v)
			}
		}
	})
}

var envOnce sync.Once

// engineCall runs before every call into the engine libraries; tests replace it to see the environment then.
var engineCall = func(what string) {}

// ProbeEngine answers within bound whether a container engine is reachable; the engine libraries' own checks
// have no deadline, so they run in a goroutine that is abandoned at the bound. DOCKER_HOST, when set, is the
// engine asked for: testcontainers would silently fall back to another one, so it is checked first on its own.
func ProbeEngine(ctx context.Context, bound time.Duration) error {
	PrepareEnv()
	ctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- fmt.Errorf("engine client: %v", r)
			}
		}()
		if h := os.Getenv("DOCKER_HOST"); h != "" {
			engineCall("docker client (DOCKER_HOST)")
			cli, err := client.New(client.FromEnv)
			if err != nil {
				done <- fmt.Errorf("DOCKER_HOST=%s: %w", h, err)
				return
			}
			defer cli.Close()
			if _, err := cli.Ping(ctx, client.PingOptions{}); err != nil {
				done <- fmt.Errorf("DOCKER_HOST=%s: %w", h, err)
				return
			}
		}
		engineCall("testcontainers.NewDockerProvider")
		p, err := testcontainers.NewDockerProvider(testcontainers.WithLogger(tcLogger(nil)))
		if err != nil {
			if os.Getenv("DOCKER_HOST") == "" {
				_, serr := os.Stat("/var/run/docker.sock")
				err = fmt.Errorf("DOCKER_HOST is unset and no engine was found (/var/run/docker.sock: %v; testcontainers: %w)", serr, err)
			}
			done <- err
			return
		}
		defer p.Close()
		done <- p.Health(ctx)
	}()
	select {
	case err := <-done:
		if err != nil && ctx.Err() != nil {
			return fmt.Errorf("no answer within %s (%v)", bound, err)
		}
		return err
	case <-ctx.Done():
		return fmt.Errorf("no answer within %s", bound)
	}
}

func isNotFound(err error) bool {
	return cerrdefs.IsNotFound(err) || strings.Contains(strings.ToLower(err.Error()), "no such image")
}

// logger adapts testcontainers' Printf logger to an io.Writer (nil: discarded).
type logger struct{ w io.Writer }

func tcLogger(w io.Writer) *logger { return &logger{w: w} }

func (l *logger) Printf(format string, v ...any) {
	if l == nil || l.w == nil {
		return
	}
	msg := strings.TrimRight(fmt.Sprintf(format, v...), "\n")
	fmt.Fprintf(l.w, "container: %s\n", msg)
}
