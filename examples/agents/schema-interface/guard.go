package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
)

// Resource limits ("An implementation MUST enforce limits on … nesting, … payload size"). A request over either is
// refused before any task exists, through the binding: 413 for its size, a JSON-RPC error whose ErrorInfo reason
// is resource_limit_exceeded for its nesting.
const (
	maxBody    = 64 << 10
	maxNesting = 32
)

// guard is the hosting platform in front of an A2A binding's handler (rest: HTTP+JSON, else JSON-RPC): it
// authenticates the caller, enforces the request limits, and echoes the activated extension.
func (ag *agent) guard(next http.Handler, rest bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
		if err != nil {
			http.Error(w, "unreadable request", http.StatusBadRequest)
			return
		}
		if len(body) > maxBody {
			http.Error(w, "request exceeds the payload limit (resource_limit_exceeded)", http.StatusRequestEntityTooLarge)
			return
		}
		auth, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		if _, known := ag.tokens[auth]; !ok || !known {
			w.Header().Set("WWW-Authenticate", `Bearer realm="branch-noc"`)
			bindingError(w, rest, body, http.StatusUnauthorized, "authentication required", "authorization_failed")
			return
		}
		if depth(body) > maxNesting {
			bindingError(w, rest, body, http.StatusBadRequest, "request exceeds the nesting limit", "resource_limit_exceeded")
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		if activated(r.Header.Values("A2A-Extensions")) {
			w.Header().Set("A2A-Extensions", extURI)
		}
		next.ServeHTTP(w, r)
	})
}

// bindingError answers before any task exists, through the binding's error, exposing the condition as an
// ErrorInfo reason ("SHOULD expose the same machine-readable code when that binding permits it"): a google.rpc.Status
// for HTTP+JSON, a JSON-RPC error (HTTP 200 unless authentication failed) otherwise.
func bindingError(w http.ResponseWriter, rest bool, body []byte, status int, msg, condition string) {
	info := map[string]any{"@type": "type.googleapis.com/google.rpc.ErrorInfo", "reason": condition, "domain": "branch-noc.example"}
	w.Header().Set("Content-Type", "application/json")
	if rest {
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"code": status,
			"status": map[int]string{401: "UNAUTHENTICATED", 400: "INVALID_ARGUMENT"}[status], "message": msg, "details": []any{info}}})
		return
	}
	var req struct {
		ID json.RawMessage `json:"id"`
	}
	_ = json.Unmarshal(body, &req)
	if len(req.ID) == 0 {
		req.ID = json.RawMessage("null")
	}
	if status != http.StatusUnauthorized {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32600, "message": msg, "data": []any{info}}})
}

// depth is the deepest nesting of arrays and objects in a JSON text (0 when it is not JSON: the handler answers it).
func depth(b []byte) int {
	dec := json.NewDecoder(bytes.NewReader(b))
	d, max := 0, 0
	for {
		t, err := dec.Token()
		if errors.Is(err, io.EOF) || err != nil {
			return max
		}
		if dl, ok := t.(json.Delim); ok {
			if dl == '{' || dl == '[' {
				d++
				if d > max {
					max = d
				}
			} else {
				d--
			}
		}
	}
}

// activated reads A2A-Extensions (a list, possibly comma-separated in one value).
func activated(vals []string) bool {
	for _, v := range vals {
		for _, u := range strings.Split(v, ",") {
			if strings.TrimSpace(u) == extURI {
				return true
			}
		}
	}
	return false
}
