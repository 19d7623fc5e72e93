package a2a

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestOversizedBody(t *testing.T) {
	var written atomic.Int64
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer close(done)
		w.Header().Set("Content-Type", "application/json")
		chunk := bytes.Repeat([]byte("x"), 32<<10)
		for range 2048 { // 64 MiB if the client read it all
			n, err := w.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
	}))
	defer srv.Close()
	c := newTestClient(t, Options{})
	var ex *Exchange
	err := within(t, time.Second, func() (err error) {
		ex, err = c.HTTP(context.Background(), http.MethodGet, srv.URL, nil, Call{})
		return err
	})
	wantErr(t, err, ErrBodyTooLarge)
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != LimitMaxBody || !strings.HasPrefix(err.Error(), "limit exceeded: max-body (65536 bytes)") {
		t.Fatalf("error = %v, want a max-body LimitError", err)
	}
	if len(ex.ResponseBody) != 64<<10 || !ex.Truncated || ex.Status != 200 || ex.Error == "" {
		t.Fatalf("exchange: body %d bytes, truncated %v, status %d, error %q", len(ex.ResponseBody), ex.Truncated, ex.Status, ex.Error)
	}
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("server still writing: the client did not close the connection")
	}
	if w := written.Load(); w >= 32<<20 {
		t.Fatalf("server wrote %d bytes: the client read far past the cap", w)
	}
	wantRecorded(t, c, 1)
}

func TestSSENeverEndingEventCount(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for i := 0; r.Context().Err() == nil; i++ {
			if _, err := fmt.Fprintf(w, "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"n\":%d}}\n\n", i); err != nil {
				return
			}
			w.(http.Flusher).Flush()
		}
	}))
	defer srv.Close()
	c := newTestClient(t, Options{})
	resps, ex, err := streamWithinSecond(t, c, srv.URL)
	wantErr(t, err, ErrTooManySSEEvents)
	if len(resps) != 20 || len(ex.Events) != 20 || !ex.Truncated {
		t.Fatalf("got %d responses, %d events, truncated %v; want 20, 20, true", len(resps), len(ex.Events), ex.Truncated)
	}
	wantRecorded(t, c, 1)
}

func TestSSENeverEndingTimeout(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n")
		for r.Context().Err() == nil {
			if _, err := io.WriteString(w, ": keep-alive\n"); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			time.Sleep(50 * time.Millisecond)
		}
	}))
	defer srv.Close()
	c := newTestClient(t, Options{})
	resps, ex, err := streamWithinSecond(t, c, srv.URL)
	wantErr(t, err, ErrTimeout)
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != LimitStreamTimeout {
		t.Fatalf("error = %v, want stream-timeout", err)
	}
	if len(resps) != 1 || len(ex.Events) != 1 {
		t.Fatalf("got %d responses, %d events before the timeout; want 1", len(resps), len(ex.Events))
	}
	wantRecorded(t, c, 1)
}

func TestSlowLorisBody(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", "100")
		w.WriteHeader(200)
		for range 100 {
			if _, err := w.Write([]byte(" ")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(time.Second):
			}
		}
	}))
	defer srv.Close()
	c := newTestClient(t, Options{})
	ex, err := getTaskWithinSecond(t, c, srv.URL)
	wantErr(t, err, ErrTimeout)
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != LimitCallTimeout {
		t.Fatalf("error = %v, want call-timeout", err)
	}
	if ex.Status != 200 || !ex.Truncated || len(ex.ResponseBody) == 0 {
		t.Fatalf("exchange: status %d, truncated %v, body %q", ex.Status, ex.Truncated, ex.ResponseBody)
	}
	wantRecorded(t, c, 1)
}

func TestRedirectOffOrigin(t *testing.T) {
	var other atomic.Int32
	srv2 := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		other.Add(1)
		io.WriteString(w, rpcOK)
	}))
	defer srv2.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, srv2.URL+"/card", http.StatusFound)
	}))
	defer srv.Close()
	if !strings.HasPrefix(srv2.URL, "http://127.0.0.1:") {
		t.Fatalf("second server not on 127.0.0.1: %s", srv2.URL)
	}
	c := newTestClient(t, Options{})
	_, ex, err := c.FetchJSON(context.Background(), srv.URL+"/card", Call{})
	wantErr(t, err, ErrRedirectOffOrigin)
	if n := other.Load(); n != 0 {
		t.Fatalf("other origin received %d requests", n)
	}
	if ex.Status != http.StatusFound || len(ex.Redirects) != 1 || ex.Redirects[0] != srv2.URL+"/card" {
		t.Fatalf("exchange: status %d, redirects %v", ex.Status, ex.Redirects)
	}
	wantRecorded(t, c, 1)
}

