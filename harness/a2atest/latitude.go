package a2atest

import (
	"encoding/json"
	"net/http"

	"github.com/extconf/extconf/harness/a2a"
)

// CardInterfaces is Interfaces(base) as the options serve it: only Options.Binding's interface when it is set. An
// agent that builds (and signs) its card itself lists these, so the core has nothing to rewrite.
func (o Options) CardInterfaces(base string) []a2a.AgentInterface {
	all := Interfaces(base)
	if o.Binding == "" {
		return all
	}
	var out []a2a.AgentInterface
	for _, i := range all {
		if i.ProtocolBinding == o.Binding {
			out = append(out, i)
		}
	}
	return out
}

// Streaming is the capabilities.streaming an agent that wants streaming may declare under the options.
func (o Options) Streaming(want bool) bool { return want && !o.SyncOnly }

// cardLatitudes rewrites an encoded card (public or extended) for Options.SyncOnly and Options.Binding. When the
// card already is what they ask, or neither is on, the bytes are returned untouched; a card that is not a JSON
// object is left as it is (an agent's deliberate oddity wins). A card the agent signed itself is re-encoded only
// when it must change, which breaks its signature: such agents list CardInterfaces and declare Streaming.
func (s *Server) cardLatitudes(card []byte) []byte {
	if !s.opts.SyncOnly && s.opts.Binding == "" {
		return card
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(card, &top) != nil || top == nil {
		return card
	}
	changed := false
	if s.opts.SyncOnly {
		var caps map[string]json.RawMessage
		if json.Unmarshal(top["capabilities"], &caps) == nil && caps != nil {
			if v, ok := caps["streaming"]; ok && string(v) != "false" {
				delete(caps, "streaming") // absent is false (ProtoJSON omits default values)
				top["capabilities"] = mustJSON(caps)
				changed = true
			}
		}
	}
	if b := s.opts.Binding; b != "" {
		var ifaces []json.RawMessage
		if json.Unmarshal(top["supportedInterfaces"], &ifaces) == nil && ifaces != nil {
			kept := []json.RawMessage{}
			for _, raw := range ifaces {
				var i struct {
					ProtocolBinding string `json:"protocolBinding"`
				}
				if json.Unmarshal(raw, &i) != nil || i.ProtocolBinding == b {
					kept = append(kept, raw)
				}
			}
			if len(kept) != len(ifaces) {
				top["supportedInterfaces"] = mustJSON(kept)
				changed = true
			}
		}
	}
	if !changed {
		return card // already what the latitudes ask (e.g. an agent that signs its card itself and honours them)
	}
	out, err := marshal(top)
	if err != nil {
		return card
	}
	return out
}

// messageReply turns a Task reply into the direct Message of Options.MessageReply: the task's artifact parts (else
// its status message's parts), its contextId and taskId left out (no task exists).
func messageReply(t *a2a.Task, ctxID string) *a2a.Message {
	var parts []a2a.Part
	for _, a := range t.Artifacts {
		parts = append(parts, a.Parts...)
	}
	if len(parts) == 0 && t.Status.Message != nil {
		parts = t.Status.Message.Parts
	}
	if len(parts) == 0 {
		parts = []a2a.Part{a2a.TextPart("done")}
	}
	if t.ContextID != "" {
		ctxID = t.ContextID
	}
	return fillMessage(&a2a.Message{Role: a2a.RoleAgent, Parts: parts, Metadata: t.Metadata}, ctxID)
}

// taskReply turns a Message reply into the completed Task of Options.TaskReply: the message is the final status
// message and its parts are the one artifact.
func taskReply(m *a2a.Message) *a2a.Task {
	return &a2a.Task{ContextID: m.ContextID, Status: a2a.TaskStatus{State: a2a.StateCompleted, Message: m},
		Artifacts: []a2a.Artifact{{ArtifactID: "reply", Name: "reply", Parts: m.Parts}}}
}

// plain401 writes the 401 of Options.Plain401: text/plain, WWW-Authenticate (the agent's, else Bearer), no JSON.
func plain401(w http.ResponseWriter) {
	h := w.Header()
	if h.Get("WWW-Authenticate") == "" {
		h.Set("WWW-Authenticate", `Bearer realm="a2a"`)
	}
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Del("Content-Length")
	w.WriteHeader(http.StatusUnauthorized)
	_, _ = w.Write([]byte("Unauthorized\n"))
}
