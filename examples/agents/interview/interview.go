package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
)

// coreMethods are A2A 1.0's JSON-RPC methods: they go to the SDK's handler. Any other method under the interview's
// activation is the extension's, and is one of the five or refused (§6 rule 1).
var coreMethods = map[string]bool{"SendMessage": true, "SendStreamingMessage": true, "GetTask": true, "ListTasks": true,
	"CancelTask": true, "SubscribeToTask": true, "GetExtendedAgentCard": true, "CreateTaskPushNotificationConfig": true,
	"GetTaskPushNotificationConfig": true, "ListTaskPushNotificationConfigs": true, "DeleteTaskPushNotificationConfig": true}

type interviewer struct {
	card map[string]any // the served card, decoded: answers are lookups in it (§4 rule 1)
}

type rpcRequest struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      any             `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
}

// wrap serves interview methods itself and passes everything else to next unchanged.
func (iv *interviewer) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil {
			http.Error(w, "cannot read body", http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		var req rpcRequest
		if json.Unmarshal(body, &req) != nil || req.Method == "" || coreMethods[req.Method] {
			next.ServeHTTP(w, r)
			return
		}
		if !activated(r) {
			if strings.HasPrefix(req.Method, "interview/") {
				// §3 rule 2: without the URI it is a method that does not exist.
				writeRPC(w, req.ID, nil, map[string]any{"code": -32601, "message": "Method not found"})
				return
			}
			next.ServeHTTP(w, r)
			return
		}
		w.Header().Set("A2A-Extensions", extURI)
		writeRPC(w, req.ID, iv.answer(req.Method, req.Params), nil)
	})
}

func activated(r *http.Request) bool {
	for _, v := range r.Header.Values("A2A-Extensions") {
		for _, u := range strings.Split(v, ",") {
			if strings.TrimSpace(u) == extURI {
				return true
			}
		}
	}
	return false
}

func writeRPC(w http.ResponseWriter, id any, result any, rpcErr map[string]any) {
	resp := map[string]any{"jsonrpc": "2.0", "id": id}
	if rpcErr != nil {
		resp["error"] = rpcErr
	} else {
		resp["result"] = result
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(resp)
}

// answer projects the card (§4, §5). Nothing here reads the request beyond the method name and the exact-match
// skill selector.
func (iv *interviewer) answer(method string, params json.RawMessage) any {
	var p struct {
		Skill *string `json:"skill"`
	}
	_ = json.Unmarshal(params, &p)
	skills, _ := iv.card["skills"].([]any)
	selected := -1
	if p.Skill != nil && (method == "interview/usage" || method == "interview/terms") {
		for i, s := range skills {
			if id, _ := s.(map[string]any)["id"].(string); id == *p.Skill {
				selected = i
			}
		}
		if selected < 0 {
			return iv.refusal() // §4 rule 3
		}
	}
	var members []string
	switch method {
	case "interview/identity":
		members = []string{"/name", "/provider", "/version", "/supportedInterfaces", "/signatures"}
	case "interview/capabilities":
		for i := range skills {
			members = append(members, fmt.Sprintf("/skills/%d/id", i), fmt.Sprintf("/skills/%d/description", i))
		}
	case "interview/usage":
		members = []string{"/supportedInterfaces", "/securitySchemes"}
		for i := range skills {
			if selected >= 0 && i != selected {
				continue
			}
			members = append(members, fmt.Sprintf("/skills/%d/inputModes", i), fmt.Sprintf("/skills/%d/outputModes", i))
		}
		members = append(members, "/defaultInputModes", "/defaultOutputModes")
	case "interview/terms":
		// §4 rule 4: no terms extension entry, so no committed proposal to project.
		return map[string]any{"question": "terms", "declared": false, "projections": []any{}}
	case "interview/refusals":
		for i := range skills {
			members = append(members, fmt.Sprintf("/skills/%d/id", i))
		}
	default:
		return iv.refusal()
	}
	projections := []any{}
	for _, m := range members {
		if v, ok := lookup(iv.card, m); ok {
			projections = append(projections, map[string]any{"source": map[string]any{"document": "card", "member": m}, "value": v})
		}
	}
	return map[string]any{"question": strings.TrimPrefix(method, "interview/"), "declared": true, "projections": projections}
}

// refusal is §6's standard refusal, assembled from the declared skill ids.
func (iv *interviewer) refusal() any {
	ids := []string{}
	skills, _ := iv.card["skills"].([]any)
	for _, s := range skills {
		if id, ok := s.(map[string]any)["id"].(string); ok {
			ids = append(ids, id)
		}
	}
	return map[string]any{"refused": true, "reason": "out_of_scope", "detail": "no declared skill matches", "declared_skills": ids}
}

// lookup resolves a JSON Pointer (RFC 6901) whose tokens need no escaping.
func lookup(doc any, pointer string) (any, bool) {
	cur := doc
	for _, tok := range strings.Split(strings.TrimPrefix(pointer, "/"), "/") {
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[tok]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			var i int
			if _, err := fmt.Sscanf(tok, "%d", &i); err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}
