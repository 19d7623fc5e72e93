package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"time"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/mockagents"
	"github.com/extconf/extconf/sabotage/falsify"
	"github.com/extconf/extconf/suites"
)

// shardCommand is the hidden subcommand a falsification with --jobs N re-executes runsuite with: it reads a
// falsify.Shard (JSON) on stdin, runs it in this process and writes the falsify.ShardResult (JSON) on stdout.
// Ginkgo's spec tree is process-global, so parallel runs need processes.
const shardCommand = "falsify-shard"

// shardEnv marks a child started by shardWorker (a test binary re-executed by the worker runs it from TestMain).
const shardEnv = "EXTCONF_FALSIFY_SHARD"

func cmdFalsifyShard(ctx context.Context, stdin io.Reader, stdout io.Writer) (int, error) {
	var s falsify.Shard
	if err := json.NewDecoder(stdin).Decode(&s); err != nil {
		return exitUsage, usageError{fmt.Errorf("reading the shard on stdin: %w", err)}
	}
	var chosen []harness.Suite
	for _, su := range suites.All() {
		if slices.Contains(s.Documents, su.Document) {
			chosen = append(chosen, su)
		}
	}
	res, err := falsify.RunShard(ctx, mockagents.Start, falsify.Options{Suites: chosen}, s)
	if err != nil {
		return exitFail, err
	}
	if err := json.NewEncoder(stdout).Encode(res); err != nil {
		return exitFail, err
	}
	return exitPass, nil
}

// shardWorker runs a shard in a child runsuite process. The child is interrupted (SIGINT) when ctx ends, and
// reports what it finished.
func shardWorker(stderr io.Writer) falsify.Worker {
	return func(ctx context.Context, s falsify.Shard) (*falsify.ShardResult, error) {
		exe, err := os.Executable()
		if err != nil {
			return nil, err
		}
		in, err := json.Marshal(s)
		if err != nil {
			return nil, err
		}
		var out bytes.Buffer
		cmd := exec.CommandContext(ctx, exe, shardCommand)
		cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
		cmd.WaitDelay = 10 * time.Second
		cmd.Env = append(os.Environ(), shardEnv+"=1")
		cmd.Stdin, cmd.Stdout, cmd.Stderr = bytes.NewReader(in), &out, stderr
		runErr := cmd.Run()
		var res falsify.ShardResult
		if err := json.Unmarshal(out.Bytes(), &res); err != nil {
			if runErr != nil {
				return nil, fmt.Errorf("falsify shard: %w", runErr)
			}
			return nil, fmt.Errorf("falsify shard: unreadable result: %w", err)
		}
		return &res, nil
	}
}
