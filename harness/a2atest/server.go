package a2atest

import (
	"crypto/sha256"
	"crypto/tls"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness/a2a"
)

// Agent is what one reference agent supplies; the zero value of each member means "standard behaviour".
type Agent struct {
	Name string
	// Card returns the card for the server's base URL ("https://127.0.0.1:PORT"); any JSON-encodable value
	// (an *a2a.AgentCard, or a map for deliberately odd cards). Called at Start and on Reload.
	// nil: an echo agent card (streaming, both interfaces, one "echo" skill).
	Card   func(base string) any
	Signer *CardSigner // non-nil: the served card carries signatures[] (A2A §8.4)
	// ResignPerFetch signs the card afresh on every GET (with ECDSA each fetch carries other signature bytes over
	// the same card), as a deployment that signs at the edge would.
	ResignPerFetch bool
	// Methods are extra JSON-RPC methods (e.g. "interview/identity"). Result is JSON-encoded as the result member.
	// The standard A2A method names cannot be replaced here (use Before).
	Methods map[string]func(c *Ctx, params json.RawMessage) (result any, err *a2a.RPCError)
	// OnSend answers SendMessage and SendStreamingMessage (both bindings). nil: echo agent completing a task.
	OnSend func(c *Ctx, req a2a.SendMessageRequest) Reply
	// Routes are extra HTTP routes on the same origin, keyed by Go 1.22 ServeMux patterns ("GET /proposals/{name}").
	Routes map[string]http.HandlerFunc
	// APIKeys maps a credential (sent as "Authorization: Bearer <key>" or "X-API-Key: <key>") to a principal.
	APIKeys map[string]Principal
	// RequireAuth: every A2A operation needs a known credential: 401 (HTTP) before any lookup otherwise.
	RequireAuth bool
	// ExtendedCard answers GetExtendedAgentCard; nil → -32004 or -32007 per card.
	ExtendedCard func(c *Ctx) (card any, err *a2a.RPCError)
	// Before runs before any A2A operation is dispatched (after authentication, version and required-extension
	// checks; for custom and unknown methods too); a non-nil Reply ends the request with it.
	Before func(c *Ctx) *Reply
	// AcceptVersions lists the A2A versions (Major.Minor) accepted; nil → ["1.0"]. A request without A2A-Version
	// asks for "0.3" (A2A §3.6.2), so listing "0.3" is how an agent sabotages version negotiation.
	AcceptVersions []string
}

// Reply is an agent's answer to one operation. Exactly one of RawBody, Err, Result, Events, Task/Message is
// normally set; that is also the order of precedence.
type Reply struct {
	Task    *a2a.Task         // stored in the task store; ID/ContextID/status timestamp filled when empty
	Message *a2a.Message      // SendMessage: messageId, role, contextId (client's, task's or new) filled when empty
	Events  []a2a.StreamEvent // streaming: sent in order; nil → derived (Task then status/artifact updates, or Message)
	Result  any               // raw result for custom cases (overrides Task/Message); json.RawMessage is sent as is
	Err     *a2a.RPCError     // JSON-RPC error (HTTP+JSON: mapped to google.rpc.Status with the 1.0.1 table)
	// HTTPStatus overrides the HTTP status (e.g. 401, 403, 404).
	HTTPStatus int
	// RawBody is sent exactly (sabotage); Content-Type application/json, status HTTPStatus or 200.
	RawBody []byte
}

