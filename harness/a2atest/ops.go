package a2atest

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/extconf/extconf/harness/a2a"
)

func isStreaming(method string) bool {
	return method == a2a.MethodSendStreamingMessage || method == a2a.MethodSubscribeToTask
}

// Timestamp formats t as A2A wants it: RFC 3339 in UTC with Z, millisecond precision.
func Timestamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// newCtx builds the operation context the core and the agent share.
func (s *Server) newCtx(w http.ResponseWriter, r *http.Request, binding, method, tenant string) *Ctx {
	return &Ctx{
		R: r, Binding: binding, Method: method, Tenant: tenant,
		Version:    requestedVersion(r),
		Requested:  splitList(r.Header.Values(a2a.HeaderExtensions)),
		RespHeader: w.Header(),
		Server:     s,
	}
}

// dispatch runs one A2A operation, the same way on both bindings: authentication, version, required extensions,
// activation (and its echo), the agent's Before, then the operation. perr is a request-decoding error, reported
// only once the request has passed the gates (so an unauthenticated caller learns nothing from it).
func (s *Server) dispatch(w http.ResponseWriter, c *Ctx, b binding, params json.RawMessage, perr *a2a.RPCError) {
	defer func() { // an agent callback that panics yields -32603 (best effort once a stream has started)
		if v := recover(); v != nil {
			if v == http.ErrAbortHandler {
				panic(v)
			}
			b.fail(w, errInternal(fmt.Sprintf("internal error: %v", v)), 0)
		}
	}()
	streaming := isStreaming(c.Method)
	if rep := s.gate(c); rep != nil {
		s.respond(w, c, b, *rep, streaming)
		return
	}
	if s.agent.Before != nil {
		if rep := s.agent.Before(c); rep != nil {
			if rep.Message != nil && (c.Method == a2a.MethodSendMessage || c.Method == a2a.MethodSendStreamingMessage) {
				var p struct {
					Message struct {
						ContextID string `json:"contextId"`
					} `json:"message"`
				}
				_ = json.Unmarshal(params, &p) // best effort: an unreadable request gets a new context
				rep.Message = fillMessage(rep.Message, p.Message.ContextID)
			}
			s.respond(w, c, b, *rep, streaming)
			return
		}
	}
	if perr != nil {
		rep := Reply{Err: perr}
		if perr == errBodyTooLarge {
			rep.HTTPStatus = http.StatusRequestEntityTooLarge
		}
		s.respond(w, c, b, rep, streaming)
		return
	}
	switch c.Method {
	case a2a.MethodSendMessage, a2a.MethodSendStreamingMessage:
		s.opSend(w, c, b, params, streaming)
	case a2a.MethodGetTask:
		s.respond(w, c, b, s.opGetTask(c, params), false)
	case a2a.MethodListTasks:
		s.respond(w, c, b, s.opListTasks(c, params), false)
	case a2a.MethodCancelTask:
		s.respond(w, c, b, s.opCancelTask(c, params), false)
	case a2a.MethodSubscribeToTask:
		s.opSubscribe(w, c, b, params)
	case a2a.MethodGetExtendedAgentCard:
		s.respond(w, c, b, s.opExtendedCard(c), false)
	case a2a.MethodCreatePushConfig, a2a.MethodGetPushConfig, a2a.MethodListPushConfigs, a2a.MethodDeletePushConfig:
		s.respond(w, c, b, Reply{Err: NewError(a2a.CodePushNotSupported, "push notifications are not supported", nil)}, false)
	default:
		fn := s.agent.Methods[c.Method]
		if fn == nil || c.Binding != a2a.BindingJSONRPC {
			s.respond(w, c, b, Reply{Err: NewError(a2a.CodeMethodNotFound, "method not found: "+c.Method, nil)}, false)
			return
		}
		res, err := fn(c, params)
		if err != nil {
			s.respond(w, c, b, Reply{Err: err}, false)
			return
		}
		if res == nil {
			res = json.RawMessage("null")
		}
		s.respond(w, c, b, Reply{Result: res}, false)
	}
}

