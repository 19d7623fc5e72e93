package hostile

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/harness/harnesstest"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/suites"
)

// halfDead is a remote agent whose card answers at once while every other request misbehaves as post says.
func halfDead(t *testing.T, post func(w http.ResponseWriter, r *http.Request, stop <-chan struct{})) string {
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	var base string
	base = harnesstest.RemoteListen(t, func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "agent-card.json") {
			var exts []any
			for _, d := range catalog.Documents {
				exts = append(exts, map[string]any{"uri": d.URI})
			}
			card := map[string]any{"name": "half-dead", "description": "its card answers; nothing else does", "version": "1.0.0",
				"supportedInterfaces": []any{map[string]any{"url": base + "/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}},
				"capabilities":        map[string]any{"streaming": true, "extensions": exts},
				"defaultInputModes":   []string{"text/plain"}, "defaultOutputModes": []string{"text/plain"},
				"skills": []any{map[string]any{"id": "s", "name": "s", "description": "d", "tags": []string{"t"}, "examples": []string{"hello"}}}}
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(card)
			return
		}
		post(w, r, stop)
	})
	return base
}

func wait(stop <-chan struct{}, r *http.Request, d time.Duration) bool {
	select {
	case <-stop:
		return false
	case <-r.Context().Done():
		return false
	case <-time.After(d):
		return true
	}
}

// Issue 37.4: a card that answers while every POST hangs, trickles its headers, streams forever or sends its
// body at 1 byte/s ends in bounded time: the breaker counts exchanges that did not complete within their
// deadline, and the card's answers do not close it again. Limits: 1 s call, 1.5 s stream (testLimits).
func TestHalfDeadTargetsEndInBoundedTime(t *testing.T) {
	behaviours := map[string]func(w http.ResponseWriter, r *http.Request, stop <-chan struct{}){
		"post-hangs": func(w http.ResponseWriter, r *http.Request, stop <-chan struct{}) { wait(stop, r, time.Hour) },
		"trickled-headers": func(w http.ResponseWriter, r *http.Request, stop <-chan struct{}) {
			conn, buf, err := http.NewResponseController(w).Hijack()
			if err != nil {
				return
			}
			defer conn.Close()
			for _, c := range []byte("HTTP/1.1 200 OK\r\nX-Slow: " + strings.Repeat("a", 600)) {
				if _, err := buf.Write([]byte{c}); err != nil || buf.Flush() != nil || !wait(stop, r, 100*time.Millisecond) {
					return
				}
			}
		},
		"endless-stream": func(w http.ResponseWriter, r *http.Request, stop <-chan struct{}) {
			w.Header().Set("Content-Type", "text/event-stream")
			for i := 0; ; i++ {
				if _, err := fmt.Fprintf(w, ": keep-alive %d\n\n", i); err != nil {
					return
				}
				http.NewResponseController(w).Flush()
				if !wait(stop, r, 50*time.Millisecond) {
					return
				}
			}
		},
		"one-byte-per-second": func(w http.ResponseWriter, r *http.Request, stop <-chan struct{}) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(200)
			for _, c := range []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`) {
				if _, err := w.Write([]byte{c}); err != nil {
					return
				}
				http.NewResponseController(w).Flush()
				if !wait(stop, r, time.Second) {
					return
				}
			}
		},
	}
	for name, b := range behaviours {
		t.Run(name, func(t *testing.T) {
			base := halfDead(t, b)
			tgt, err := target.URL(base+"/.well-known/agent-card.json", target.Config{})
			if err != nil {
				t.Fatal(err)
			}
			l := testLimits()
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			h := sampleHeap()
			start := time.Now()
			res, err := harness.Run(ctx, tgt, harness.Options{Suites: suites.All(), Seed: 1, Limits: &l, SpecTimeout: 10 * time.Second})
			wall := time.Since(start)
			peak, _ := h.finish()
			if err != nil {
				t.Fatal(err)
			}
			failed := 0 // (rows about the card alone may pass: the card answers)
			for _, r := range res.Rows {
				if r.Verdict == harness.ExecutedFail && !r.SelfCheck {
					failed++
				}
			}
			stalled := 0 // exchanges that ran into their deadline: each costs a whole timeout
			for _, ex := range res.Exchanges {
				if ex.DurationMS >= 900 { // the 1 s call timeout (a card answers in milliseconds)
					stalled++
				}
			}
			if stalled > 4 { // the breaker trips after 3; the parent let 5 to 63 through
				t.Errorf("%d exchanges ran into their deadline: the breaker does not cut a half-dead target short", stalled)
			}
			if wall > 60*time.Second {
				t.Errorf("the run took %s: a half-dead target is not cut short", wall.Round(time.Second))
			}
			figMu.Lock()
			figures["half-dead "+name] = fmt.Sprintf("%-30s %10s %11.1f MiB %11s", "half-dead "+name, wall.Round(time.Millisecond), mib(peak), "")
			figMu.Unlock()
			t.Logf("%s: %s, %d exchanges (%d ran into their deadline), %d target rows failed, peak heap %.1f MiB", name, wall.Round(time.Millisecond), len(res.Exchanges), stalled, failed, mib(peak))
		})
	}
}
