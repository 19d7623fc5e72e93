package a2atest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"

	"github.com/extconf/extconf/harness/a2a"
)

// rpcBinding is the JSON-RPC 2.0 binding for one request id.
type rpcBinding struct{ id json.RawMessage }

func (b *rpcBinding) envelope(member string, v []byte) []byte {
	var buf bytes.Buffer
	buf.WriteString(`{"jsonrpc":"2.0","id":`)
	buf.Write(b.id)
	buf.WriteString(`,"` + member + `":`)
	buf.Write(v)
	buf.WriteByte('}')
	return buf.Bytes()
}

func (b *rpcBinding) ok(w http.ResponseWriter, result []byte, status int) {
	if status == 0 {
		status = http.StatusOK
	}
	writeJSON(w, status, b.envelope("result", result))
}

// fail writes a JSON-RPC error response: HTTP 200 unless the reply overrides it (401/403 for auth failures).
func (b *rpcBinding) fail(w http.ResponseWriter, e *a2a.RPCError, status int) {
	if status == 0 {
		status = http.StatusOK
	}
	writeJSON(w, status, b.envelope("error", mustJSON(e)))
}

// failStream reports an error on SendStreamingMessage / SubscribeToTask as the one event of an SSE stream (what
// the official SDKs' streaming clients read), unless the reply carries a non-200 status (401, 403, …), which is
// answered as a plain JSON-RPC error response with that status.
func (b *rpcBinding) failStream(w http.ResponseWriter, s *Server, e *a2a.RPCError, status int) {
	if status != 0 && status != http.StatusOK {
		b.fail(w, e, status)
		return
	}
	sw := startSSE(w, http.StatusOK)
	_ = sw.send(b.errFrame(e))
}

func (b *rpcBinding) frame(ev []byte) (string, []byte) { return "", b.envelope("result", ev) }

func (b *rpcBinding) errFrame(e *a2a.RPCError) (string, []byte) {
	return "", b.envelope("error", mustJSON(e))
}

// serveJSONRPC is POST /jsonrpc.
func (s *Server) serveJSONRPC(w http.ResponseWriter, r *http.Request) {
	b := &rpcBinding{id: json.RawMessage("null")}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		b.fail(w, NewError(a2a.CodeInvalidRequest, "JSON-RPC requests are sent with POST", nil), http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			b.fail(w, errBodyTooLarge, http.StatusRequestEntityTooLarge)
			return
		}
		b.fail(w, NewError(a2a.CodeParseError, "reading the request body: "+err.Error(), nil), http.StatusBadRequest)
		return
	}
	body = bytes.TrimSpace(body)
	if !json.Valid(body) {
		b.fail(w, NewError(a2a.CodeParseError, "parse error: the body is not valid JSON", nil), 0)
		return
	}
	if body[0] != '{' {
		msg := "the request must be a JSON object"
		if body[0] == '[' {
			msg = "batch requests are not supported"
		}
		b.fail(w, NewError(a2a.CodeInvalidRequest, msg, nil), 0)
		return
	}
	var env struct {
		JSONRPC json.RawMessage `json:"jsonrpc"`
		Method  json.RawMessage `json:"method"`
		Params  json.RawMessage `json:"params"`
		ID      json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(body, &env); err != nil {
		b.fail(w, NewError(a2a.CodeInvalidRequest, "invalid request: "+err.Error(), nil), 0)
		return
	}
	if !validID(env.ID) {
		b.fail(w, NewError(a2a.CodeInvalidRequest, "id must be a string or a number (notifications are not supported)", nil), 0)
		return
	}
	b.id = env.ID
	var version, method string
	if json.Unmarshal(env.JSONRPC, &version) != nil || version != "2.0" {
		b.fail(w, NewError(a2a.CodeInvalidRequest, `jsonrpc must be "2.0"`, nil), 0)
		return
	}
	if json.Unmarshal(env.Method, &method) != nil || method == "" {
		b.fail(w, NewError(a2a.CodeInvalidRequest, "method must be a non-empty string", nil), 0)
		return
	}
	var perr *a2a.RPCError
	var tenant string
	if p := env.Params; len(p) > 0 && string(p) != "null" {
		switch p[0] {
		case '{':
			var t struct {
				Tenant json.RawMessage `json:"tenant"`
			}
			_ = json.Unmarshal(p, &t)
			if len(t.Tenant) > 0 && json.Unmarshal(t.Tenant, &tenant) != nil {
				perr = errInvalidParams("tenant must be a string")
			}
		case '[':
			// by-position params: the A2A methods reject them when decoding; custom methods may accept them
		default:
			perr = NewError(a2a.CodeInvalidRequest, "params must be an object or an array", nil)
		}
	}
	c := s.newCtx(w, r, a2a.BindingJSONRPC, method, tenant)
	s.dispatch(w, c, b, env.Params, perr)
}

// validID accepts the JSON-RPC 2.0 id forms: a string, a number, or null (discouraged, still legal).
func validID(id json.RawMessage) bool {
	if len(id) == 0 {
		return false
	}
	switch id[0] {
	case '"', 'n', '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		return true
	}
	return false
}
