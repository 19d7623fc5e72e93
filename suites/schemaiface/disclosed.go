package schemaiface

import (
	"bytes"
	"encoding/json"

	"github.com/extconf/extconf/harness/a2a"
)

// disclosed reports whether s appears in what the agent told the caller in ex (response headers, body, stream
// events), leaving out the caller's own Message, which A2A lets a Task carry back in its history. SI-9.57b–d rest
// on "Diagnostic details MUST NOT disclose credentials, sensitive policy state, input values prohibited by local
// security policy, or other information that the caller is not authorized to receive": the caller's own request,
// returned to it as Task.history (a2a-go/v2 and the JavaScript SDK do so by default), is neither a diagnostic
// detail nor information it may not receive, so a search over the raw body failed every such agent on its own echo.
func disclosed(ex *a2a.Exchange, s string) bool {
	if ex == nil || s == "" {
		return false
	}
	if headerHas(ex.ResponseHeader, s) {
		return true
	}
	own := requestMessageID(ex.RequestBody)
	bodies := ex.Events // a stream: its events are the body's data lines
	if len(bodies) == 0 {
		bodies = [][]byte{ex.ResponseBody}
	}
	for _, b := range bodies {
		if bytesContains(withoutOwnMessage(b, own), s) {
			return true
		}
	}
	return false
}

// requestMessageID is the messageId of the Message the caller sent (JSON-RPC params.message, or HTTP+JSON message).
func requestMessageID(body []byte) string {
	var req struct {
		Params struct {
			Message struct {
				ID string `json:"messageId"`
			} `json:"message"`
		} `json:"params"`
		Message struct {
			ID string `json:"messageId"`
		} `json:"message"`
	}
	if json.Unmarshal(body, &req) != nil {
		return ""
	}
	if req.Params.Message.ID != "" {
		return req.Params.Message.ID
	}
	return req.Message.ID
}

// withoutOwnMessage is body with every history entry that is the caller's Message (role ROLE_USER, messageId own)
// removed; body unchanged when it is not JSON or own is unknown.
func withoutOwnMessage(body []byte, own string) []byte {
	var v any
	if own == "" || json.Unmarshal(body, &v) != nil {
		return body
	}
	var strip func(any) any
	strip = func(x any) any {
		switch t := x.(type) {
		case map[string]any:
			for k, c := range t {
				if h, ok := c.([]any); ok && k == "history" {
					kept := []any{}
					for _, m := range h {
						if mm, _ := m.(map[string]any); mm["role"] == "ROLE_USER" && mm["messageId"] == own {
							continue
						}
						kept = append(kept, strip(m))
					}
					t[k] = kept
					continue
				}
				t[k] = strip(c)
			}
		case []any:
			for i, c := range t {
				t[i] = strip(c)
			}
		}
		return x
	}
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if enc.Encode(strip(v)) != nil {
		return body
	}
	return out.Bytes()
}
