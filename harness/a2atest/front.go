package a2atest

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"time"
)

// Front is a loopback https reverse proxy in front of one local agent: it serves on 127.0.0.1 with its own
// certificate, forwards to the agent's origin (dialled on loopback only, compressed bodies refused so they can be
// read), and names itself in the card URL it hands out. The client-certification recorder and the rule prover's
// patcher are Fronts with their own handler and response hook.
type Front struct {
	CardURL  string   // the agent's card URL with the Front's origin
	Origin   string   // https://127.0.0.1:PORT
	Upstream *url.URL // the agent's card URL

	srv *http.Server
}

// FrontOptions say what a Front adds to plain forwarding.
type FrontOptions struct {
	HeaderTimeout time.Duration // how long the agent may take to answer with headers
	// Configure sets the proxy's response hooks (ModifyResponse, ErrorHandler, FlushInterval) before it serves.
	Configure func(rp *httputil.ReverseProxy)
	// Serve handles each request, calling rp.ServeHTTP to forward it; nil forwards as is.
	Serve func(rp *httputil.ReverseProxy, w http.ResponseWriter, r *http.Request)
	// Port, when not 0, is the loopback port to listen on (a client under test whose own firewall or config pins
	// the proxy's address); 0 takes any free one.
	Port int
}

// StartFront serves a Front for the agent whose card is at upstreamCardURL (its certificate trusted with cas).
func StartFront(upstreamCardURL string, cert tls.Certificate, cas *x509.CertPool, o FrontOptions) (*Front, error) {
	up, err := url.Parse(upstreamCardURL)
	if err != nil || up.Host == "" {
		return nil, fmt.Errorf("upstream card URL %q: %v", upstreamCardURL, err)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(o.Port)))
	if err != nil {
		return nil, err
	}
	f := &Front{Upstream: up, Origin: "https://" + ln.Addr().String()}
	card := *up
	card.Scheme, card.Host = "https", ln.Addr().String()
	f.CardURL = card.String()
	rp := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(&url.URL{Scheme: up.Scheme, Host: up.Host})
			pr.Out.Host = up.Host
			pr.Out.Header.Del("Accept-Encoding") // bodies are read and rewritten as plain bytes
		},
		Transport: &http.Transport{
			TLSClientConfig:       &tls.Config{RootCAs: cas, MinVersion: tls.VersionTLS12},
			ResponseHeaderTimeout: o.HeaderTimeout,
			DialContext:           DialLoopbackOnly,
		},
	}
	if o.Configure != nil {
		o.Configure(rp)
	}
	serve := o.Serve
	if serve == nil {
		serve = func(rp *httputil.ReverseProxy, w http.ResponseWriter, r *http.Request) { rp.ServeHTTP(w, r) }
	}
	f.srv = &http.Server{
		Handler:           http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { serve(rp, w, r) }),
		TLSConfig:         &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12},
		ReadHeaderTimeout: 5 * time.Second,
	}
	go func() { _ = f.srv.ServeTLS(ln, "", "") }()
	return f, nil
}

// Rehome replaces the agent's origin in body with the Front's, so the URLs a card or document names lead through it.
func (f *Front) Rehome(body []byte) []byte {
	return bytes.ReplaceAll(body, []byte(f.Upstream.Scheme+"://"+f.Upstream.Host), []byte(f.Origin))
}

// Close stops the Front.
func (f *Front) Close() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = f.srv.Shutdown(ctx)
}