func TestRedirectLoop(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := hits.Add(1)
		http.Redirect(w, r, fmt.Sprintf("/loop/%d", n), http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	c := newTestClient(t, Options{})
	ex, err := getTaskWithinSecond(t, c, srv.URL)
	wantErr(t, err, ErrTooManyRedirects)
	if n := hits.Load(); n != 4 { // the request and MaxRedirects (3) followed hops
		t.Fatalf("server saw %d requests, want 4", n)
	}
	if len(ex.Redirects) != 4 {
		t.Fatalf("redirects recorded %v, want 4 hops (3 followed, 1 refused)", ex.Redirects)
	}
	wantRecorded(t, c, 1)
}

func TestInvalidJSON(t *testing.T) {
	bodies := map[string]string{
		"/truncated": `{"jsonrpc":"2.0",`,
		"/trailing":  `{"jsonrpc":"2.0","id":1,"result":{}} {}`,
		"/empty":     ``,
		"/html":      `<html>nope</html>`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, bodies[r.URL.Path])
	}))
	defer srv.Close()
	c := newTestClient(t, Options{})
	for path := range bodies {
		_, ex, err := c.RPC(context.Background(), srv.URL+path, MethodGetTask, nil, Call{})
		wantErr(t, err, ErrInvalidJSON)
		if ex.Error == "" || string(ex.ResponseBody) != bodies[path] {
			t.Fatalf("%s: exchange error %q body %q", path, ex.Error, ex.ResponseBody)
		}
		_, _, err = c.FetchJSON(context.Background(), srv.URL+path, Call{})
		wantErr(t, err, ErrInvalidJSON)
	}
	wantRecorded(t, c, 2*len(bodies))
	if err := DecodeStrict([]byte(`{"a":1}`+"\n"), &map[string]any{}); err != nil {
		t.Fatalf("trailing whitespace rejected: %v", err)
	}
}

func TestFetchCardContentType(t *testing.T) {
	card := `{"name":"a","description":"d","supportedInterfaces":[],"version":"1","capabilities":{},` +
		`"defaultInputModes":[],"defaultOutputModes":[],"skills":[]}`
	types := map[string]error{
		"/html":   ErrContentType,
		"/none":   ErrContentType,
		"/json":   nil,
		"/plus":   nil,
		"/status": ErrStatus,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/html":
			w.Header().Set("Content-Type", "text/html")
		case "/none":
			w.Header()["Content-Type"] = nil // stop Go sniffing one
		case "/json":
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
		case "/plus":
			w.Header().Set("Content-Type", "application/a2a-card+json")
		case "/status":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
		}
		io.WriteString(w, card)
	}))
	defer srv.Close()
	c := newTestClient(t, Options{})
	for path, want := range types {
		got, ex, err := c.FetchCard(context.Background(), srv.URL+path, Call{})
		if want == nil {
			if err != nil || got.Name != "a" {
				t.Fatalf("%s: card %+v, error %v", path, got, err)
			}
			continue
		}
		wantErr(t, err, want)
		if got != nil || ex == nil || ex.Error == "" {
			t.Fatalf("%s: card %+v, exchange %+v", path, got, ex)
		}
	}
	wantRecorded(t, c, len(types))
}

func TestCheckURLRefused(t *testing.T) {
	var hits []string
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits = append(hits, r.URL.Path)
		mu.Unlock()
		if r.URL.Path == "/start" {
			http.Redirect(w, r, "/forbidden", http.StatusFound)
			return
		}
		io.WriteString(w, rpcOK)
	}))
	defer srv.Close()
	var dialed atomic.Int32
	d := &net.Dialer{}
	c := newTestClient(t, Options{
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			dialed.Add(1)
			return d.DialContext(ctx, network, addr)
		},
		CheckURL: func(u *url.URL) error {
			if u.Hostname() == "forbidden.example" || u.Path == "/forbidden" {
				return errors.New("not in scope")
			}
			return nil
		},
	})

	_, ex, err := c.RPC(context.Background(), "http://forbidden.example:1/", MethodGetTask, nil, Call{})
	wantErr(t, err, ErrURLRefused)
	if dialed.Load() != 0 || ex.Status != 0 || ex.Error == "" {
		t.Fatalf("dialed %d times; exchange status %d error %q", dialed.Load(), ex.Status, ex.Error)
	}
	_, err = c.HTTP(context.Background(), http.MethodGet, "file:///etc/passwd", nil, Call{})
	wantErr(t, err, ErrURLRefused)
	if dialed.Load() != 0 {
		t.Fatal("dialed for a file: URL")
	}

	// A redirect hop is checked too: the first request goes out, the refused hop does not.
	_, err = c.HTTP(context.Background(), http.MethodGet, srv.URL+"/start", nil, Call{})
	wantErr(t, err, ErrURLRefused)
	mu.Lock()
	defer mu.Unlock()
	if len(hits) != 1 || hits[0] != "/start" {
		t.Fatalf("server saw %v, want only /start", hits)
	}
	wantRecorded(t, c, 3)
}

func TestConnectTimeout(t *testing.T) {
	lim := shortLimits()
	lim.ConnectTimeout = 100 * time.Millisecond
	c := newTestClient(t, Options{Limits: lim, DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		<-ctx.Done() // a blackholed address
		return nil, ctx.Err()
	}})
	err := within(t, time.Second, func() error {
		_, err := c.HTTP(context.Background(), http.MethodGet, "http://127.0.0.1:9/", nil, Call{})
		return err
	})
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != LimitConnectTimeout || !errors.Is(err, ErrTimeout) {
		t.Fatalf("error = %v, want connect-timeout", err)
	}
}
