package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/extconf/extconf/harness/evidence"
	"github.com/extconf/extconf/sabotage"
)

// TestMain lets `falsify --jobs N`, `run --jobs N` and `batch` re-execute the test binary as their child processes.
func TestMain(m *testing.M) {
	quickStartMain()
	if (os.Getenv(shardEnv) == "1" && len(os.Args) > 1 && os.Args[1] == shardCommand) ||
		(os.Getenv(partEnv) == "1" && len(os.Args) > 1 && os.Args[1] == partCommand) ||
		(os.Getenv(batchEnv) == "1" && len(os.Args) > 1 && os.Args[1] == "run") {
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
		stop()
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// The matrix sharded over child processes (--jobs 2) writes the table the serial matrix (--jobs 1) writes: the
// same kills, survivals, collateral, latitude outcomes and run count, in the same order.
func TestFalsifyJobsMatchesSerial(t *testing.T) {
	if testing.Short() {
		t.Skip("runs part of the matrix twice")
	}
	var ids []string
	perDoc := map[string]int{}
	for _, tg := range sabotage.All() {
		if perDoc[tg.Document] < 3 {
			perDoc[tg.Document]++
			ids = append(ids, string(tg.ID))
		}
	}
	var lats []string
	for _, l := range sabotage.Latitudes() {
		if len(lats) < 2 {
			lats = append(lats, string(l.ID))
		}
	}
	table := func(jobs int) evidence.Falsifiability {
		t.Helper()
		out := filepath.Join(t.TempDir(), "table.json")
		code := run(context.Background(), []string{"falsify", "--sabotage", strings.Join(ids, ","), "--latitude", strings.Join(lats, ","),
			"--jobs", strconv.Itoa(jobs), "--json", out}, io.Discard, io.Discard)
		if code != exitPass && code != exitFail {
			t.Fatalf("--jobs %d: exit %d", jobs, code)
		}
		raw, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		var f evidence.Falsifiability
		if err := json.Unmarshal(raw, &f); err != nil {
			t.Fatal(err)
		}
		f.Run, f.Started = "", ""
		return f
	}
	serial, sharded := table(1), table(2)
	if len(serial.Toggles) != len(ids) || len(serial.Latitudes) != len(lats) {
		t.Fatalf("serial table: %d toggles, %d latitudes; want %d, %d", len(serial.Toggles), len(serial.Latitudes), len(ids), len(lats))
	}
	if !reflect.DeepEqual(serial, sharded) {
		s, _ := json.MarshalIndent(serial, "", " ")
		p, _ := json.MarshalIndent(sharded, "", " ")
		t.Errorf("--jobs 2 table differs from the serial one\nserial:\n%s\n--jobs 2:\n%s", s, p)
	}
}
