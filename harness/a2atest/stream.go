package a2atest

import (
	"bytes"
	"net/http"
	"time"

	"github.com/extconf/extconf/harness/a2a"
)

// maxFollow bounds how long a stream waits for a non-final task to change.
const maxFollow = 5 * time.Minute

// binding renders results, errors and stream events for one protocol binding.
type binding interface {
	ok(w http.ResponseWriter, result []byte, status int)
	fail(w http.ResponseWriter, e *a2a.RPCError, status int)
	// failStream reports an error on a streaming method before any event was sent.
	failStream(w http.ResponseWriter, s *Server, e *a2a.RPCError, status int)
	// frame is the SSE event name ("" for the default) and data for one StreamResponse.
	frame(event []byte) (string, []byte)
	errFrame(e *a2a.RPCError) (string, []byte)
}

// sseWriter writes Server-Sent Events, flushing each one.
type sseWriter struct {
	w   http.ResponseWriter
	rc  *http.ResponseController
	err error
}

func startSSE(w http.ResponseWriter, status int) *sseWriter {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	sw := &sseWriter{w: w, rc: http.NewResponseController(w)}
	sw.err = sw.rc.Flush()
	return sw
}

func (sw *sseWriter) send(name string, data []byte) error {
	if sw.err != nil {
		return sw.err
	}
	var buf bytes.Buffer
	if name != "" {
		buf.WriteString("event: " + name + "\n")
	}
	for _, line := range bytes.Split(data, []byte("\n")) { // compact JSON is one line; be safe with raw results
		buf.WriteString("data: ")
		buf.Write(bytes.TrimRight(line, "\r"))
		buf.WriteByte('\n')
	}
	buf.WriteByte('\n')
	_ = sw.rc.SetWriteDeadline(time.Now().Add(writeTimeout))
	if _, err := sw.w.Write(buf.Bytes()); err != nil {
		sw.err = err
		return err
	}
	sw.err = sw.rc.Flush()
	return sw.err
}

// isFinal reports whether a stream about a task in this state closes: terminal or interrupted (A2A 1.0).
func isFinal(state string) bool {
	return a2a.IsTerminal(state) || state == a2a.StateInputRequired || state == a2a.StateAuthRequired
}

// streamTask sends events, then, when t and ch are given, follows the task in the store until it reaches a final
// state (or the client leaves, the server closes, or maxFollow passes).
func (s *Server) streamTask(w http.ResponseWriter, c *Ctx, b binding, status int, events [][]byte, t *a2a.Task, ch <-chan a2a.Task) {
	sw := startSSE(w, status)
	for _, ev := range events {
		if sw.send(b.frame(ev)) != nil {
			return
		}
	}
	if t == nil || ch == nil {
		return
	}
	last := *t
	timer := time.NewTimer(maxFollow)
	defer timer.Stop()
	for !isFinal(last.Status.State) {
		select {
		case <-c.R.Context().Done():
			return
		case <-s.closing:
			return
		case <-timer.C:
			return
		case nt := <-ch:
			for _, ev := range diffEvents(&last, &nt) {
				if sw.send(b.frame(ev)) != nil {
					return
				}
			}
			last = nt
		}
	}
}

// deriveEvents turns a task into the events of a task lifecycle stream: the Task first (state SUBMITTED, no
// artifacts), one artifactUpdate per artifact, then a statusUpdate with the task's status.
func deriveEvents(t *a2a.Task) [][]byte {
	first := cloneTask(t)
	if t.Status.State == a2a.StateSubmitted {
		return [][]byte{mustJSON(a2a.StreamEvent{Task: &first})}
	}
	first.Artifacts = nil
	first.Status = a2a.TaskStatus{State: a2a.StateSubmitted, Timestamp: t.Status.Timestamp}
	out := [][]byte{mustJSON(a2a.StreamEvent{Task: &first})}
	for _, art := range t.Artifacts {
		out = append(out, mustJSON(a2a.StreamEvent{ArtifactUpdate: &a2a.TaskArtifactUpdateEvent{
			TaskID: t.ID, ContextID: t.ContextID, Artifact: art, LastChunk: true}}))
	}
	out = append(out, mustJSON(a2a.StreamEvent{StatusUpdate: &a2a.TaskStatusUpdateEvent{
		TaskID: t.ID, ContextID: t.ContextID, Status: t.Status}}))
	return out
}

// diffEvents is what changed between two versions of a task: new or changed artifacts, then the status.
func diffEvents(old, nt *a2a.Task) [][]byte {
	seen := map[string]string{}
	for _, a := range old.Artifacts {
		seen[a.ArtifactID] = string(mustJSON(a))
	}
	var out [][]byte
	for _, a := range nt.Artifacts {
		if seen[a.ArtifactID] != string(mustJSON(a)) {
			out = append(out, mustJSON(a2a.StreamEvent{ArtifactUpdate: &a2a.TaskArtifactUpdateEvent{
				TaskID: nt.ID, ContextID: nt.ContextID, Artifact: a, LastChunk: true}}))
		}
	}
	if !bytes.Equal(mustJSON(old.Status), mustJSON(nt.Status)) {
		out = append(out, mustJSON(a2a.StreamEvent{StatusUpdate: &a2a.TaskStatusUpdateEvent{
			TaskID: nt.ID, ContextID: nt.ContextID, Status: nt.Status}}))
	}
	return out
}
