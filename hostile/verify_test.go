package hostile

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/evidence"
	"github.com/extconf/extconf/mockagents"
	"github.com/extconf/extconf/sabotage"
	"github.com/extconf/extconf/suites"
)

// unsignedBundle writes the unsigned bundle of a run of the terms suite against the reference agents into dir.
func unsignedBundle(t *testing.T, dir string) string {
	t.Helper()
	tgt, err := mockagents.Start(sabotage.Set{}, "terms")
	if err != nil {
		t.Fatal(err)
	}
	defer tgt.Close()
	res, err := harness.Run(context.Background(), tgt, harness.Options{Suites: suites.All(), Documents: []string{"terms"}, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	sha, err := evidence.WriteTranscript(dir, res.Env.Client.Recorder())
	if err != nil {
		t.Fatal(err)
	}
	b, err := evidence.NewFromDigest(res, tgt, sha, nil)
	if err != nil {
		t.Fatal(err)
	}
	path, err := evidence.WriteBundleFile(dir, b)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := evidence.VerifyBundle(path, evidence.VerifyOptions{})
	if err != nil || !rep.OK() {
		t.Fatalf("the bundle does not verify before the attack: %v %v", err, rep.Problems())
	}
	return path
}

// Issue 37.5/37.6: verify is bounded on hostile bundles and decodes them strictly. A bundle whose status is
// written twice ("failed" then "passed") is refused (encoding/json let the last win: it rendered PASSED); a
// transcript of 3 M lines of "{}" ends with a bounded problem list ("and N more") in bounded memory; a bundle.json
// larger than the cap is refused before it is read.
func TestVerifyIsBoundedAndStrict(t *testing.T) {
	dir := t.TempDir()
	path := unsignedBundle(t, dir)
	raw, _ := os.ReadFile(path)

	t.Run("duplicate-members", func(t *testing.T) {
		d := t.TempDir()
		i := bytes.LastIndex(raw, []byte(`"status":"`))
		dup := append(append(append([]byte{}, raw[:i]...), []byte(`"status":"failed",`)...), raw[i:]...)
		copyFile(t, filepath.Join(dir, evidence.TranscriptFile), filepath.Join(d, evidence.TranscriptFile))
		p := filepath.Join(d, "bundle.json")
		_ = os.WriteFile(p, dup, 0o644)
		rep, err := evidence.VerifyBundle(p, evidence.VerifyOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if rep.OK() || !strings.Contains(strings.Join(rep.Problems(), "\n"), "duplicate member") {
			t.Fatalf("a bundle with a duplicate status verifies: %v", rep.Problems())
		}
	})

	t.Run("3M-empty-lines", func(t *testing.T) {
		d := t.TempDir()
		_ = os.WriteFile(filepath.Join(d, "bundle.json"), raw, 0o644)
		f, _ := os.Create(filepath.Join(d, evidence.TranscriptFile))
		line := bytes.Repeat([]byte("{}\n"), 100_000)
		for range 30 {
			_, _ = f.Write(line)
		}
		f.Close()
		h := sampleHeap()
		start := time.Now()
		rep, err := evidence.VerifyBundle(filepath.Join(d, "bundle.json"), evidence.VerifyOptions{})
		wall := time.Since(start)
		peak, _ := h.finish()
		if err != nil {
			t.Fatal(err)
		}
		probs := rep.Problems()
		if rep.OK() || len(probs) > 200 || !strings.Contains(strings.Join(probs, "\n"), "more problems") {
			t.Fatalf("%d problems (want a bounded list ending in \"and N more\")", len(probs))
		}
		if mib(peak) > 256 {
			t.Errorf("peak heap %.0f MiB verifying 3 M lines", mib(peak))
		}
		figMu.Lock()
		figures["verify 3M {} lines"] = fmtFigure("verify 3M {} lines", wall, peak)
		figMu.Unlock()
		t.Logf("3 M lines: %s, %d problems listed, peak heap %.1f MiB", wall.Round(time.Millisecond), len(probs), mib(peak))
	})

	t.Run("oversized-bundle", func(t *testing.T) {
		d := t.TempDir()
		p := filepath.Join(d, "bundle.json")
		f, _ := os.Create(p)
		_ = f.Truncate(1500 << 20) // sparse: 1.5 GB to stat, nothing on disk
		f.Close()
		start := time.Now()
		if _, err := evidence.VerifyBundle(p, evidence.VerifyOptions{}); err == nil || !strings.Contains(err.Error(), "more than a bundle may be") {
			t.Fatalf("a 1.5 GB bundle.json was read: %v", err)
		}
		t.Logf("1.5 GB bundle.json refused in %s", time.Since(start).Round(time.Microsecond))
	})
}

func copyFile(t *testing.T, from, to string) {
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func fmtFigure(name string, wall time.Duration, peak uint64) string {
	return fmt.Sprintf("%-30s %10s %11.1f MiB %11s", name, wall.Round(time.Millisecond), mib(peak), "")
}

// Issue 37.6: a write that fails half-way (a full disk) leaves nothing under the final name: the bundle and the
// transcript are written under a temporary name and renamed; the error is an evidence.WriteError (runsuite: exit 3).
func TestFailedWriteLeavesNoFinalFile(t *testing.T) {
	dir := t.TempDir()
	_, err := evidence.WriteTranscriptFrom(dir, func(w io.Writer) error {
		_, _ = w.Write(bytes.Repeat([]byte("{}\n"), 1<<20)) // past the buffer: bytes reach the file
		return errors.New("no space left on device")
	})
	var we *evidence.WriteError
	if !errors.As(err, &we) {
		t.Fatalf("want a WriteError, got %v", err)
	}
	left, _ := os.ReadDir(dir)
	if len(left) > 0 {
		t.Fatalf("a failed write left %v in the bundle directory", left)
	}
}
