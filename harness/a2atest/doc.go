// Package a2atest is a neutral A2A 1.0 server kit (in the spirit of net/http/httptest): the reference mock agents
// and the suites' stand-ins are built on it: spec-correct by default,
// breakable on purpose. An agent is a value of [Agent]; every member left zero means the standard behaviour, and
// every member set takes over exactly that behaviour, down to the bytes on the wire ([Reply.RawBody]).
//
//	s, err := a2atest.Start(a2atest.Agent{Name: "echo"}, a2atest.Options{TLS: true})
//	defer s.Close()
//	fmt.Println(s.CardURL()) // https://127.0.0.1:PORT/.well-known/agent-card.json
//
// # API
//
//	type Principal struct{ Name, Tenant string }
//	type Agent struct {
//	    Name           string
//	    Card           func(base string) any   // card for "https://127.0.0.1:PORT"; nil → echo card. Start and Reload
//	    Signer         *CardSigner             // non-nil: served card (and extended card) carry signatures[] (§8.4)
//	    Methods        map[string]func(c *Ctx, params json.RawMessage) (any, *a2a.RPCError) // extra JSON-RPC methods
//	    OnSend         func(c *Ctx, req a2a.SendMessageRequest) Reply // SendMessage + SendStreamingMessage; nil → echo
//	    Routes         map[string]http.HandlerFunc // extra routes, Go 1.22 ServeMux patterns ("GET /proposals/{name}")
//	    APIKeys        map[string]Principal // "Authorization: Bearer <key>" or "X-API-Key: <key>"
//	    RequireAuth    bool                 // every A2A operation needs a known credential (401 before any lookup)
//	    ExtendedCard   func(c *Ctx) (any, *a2a.RPCError) // GetExtendedAgentCard; nil → -32004 or -32007 per card
//	    Before         func(c *Ctx) *Reply  // runs before dispatch (also for custom and unknown methods)
//	    AcceptVersions []string             // A2A versions accepted (Major.Minor); nil → ["1.0"]
//	}
//	type Reply struct {
//	    Task *a2a.Task; Message *a2a.Message; Events []a2a.StreamEvent; Result any
//	    Err *a2a.RPCError; HTTPStatus int; RawBody []byte
//	}
//	type Ctx struct {
//	    R *http.Request; Binding, Method, Version string; Requested, Activated []string
//	    Principal *Principal; Tenant string; RespHeader http.Header; Server *Server
//	}
//	func (c *Ctx) IsActive(uri string) bool; func (c *Ctx) IsRequested(uri string) bool
//	type Options struct {
//	    Addr string; TLS bool // Addr default "127.0.0.1:0", loopback only
//	    // Latitudes (other choices A2A 1.0 permits; the reference agents switch them from sabotage's a2a.lat.* ids
//	    // through mockagents/crosscut): the card without streaming and streaming refused -32004; one binding
//	    // (a2a.BindingJSONRPC | a2a.BindingHTTPJSON) listed and served, the other 404; a completed Task reply sent as
//	    // a Message, or a Message reply as a completed Task; the card without cache headers; 401s as plain text.
//	    SyncOnly bool; Binding string; MessageReply, TaskReply, NoCardCache, Plain401 bool
//	}
//	func (o Options) CardInterfaces(base string) []a2a.AgentInterface; func (o Options) Streaming(want bool) bool
//	// In a container (the reference image sets both): EXTCONF_MOCK_PORTS=LO-HI, EXTCONF_MOCK_BIND=0.0.0.0 make a
//	// Start with Addr "" listen on the range's lowest free port and advertise https://127.0.0.1:<port> (bind.go).
//	func Start(a Agent, o Options) (*Server, error)
//	func (s *Server) URL() / CardURL() / JSONRPCURL() / RESTURL() / JWKSURL() string
//	func (s *Server) Reload(); Tasks() *TaskStore; Handler() http.Handler; Close(); CardBytes() []byte
//	func (s *Server) Interfaces() []a2a.AgentInterface; func Interfaces(base string) []a2a.AgentInterface
//	type TaskStore: Len(), Get(id), Put(task), PutScoped(task, tenant, owner), List(tenant)
//	type CardSigner struct{ Key crypto.Signer; Alg string /* ES256 | EdDSA */; KID string; JKU bool }
//	func (cs *CardSigner) Sign(card []byte, jku string) ([]byte, error); PublicJWKS() ([]byte, error)
//	func CanonicalCard(card []byte) ([]byte, error); NewError(code, msg, metadata) *a2a.RPCError; Timestamp(t) string
//
// # Surface
//
//	GET  /.well-known/agent-card.json   the card (Content-Type application/json), public
//	                                    Cache-Control: public, max-age=60; ETag (hash of the bytes, new at each
//	                                    Reload that changes them); Last-Modified; If-None-Match → 304 (A2A §8.6.1)
//	GET  /.well-known/jwks.json         the signer's public key, when Signer.JKU
//	POST /jsonrpc                       JSON-RPC 2.0 binding
//	     /rest/…, /rest/{tenant}/…      HTTP+JSON binding: POST message:send, POST message:stream, GET tasks/{id},
//	                                    GET tasks, POST tasks/{id}:cancel, GET|POST tasks/{id}:subscribe,
//	                                    GET extendedAgentCard, tasks/{id}/pushNotificationConfigs[/{cid}]
//	     anything else                  Agent.Routes
//
// # Order of one A2A operation (both bindings)
//
//  1. Envelope: JSON-RPC parse error -32700, invalid request -32600 (batch, bad id, jsonrpc ≠ "2.0", no method),
//     id echoed whenever it could be read. HTTP+JSON: unknown route 404, wrong HTTP method 405. Bodies > 1 MiB: 413.
//  2. Authentication: with APIKeys set, a credential that is present but unknown is refused, and so is a missing
//     one when RequireAuth is set or the operation is GetExtendedAgentCard: HTTP 401, WWW-Authenticate: Bearer,
//     error code -31401 (UNAUTHENTICATED; the official Go SDK's code, A2A 1.0 leaves the JSON-RPC code custom).
//     Nothing is looked up before this step.
//  3. Version: A2A-Version (header, or the A2A-Version query parameter, A2A §3.6.1) compared on Major.Minor.
//     An absent or empty A2A-Version means 0.3 (A2A §3.6.2: "Agents MUST interpret empty value as 0.3"), which
//     this 1.0 interface does not serve, so it is refused with -32009 VersionNotSupported, like any other version
//     not in Agent.AcceptVersions. The card fetch and Agent.Routes are not A2A operations and are never checked.
//  4. Required extensions: a card extension declared required:true and absent from A2A-Extensions → -32008.
//  5. Activation: Ctx.Activated = the A2A-Extensions URIs the current card declares, echoed (", "-separated) in
//     the A2A-Extensions response header; agents may change Ctx.RespHeader (e.g. drop the echo).
//  6. Agent.Before; then request-decoding errors (-32602 invalid params), then the operation.
//
// # Operations (defaults)
//
//   - SendMessage / SendStreamingMessage: message validated (messageId, role, non-empty parts, exactly one of
//     text|data|raw|url per part) → -32602; SendStreamingMessage when capabilities.streaming is not true → -32004;
//     message.taskId outside the caller's scope → -32001, terminal → -32004. OnSend (default: echo, a COMPLETED
//     task with one artifact holding the parts) returns a Reply. A Task is completed with id, contextId,
//     state (COMPLETED when empty) and status timestamp, stored, and returned as {"task":…} ({"message":…} for a
//     Message); configuration.historyLength trims the returned history. A reply Message (from OnSend or Before)
//     gets messageId, role ROLE_AGENT and contextId filled when empty: the client's contextId, else its task's,
//     else a new one (a2a.proto: server messages carry context_id).
//   - Streaming (SSE): JSON-RPC data lines hold JSON-RPC responses whose result is a StreamResponse; HTTP+JSON data
//     lines hold the StreamResponse itself. Reply.Events are sent as given; otherwise a Task yields Task (state
//     SUBMITTED) → artifactUpdate per artifact → statusUpdate, a Message yields one message event. The stream
//     closes at a terminal or interrupted (INPUT_REQUIRED, AUTH_REQUIRED) state; a task left WORKING/SUBMITTED is
//     followed through TaskStore.Put until it gets there. Errors before the first event: HTTP+JSON answers the
//     google.rpc.Status with its HTTP status; JSON-RPC sends one SSE event holding the JSON-RPC error (what the
//     official SDK clients read), except replies with a non-200 HTTPStatus (401…) which are plain JSON. A2A 1.0
//     leaves this open (the JS SDK's server answers an application/json JSON-RPC error instead); the harness
//     client (harness/a2a) reads either as the JSON-RPC error, so a target may do either.
//   - GetTask: -32001 when absent or outside the caller's scope (tenant and principal tenant), historyLength.
//   - ListTasks: the caller's tasks, most recently updated first; contextId, status, statusTimestampAfter
//     filters; pageSize 1–100 (default 50); opaque pageToken; nextPageToken always present ("" on the last page);
//     artifacts omitted unless includeArtifacts.
//   - CancelTask: -32001 / -32002 when terminal / else CANCELED.
//   - SubscribeToTask: -32004 without streaming or on a terminal task, -32001; current Task, then follows it.
//   - GetExtendedAgentCard: needs authentication when APIKeys is set; -32004 when capabilities.extendedAgentCard
//     is not true, -32007 without Agent.ExtendedCard; signed like the public card.
//   - Push-notification config methods: -32003.
//   - Custom methods (JSON-RPC only): Agent.Methods, else -32601.
//
// # Errors
//
// JSON-RPC errors carry error.data = [google.rpc.ErrorInfo{@type, reason, domain "a2a-protocol.org"}]; an agent's
// Err with empty Data gets it filled from its code ([NewError] builds one). HTTP+JSON errors are google.rpc.Status
// {"error":{code,status,message,details:[ErrorInfo]}} with the A2A 1.0.1 table: TaskNotFound 404 NOT_FOUND;
// the other A2A errors 400 FAILED_PRECONDITION (ContentTypeNotSupported 400 INVALID_ARGUMENT, InvalidAgentResponse
// 500 INTERNAL); parse / invalid request / invalid params 400 INVALID_ARGUMENT; method not found 404; internal
// 500; -31401 401 UNAUTHENTICATED; -31403 403 PERMISSION_DENIED.
//
// # Encoding
//
// Content-Type application/json; compact JSON without HTML escaping; ProtoJSON names from package harness/a2a;
// unset members omitted; timestamps RFC 3339 UTC with Z and milliseconds ([Timestamp]).
//
// # Card signatures (A2A §8.4)
//
// With Agent.Signer the card is encoded, then signed: payload = JCS (RFC 8785) of the card without "signatures";
// a detached JWS with protected header {"alg","kid","typ":"JOSE"} (+ "jku": URL()+"/.well-known/jwks.json" when
// JKU, the core then serving the public key there); the entry {"protected","signature"} is appended to
// signatures[] (existing entries kept, other members untouched). [CardSigner.Sign] is exported so agents can
// sign and then deliberately break a card.
//
// # Robustness
//
// Loopback listeners only; ReadHeaderTimeout 5s, ReadTimeout 30s, a 30s write deadline per response and per SSE
// event, idle 60s, 64 KiB headers, 1 MiB bodies; a panic in the core or an agent callback is recovered into a
// 500. Tasks are kept in memory for the life of the server.
package a2atest