// Options configure the listener and the latitudes the core applies to any agent.
type Options struct {
	Addr string // default "127.0.0.1:0"; must be loopback
	TLS  bool   // serve https with a leaf certificate for 127.0.0.1, ::1, localhost issued by the test CA

	// Latitudes: other choices A2A 1.0 permits, applied by the core whatever the agent (the reference agents switch
	// them on from the a2a.lat.* ids of package sabotage). The zero value is the reference behaviour.

	// SyncOnly rewrites the card's (and the extended card's) capabilities.streaming to false, so
	// SendStreamingMessage and SubscribeToTask are refused with UnsupportedOperationError (A2A §3.3.1).
	SyncOnly bool
	// Binding, when set (a2a.BindingJSONRPC or a2a.BindingHTTPJSON), serves only that binding: the cards list only
	// its interfaces and the other binding's endpoint answers 404 (A2A §5.2: "Agents MUST declare all supported
	// protocols in their AgentCard").
	Binding string
	// MessageReply answers a non-streaming SendMessage whose reply is a Task with a Message instead (A2A §3.1.1:
	// the agent "MAY return a direct Message response"): the Message carries the task's artifact parts (else its
	// status message's parts) and its contextId; no task is stored.
	MessageReply bool
	// TaskReply is the reverse: a non-streaming SendMessage whose reply is a Message gets a completed Task instead
	// (A2A §3.1.1: the agent "MAY create a new Task"), the Message as its final status message and its parts as the
	// one artifact.
	TaskReply bool
	// NoCardCache serves the card without Cache-Control, ETag and Last-Modified, and never answers 304 (A2A §8.6.1
	// has SHOULDs and a MAY for them).
	NoCardCache bool
	// Plain401 writes every 401 of an A2A operation (the core's own and any Reply with HTTPStatus 401) as a plain-text
	// body with WWW-Authenticate (RFC 7235 §3.1) and no JSON.
	Plain401 bool

	// Not a latitude (A2A 1.0 makes SendMessage wait for a terminal or interrupted state unless the client asks
	// returnImmediately): InProgressReply answers a non-streaming SendMessage whose reply is a terminal Task with
	// a copy in TASK_STATE_WORKING without artifacts, storing the terminal task for GetTask, as if the client had
	// asked returnImmediately. Tests use it to show a suite follows the task instead of grading the reply.
	InProgressReply bool
}

// Limits of the core.
const (
	MaxBodyBytes = 1 << 20 // request bodies beyond this are refused (413)
	writeTimeout = 30 * time.Second
)

// Server is one running agent.
type Server struct {
	agent    Agent
	opts     Options
	base     string
	tasks    *TaskStore
	srv      *http.Server
	ln       net.Listener
	handler  http.Handler
	routes   *http.ServeMux
	closing  chan struct{}
	closeOne sync.Once

	mu      sync.RWMutex
	card    []byte    // the served card bytes (signed when Signer is set)
	etag    string    // strong entity tag of card: a hash of its bytes
	cardMod time.Time // when the served card bytes last changed (Last-Modified)
	cardErr error     // why the last build failed; the card endpoint answers 500 then
	info    cardInfo
	jwks    []byte
}

// cardInfo is what the core reads back from the card to apply the standard behaviour.
type cardInfo struct {
	streaming  bool
	extended   bool
	extensions []declaredExtension
}

type declaredExtension struct {
	URI      string `json:"uri"`
	Required bool   `json:"required"`
}

// Start listens on a loopback address and serves the agent until Close. With Options.Addr empty and
// EXTCONF_MOCK_PORTS set (the reference image), it listens as bind.go describes instead.
func Start(a Agent, o Options) (*Server, error) {
	addr := o.Addr
	var ln net.Listener
	var advertise string // the host:port the card names; "" → the listener's own address
	if addr == "" {
		l, adv, ok, err := envListen()
		if err != nil {
			return nil, err
		}
		if ok {
			ln, advertise = l, adv
		} else {
			addr = "127.0.0.1:0"
		}
	}
	if ln == nil {
		host, _, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, fmt.Errorf("server: address %q: %w", addr, err)
		}
		if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
			return nil, fmt.Errorf("server: address %q is not loopback", addr)
		}
		if ln, err = net.Listen("tcp", addr); err != nil {
			return nil, err
		}
	}
	if advertise == "" {
		advertise = ln.Addr().String()
	}
	scheme := "http"
	if o.TLS {
		cert, err := testpki.IssueLeaf()
		if err != nil {
			ln.Close()
			return nil, fmt.Errorf("server: issuing leaf certificate: %w", err)
		}
		ln = tls.NewListener(ln, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12})
		scheme = "https"
	}
	s, err := newServer(a, scheme+"://"+advertise, o)
	if err != nil {
		ln.Close()
		return nil, err
	}
	s.ln = ln
	s.srv = &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		IdleTimeout:       60 * time.Second,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          log.New(io.Discard, "", 0),
	}
	go func() { _ = s.srv.Serve(ln) }()
	return s, nil
}

