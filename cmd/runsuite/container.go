package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/harness/target/container"
	"github.com/extconf/extconf/sabotage"
	"github.com/extconf/extconf/suites"
)

// ContainerLogFile is the container's stdout and stderr, written beside bundle.json.
const ContainerLogFile = "container.log"

// startContainer starts the --image / --dockerfile target. No engine: a target whose Blocked says so (not an
// error). A missing image or Dockerfile is a usage error (exit 2).
func startContainer(ctx context.Context, image, dockerfile string, cfg target.Config, set sabotage.Set, stderr io.Writer) (*target.Target, error) {
	what := image
	if dockerfile != "" {
		what = "the Dockerfile in " + dockerfile
	}
	fmt.Fprintf(stderr, "runsuite: starting %s (loopback only, never pulled)\n", what)
	started := time.Now()
	tgt, err := container.Start(ctx, container.Options{Image: image, Dockerfile: dockerfile, Config: cfg,
		Sabotage: set.IDs(), Log: stderr})
	if err != nil {
		if errors.Is(err, container.ErrContainerConfig) {
			return nil, usageError{err}
		}
		return nil, err
	}
	if tgt.Blocked != "" {
		fmt.Fprintf(stderr, "runsuite: %s (after %s): every selected row is blocked\n", tgt.Blocked, time.Since(started).Round(time.Millisecond))
		return tgt, nil
	}
	// What the reference agents announced joins the operator's file: decode the merged sections afresh, as strictly
	// as the file's own (a section they announce badly is their defect, named by its path).
	tgt.Config.Inputs = nil
	if err := harness.PrepareConfig(&tgt.Config, suites.Documents()...); err != nil {
		tgt.Close()
		return nil, fmt.Errorf("the container's announced operator settings: %w", err)
	}
	fmt.Fprintf(stderr, "runsuite: container ready in %s, image %s\n", time.Since(started).Round(time.Millisecond), tgt.ImageID)
	return tgt, nil
}

// runDir claims the default bundle directory of a run (as writeBundle chooses it): evidence/runs/<UTC time>, with
// -2, -3, … appended when a run started in the same second already holds that name. The directory is created
// exclusively, so two runs never share one.
func runDir() (string, error) {
	base := filepath.Join("evidence", "runs", time.Now().UTC().Format("20060102T150405Z"))
	if err := os.MkdirAll(filepath.Dir(base), 0o755); err != nil {
		return "", err
	}
	for n := 1; n < 10000; n++ {
		dir := base
		if n > 1 {
			dir = fmt.Sprintf("%s-%d", base, n)
		}
		err := os.Mkdir(dir, 0o755)
		if err == nil {
			return dir, nil
		}
		if !os.IsExist(err) {
			return "", err
		}
	}
	return "", fmt.Errorf("no free run directory under %s", filepath.Dir(base))
}

// writeContainerLog keeps what the container printed beside the bundle.
func writeContainerLog(dir string, tgt *target.Target, stderr io.Writer) {
	if tgt == nil || tgt.Logs == nil {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fmt.Fprintf(stderr, "runsuite: container log: %v\n", err)
		return
	}
	p := filepath.Join(dir, ContainerLogFile)
	if err := os.WriteFile(p, tgt.Logs(), 0o644); err != nil {
		fmt.Fprintf(stderr, "runsuite: container log: %v\n", err)
		return
	}
	fmt.Fprintf(stderr, "runsuite: container log: %s\n", p)
}

// announce prints the reference agents in the mock protocol (harness/target: container.MockReady): one
// "role<TAB>card URL" line per agent, sorted; the operator settings they supply for themselves; then ready.
func announce(w io.Writer, tgt *target.Target) error {
	roles := make([]string, 0, len(tgt.Agents))
	for r := range tgt.Agents {
		roles = append(roles, r)
	}
	sort.Strings(roles)
	for _, r := range roles {
		if _, err := fmt.Fprintf(w, "%s\t%s\n", r, tgt.Agents[r]); err != nil {
			return err
		}
	}
	// The operator settings in the configuration file's shape; the legacy shape only for a target that has no other.
	var said any = tgt.Config
	if tgt.Announce != nil {
		an, err := tgt.Announce()
		if err != nil {
			return err
		}
		said = an
	}
	if !reflect.ValueOf(tgt.Config).IsZero() || tgt.Announce != nil {
		// Byte-faithful: no HTML escaping, so a placeholder such as the actingFor "<person>" survives as written.
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(said); err != nil {
			return err
		}
		if _, err := fmt.Fprintf(w, "%s%s\n", container.MockConfigPrefix, strings.TrimSpace(b.String())); err != nil {
			return err
		}
	}
	_, err := fmt.Fprintln(w, container.MockReady)
	return err
}
