// Command latencybench measures what a remote agent costs a run: the reference agents behind a loopback proxy
// that adds a round-trip time (RTT/2 each way on every chunk, and one RTT to open a connection, as a TCP
// handshake would), against the same agents on plain loopback, both served as URL targets. Each document, and all
// five in one run, runs four ways: on loopback and at the RTT, each in one process (--jobs 1: the exchanges one
// after another, as before issue 41) and split (the default: groups of rows in 8 processes, the rows observing an
// agent's shared state ordered). Per document: the wall times, the target exchanges and the connections the
// harness opened, the critical path (criticalPath: the chain of target exchanges no split can shorten, the
// ordering the split imposes counted), the goal it sets (3 × critical path × RTT + the split loopback time), and
// whether every row's verdict in the three other runs equals the one-process loopback run's.
//
//	go build -o /tmp/runsuite ./cmd/runsuite && go run ./scripts/latencybench -runsuite /tmp/runsuite -rtt 50ms
//
// Loopback only: the agents bind 127.0.0.2 and advertise 127.0.0.1:PORT (harness/a2atest EnvBind/EnvPorts); the
// proxy listens on 127.0.0.1:PORT (-port: the first of 64).
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/mockagents"
	"github.com/extconf/extconf/sabotage"
)

func main() {
	bin := flag.String("runsuite", "", "the runsuite binary to time")
	rtt := flag.Duration("rtt", 50*time.Millisecond, "round-trip time the proxy adds")
	base := flag.Int("port", 9600, "first of 64 ports for the proxied agents (127.0.0.1 and 127.0.0.2)")
	n := flag.Int("n", 1, "runs per document and path (the median is reported)")
	docs := flag.String("suite", "", "documents (default all, one run each)")
	flag.Parse()
	if err := bench(*bin, *rtt, *base, *n, *docs); err != nil {
		fmt.Fprintln(os.Stderr, "latencybench:", err)
		os.Exit(1)
	}
}

func bench(bin string, rtt time.Duration, base, n int, suite string) error {
	if bin == "" {
		return errors.New("-runsuite BIN is required")
	}
	ca, err := filepath.Abs("fixtures/testpki/ca.pem")
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "latencybench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)

	local, err := mockagents.Start(sabotage.Set{})
	if err != nil {
		return err
	}
	defer local.Close()
	os.Setenv(a2atest.EnvBind, "127.0.0.2")
	os.Setenv(a2atest.EnvPorts, fmt.Sprintf("%d-%d", base, base+63))
	remote, err := mockagents.Start(sabotage.Set{})
	os.Unsetenv(a2atest.EnvBind)
	os.Unsetenv(a2atest.EnvPorts)
	if err != nil {
		return err
	}
	defer remote.Close()
	px, err := startProxy(base, rtt)
	if err != nil {
		return err
	}
	defer px.close()

	cfgs := map[string]string{}
	for name, tgt := range map[string]*target.Target{"loopback": local, "remote": remote} {
		an, err := tgt.Announce()
		if err != nil {
			return err
		}
		c := *an
		c.CAFile = ca
		raw, _ := json.Marshal(c)
		cfgs[name] = filepath.Join(dir, name+".json")
		if err := os.WriteFile(cfgs[name], raw, 0o600); err != nil {
			return err
		}
	}
	// Which exchanges reach the target: those to the reference agents' origins (the harness's own stand-ins for
	// its self-checks listen elsewhere and are not proxied).
	origins := map[string]bool{}
	raw, _ := json.Marshal(must(local.Announce()))
	for _, m := range originRE.FindAllString(string(raw), -1) {
		origins[m] = true
	}
	var ids []string
	if suite != "" {
		ids = []string{suite}
	} else {
		for _, d := range catalog.Documents {
			ids = append(ids, d.ID)
		}
		ids = append(ids, "") // all five in one run
	}
	fmt.Printf("| document | loopback, 1 process | loopback, split | RTT %s, 1 process (before) | RTT %s, split (after) | exchanges (1 process / split) | connections opened (1 process / split) | critical path | goal: 3 × critical path × RTT + loopback | verdicts as 1 process |\n|---|---|---|---|---|---|---|---|---|---|\n", rtt, rtt)
	for _, doc := range ids {
		var l1, ls, r1, rs []time.Duration
		var ex1, exs, c1, cs int
		var cp, spec int
		same := true
		for i := range n {
			tag := fmt.Sprintf("%s-%d", doc, i)
			// The one-process loopback run also yields the critical path (Ginkgo's report times each spec).
			w, b1, err := runOnce(bin, local.Agents["interview"], cfgs["loopback"], doc, filepath.Join(dir, "l1-"+tag), "--jobs", "1", "--json", filepath.Join(dir, "l1-"+tag+".json"))
			if err != nil {
				return err
			}
			l1 = append(l1, w)
			if cp, spec, err = criticalPath(filepath.Join(dir, "l1-"+tag), filepath.Join(dir, "l1-"+tag+".json"), origins); err != nil {
				return err
			}
			if w, _, err = runOnce(bin, local.Agents["interview"], cfgs["loopback"], doc, filepath.Join(dir, "ls-"+tag)); err != nil {
				return err
			}
			ls = append(ls, w)
			before := px.accepted.Load()
			w, br1, err := runOnce(bin, remote.Agents["interview"], cfgs["remote"], doc, filepath.Join(dir, "r1-"+tag), "--jobs", "1")
			if err != nil {
				return err
			}
			r1 = append(r1, w)
			c1, ex1 = int(px.accepted.Load()-before), br1.Transcript.Exchanges
			before = px.accepted.Load()
			w, brs, err := runOnce(bin, remote.Agents["interview"], cfgs["remote"], doc, filepath.Join(dir, "rs-"+tag))
			if err != nil {
				return err
			}
			rs = append(rs, w)
			cs, exs = int(px.accepted.Load()-before), brs.Transcript.Exchanges
			same = same && sameVerdicts(b1, br1) && sameVerdicts(b1, brs)
		}
		name := doc
		if name == "" {
			name = "all five"
		}
		goal := 3*time.Duration(cp)*rtt + median(ls)
		fmt.Printf("| %s | %.2f s | %.2f s | %.2f s | %.2f s | %d / %d | %d / %d | %d (longest spec %d) | %.2f s | %s |\n", name, median(l1).Seconds(),
			median(ls).Seconds(), median(r1).Seconds(), median(rs).Seconds(), ex1, exs, c1, cs, cp, spec, goal.Seconds(), yesNo(same))
	}
	return nil
}