// newServer builds everything but the listener (base is the origin the card advertises).
func newServer(a Agent, base string, o Options) (s *Server, err error) {
	s = &Server{agent: a, opts: o, base: base, tasks: newTaskStore(), closing: make(chan struct{}), routes: http.NewServeMux()}
	defer func() { // ServeMux panics on an invalid or conflicting pattern: report it as an error
		if r := recover(); r != nil {
			s, err = nil, fmt.Errorf("server: routes: %v", r)
		}
	}()
	for pattern, h := range a.Routes {
		if h != nil {
			s.routes.HandleFunc(pattern, h)
		}
	}
	if err := s.rebuild(); err != nil {
		return nil, err
	}
	s.handler = s.root()
	return s, nil
}

// URL is the server's origin, e.g. "https://127.0.0.1:41234".
func (s *Server) URL() string { return s.base }

// CardURL is URL()+"/.well-known/agent-card.json".
func (s *Server) CardURL() string { return s.base + a2a.CardPath }

// JSONRPCURL is URL()+"/jsonrpc".
func (s *Server) JSONRPCURL() string { return s.base + "/jsonrpc" }

// RESTURL is URL()+"/rest", the HTTP+JSON base (routes /rest/message:send, /rest/{tenant}/…).
func (s *Server) RESTURL() string { return s.base + "/rest" }

// JWKSURL is URL()+"/.well-known/jwks.json" (served only when the signer sets JKU).
func (s *Server) JWKSURL() string { return s.base + JWKSPath }

// Tasks is the server's task store.
func (s *Server) Tasks() *TaskStore { return s.tasks }

// Handler is the server's whole HTTP surface (for in-process use, e.g. httptest).
func (s *Server) Handler() http.Handler { return s.handler }

// Interfaces returns the card's supportedInterfaces for this server: JSON-RPC first, then HTTP+JSON, both 1.0.
func (s *Server) Interfaces() []a2a.AgentInterface { return Interfaces(s.base) }

// Interfaces returns the supportedInterfaces of a core server at base, for use inside Agent.Card (which runs before
// Start returns the *Server).
func Interfaces(base string) []a2a.AgentInterface {
	return []a2a.AgentInterface{
		{URL: base + "/jsonrpc", ProtocolBinding: a2a.BindingJSONRPC, ProtocolVersion: a2a.ProtocolVersion},
		{URL: base + "/rest", ProtocolBinding: a2a.BindingHTTPJSON, ProtocolVersion: a2a.ProtocolVersion},
	}
}

// CardBytes returns the card exactly as served (nil if the last build failed).
func (s *Server) CardBytes() []byte {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return append([]byte(nil), s.card...)
}

// Reload rebuilds the card (for agents whose card changes between fetches). When the agent's card cannot be
// encoded or signed, the card endpoint answers 500 until the next successful Reload.
func (s *Server) Reload() { _ = s.rebuild() }

// Close stops the server and ends every open stream.
func (s *Server) Close() {
	s.closeOne.Do(func() {
		close(s.closing)
		if s.srv != nil {
			_ = s.srv.Close()
		}
	})
}

func (s *Server) rebuild() error {
	card, info, jwks, err := s.buildCard()
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		s.card, s.cardErr = nil, err
		return err
	}
	if tag := cardETag(card); tag != s.etag {
		s.etag, s.cardMod = tag, time.Now()
	}
	s.card, s.cardErr, s.info, s.jwks = card, nil, info, jwks
	return nil
}

