package a2atest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/extconf/extconf/harness/a2a"
)

// restBinding is the HTTP+JSON binding: results are the bare objects, errors google.rpc.Status.
type restBinding struct{}

func (restBinding) ok(w http.ResponseWriter, result []byte, status int) {
	if status == 0 {
		status = http.StatusOK
	}
	writeJSON(w, status, result)
}

func (restBinding) fail(w http.ResponseWriter, e *a2a.RPCError, status int) {
	code, body := restError(e, status)
	writeJSON(w, code, body)
}

func (b restBinding) failStream(w http.ResponseWriter, _ *Server, e *a2a.RPCError, status int) {
	b.fail(w, e, status)
}

func (restBinding) frame(ev []byte) (string, []byte) { return "", ev }

// errFrame is an error after the stream started: an SSE "error" event holding the google.rpc.Status body.
func (restBinding) errFrame(e *a2a.RPCError) (string, []byte) {
	_, body := restError(e, 0)
	return "error", body
}

// restRoots are the first path segments of the HTTP+JSON routes; anything else first is a tenant.
func isRESTRoot(seg string) bool {
	switch seg {
	case "message:send", "message:stream", "tasks", "extendedAgentCard":
		return true
	}
	return false
}

// serveREST is the HTTP+JSON binding under /rest, with or without a /{tenant} prefix.
func (s *Server) serveREST(w http.ResponseWriter, r *http.Request) {
	b := restBinding{}
	var segs []string
	for _, raw := range strings.Split(strings.TrimPrefix(r.URL.EscapedPath(), "/rest"), "/")[1:] {
		seg, err := url.PathUnescape(raw)
		if err != nil {
			b.fail(w, NewError(a2a.CodeInvalidRequest, "malformed path", nil), http.StatusBadRequest)
			return
		}
		segs = append(segs, seg)
	}
	tenant := ""
	if len(segs) > 1 && !isRESTRoot(segs[0]) {
		tenant, segs = segs[0], segs[1:]
	}

	method, allow := routeREST(segs, r.Method)
	if method == "" {
		if allow != "" {
			w.Header().Set("Allow", allow)
			b.fail(w, &a2a.RPCError{Code: a2a.CodeMethodNotFound, Message: r.Method + " is not allowed here (allowed: " + allow + ")",
				Data: mustJSON([]ErrorInfo{{Type: ErrorInfoType, Reason: "METHOD_NOT_ALLOWED", Domain: ErrorDomain}})},
				http.StatusMethodNotAllowed)
			return
		}
		b.fail(w, NewError(a2a.CodeMethodNotFound, "no HTTP+JSON route for "+r.URL.Path, nil), http.StatusNotFound)
		return
	}

	params, perr := restParams(r, method, segs)
	c := s.newCtx(w, r, a2a.BindingHTTPJSON, method, tenant)
	s.dispatch(w, c, b, params, perr)
}

