package hostile

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	sfx "github.com/extconf/extconf/fixtures/schemaiface"
	"github.com/extconf/extconf/refclients/skiface"
)

func b64(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }

func (a *Agent) handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/agent-card.json", a.serveCard)
	mux.HandleFunc("GET /loop/{hop}", func(w http.ResponseWriter, r *http.Request) {
		next := "/loop/a"
		if r.PathValue("hop") == "a" {
			next = "/loop/b"
		}
		http.Redirect(w, r, next, http.StatusFound)
	})
	mux.HandleFunc("POST /jsonrpc", a.serveRPC)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.reqs.Add(1)
		mux.ServeHTTP(w, r)
	})
}

// hold blocks until the client goes away or the agent closes.
func (a *Agent) hold(r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-a.done:
	}
}

func (a *Agent) serveCard(w http.ResponseWriter, r *http.Request) {
	switch a.B {
	case NeverAnswers:
		a.hold(r) // not a byte, not even the status line
		return
	case OneBytePerSecond:
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.Itoa(len(a.card)))
		w.WriteHeader(http.StatusOK)
		rc := http.NewResponseController(w)
		_ = rc.Flush()
		t := time.NewTicker(trickleEvery)
		defer t.Stop()
		for i := range a.card {
			if _, err := w.Write(a.card[i : i+1]); err != nil {
				return
			}
			a.written.Add(1)
			if rc.Flush() != nil {
				return
			}
			select {
			case <-t.C:
			case <-r.Context().Done():
				return
			case <-a.done:
				return
			}
		}
		return
	case HugeBody:
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", strconv.FormatInt(HugeBodySize, 10))
		w.WriteHeader(http.StatusOK)
		chunk := bytes.Repeat([]byte("a"), hugeChunk)
		head := []byte(`{"name":"`)
		if n, err := w.Write(head); err != nil {
			return
		} else {
			a.written.Add(int64(n))
		}
		for left := HugeBodySize - int64(len(head)); left > 0; {
			c := chunk
			if int64(len(c)) > left {
				c = c[:left]
			}
			n, err := w.Write(c)
			a.written.Add(int64(n))
			left -= int64(n)
			if err != nil {
				return
			}
			select {
			case <-a.done:
				return
			default:
			}
		}
		return
	case RedirectLoop:
		http.Redirect(w, r, "/loop/a", http.StatusFound)
		return
	case RedirectOffOrig:
		http.Redirect(w, r, a.by.URL()+"/.well-known/agent-card.json", http.StatusFound)
		return
	case RedirectMetadata:
		http.Redirect(w, r, "http://"+MetadataHost+"/latest/meta-data/iam/security-credentials/", http.StatusFound)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	n, _ := w.Write(a.card)
	a.written.Add(int64(n))
}

type rpcReq struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

type sendParams struct {
	Message struct {
		Parts []struct {
			Text *string         `json:"text"`
			Data json.RawMessage `json:"data"`
		} `json:"parts"`
	} `json:"message"`
}

var (
	tasksMu sync.Mutex
	taskSeq int
)