func (s *Server) buildCard() (card []byte, info cardInfo, jwks []byte, err error) {
	var v any
	if s.agent.Card != nil {
		v = s.agent.Card(s.base)
	} else {
		v = s.defaultCard()
	}
	card, err = marshal(v)
	if err != nil {
		return nil, info, nil, fmt.Errorf("server: encoding card: %w", err)
	}
	card = s.cardLatitudes(card)
	if card, err = s.signCard(card); err != nil {
		return nil, info, nil, err
	}
	if sg := s.agent.Signer; sg != nil && sg.JKU {
		if jwks, err = sg.PublicJWKS(); err != nil {
			return nil, info, nil, fmt.Errorf("server: card signer JWKS: %w", err)
		}
	}
	return card, readCardInfo(card), jwks, nil
}

// signCard signs card bytes with the agent's signer, if any.
func (s *Server) signCard(card []byte) ([]byte, error) {
	sg := s.agent.Signer
	if sg == nil {
		return card, nil
	}
	jku := ""
	if sg.JKU {
		jku = s.JWKSURL()
	}
	out, err := sg.Sign(card, jku)
	if err != nil {
		return nil, fmt.Errorf("server: signing card: %w", err)
	}
	return out, nil
}

// resign replaces the card's last signature (the signer's own) by a fresh one.
func (s *Server) resign(card []byte) ([]byte, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(card, &m); err != nil {
		return nil, err
	}
	var sigs []json.RawMessage
	_ = json.Unmarshal(m["signatures"], &sigs)
	if len(sigs) > 0 {
		sigs = sigs[:len(sigs)-1]
	}
	members, err := parseObject(card)
	if err != nil {
		return nil, err
	}
	for i := range members {
		if members[i].Key == "signatures" {
			members[i].Value = mustJSON(sigs)
			if len(sigs) == 0 {
				members = append(members[:i], members[i+1:]...)
			}
			break
		}
	}
	return s.signCard(emitObject(members))
}

// readCardInfo reads the capabilities the core acts on, tolerating odd cards (wrong types read as absent).
func readCardInfo(card []byte) cardInfo {
	var info cardInfo
	var top struct {
		Capabilities json.RawMessage `json:"capabilities"`
	}
	if json.Unmarshal(card, &top) != nil {
		return info
	}
	var caps map[string]json.RawMessage
	if json.Unmarshal(top.Capabilities, &caps) != nil {
		return info
	}
	_ = json.Unmarshal(caps["streaming"], &info.streaming)
	_ = json.Unmarshal(caps["extendedAgentCard"], &info.extended)
	var exts []json.RawMessage
	_ = json.Unmarshal(caps["extensions"], &exts)
	for _, e := range exts {
		var d declaredExtension
		if json.Unmarshal(e, &d) == nil && d.URI != "" {
			info.extensions = append(info.extensions, d)
		}
	}
	return info
}

func (s *Server) cardInfo() cardInfo {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.info
}

// defaultCard is the echo agent's card.
func (s *Server) defaultCard() *a2a.AgentCard {
	name := s.agent.Name
	if name == "" {
		name = "extconf echo agent"
	}
	c := &a2a.AgentCard{
		Name:                name,
		Description:         "Reference echo agent of the extconf harness: answers every message with a completed task whose artifact echoes the message parts.",
		SupportedInterfaces: Interfaces(s.base),
		Version:             "1.0.0",
		Capabilities:        a2a.AgentCapabilities{Streaming: true},
		DefaultInputModes:   []string{"text/plain", "application/json"},
		DefaultOutputModes:  []string{"text/plain", "application/json"},
		Skills: []a2a.AgentSkill{{
			ID: "echo", Name: "Echo", Description: "Returns the parts of the message it receives.",
			Tags: []string{"echo", "test"}, Examples: []string{"hello"},
		}},
	}
	if s.agent.RequireAuth || len(s.agent.APIKeys) > 0 {
		c.SecuritySchemes = map[string]json.RawMessage{
			"bearer": json.RawMessage(`{"httpAuthSecurityScheme":{"scheme":"Bearer"}}`),
		}
		if s.agent.RequireAuth {
			c.SecurityRequirements = []a2a.SecurityRequirement{{Schemes: map[string]a2a.StringList{"bearer": {}}}}
		}
	}
	return c
}

