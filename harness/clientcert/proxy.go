package clientcert

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httputil"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/extconf/extconf/harness/a2atest"
)

// Bounds of what the proxy reads and keeps: a request body the client sends, an answer it passes on (the limit
// scenarios serve answers beyond a client's declared payload limit, up to 16 MiB plus the document), a response
// body it records.
const (
	maxRequestBody  = 4 << 20
	maxAnswerBody   = 32 << 20
	maxRecordedBody = 1 << 20
)

// Exchange is one request the client under test sent through the proxy, and what came back.
type Exchange struct {
	ID         string      `json:"id"`                   // its transcript id (sha256:…), set when the run's transcript is built
	Seq        int         `json:"seq"`                  // within its scenario
	Downstream bool        `json:"downstream,omitempty"` // sent to the scenario's downstream counterpart
	Method     string      `json:"method"`
	Path       string      `json:"path"`
	Header     http.Header `json:"header"`
	Body       []byte      `json:"body,omitempty"`
	Status     int         `json:"status"`
	RespHeader http.Header `json:"respHeader,omitempty"`
	RespBody   []byte      `json:"respBody,omitempty"` // bounded; SSE streams as far as the bound
	Truncated  bool        `json:"truncated,omitempty"`
	Error      string      `json:"error,omitempty"`

	mu sync.Mutex
}

// RPC decodes a JSON-RPC request body: its method and params ("" when the body is not JSON-RPC).
func (e *Exchange) RPC() (method string, params json.RawMessage) {
	var env struct {
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if json.Unmarshal(e.Body, &env) == nil && env.Method != "" {
		return env.Method, env.Params
	}
	if i := strings.LastIndex(e.Path, "/"); i >= 0 && e.Method == http.MethodPost {
		return e.Path[i+1:], e.Body // HTTP+JSON: message:send, message:stream, …
	}
	return "", nil
}

// Proxy is a loopback https reverse proxy in front of one counterpart agent that records every request the client
// under test sends. The card (and every document fetched with GET) it serves names the proxy's origin instead of the
// agent's, so the interface URLs the card lists lead through the proxy too.
type Proxy struct {
	*a2atest.Front // CardURL is the card's URL through the proxy

	resign  func(upstream, rewritten []byte, origin string) []byte
	answers bool // rewrite the origin in POST answers too

	mu  sync.Mutex
	exs []*Exchange
}

type exKey struct{}

// StartProxy serves https on 127.0.0.1 with cert in front of the agent whose card is at upstreamCardURL (trusted
// with cas).
func StartProxy(upstreamCardURL string, cert tls.Certificate, cas *x509.CertPool) (*Proxy, error) {
	return startProxy(upstreamCardURL, cert, cas, nil, false, 0)
}

func startProxy(upstreamCardURL string, cert tls.Certificate, cas *x509.CertPool, resign func(upstream, rewritten []byte, origin string) []byte, answers bool, port int) (*Proxy, error) {
	p := &Proxy{resign: resign, answers: answers}
	f, err := a2atest.StartFront(upstreamCardURL, cert, cas, a2atest.FrontOptions{
		HeaderTimeout: 30 * time.Second,
		Port:          port,
		Configure: func(rp *httputil.ReverseProxy) {
			rp.FlushInterval = -1 // SSE passes through as it comes
			rp.ModifyResponse = p.modify
			rp.ErrorHandler = func(w http.ResponseWriter, r *http.Request, err error) {
				if ex, ok := r.Context().Value(exKey{}).(*Exchange); ok {
					ex.mu.Lock()
					ex.Error, ex.Status = err.Error(), http.StatusBadGateway
					ex.mu.Unlock()
				}
				http.Error(w, "extconf recording proxy: upstream failed", http.StatusBadGateway)
			}
		},
		Serve: p.serve,
	})
	if err != nil {
		return nil, err
	}
	p.Front = f
	return p, nil
}

func (p *Proxy) serve(rp *httputil.ReverseProxy, w http.ResponseWriter, r *http.Request) {
	ex := &Exchange{Method: r.Method, Path: r.URL.RequestURI(), Header: r.Header.Clone()}
	if r.Body != nil {
		b, err := io.ReadAll(io.LimitReader(r.Body, maxRequestBody+1))
		if err != nil || len(b) > maxRequestBody {
			ex.Body, ex.Truncated, ex.Status = b[:min(len(b), maxRecordedBody)], true, http.StatusRequestEntityTooLarge
			p.add(ex)
			http.Error(w, "request too large", http.StatusRequestEntityTooLarge)
			return
		}
		ex.Body = b
		r.Body = io.NopCloser(bytes.NewReader(b))
	}
	p.add(ex)
	rp.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), exKey{}, ex)))
}

func (p *Proxy) add(ex *Exchange) {
	p.mu.Lock()
	ex.Seq = len(p.exs) + 1
	p.exs = append(p.exs, ex)
	p.mu.Unlock()
}

func (p *Proxy) modify(resp *http.Response) error {
	ex, _ := resp.Request.Context().Value(exKey{}).(*Exchange)
	if ex == nil {
		return nil
	}
	ex.mu.Lock()
	ex.Status, ex.RespHeader = resp.StatusCode, resp.Header.Clone()
	ex.mu.Unlock()
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		resp.Body = &teeBody{rc: resp.Body, ex: ex}
		return nil
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswerBody+1))
	resp.Body.Close()
	if err != nil {
		return err
	}
	if len(body) > maxAnswerBody {
		return fmt.Errorf("recording proxy: answer larger than %d bytes", maxAnswerBody)
	}
	if resp.Request.Method == http.MethodGet || p.answers {
		orig := body
		body = p.Rehome(body)
		if p.resign != nil {
			body = p.resign(orig, body, p.Origin)
		}
		resp.Header.Del("ETag") // the bytes changed
	}
	ex.mu.Lock()
	ex.RespBody = body[:min(len(body), maxRecordedBody)]
	ex.Truncated = ex.Truncated || len(body) > maxRecordedBody
	ex.mu.Unlock()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
	resp.Header.Del("Content-Encoding")
	return nil
}

// teeBody records a streamed answer up to the bound while passing it through.
type teeBody struct {
	rc io.ReadCloser
	ex *Exchange
}

func (t *teeBody) Read(b []byte) (int, error) {
	n, err := t.rc.Read(b)
	if n > 0 {
		t.ex.mu.Lock()
		if room := maxRecordedBody - len(t.ex.RespBody); room > 0 {
			t.ex.RespBody = append(t.ex.RespBody, b[:min(n, room)]...)
		} else {
			t.ex.Truncated = true
		}
		t.ex.mu.Unlock()
	}
	return n, err
}

func (t *teeBody) Close() error { return t.rc.Close() }

// Exchanges returns what was recorded so far, in the order the requests arrived.
func (p *Proxy) Exchanges() []*Exchange {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]*Exchange(nil), p.exs...)
}
