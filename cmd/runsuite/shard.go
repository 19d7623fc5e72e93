package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"time"

	"github.com/extconf/extconf/falsify"
	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/mockagents"
	"github.com/extconf/extconf/suites"
)

// shardCommand is the hidden subcommand a falsification with --jobs N re-executes runsuite with. It reads from
// stdin a falsify.Job (JSON), then falsify.Items one after another; it runs each in this process and writes its
// falsify.Outcome (JSON, one line) on stdout before reading the next. It ends at the end of stdin, or after the
// item an interruption cut short. Ginkgo's spec tree is process-global, so parallel runs need processes; one
// child runs many items, so its start-up is paid once.
const shardCommand = "falsify-shard"

// shardEnv marks a child started by shardWorker (a test binary re-executed by the worker runs it from TestMain).
const shardEnv = "EXTCONF_FALSIFY_SHARD"

func cmdFalsifyShard(ctx context.Context, stdin io.Reader, stdout io.Writer) (int, error) {
	dec := json.NewDecoder(bufio.NewReader(stdin))
	var j falsify.Job
	if err := dec.Decode(&j); err != nil {
		return exitUsage, usageError{fmt.Errorf("reading the job on stdin: %w", err)}
	}
	var chosen []harness.Suite
	for _, su := range suites.All() {
		if slices.Contains(j.Documents, su.Document) {
			chosen = append(chosen, su)
		}
	}
	enc := json.NewEncoder(stdout)
	for {
		var it falsify.Item
		if err := dec.Decode(&it); errors.Is(err, io.EOF) {
			return exitPass, nil
		} else if err != nil {
			return exitUsage, usageError{fmt.Errorf("reading an item on stdin: %w", err)}
		}
		oc, err := falsify.RunItem(ctx, mockagents.Start, falsify.Options{Suites: chosen}, j, it)
		if err != nil {
			return exitFail, err
		}
		if err := enc.Encode(oc); err != nil {
			return exitFail, err
		}
		if oc.Interrupted {
			return exitInterrupted, nil
		}
	}
}

// shardWorker starts a child runsuite process running items of a falsification. The child is interrupted
// (SIGINT) when ctx ends, and reports the item it was running as cut short.
func shardWorker(stderr io.Writer, jobs int) falsify.Worker {
	return func(ctx context.Context, j falsify.Job) (falsify.Session, error) {
		cmd, in, out, err := startSelf(func(exe string) *exec.Cmd {
			cmd := exec.CommandContext(ctx, exe, shardCommand)
			cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
			cmd.WaitDelay = 10 * time.Second
			return cmd
		}, shardEnv, stderr, fmt.Sprintf("GOMAXPROCS=%d", falsify.ProcsPer(jobs)))
		if err != nil {
			return nil, err
		}
		c := &shardChild{cmd: cmd, in: in, enc: json.NewEncoder(in), dec: json.NewDecoder(bufio.NewReader(out))}
		if err := c.enc.Encode(j); err != nil {
			_ = c.Close()
			return nil, fmt.Errorf("falsify shard: %w", err)
		}
		return c, nil
	}
}

type shardChild struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	enc *json.Encoder
	dec *json.Decoder
}

func (c *shardChild) Run(ctx context.Context, it falsify.Item) (falsify.Outcome, error) {
	var oc falsify.Outcome
	if err := c.enc.Encode(it); err != nil {
		return oc, fmt.Errorf("falsify shard: %w", err)
	}
	if err := c.dec.Decode(&oc); err != nil {
		if ctx.Err() != nil {
			return falsify.Outcome{Interrupted: true}, nil
		}
		return oc, fmt.Errorf("falsify shard: no outcome: %w", err)
	}
	return oc, nil
}

func (c *shardChild) Close() error {
	_ = c.in.Close()
	if err := c.cmd.Wait(); err != nil {
		return fmt.Errorf("falsify shard: %w", err)
	}
	return nil
}

// startSelf starts this executable again for a hidden command (mk makes the command from the executable's path),
// marked by env so that a re-executed test binary runs it, with extraEnv ("NAME=value") added, stdin and stdout
// piped to the caller and stderr on stderr.
func startSelf(mk func(exe string) *exec.Cmd, env string, stderr io.Writer, extraEnv ...string) (*exec.Cmd, io.WriteCloser, io.ReadCloser, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, nil, nil, err
	}
	cmd := mk(exe)
	cmd.Env = append(append(os.Environ(), env+"=1"), extraEnv...)
	cmd.Stderr = stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, nil, err
	}
	return cmd, in, out, nil
}