// root is the whole HTTP surface: card, JWKS, the two A2A bindings, then the agent's routes.
func (s *Server) root() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				// Best effort: the headers may be gone already; the connection survives either way.
				writeJSON(w, http.StatusInternalServerError, mustJSON(map[string]any{"error": map[string]any{
					"code": 500, "status": "INTERNAL", "message": fmt.Sprintf("internal error: %v", v)}}))
			}
		}()
		_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(writeTimeout))
		r.Body = http.MaxBytesReader(w, r.Body, MaxBodyBytes)
		switch p := r.URL.Path; {
		case p == a2a.CardPath:
			s.serveCard(w, r)
		case p == JWKSPath && s.agent.Signer != nil && s.agent.Signer.JKU:
			s.serveJWKS(w, r)
		case p == "/jsonrpc" && s.opts.Binding != a2a.BindingHTTPJSON:
			s.serveJSONRPC(w, r)
		case (p == "/rest" || len(p) > 5 && p[:6] == "/rest/") && s.opts.Binding != a2a.BindingJSONRPC:
			s.serveREST(w, r)
		case p == "/jsonrpc" || p == "/rest" || strings.HasPrefix(p, "/rest/"):
			http.NotFound(w, r) // the binding this server does not serve (Options.Binding)
		default:
			s.routes.ServeHTTP(w, r)
		}
	})
}

func (s *Server) serveCard(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	s.mu.RLock()
	card, err, etag, mod := s.card, s.cardErr, s.etag, s.cardMod
	s.mu.RUnlock()
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	if s.agent.ResignPerFetch && s.agent.Signer != nil {
		if card, err = s.resign(card); err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		etag = cardETag(card)
	}
	// A2A §8.6.1: Cache-Control with max-age (SHOULD), ETag (SHOULD), Last-Modified (MAY). Revalidation is by
	// If-None-Match only: Last-Modified has one-second resolution and cards may change faster (Reload).
	if s.opts.NoCardCache {
		writeJSON(w, http.StatusOK, card)
		return
	}
	h := w.Header()
	h.Set("Cache-Control", CardCacheControl)
	h.Set("ETag", etag)
	h.Set("Last-Modified", mod.UTC().Format(http.TimeFormat))
	if etagMatch(r.Header.Values("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	writeJSON(w, http.StatusOK, card)
}

// CardCacheControl is the Cache-Control of the card endpoint: a short max-age, since a reference agent's card may
// change at any Reload (its ETag changes with it).
const CardCacheControl = "public, max-age=60"

// cardETag is a strong entity tag for card bytes.
func cardETag(card []byte) string {
	sum := sha256.Sum256(card)
	return `"` + base64.RawURLEncoding.EncodeToString(sum[:16]) + `"`
}

// etagMatch evaluates If-None-Match (RFC 9110 §13.1.2: "*" or a list of tags, compared weakly).
func etagMatch(values []string, etag string) bool {
	for _, v := range values {
		for _, tag := range strings.Split(v, ",") {
			tag = strings.TrimPrefix(strings.TrimSpace(tag), "W/")
			if tag == "*" || tag == etag {
				return true
			}
		}
	}
	return false
}

func (s *Server) serveJWKS(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	s.mu.RLock()
	jwks := s.jwks
	s.mu.RUnlock()
	w.Header().Set("Content-Type", "application/jwk-set+json")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodGet {
		_, _ = w.Write(jwks)
	}
}

func writeJSON(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