// routeREST maps a path (tenant removed) and HTTP method to the A2A method; when only the HTTP method is wrong it
// returns "" and the allowed methods.
func routeREST(segs []string, hm string) (method, allow string) {
	pick := func(m map[string]string) (string, string) {
		if name, ok := m[hm]; ok {
			return name, ""
		}
		var allowed []string
		for _, k := range []string{http.MethodGet, http.MethodPost, http.MethodDelete} {
			if _, ok := m[k]; ok {
				allowed = append(allowed, k)
			}
		}
		return "", strings.Join(allowed, ", ")
	}
	switch {
	case len(segs) == 1 && segs[0] == "message:send":
		return pick(map[string]string{http.MethodPost: a2a.MethodSendMessage})
	case len(segs) == 1 && segs[0] == "message:stream":
		return pick(map[string]string{http.MethodPost: a2a.MethodSendStreamingMessage})
	case len(segs) == 1 && segs[0] == "tasks":
		return pick(map[string]string{http.MethodGet: a2a.MethodListTasks})
	case len(segs) == 1 && segs[0] == "extendedAgentCard":
		return pick(map[string]string{http.MethodGet: a2a.MethodGetExtendedAgentCard})
	case len(segs) == 2 && segs[0] == "tasks" && segs[1] != "":
		switch {
		case strings.HasSuffix(segs[1], ":cancel"):
			return pick(map[string]string{http.MethodPost: a2a.MethodCancelTask})
		case strings.HasSuffix(segs[1], ":subscribe"):
			return pick(map[string]string{http.MethodPost: a2a.MethodSubscribeToTask, http.MethodGet: a2a.MethodSubscribeToTask})
		}
		return pick(map[string]string{http.MethodGet: a2a.MethodGetTask})
	case len(segs) == 3 && segs[0] == "tasks" && segs[2] == "pushNotificationConfigs":
		return pick(map[string]string{http.MethodPost: a2a.MethodCreatePushConfig, http.MethodGet: a2a.MethodListPushConfigs})
	case len(segs) == 4 && segs[0] == "tasks" && segs[2] == "pushNotificationConfigs":
		return pick(map[string]string{http.MethodGet: a2a.MethodGetPushConfig, http.MethodDelete: a2a.MethodDeletePushConfig})
	}
	return "", ""
}

// restParams builds the JSON params of the A2A method from the path, the query and the body.
func restParams(r *http.Request, method string, segs []string) (json.RawMessage, *a2a.RPCError) {
	q := r.URL.Query()
	switch method {
	case a2a.MethodSendMessage, a2a.MethodSendStreamingMessage:
		return readBody(r, true)
	case a2a.MethodGetTask:
		p := map[string]any{"id": segs[1]}
		if v := q.Get("historyLength"); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				return nil, errInvalidParams("historyLength must be an integer")
			}
			p["historyLength"] = n
		}
		return mustJSON(p), nil
	case a2a.MethodCancelTask, a2a.MethodSubscribeToTask:
		id := segs[1][:strings.LastIndexByte(segs[1], ':')]
		p := map[string]any{}
		if method == a2a.MethodCancelTask && r.Method == http.MethodPost {
			body, e := readBody(r, false)
			if e != nil {
				return nil, e
			}
			if len(body) > 0 {
				if err := json.Unmarshal(body, &p); err != nil {
					return nil, errInvalidParams("the body must be a JSON object")
				}
			}
		}
		p["id"] = id
		return mustJSON(p), nil
	case a2a.MethodListTasks:
		p := map[string]any{}
		for _, k := range []string{"contextId", "status", "pageToken", "statusTimestampAfter"} {
			if v := q.Get(k); v != "" {
				p[k] = v
			}
		}
		for _, k := range []string{"pageSize", "historyLength"} {
			if v := q.Get(k); v != "" {
				n, err := strconv.Atoi(v)
				if err != nil {
					return nil, errInvalidParams(k + " must be an integer")
				}
				p[k] = n
			}
		}
		if v := q.Get("includeArtifacts"); v != "" {
			bv, err := strconv.ParseBool(v)
			if err != nil {
				return nil, errInvalidParams("includeArtifacts must be true or false")
			}
			p["includeArtifacts"] = bv
		}
		return mustJSON(p), nil
	}
	return nil, nil
}

// readBody reads a JSON body (bounded by the root handler). required: an empty body is an error.
func readBody(r *http.Request, required bool) (json.RawMessage, *a2a.RPCError) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return nil, errBodyTooLarge
		}
		return nil, NewError(a2a.CodeParseError, "reading the request body: "+err.Error(), nil)
	}
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		if required {
			return nil, errInvalidParams("a JSON request body is required")
		}
		return nil, nil
	}
	if !json.Valid(body) {
		return nil, NewError(a2a.CodeParseError, "parse error: the body is not valid JSON", nil)
	}
	if body[0] != '{' {
		return nil, errInvalidParams("the body must be a JSON object")
	}
	return body, nil
}