// gate applies authentication, version negotiation and required extensions, then activates extensions.
func (s *Server) gate(c *Ctx) *Reply {
	keys := s.agent.APIKeys
	if len(keys) > 0 {
		if cred, present := credential(c.R); present {
			p, ok := keys[cred]
			if !ok {
				return s.unauthenticated(c, "invalid credential")
			}
			c.Principal = &p
		}
	}
	needAuth := s.agent.RequireAuth || (c.Method == a2a.MethodGetExtendedAgentCard && len(keys) > 0)
	if needAuth && c.Principal == nil {
		return s.unauthenticated(c, "authentication required")
	}

	accepted := s.agent.AcceptVersions
	if accepted == nil {
		accepted = []string{a2a.ProtocolVersion}
	}
	if v := majorMinor(c.Version); !slices.Contains(accepted, v) {
		msg := fmt.Sprintf("A2A-Version %s is not supported (supported: %s)", v, strings.Join(accepted, ", "))
		if c.Version == "" {
			msg = fmt.Sprintf("no A2A-Version sent, which means 0.3 (A2A §3.6.2); supported: %s", strings.Join(accepted, ", "))
		}
		return &Reply{Err: NewError(a2a.CodeVersionNotSupported, msg,
			map[string]string{"requestedVersion": v, "supportedVersions": strings.Join(accepted, ",")})}
	}

	info := s.cardInfo()
	for _, e := range info.extensions {
		if e.Required && !c.IsRequested(e.URI) {
			return &Reply{Err: NewError(a2a.CodeExtensionSupportRequired,
				"the agent requires extension "+e.URI+"; list it in A2A-Extensions", map[string]string{"uri": e.URI})}
		}
	}
	c.Activated = nil
	for _, u := range c.Requested {
		if slices.ContainsFunc(info.extensions, func(e declaredExtension) bool { return e.URI == u }) {
			c.Activated = append(c.Activated, u)
		}
	}
	if len(c.Activated) > 0 {
		c.RespHeader.Set(a2a.HeaderExtensions, strings.Join(c.Activated, ", "))
	}
	return nil
}

func (s *Server) unauthenticated(c *Ctx, msg string) *Reply {
	c.RespHeader.Set("WWW-Authenticate", `Bearer realm="a2a"`)
	return &Reply{Err: NewError(CodeUnauthenticated, msg, nil), HTTPStatus: http.StatusUnauthorized}
}

// decodeParams decodes an operation's params object; absent params decode as {}.
func decodeParams(params json.RawMessage, v any) *a2a.RPCError {
	if len(params) == 0 || string(params) == "null" {
		params = json.RawMessage("{}")
	}
	if params[0] != '{' {
		return errInvalidParams("params must be an object")
	}
	if err := json.Unmarshal(params, v); err != nil {
		return errInvalidParams("invalid params: " + err.Error())
	}
	return nil
}

// validateMessage checks what A2A 1.0 requires of a client message.
func validateMessage(m *a2a.Message) *a2a.RPCError {
	switch {
	case m.MessageID == "":
		return errInvalidParams("message.messageId is required")
	case m.Role != a2a.RoleUser && m.Role != a2a.RoleAgent:
		return errInvalidParams(fmt.Sprintf("message.role must be %s or %s", a2a.RoleUser, a2a.RoleAgent))
	case len(m.Parts) == 0:
		return errInvalidParams("message.parts must not be empty")
	}
	for i, p := range m.Parts {
		n := 0
		if p.Text != nil {
			n++
		}
		if len(p.Data) > 0 {
			n++
		}
		if p.Raw != nil {
			n++
		}
		if p.URL != nil {
			n++
		}
		if n != 1 {
			return errInvalidParams(fmt.Sprintf("message.parts[%d] must hold exactly one of text, data, raw, url", i))
		}
	}
	return nil
}

