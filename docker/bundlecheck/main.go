package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/evidence"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/harness/target/container"
	"github.com/extconf/extconf/sabotage"
)

func main() {
	mode := flag.String("mode", "", "clean, killed or blocked")
	path := flag.String("bundle", "", "bundle.json")
	image := flag.String("image", "", "the image id the run must record")
	toggle := flag.String("toggle", "", "killed: the toggle switched on in the container")
	flag.Parse()
	problems, notes := check(*mode, *path, *image, *toggle)
	for _, n := range notes {
		fmt.Printf("bundlecheck: %s\n", n)
	}
	for _, p := range problems {
		fmt.Printf("bundlecheck: FAIL %s\n", p)
	}
	if len(problems) > 0 {
		os.Exit(1)
	}
	fmt.Printf("bundlecheck: %s bundle %s as expected\n", *mode, *path)
}

func check(mode, path, image, toggle string) (problems, notes []string) {
	fail := func(f string, a ...any) { problems = append(problems, fmt.Sprintf(f, a...)) }
	rep, err := evidence.VerifyBundle(path, evidence.VerifyOptions{KnownToggle: sabotage.Known, KnownLatitude: sabotage.KnownLatitude})
	if err != nil {
		fail("%v", err)
		return
	}
	for _, p := range rep.Problems() {
		if !strings.HasPrefix(p, "catalog: ") {
			fail("the bundle does not verify: %s", p)
		}
	}
	b := rep.Bundle
	if b.Target.Kind != target.KindContainer {
		fail("target kind %q, want container", b.Target.Kind)
	}
	count := map[string]int{}
	for _, r := range b.Rows {
		count[r.Verdict]++
	}
	notes = append(notes, fmt.Sprintf("%s: status %s, verdicts %v, image %s, sabotage %v", path, b.Status, count, b.Target.ImageID, b.Target.Sabotage))
	if mode != "blocked" {
		if image == "" || b.Target.ImageID != image {
			fail("image id %q, want %q", b.Target.ImageID, image)
		}
		log, err := os.ReadFile(filepath.Join(filepath.Dir(path), "container.log"))
		if err != nil || !strings.Contains(string(log), container.MockReady) {
			fail("no container.log with the agents' announcement beside the bundle (%v)", err)
		}
		f, err := os.Open(filepath.Join(filepath.Dir(path), evidence.TranscriptFile))
		if err != nil {
			fail("transcript: %v", err)
		} else {
			n, off, err := offLoopback(f)
			f.Close()
			switch {
			case err != nil:
				fail("transcript: %v", err)
			case len(off) > 0:
				for _, o := range off {
					fail("transcript: off loopback: %s", o)
				}
			case n != b.Transcript.Exchanges:
				fail("transcript: %d exchanges read, the bundle records %d", n, b.Transcript.Exchanges)
			default:
				notes = append(notes, fmt.Sprintf("transcript: %d exchanges, every URL and redirect on a loopback address", n))
			}
		}
	}
	switch mode {
	case "clean":
		if b.Status != "passed" || len(b.Target.Sabotage) > 0 {
			fail("status %q with sabotage %v: the clean reference image must pass", b.Status, b.Target.Sabotage)
		}
		for _, r := range b.Rows {
			if r.Counts() {
				fail("%s is %s: %s", r.ID, r.Verdict, firstLine(r.Detail))
			}
		}
		if count[harness.ExecutedPass] == 0 {
			fail("no row passed")
		}
	case "killed":
		t, ok := sabotage.Lookup(toggle)
		if !ok || t.Side != "agent" {
			fail("toggle %q is not an agent-side toggle of the registry", toggle)
			return
		}
		if !slices.Equal(b.Target.Sabotage, []string{toggle}) {
			fail("the bundle records sabotage %v, want [%s]", b.Target.Sabotage, toggle)
		}
		for _, id := range t.Targets {
			i := slices.IndexFunc(b.Rows, func(r harness.RowVerdict) bool { return r.ID == id })
			switch {
			case i < 0:
				fail("targeted row %s is not in the bundle", id)
			case b.Rows[i].Verdict != harness.ExecutedFail:
				fail("targeted row %s survived: %s", id, b.Rows[i].Verdict)
			default:
				notes = append(notes, fmt.Sprintf("killed %s: %s", id, firstLine(b.Rows[i].Detail)))
			}
		}
		for _, r := range b.Rows {
			if r.Verdict == harness.ExecutedFail && !slices.Contains(t.Targets, r.ID) {
				notes = append(notes, "collateral failure "+r.ID)
			}
		}
	case "blocked":
		if b.Status != harness.StatusIncomplete || count[harness.Blocked] == 0 { // blocked, nothing failed: incomplete
			fail("status %q with %d blocked rows", b.Status, count[harness.Blocked])
		}
		for _, r := range b.Rows {
			switch r.Verdict {
			case harness.Blocked:
				if !strings.HasPrefix(r.Detail, "no container engine reachable: ") {
					fail("%s blocked for another reason: %s", r.ID, r.Detail)
				}
			case harness.Unwitnessable, harness.Skipped:
			case harness.ExecutedPass:
				if !r.SelfCheck { // self-checks run on the harness's own counterparts, engine or not
					fail("%s is %s with no engine", r.ID, r.Verdict)
				}
			default:
				fail("%s is %s with no engine", r.ID, r.Verdict)
			}
		}
	default:
		fail("-mode %q: want clean, killed or blocked", mode)
	}
	return
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 160 {
		s = s[:160] + "…"
	}
	return s
}

// offLoopback reads a JSON Lines transcript and returns how many exchanges it holds and, one per line, each URL
// (or redirect hop) whose host is not a loopback IP literal. A name (even "localhost") needs a resolver, so it
// does not count as loopback.
func offLoopback(r io.Reader) (n int, off []string, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		if len(strings.TrimSpace(sc.Text())) == 0 {
			continue
		}
		var ex struct {
			Seq       int      `json:"seq"`
			URL       string   `json:"url"`
			Redirects []string `json:"redirects"`
		}
		if err := json.Unmarshal(sc.Bytes(), &ex); err != nil {
			return n, off, fmt.Errorf("line %d: %v", n+1, err)
		}
		n++
		for _, u := range append([]string{ex.URL}, ex.Redirects...) {
			if !loopbackURL(u) {
				off = append(off, fmt.Sprintf("ex#%d %s", ex.Seq, u))
			}
		}
	}
	return n, off, sc.Err()
}

func loopbackURL(s string) bool {
	u, err := url.Parse(s)
	if err != nil {
		return false
	}
	ip := net.ParseIP(u.Hostname())
	return ip != nil && ip.IsLoopback()
}