var originRE = regexp.MustCompile(`https?://127\.0\.0\.1:[0-9]+`)

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "NO"
}

// bundle is what the benchmark reads of a bundle.
type bundle struct {
	Transcript struct{ Exchanges int }
	Rows       []struct {
		ID, Verdict string
	}
}

// sameVerdicts: every row graded alike.
func sameVerdicts(a, b *bundle) bool {
	if len(a.Rows) != len(b.Rows) {
		return false
	}
	for i := range a.Rows {
		if a.Rows[i] != b.Rows[i] {
			fmt.Fprintf(os.Stderr, "latencybench: %s: %s, then %s\n", a.Rows[i].ID, a.Rows[i].Verdict, b.Rows[i].Verdict)
			return false
		}
	}
	return true
}

func median(ds []time.Duration) time.Duration {
	sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
	return ds[len(ds)/2]
}

// runOnce runs one document (or all) against a target and returns the wall time and the bundle.
func runOnce(bin, url, cfg, doc, out string, extra ...string) (time.Duration, *bundle, error) {
	args := append([]string{"run", "--target", url, "--config", cfg, "--out", out, "--quiet"}, extra...)
	if doc != "" {
		args = append(args, "--suite", doc)
	}
	start := time.Now()
	cmd := exec.Command(bin, args...)
	outb, err := cmd.CombinedOutput()
	took := time.Since(start)
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return 0, nil, err
	}
	if err != nil {
		return 0, nil, fmt.Errorf("%s %v: %v\n%s", bin, args, err, tail(outb))
	}
	var b bundle
	raw, err := os.ReadFile(filepath.Join(out, "bundle.json"))
	if err != nil {
		return 0, nil, err
	}
	return took, &b, json.Unmarshal(raw, &b)
}

func tail(b []byte) []byte {
	if len(b) > 3000 {
		return b[len(b)-3000:]
	}
	return b
}

// proxy forwards 127.0.0.1:p to 127.0.0.2:p for 64 ports, adding the delays.
type proxy struct {
	lns      []net.Listener
	accepted atomic.Int64
	wg       sync.WaitGroup
}

func startProxy(base int, rtt time.Duration) (*proxy, error) {
	px := &proxy{}
	for p := base; p < base+64; p++ {
		ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p))
		if err != nil {
			px.close()
			return nil, err
		}
		px.lns = append(px.lns, ln)
		go px.serve(ln, "127.0.0.2:"+strconv.Itoa(p), rtt)
	}
	return px, nil
}

func (px *proxy) close() {
	for _, ln := range px.lns {
		ln.Close()
	}
}

func (px *proxy) serve(ln net.Listener, upstream string, rtt time.Duration) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		px.accepted.Add(1)
		go func() {
			defer c.Close()
			time.Sleep(rtt) // the TCP handshake's round trip
			u, err := net.Dial("tcp", upstream)
			if err != nil {
				return
			}
			defer u.Close()
			done := make(chan struct{}, 2)
			go func() { delayed(u, c, rtt/2); done <- struct{}{} }()
			go func() { delayed(c, u, rtt/2); done <- struct{}{} }()
			<-done
		}()
	}
}

// delayed copies src to dst, each chunk written d after it was read, in order.
func delayed(dst, src net.Conn, d time.Duration) {
	type chunk struct {
		at time.Time
		b  []byte
	}
	q := make(chan chunk, 1024)
	go func() {
		defer close(q)
		for {
			buf := make([]byte, 32<<10)
			n, err := src.Read(buf)
			if n > 0 {
				q <- chunk{time.Now().Add(d), buf[:n]}
			}
			if err != nil {
				return
			}
		}
	}()
	for c := range q {
		time.Sleep(time.Until(c.at))
		if _, err := dst.Write(c.b); err != nil {
			break
		}
	}
	if tc, ok := dst.(*net.TCPConn); ok {
		tc.CloseWrite()
	}
	io.Copy(io.Discard, src)
}
