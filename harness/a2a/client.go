package a2a

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"time"
)

// Options configure a Client. The zero value is usable.
type Options struct {
	Limits      Limits                                                            // zero fields → defaults
	RootCAs     *x509.CertPool                                                    // trusted CAs for https (nil: system pool)
	Recorder    *Recorder                                                         // nil: a new one
	DialContext func(ctx context.Context, network, addr string) (net.Conn, error) // nil: net.Dialer with ConnectTimeout
	CheckURL    func(u *url.URL) error                                            // before every request and redirect hop
	// CheckDial, when set, judges every address a connection would go to ("host:port" as requested, and each IP
	// the host resolves to); the client dials only an IP it accepted, so a name cannot be re-resolved elsewhere.
	CheckDial func(hostport string, ip net.IP) error
	Header    http.Header // sent on every request
	// CredentialsTo, when set, says whether a request to u may carry credentials: when it says no, credential
	// headers and any header holding a configured secret (the recorder's redactor knows them) are not sent.
	CredentialsTo func(u *url.URL) bool
}

// Client speaks A2A 1.0 to a target it does not trust, recording every exchange.
type Client struct {
	hc       *http.Client
	lim      Limits
	rec      *Recorder
	checkURL func(*url.URL) error
	credTo   func(*url.URL) bool
	brk      *breaker // shared by WithHeader copies: an origin is dead for every principal
	header   http.Header
	nextID   *atomic.Int64
}

// Call holds per-call knobs. The zero value makes a well-formed request.
type Call struct {
	Extensions  []string    // A2A-Extensions request header, joined with ", "; nil → header absent
	Version     *string     // nil → "1.0"; pointer to "" → header sent with empty value
	OmitVersion bool        // A2A-Version header absent
	Header      http.Header // extra headers; a key mapped to an empty slice removes that header
	Note        string      // human label recorded on the exchange
	ID          any         // JSON-RPC id; nil → an increasing integer
}

const userAgent = "extconf-a2a/1.0"

// hops carries a request's redirect log into CheckRedirect.
type hopsKey struct{}

// NewClient builds a client whose transport enforces o.Limits.
func NewClient(o Options) *Client {
	lim := o.Limits.withDefaults()
	rec := o.Recorder
	if rec == nil {
		rec = NewRecorder()
	}
	dial := o.DialContext
	if dial == nil {
		dial = (&net.Dialer{Timeout: lim.ConnectTimeout, KeepAlive: 30 * time.Second}).DialContext
	}
	dial = routed(dial)
	tr := &http.Transport{
		Proxy: nil, // never environment proxies: the target is who we say it is
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			if err := consultDialHook(ctx, network, addr); err != nil {
				return nil, err
			}
			dctx, cancel := context.WithTimeout(ctx, lim.ConnectTimeout)
			defer cancel()
			if o.CheckDial != nil {
				pinned, err := checkedAddr(dctx, addr, o.CheckDial)
				if err != nil {
					return nil, err
				}
				addr = pinned
			}
			conn, err := dial(dctx, network, addr)
			if err != nil && ctx.Err() == nil && dctx.Err() == context.DeadlineExceeded {
				return nil, &LimitError{Limit: LimitConnectTimeout, Detail: fmt.Sprintf("(%s): dialing %s", lim.ConnectTimeout, addr)}
			}
			return conn, err
		},
		TLSClientConfig:     &tls.Config{RootCAs: o.RootCAs, MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout: lim.ConnectTimeout,
		// No ResponseHeaderTimeout: every request carries its call's (or stream's) deadline from before it is sent,
		// which always ends first, so a second timer per exchange would only cost.
		MaxResponseHeaderBytes: lim.MaxHeaderBytes,
		DisableCompression:     true, // record bytes as sent; no decompression bombs
		MaxIdleConns:           64,
		MaxIdleConnsPerHost:    16,
		IdleConnTimeout:        30 * time.Second,
	}
	c := &Client{lim: lim, rec: rec, checkURL: o.CheckURL, credTo: o.CredentialsTo, header: o.Header.Clone(), nextID: new(atomic.Int64), brk: newBreaker()}
	c.hc = &http.Client{Transport: tr, CheckRedirect: c.checkRedirect}
	return c
}