func newID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])  // never fails (crypto/rand, Go 1.24+)
	b[6] = b[6]&0x0f | 0x40 // version 4
	b[8] = b[8]&0x3f | 0x80 // RFC 4122 variant
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// opSend answers SendMessage and SendStreamingMessage.
func (s *Server) opSend(w http.ResponseWriter, c *Ctx, b binding, params json.RawMessage, streaming bool) {
	var req a2a.SendMessageRequest
	if e := decodeParams(params, &req); e != nil {
		s.respond(w, c, b, Reply{Err: e}, streaming)
		return
	}
	if req.Tenant == "" {
		req.Tenant = c.Tenant
	}
	if e := validateMessage(&req.Message); e != nil {
		s.respond(w, c, b, Reply{Err: e}, streaming)
		return
	}
	if streaming && !s.cardInfo().streaming {
		s.respond(w, c, b, Reply{Err: errUnsupported("streaming is not supported (capabilities.streaming is not true)")}, true)
		return
	}
	var prior *a2a.Task
	if id := req.Message.TaskID; id != "" {
		t, ok := s.tasks.lookup(id, c.Tenant, c.owner())
		if !ok {
			s.respond(w, c, b, Reply{Err: errTaskNotFound(id)}, streaming)
			return
		}
		if a2a.IsTerminal(t.Status.State) {
			s.respond(w, c, b, Reply{Err: errUnsupported("task " + id + " is in a terminal state and accepts no further messages")}, streaming)
			return
		}
		prior = t
	}
	var rep Reply
	if s.agent.OnSend != nil {
		rep = s.agent.OnSend(c, req)
	} else {
		rep = echo(req, prior)
	}
	if rep.RawBody != nil || rep.Err != nil || rep.Result != nil {
		s.respond(w, c, b, rep, streaming)
		return
	}
	if s.opts.MessageReply && !streaming && rep.Task != nil && rep.Message == nil &&
		(rep.Task.Status.State == "" || rep.Task.Status.State == a2a.StateCompleted) {
		ctxID := req.Message.ContextID
		if ctxID == "" && prior != nil {
			ctxID = prior.ContextID
		}
		s.respond(w, c, b, Reply{Message: messageReply(rep.Task, ctxID), HTTPStatus: rep.HTTPStatus}, false)
		return
	}
	if s.opts.TaskReply && !streaming && rep.Message != nil && rep.Task == nil && rep.Events == nil {
		ctxID := req.Message.ContextID
		if ctxID == "" && prior != nil {
			ctxID = prior.ContextID
		}
		rep = Reply{Task: taskReply(fillMessage(rep.Message, ctxID)), HTTPStatus: rep.HTTPStatus}
	}
	if rep.Message != nil {
		ctxID := req.Message.ContextID
		if ctxID == "" && prior != nil {
			ctxID = prior.ContextID
		}
		rep.Message = fillMessage(rep.Message, ctxID)
	}
	if rep.Task == nil {
		s.respond(w, c, b, rep, streaming)
		return
	}
	t := cloneTask(rep.Task)
	s.finishTask(&t, req, prior)
	if streaming && rep.Events == nil {
		ch, cancel := s.tasks.putAndSubscribe(&t, c.Tenant, c.owner())
		defer cancel()
		s.streamTask(w, c, b, rep.HTTPStatus, deriveEvents(&t), &t, ch)
		return
	}
	s.tasks.PutScoped(&t, c.Tenant, c.owner())
	if !streaming {
		var conf struct {
			HistoryLength *int `json:"historyLength"`
		}
		_ = json.Unmarshal(req.Configuration, &conf)
		applyHistoryLength(&t, conf.HistoryLength)
	}
	rep.Task = &t
	if s.opts.InProgressReply && !streaming && isTerminal(t.Status.State) {
		early := cloneTask(&t)
		early.Status = a2a.TaskStatus{State: a2a.StateWorking, Timestamp: t.Status.Timestamp}
		early.Artifacts = nil
		rep.Task = &early
	}
	s.respond(w, c, b, rep, streaming)
}

func isTerminal(state string) bool {
	switch state {
	case a2a.StateCompleted, a2a.StateFailed, a2a.StateCanceled, a2a.StateRejected:
		return true
	}
	return false
}

// fillMessage returns a copy of an agent's reply Message with what the agent left empty filled in: messageId,
// role (ROLE_AGENT) and contextId (a2a.proto: server messages carry context_id), which is ctxID (the client's or
// its task's context) or, when that is empty too, a new context.
func fillMessage(msg *a2a.Message, ctxID string) *a2a.Message {
	m := *msg
	if m.MessageID == "" {
		m.MessageID = newID()
	}
	if m.Role == "" {
		m.Role = a2a.RoleAgent
	}
	if m.ContextID == "" {
		m.ContextID = ctxID
		if m.ContextID == "" {
			m.ContextID = newID()
		}
	}
	return &m
}

