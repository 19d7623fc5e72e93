package rules

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
	"net/url"
	"strconv"
	"sync"
	"time"

	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/harness/jsonptr"
)

// maxProxiedBody bounds a body the proxy reads to patch (a reference agent's answers are small).
const maxProxiedBody = 8 << 20

// Proxy is a loopback reverse proxy in front of one reference agent that rewrites one kind of answer with a JSON
// Patch: the card, the document the rule fetches, or the response to the rule's request. It is how a rule's
// sabotage and latitudes reach the agent without any mock knowing about rules. The card it serves names the
// proxy's origin instead of the agent's, so documents and calls the card leads to pass through it too.
type Proxy struct {
	*a2atest.Front // CardURL is the card's URL through the proxy

	rule   *Rule
	target string
	ops    []Op

	mu      sync.Mutex
	docPath string
	applied int
	errs    []string
}

// StartProxy serves https on 127.0.0.1 (cert must be valid for it) in front of the agent whose card is at
// upstreamCardURL (trusted with cas), rewriting answers of kind target with ops.
func StartProxy(upstreamCardURL string, cert tls.Certificate, cas *x509.CertPool, r *Rule, target string, ops []Op) (*Proxy, error) {
	p := &Proxy{rule: r, target: target, ops: ops}
	f, err := a2atest.StartFront(upstreamCardURL, cert, cas, a2atest.FrontOptions{
		HeaderTimeout: 10 * time.Second,
		Configure:     func(rp *httputil.ReverseProxy) { rp.ModifyResponse = p.modify },
		Serve:         p.serve,
	})
	if err != nil {
		return nil, err
	}
	p.Front = f
	return p, nil
}

type methodKey struct{}

// serve notes the JSON-RPC method of a POST (bounded read) before proxying it.
func (p *Proxy) serve(rp *httputil.ReverseProxy, w http.ResponseWriter, req *http.Request) {
	if req.Method == http.MethodPost && req.Body != nil {
		b, err := io.ReadAll(io.LimitReader(req.Body, maxProxiedBody+1))
		if err != nil || len(b) > maxProxiedBody {
			http.Error(w, "request too large", http.StatusRequestEntityTooLarge)
			return
		}
		var env struct {
			Method string `json:"method"`
		}
		_ = json.Unmarshal(b, &env)
		req.Body = io.NopCloser(bytes.NewReader(b))
		req = req.WithContext(context.WithValue(req.Context(), methodKey{}, env.Method))
	}
	rp.ServeHTTP(w, req)
}

func (p *Proxy) modify(resp *http.Response) error {
	req := resp.Request
	isCard := req.Method == http.MethodGet && req.URL.Path == p.Upstream.Path
	p.mu.Lock()
	isDoc := req.Method == http.MethodGet && p.docPath != "" && req.URL.Path == p.docPath
	p.mu.Unlock()
	method, _ := req.Context().Value(methodKey{}).(string)
	isResp := p.rule != nil && p.rule.Request != nil && req.Method == http.MethodPost && method == p.rule.Request.Method
	if !isCard && !isDoc && !isResp {
		return nil
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxProxiedBody+1))
	resp.Body.Close()
	if err != nil {
		return err
	}
	if len(body) > maxProxiedBody {
		return fmt.Errorf("rules proxy: body larger than %d bytes", maxProxiedBody)
	}
	if isCard {
		body = p.Rehome(body)
	}
	if (isCard && p.target == TargetCard) || (isDoc && p.target == TargetDocument) || (isResp && p.target == TargetResponse) {
		patched, err := ApplyPatch(body, p.ops)
		p.mu.Lock()
		if err != nil {
			p.errs = append(p.errs, fmt.Sprintf("%s %s: %v", req.Method, req.URL.Path, err))
		} else {
			p.applied++
			body = patched
		}
		p.mu.Unlock()
	}
	if isCard && p.rule != nil && p.rule.Fetch != "" {
		var card any
		if json.Unmarshal(body, &card) == nil {
			if v, err := jsonptr.Resolve(card, p.rule.Fetch); err == nil {
				if s, ok := v.(string); ok {
					if u, err := url.Parse(s); err == nil {
						p.mu.Lock()
						p.docPath = u.Path
						p.mu.Unlock()
					}
				}
			}
		}
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
	resp.Header.Del("Content-Encoding")
	resp.Header.Del("ETag") // the bytes changed
	return nil
}

// Applied reports how many answers the patch rewrote and every failure to apply it.
func (p *Proxy) Applied() (int, []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.applied, append([]string(nil), p.errs...)
}