// CloseIdleConnections closes the client's kept-alive connections (a client whose peer outlives its use).
func (c *Client) CloseIdleConnections() { c.hc.CloseIdleConnections() }

// Recorder returns the recorder every exchange of this client goes to.
func (c *Client) Recorder() *Recorder { return c.rec }

// Limits returns the effective limits.
func (c *Client) Limits() Limits { return c.lim }

// WithHeader returns a client sharing transport and recorder that also sends header k: v (a second principal).
func (c *Client) WithHeader(k, v string) *Client {
	d := *c
	d.header = c.header.Clone()
	if d.header == nil {
		d.header = http.Header{}
	}
	d.header.Set(k, v)
	return &d
}

// checkRedirect allows MaxRedirects hops, each to the first request's origin and accepted by CheckURL.
func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	if hops, ok := req.Context().Value(hopsKey{}).(*[]string); ok {
		*hops = append(*hops, req.URL.String())
	}
	if len(via) > c.lim.MaxRedirects {
		return &LimitError{Limit: LimitMaxRedirects, Detail: fmt.Sprintf("(%d): redirected again to %s", c.lim.MaxRedirects, req.URL)}
	}
	if Origin(req.URL) != Origin(via[0].URL) {
		return fmt.Errorf("%w: %s is not %s", ErrRedirectOffOrigin, Origin(req.URL), Origin(via[0].URL))
	}
	return c.check(req.URL)
}