// finishTask fills what the agent left empty: id, context id, state (COMPLETED), status timestamp.
func (s *Server) finishTask(t *a2a.Task, req a2a.SendMessageRequest, prior *a2a.Task) {
	if t.ID == "" {
		t.ID = req.Message.TaskID
		if t.ID == "" {
			t.ID = newID()
		}
	}
	if t.ContextID == "" {
		switch {
		case req.Message.ContextID != "":
			t.ContextID = req.Message.ContextID
		case prior != nil && prior.ContextID != "":
			t.ContextID = prior.ContextID
		default:
			t.ContextID = newID()
		}
	}
	if t.Status.State == "" {
		t.Status.State = a2a.StateCompleted
	}
	if t.Status.Timestamp == "" {
		t.Status.Timestamp = Timestamp(time.Now())
	}
}

// echo is the default OnSend: a completed task whose one new artifact holds the message's parts.
func echo(req a2a.SendMessageRequest, prior *a2a.Task) Reply {
	t := a2a.Task{ContextID: req.Message.ContextID}
	if prior != nil {
		t = *prior
	}
	if t.ID == "" {
		t.ID = newID()
	}
	if t.ContextID == "" {
		t.ContextID = newID()
	}
	msg := req.Message
	msg.TaskID, msg.ContextID = t.ID, t.ContextID
	t.History = append(t.History, msg)
	t.Artifacts = append(t.Artifacts, a2a.Artifact{ArtifactID: newID(), Name: "echo", Parts: msg.Parts})
	t.Status = a2a.TaskStatus{State: a2a.StateCompleted, Timestamp: Timestamp(time.Now())}
	return Reply{Task: &t}
}

// resultBytes encodes a unary reply's result for the method.
func resultBytes(method string, rep Reply) ([]byte, *a2a.RPCError) {
	var v any
	switch {
	case rep.Result != nil:
		v = rep.Result
	case method == a2a.MethodSendMessage && rep.Task != nil:
		v = a2a.SendResult{Task: rep.Task}
	case method == a2a.MethodSendMessage && rep.Message != nil:
		v = a2a.SendResult{Message: rep.Message}
	case rep.Task != nil:
		v = rep.Task
	case rep.Message != nil:
		v = rep.Message
	default:
		return nil, errInternal("the agent produced no result")
	}
	b, err := marshal(v)
	if err != nil {
		return nil, errInternal("encoding the result: " + err.Error())
	}
	return b, nil
}

// respond writes a Reply on the binding.
func (s *Server) respond(w http.ResponseWriter, c *Ctx, b binding, rep Reply, streaming bool) {
	if s.opts.Plain401 && rep.HTTPStatus == http.StatusUnauthorized {
		plain401(w)
		return
	}
	switch {
	case rep.RawBody != nil:
		status := rep.HTTPStatus
		if status == 0 {
			status = http.StatusOK
		}
		writeJSON(w, status, rep.RawBody)
	case rep.Err != nil:
		if streaming {
			b.failStream(w, s, normalizeErr(rep.Err), rep.HTTPStatus)
		} else {
			b.fail(w, normalizeErr(rep.Err), rep.HTTPStatus)
		}
	case streaming:
		events := make([][]byte, 0, len(rep.Events))
		for _, ev := range rep.Events {
			events = append(events, mustJSON(ev))
		}
		if rep.Events == nil {
			switch {
			case rep.Result != nil:
				raw, err := marshal(rep.Result)
				if err != nil {
					b.failStream(w, s, errInternal("encoding the result: "+err.Error()), 0)
					return
				}
				events = append(events, raw)
			case rep.Task != nil:
				events = deriveEvents(rep.Task)
			case rep.Message != nil:
				events = append(events, mustJSON(a2a.StreamEvent{Message: rep.Message}))
			default:
				b.failStream(w, s, errInternal("the agent produced no events"), 0)
				return
			}
		}
		s.streamTask(w, c, b, rep.HTTPStatus, events, nil, nil)
	default:
		body, e := resultBytes(c.Method, rep)
		if e != nil {
			b.fail(w, e, 0)
			return
		}
		b.ok(w, body, rep.HTTPStatus)
	}
}