func (a *Agent) serveRPC(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	if err != nil {
		return
	}
	var req rpcReq
	if err := json.Unmarshal(body, &req); err != nil {
		writeJSON(w, map[string]any{"jsonrpc": "2.0", "id": nil, "error": map[string]any{"code": -32700, "message": "parse error"}})
		return
	}
	if len(req.ID) == 0 {
		req.ID = json.RawMessage("null")
	}
	if ext := r.Header.Get("A2A-Extensions"); ext != "" {
		w.Header().Set("A2A-Extensions", ext)
	}
	switch req.Method {
	case "SendMessage":
		writeJSON(w, map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": map[string]any{"task": a.answer(req.Params)}})
	case "SendStreamingMessage":
		a.stream(w, r, req)
	default:
		writeJSON(w, map[string]any{"jsonrpc": "2.0", "id": req.ID, "error": map[string]any{"code": -32601, "message": "method not found: " + req.Method}})
	}
}

// answer builds the completed task for a request: describe_skill, the domain skill, or an echo.
func (a *Agent) answer(params json.RawMessage) map[string]any {
	tasksMu.Lock()
	taskSeq++
	id := fmt.Sprintf("hostile-task-%d", taskSeq)
	tasksMu.Unlock()
	var p sendParams
	_ = json.Unmarshal(params, &p)
	var data struct {
		Skill string `json:"skill"`
	}
	if len(p.Message.Parts) > 0 && len(p.Message.Parts[0].Data) > 0 {
		_ = json.Unmarshal(p.Message.Parts[0].Data, &data)
	}
	task := map[string]any{"id": id, "contextId": id + "-ctx", "status": map[string]any{"state": "TASK_STATE_COMPLETED"}}
	switch {
	case data.Skill == skiface.DescribeSkill && a.doc != nil:
		dg, _ := skiface.InterfaceDigest(a.doc)
		task["artifacts"] = []any{map[string]any{"artifactId": id + "-describe", "name": skiface.DescribeSkill, "parts": []any{
			map[string]any{"data": map[string]any{"skill": skiface.DescribeSkill,
				"result": map[string]any{"interface_digest": dg, "interface": json.RawMessage(a.doc)}}}}}}
	case data.Skill == skillEvaluate && a.doc != nil:
		var t map[string]any
		_ = json.Unmarshal(sfx.Example("task"), &t)
		if a.B == SchemaPattern {
			// The output's unit is checked against ^(a|aa)+$: a backtracking engine takes exponential time on
			// a…ab; the harness's RE2-based validator answers in linear time.
			arts := t["artifacts"].([]any)
			res := arts[0].(map[string]any)["parts"].([]any)[0].(map[string]any)["data"].(map[string]any)["result"].(map[string]any)
			res["unit"] = strings.Repeat("a", PatternRunLen) + "b"
		}
		task["artifacts"] = t["artifacts"]
	default:
		text := "echo"
		if len(p.Message.Parts) > 0 && p.Message.Parts[0].Text != nil {
			text = *p.Message.Parts[0].Text
		}
		task["artifacts"] = []any{map[string]any{"artifactId": id + "-echo", "parts": []any{map[string]any{"text": text}}}}
	}
	return task
}

// stream answers SendStreamingMessage: the task in one event, or (EndlessSSE*) a stream that never ends.
func (a *Agent) stream(w http.ResponseWriter, r *http.Request, req rpcReq) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	send := func(result any) bool {
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
		n, err := fmt.Fprintf(w, "data: %s\n\n", b)
		a.written.Add(int64(n))
		return err == nil && rc.Flush() == nil
	}
	task := a.answer(req.Params)
	switch a.B {
	case EndlessSSE:
		task["status"] = map[string]any{"state": "TASK_STATE_WORKING"}
		if !send(map[string]any{"task": task}) {
			return
		}
		t := time.NewTicker(keepAliveEvery)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				n, err := io.WriteString(w, ": still working\n\n")
				a.written.Add(int64(n))
				if err != nil || rc.Flush() != nil {
					return
				}
			case <-r.Context().Done():
				return
			case <-a.done:
				return
			}
		}
	case EndlessSSEEvents:
		task["status"] = map[string]any{"state": "TASK_STATE_WORKING"}
		if !send(map[string]any{"task": task}) {
			return
		}
		upd := map[string]any{"statusUpdate": map[string]any{"taskId": task["id"], "contextId": task["contextId"],
			"status": map[string]any{"state": "TASK_STATE_WORKING"}}}
		for {
			if !send(upd) {
				return
			}
			select {
			case <-r.Context().Done():
				return
			case <-a.done:
				return
			case <-time.After(endlessEventInterval):
			}
		}
	default:
		send(map[string]any{"task": task})
	}
}

func writeJSON(w http.ResponseWriter, v any) {
	b, err := marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}