// Origin is u's origin as "scheme://host:port", lower case, the default port of http and https made explicit:
// the form redirects are compared in here and the harness's reach rule keys its allowed origins by.
func Origin(u *url.URL) string {
	scheme := strings.ToLower(u.Scheme)
	port := u.Port()
	if port == "" {
		switch scheme {
		case "http":
			port = "80"
		case "https":
			port = "443"
		}
	}
	return scheme + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

func (c *Client) check(u *url.URL) error {
	if u.Scheme != "http" && u.Scheme != "https" {
		// Nothing but http(s) is ever followed: a file: URL is refused here, before any read.
		return fmt.Errorf("%w: %s: URL (only http and https are followed; nothing is read from disk or other schemes)",
			ErrURLRefused, clipName(strings.ToLower(u.Scheme)))
	}
	if c.checkURL != nil {
		if err := c.checkURL(u); err != nil {
			return fmt.Errorf("%w: %s: %w", ErrURLRefused, u, err)
		}
	}
	return nil
}

// request is one exchange to perform.
type request struct {
	method, url string
	body        []byte
	call        Call
	accept      string
	stream      bool // parse a text/event-stream response into Events, bounded by StreamTimeout
}

// exchange performs r and returns what it saw; the caller records it (once, after its own checks).
func (c *Client) exchange(ctx context.Context, r request) (_ *Exchange, retErr error) {
	ex := &Exchange{Note: r.call.Note, Method: r.method, URL: r.url, RequestBody: r.body, Started: time.Now().UTC()}
	start := time.Now()
	defer func() { ex.DurationMS = float64(time.Since(start)) / float64(time.Millisecond) }()

	hdr := c.buildHeader(r)
	ex.RequestHeader = hdr

	u, err := url.Parse(r.url)
	if err != nil {
		return ex, fmt.Errorf("%w: %w", ErrURLRefused, err)
	}
	if err := c.check(u); err != nil {
		return ex, err
	}
	if c.credTo != nil && !c.credTo(u) {
		hdr = withoutCredentials(hdr, c.rec.Redactor())
		ex.RequestHeader = hdr
	}
	origin := Origin(u)
	if err := c.brk.before(origin); err != nil {
		return ex, err
	}
	if held := c.rec.Held(); held >= c.lim.MaxRunBytes {
		return ex, &LimitError{Limit: LimitMaxRunBytes, Detail: fmt.Sprintf("(%d bytes): the run already holds %d bytes of recorded bodies; nothing more is sent (raise limits.maxRunBytes to allow more)", c.lim.MaxRunBytes, held)}
	}
	defer func() { c.brk.after(origin, ex, retErr) }()

	limit, name := c.lim.CallTimeout, LimitCallTimeout
	if r.stream {
		limit, name = c.lim.StreamTimeout, LimitStreamTimeout
	}
	cctx, cancel := context.WithTimeout(ctx, limit)
	defer cancel()
	cctx = context.WithValue(cctx, hopsKey{}, &ex.Redirects) // checkRedirect appends each hop

	var body io.Reader
	if r.body != nil {
		body = bytes.NewReader(r.body)
	}
	req, err := http.NewRequestWithContext(cctx, r.method, r.url, body)
	if err != nil {
		return ex, err
	}
	req.Header = hdr // the transport does not modify it, and redirects copy it
	if _, ok := hdr["User-Agent"]; !ok {
		req.Header = hdr.Clone()
		req.Header["User-Agent"] = []string{""} // an empty value stops Go adding its own
	}

	timeout := func(err error) error {
		var le *LimitError
		switch {
		case errors.As(err, &le), errors.Is(err, ErrURLRefused), errors.Is(err, ErrRedirectOffOrigin):
			return err
		case ctx.Err() != nil:
			return err // the caller gave up; not the target's fault
		case cctx.Err() == context.DeadlineExceeded:
			return &LimitError{Limit: name, Detail: fmt.Sprintf("(%s): %s %s", limit, r.method, r.url)}
		}
		if strings.Contains(err.Error(), "server response headers exceeded") {
			// net/http's own wording, named as the limit it is
			return &LimitError{Limit: LimitMaxHeaderBytes, Detail: fmt.Sprintf("(%d bytes): %s %s: the response's headers are larger", c.lim.MaxHeaderBytes, r.method, r.url)}
		}
		var ne net.Error
		if errors.As(err, &ne) && ne.Timeout() {
			return &LimitError{Limit: LimitConnectTimeout, Detail: fmt.Sprintf("(%s): %s %s: %v", c.lim.ConnectTimeout, r.method, r.url, err)}
		}
		return err
	}

	resp, err := c.hc.Do(req)
	if resp != nil {
		ex.Status = resp.StatusCode
		ex.ResponseHeader = resp.Header // ours alone once Do returns
	}
	if err != nil {
		if resp != nil && resp.Body != nil {
			resp.Body.Close()
		}
		ex.Truncated = resp != nil
		return ex, timeout(err)
	}
	defer resp.Body.Close()

	lr := io.LimitReader(resp.Body, c.lim.MaxBody+1)
	if r.stream && isMediaType(resp.Header.Get("Content-Type"), "text/event-stream") {
		var raw bytes.Buffer
		err = ReadSSE(io.TeeReader(lr, &raw), c.lim.MaxSSEEvent, c.lim.MaxSSEEvents, func(e SSEEvent) {
			ex.Events = append(ex.Events, e.Data)
		})
		ex.ResponseBody = raw.Bytes()
		if err != nil {
			ex.Truncated = true
			return ex, timeout(err)
		}
	} else {
		buf := bytes.NewBuffer(make([]byte, 0, initialCap(resp.ContentLength, c.lim.MaxBody)))
		_, err = buf.ReadFrom(lr)
		ex.ResponseBody = buf.Bytes()
		if err != nil {
			ex.Truncated = true
			return ex, timeout(err)
		}
	}
	if int64(len(ex.ResponseBody)) > c.lim.MaxBody {
		ex.ResponseBody = ex.ResponseBody[:c.lim.MaxBody]
		ex.Truncated = true
		return ex, &LimitError{Limit: LimitMaxBody, Detail: fmt.Sprintf("(%d bytes): response body of %s %s is longer", c.lim.MaxBody, r.method, r.url)}
	}
	return ex, nil
}

func initialCap(contentLength, maxBody int64) int64 {
	if contentLength >= 0 && contentLength <= maxBody {
		return contentLength + 1 // +1 so ReadFrom sees EOF without growing
	}
	return 512
}

// The A2A header names in net/http's canonical form ("A2a-…"), computed once: canonicalising allocates.
var (
	canonicalVersionKey    = http.CanonicalHeaderKey(HeaderVersion)
	canonicalExtensionsKey = http.CanonicalHeaderKey(HeaderExtensions)
)

// buildHeader layers client headers, the A2A headers and the call's own; keys are canonical.
func (c *Client) buildHeader(r request) http.Header {
	h := make(http.Header, len(c.header)+len(r.call.Header)+4)
	for k, v := range c.header {
		h[http.CanonicalHeaderKey(k)] = append([]string(nil), v...)
	}
	h["User-Agent"] = []string{userAgent} // keys already canonical: no Set
	if r.accept != "" {
		h["Accept"] = []string{r.accept}
	}
	if r.body != nil {
		h["Content-Type"] = []string{"application/json"}
	}
	if !r.call.OmitVersion {
		v := ProtocolVersion
		if r.call.Version != nil {
			v = *r.call.Version
		}
		h[canonicalVersionKey] = []string{v}
	}
	if r.call.Extensions != nil {
		h[canonicalExtensionsKey] = []string{strings.Join(r.call.Extensions, ", ")}
	}
	for k, v := range r.call.Header {
		k = http.CanonicalHeaderKey(k)
		if len(v) == 0 {
			delete(h, k)
		} else {
			h[k] = append([]string(nil), v...)
		}
	}
	return h
}

// finish sets the exchange's error and records it: the single place exchanges are recorded.
func (c *Client) finish(ex *Exchange, err error) {
	if err != nil {
		ex.Error = err.Error()
		ex.unreached = Unreached(ex.URL, ex.Status, err)
	}
	c.rec.Add(ex)
}

// HTTP sends one raw request and records it. body != nil sets Content-Type: application/json.
func (c *Client) HTTP(ctx context.Context, method, url string, body []byte, call Call) (*Exchange, error) {
	ex, err := c.exchange(ctx, request{method: method, url: url, body: body, call: call})
	c.finish(ex, err)
	return ex, err
}

// FetchJSON GETs a JSON document: status 200, a JSON media type and well-formed JSON are required.
func (c *Client) FetchJSON(ctx context.Context, url string, call Call) ([]byte, *Exchange, error) {
	ex, err := c.exchange(ctx, request{method: http.MethodGet, url: url, call: call, accept: "application/json"})
	if err == nil {
		err = c.checkJSONDoc(ex)
	}
	c.finish(ex, err)
	if err != nil {
		return nil, ex, err
	}
	return ex.ResponseBody, ex, nil
}

// checkJSONDoc requires status 200, a JSON media type and one I-JSON value within MaxJSONDepth.
func (c *Client) checkJSONDoc(ex *Exchange) error {
	if ex.Status != http.StatusOK {
		return fmt.Errorf("%w: %d from GET %s", ErrStatus, ex.Status, ex.URL)
	}
	ct := ex.ResponseHeader.Get("Content-Type")
	if !isJSONMediaType(ct) {
		return fmt.Errorf("%w: %q from GET %s, want application/json or +json", ErrContentType, ct, ex.URL)
	}
	if err := CheckIJSON(ex.ResponseBody, c.lim.MaxJSONDepth); err != nil {
		return fmt.Errorf("body of GET %s: %w", ex.URL, err)
	}
	return nil
}

// checkCardSize bounds what the suites iterate over: a card with more skills than MaxCardSkills is refused whole.
func checkCardSize(card *AgentCard, lim Limits, what string) error {
	if n := len(card.Skills); n > lim.MaxCardSkills {
		return &LimitError{Limit: LimitMaxCardSkills, Detail: fmt.Sprintf("(%d skills): %s lists %d", lim.MaxCardSkills, what, n)}
	}
	return nil
}

// FetchCard fetches and decodes an Agent Card (unknown members are dropped; the raw bytes are on the exchange).
func (c *Client) FetchCard(ctx context.Context, cardURL string, call Call) (*AgentCard, *Exchange, error) {
	ex, err := c.exchange(ctx, request{method: http.MethodGet, url: cardURL, call: call, accept: "application/json"})
	var card *AgentCard
	if err == nil {
		err = c.checkJSONDoc(ex)
	}
	if err == nil {
		card, err = decodeCard(ex.ResponseBody, c.lim, "the card at "+cardURL)
	}
	c.finish(ex, err)
	if err != nil {
		return nil, ex, err
	}
	return card, ex, nil
}

// DecodeCard reads card bytes as FetchCard does after the HTTP checks: one I-JSON object (CheckIJSON) within
// lim.MaxJSONDepth, decoded (unknown members dropped), at most lim.MaxCardSkills skills. Zero fields of lim take
// their defaults.
func DecodeCard(raw []byte, lim Limits) (*AgentCard, error) {
	lim = lim.withDefaults()
	if err := CheckIJSON(raw, lim.MaxJSONDepth); err != nil {
		return nil, err
	}
	return decodeCard(raw, lim, "the card")
}

func decodeCard(raw []byte, lim Limits, what string) (*AgentCard, error) {
	var card AgentCard
	if err := DecodeStrict(raw, &card); err != nil {
		return nil, err
	}
	if err := checkCardSize(&card, lim, what); err != nil {
		return nil, err
	}
	return &card, nil
}

// REST calls the HTTP+JSON binding: baseURL + path. body nil → no body; json.RawMessage or []byte go verbatim;
// anything else is JSON-encoded. Paths ending ":stream" or ":subscribe" are read as SSE into Events.
func (c *Client) REST(ctx context.Context, method, baseURL, path string, body any, call Call) (*Exchange, error) {
	var b []byte
	switch v := body.(type) {
	case nil:
	case json.RawMessage:
		b = v
	case []byte:
		b = v
	default:
		var err error
		if b, err = json.Marshal(v); err != nil {
			return nil, fmt.Errorf("a2a: encoding REST body: %w", err)
		}
	}
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	stream := strings.HasSuffix(path, ":stream") || strings.HasSuffix(path, ":subscribe")
	r := request{method: method, url: strings.TrimRight(baseURL, "/") + path, body: b, call: call, stream: stream}
	if stream {
		r.accept = "text/event-stream"
	}
	ex, err := c.exchange(ctx, r)
	c.finish(ex, err)
	return ex, err
}

// DecodeStrict decodes exactly one JSON value (no trailing data) into v; failures wrap ErrInvalidJSON.
func DecodeStrict(b []byte, v any) error {
	if len(bytes.TrimSpace(b)) == 0 {
		return fmt.Errorf("%w: empty", ErrInvalidJSON)
	}
	if err := json.Unmarshal(b, v); err != nil { // Unmarshal already rejects trailing data
		return fmt.Errorf("%w: %w", ErrInvalidJSON, err)
	}
	return nil
}

func isMediaType(ct, want string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && mt == want
}

func isJSONMediaType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}

// checkedAddr resolves addr's host and returns "ip:port" for the first address check accepts, or the refusal of
// the first one it refused when none is accepted.
// ErrAddressRefused marks a connection the client's CheckDial refused for every address the host resolved to.
var ErrAddressRefused = errors.New("address refused")

func checkedAddr(ctx context.Context, addr string, check func(string, net.IP) error) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", err
	}
	var ips []net.IP
	if ip := net.ParseIP(host); ip != nil {
		ips = []net.IP{ip}
	} else {
		ias, err := net.DefaultResolver.LookupIPAddr(ctx, host)
		if err != nil {
			return "", err
		}
		for _, ia := range ias {
			ips = append(ips, ia.IP)
		}
	}
	var first error
	for _, ip := range ips {
		if err := check(addr, ip); err != nil {
			if first == nil {
				first = err
			}
			continue
		}
		return net.JoinHostPort(ip.String(), port), nil
	}
	if first == nil {
		first = fmt.Errorf("%s resolves to no address", host)
	}
	return "", fmt.Errorf("%w: %w", ErrAddressRefused, first)
}
