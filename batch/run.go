package batch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/evidence"
)

// LogFile is the file beside each bundle that holds its run's stdout and stderr.
const LogFile = "run.log"

// Options configure Run.
type Options struct {
	Exe      string   // the runsuite executable the children run
	Env      []string // the children's environment (nil: this process's)
	Out      string   // the batch directory: one OUT/<name>/ per target
	Parallel int      // runs at once
	RunArgs  []string // passed to every `runsuite run` (--suite, --as, --tier, --sign-key, --force, …)
	// Timeout bounds each child's wall time; 0: the run's own deadline (its configuration's limits.runTimeout)
	// plus Grace. A child still running then is sent SIGTERM, and SIGKILL Grace later.
	Timeout  time.Duration
	Grace    time.Duration
	Progress io.Writer // one line per target when it starts and when it ends (nil: none)
}

// Result is one target's run as the batch saw it.
type Result struct {
	Target Target
	Exit   int           // the child's exit status (-1: it did not start or was killed)
	Took   time.Duration // wall time
	Status string        // the bundle's status as written (unverified), or StatusMissing
	Err    string        // why the child did not end by itself, or did not start
}

// Run runs every target and returns their results in the targets' order. It returns when every child has
// ended; ctx's end stops them (SIGTERM: each writes its bundle with status interrupted).
func Run(ctx context.Context, ts []Target, o Options) []Result {
	if o.Parallel < 1 {
		o.Parallel = 1
	}
	if o.Grace <= 0 {
		o.Grace = 30 * time.Second
	}
	env := o.Env
	if env == nil {
		env = os.Environ()
	}
	// Children share the CPUs: each spinning on every CPU would steal from the others (README "Usage").
	if os.Getenv("GOMAXPROCS") == "" {
		env = append(env[:len(env):len(env)], fmt.Sprintf("GOMAXPROCS=%d", max(1, runtime.NumCPU()/o.Parallel)))
	}
	results := make([]Result, len(ts))
	var mu sync.Mutex
	done := 0
	say := func(format string, a ...any) {
		if o.Progress == nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(o.Progress, format, a...)
	}
	sem := make(chan struct{}, o.Parallel)
	var wg sync.WaitGroup
	for i, t := range ts {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			results[i] = Result{Target: t, Exit: -1, Status: StatusMissing, Err: "not started: the batch was interrupted"}
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			say("batch: start %s (%s)\n", t.Name, t.describe())
			r := runOne(ctx, t, o, env)
			results[i] = r
			mu.Lock()
			done++
			n := done
			mu.Unlock()
			line := fmt.Sprintf("batch: [%d/%d] %-24s %-14s exit %-3d %6.1fs", n, len(ts), t.Name, r.Status, r.Exit, r.Took.Seconds())
			if r.Err != "" {
				line += "  " + r.Err
			}
			say("%s\n", line)
		}()
	}
	wg.Wait()
	return results
}

func (t Target) describe() string {
	if t.Image != "" {
		return "image " + t.Image
	}
	return t.URL
}

// Args is the `runsuite run` command line for t, writing into dir.
func (t Target) Args(dir string, extra []string) []string {
	args := []string{"run"}
	if t.Image != "" {
		args = append(args, "--image", t.Image)
	} else {
		args = append(args, "--target", t.URL)
	}
	if t.Config != "" {
		args = append(args, "--config", t.Config)
	}
	args = append(args, "--out", dir, "--quiet", "--jobs", "1")
	return append(args, extra...)
}

func runOne(ctx context.Context, t Target, o Options, env []string) Result {
	r := Result{Target: t, Exit: -1, Status: StatusMissing}
	dir := filepath.Join(o.Out, t.Name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		r.Err = err.Error()
		return r
	}
	logf, err := os.OpenFile(filepath.Join(dir, LogFile), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		r.Err = err.Error()
		return r
	}
	defer logf.Close()
	limit := o.Timeout
	if limit <= 0 {
		limit = runDeadline(t.Config) + o.Grace
	}
	cctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	cmd := exec.CommandContext(cctx, o.Exe, t.Args(dir, o.RunArgs)...)
	cmd.Env = env
	cmd.Stdout, cmd.Stderr = logf, logf
	// SIGTERM first: the run writes its bundle (status interrupted) and stops its containers; SIGKILL after Grace.
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = o.Grace
	start := time.Now()
	err = cmd.Run()
	r.Took = time.Since(start)
	var ee *exec.ExitError
	switch {
	case err == nil:
		r.Exit = 0
	case errors.As(err, &ee) && ee.ExitCode() >= 0:
		r.Exit = ee.ExitCode()
	default:
		r.Err = err.Error()
	}
	if cctx.Err() != nil && ctx.Err() == nil {
		r.Err = fmt.Sprintf("stopped after %s (its run deadline plus %s)", limit.Round(time.Second), o.Grace)
	}
	if b, _, err := evidence.Load(filepath.Join(dir, BundleFile)); err == nil {
		r.Status = b.Status
	} else if !errors.Is(err, os.ErrNotExist) {
		r.Status = StatusUnverified
	}
	if r.Err == "" && r.Status == StatusMissing {
		r.Err = "no bundle written: " + lastLine(filepath.Join(dir, LogFile))
	}
	return r
}

// runDeadline is the run deadline the target's configuration sets (limits.runTimeout), or the default. A file
// that does not parse gets the default here; the run itself reports the error (exit 2).
func runDeadline(config string) time.Duration {
	if config == "" {
		return harness.DefaultRunTimeout
	}
	raw, err := os.ReadFile(config)
	if err != nil {
		return harness.DefaultRunTimeout
	}
	var c struct {
		Limits json.RawMessage `json:"limits"`
	}
	if json.Unmarshal(raw, &c) != nil {
		return harness.DefaultRunTimeout
	}
	l, err := harness.ParseLimits(c.Limits)
	if err != nil {
		return harness.DefaultRunTimeout
	}
	return l.RunTimeout
}

// lastLine is the last non-empty line of a log (at most its last 4 KiB read), for a progress line.
func lastLine(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return "(no log)"
	}
	defer f.Close()
	fi, _ := f.Stat()
	if fi != nil && fi.Size() > 4096 {
		f.Seek(-4096, io.SeekEnd)
	}
	b, _ := io.ReadAll(f)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	s := strings.TrimSpace(lines[len(lines)-1])
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	if s == "" {
		return "(empty log)"
	}
	return s
}
