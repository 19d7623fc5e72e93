package a2atest

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/extconf/extconf/harness/a2a"
)

// applyHistoryLength implements A2A's historyLength: unset = all, 0 = none, n = the n most recent.
func applyHistoryLength(t *a2a.Task, n *int) {
	if n == nil {
		return
	}
	switch {
	case *n <= 0:
		t.History = nil
	case len(t.History) > *n:
		t.History = t.History[len(t.History)-*n:]
	}
}

func (s *Server) opGetTask(c *Ctx, params json.RawMessage) Reply {
	var p struct {
		ID            string `json:"id"`
		HistoryLength *int   `json:"historyLength"`
	}
	if e := decodeParams(params, &p); e != nil {
		return Reply{Err: e}
	}
	if p.ID == "" {
		return Reply{Err: errInvalidParams("id is required")}
	}
	if p.HistoryLength != nil && *p.HistoryLength < 0 {
		return Reply{Err: errInvalidParams("historyLength must not be negative")}
	}
	t, ok := s.tasks.lookup(p.ID, c.Tenant, c.owner())
	if !ok {
		return Reply{Err: errTaskNotFound(p.ID)}
	}
	applyHistoryLength(t, p.HistoryLength)
	return Reply{Task: t}
}

// ListTasksResponse is the result of ListTasks; nextPageToken is always present ("" on the last page).
type ListTasksResponse struct {
	Tasks         []a2a.Task `json:"tasks"`
	NextPageToken string     `json:"nextPageToken"`
	PageSize      int        `json:"pageSize"`
	TotalSize     int        `json:"totalSize"`
}

func (s *Server) opListTasks(c *Ctx, params json.RawMessage) Reply {
	var p struct {
		ContextID            string `json:"contextId"`
		Status               string `json:"status"`
		PageSize             *int   `json:"pageSize"`
		PageToken            string `json:"pageToken"`
		HistoryLength        *int   `json:"historyLength"`
		StatusTimestampAfter string `json:"statusTimestampAfter"`
		IncludeArtifacts     bool   `json:"includeArtifacts"`
	}
	if e := decodeParams(params, &p); e != nil {
		return Reply{Err: e}
	}
	size := 50
	if p.PageSize != nil {
		switch {
		case *p.PageSize < 0:
			return Reply{Err: errInvalidParams("pageSize must be between 1 and 100")}
		case *p.PageSize > 100:
			size = 100
		case *p.PageSize > 0:
			size = *p.PageSize
		}
	}
	if p.HistoryLength != nil && *p.HistoryLength < 0 {
		return Reply{Err: errInvalidParams("historyLength must not be negative")}
	}
	if p.Status != "" && p.Status != "TASK_STATE_UNSPECIFIED" && !validState(p.Status) {
		return Reply{Err: errInvalidParams("status is not a task state: " + p.Status)}
	}
	var after time.Time
	if p.StatusTimestampAfter != "" {
		t, err := time.Parse(time.RFC3339Nano, p.StatusTimestampAfter)
		if err != nil {
			return Reply{Err: errInvalidParams("statusTimestampAfter is not an RFC 3339 timestamp")}
		}
		after = t
	}
	offset := 0
	if p.PageToken != "" {
		raw, err := base64.RawURLEncoding.DecodeString(p.PageToken)
		n, err2 := strconv.Atoi(strings.TrimPrefix(string(raw), "offset:"))
		if err != nil || err2 != nil || n < 0 || !strings.HasPrefix(string(raw), "offset:") {
			return Reply{Err: errInvalidParams("invalid pageToken")}
		}
		offset = n
	}
	var match []a2a.Task
	for _, t := range s.tasks.visible(c.Tenant, c.owner()) {
		if p.ContextID != "" && t.ContextID != p.ContextID {
			continue
		}
		if p.Status != "" && p.Status != "TASK_STATE_UNSPECIFIED" && t.Status.State != p.Status {
			continue
		}
		if !after.IsZero() {
			ts, err := time.Parse(time.RFC3339Nano, t.Status.Timestamp)
			if err != nil || !ts.After(after) {
				continue
			}
		}
		match = append(match, t)
	}
	res := ListTasksResponse{Tasks: []a2a.Task{}, PageSize: size, TotalSize: len(match)}
	if offset < len(match) {
		end := min(offset+size, len(match))
		for _, t := range match[offset:end] {
			applyHistoryLength(&t, p.HistoryLength)
			if !p.IncludeArtifacts {
				t.Artifacts = nil // omitted entirely, not an empty array
			}
			res.Tasks = append(res.Tasks, t)
		}
		if end < len(match) {
			res.NextPageToken = base64.RawURLEncoding.EncodeToString([]byte("offset:" + strconv.Itoa(end)))
		}
	}
	return Reply{Result: res}
}

func validState(s string) bool {
	switch s {
	case a2a.StateSubmitted, a2a.StateWorking, a2a.StateCompleted, a2a.StateFailed, a2a.StateCanceled,
		a2a.StateInputRequired, a2a.StateRejected, a2a.StateAuthRequired:
		return true
	}
	return false
}

func (s *Server) opCancelTask(c *Ctx, params json.RawMessage) Reply {
	var p struct {
		ID string `json:"id"`
	}
	if e := decodeParams(params, &p); e != nil {
		return Reply{Err: e}
	}
	if p.ID == "" {
		return Reply{Err: errInvalidParams("id is required")}
	}
	t, ok := s.tasks.lookup(p.ID, c.Tenant, c.owner())
	if !ok {
		return Reply{Err: errTaskNotFound(p.ID)}
	}
	if a2a.IsTerminal(t.Status.State) {
		return Reply{Err: NewError(a2a.CodeTaskNotCancelable, "task "+p.ID+" is in a terminal state ("+t.Status.State+")",
			map[string]string{"taskId": p.ID})}
	}
	t.Status = a2a.TaskStatus{State: a2a.StateCanceled, Timestamp: Timestamp(time.Now())}
	s.tasks.PutScoped(t, c.Tenant, c.owner())
	return Reply{Task: t}
}

func (s *Server) opSubscribe(w http.ResponseWriter, c *Ctx, b binding, params json.RawMessage) {
	var p struct {
		ID string `json:"id"`
	}
	if e := decodeParams(params, &p); e != nil {
		s.respond(w, c, b, Reply{Err: e}, true)
		return
	}
	if p.ID == "" {
		s.respond(w, c, b, Reply{Err: errInvalidParams("id is required")}, true)
		return
	}
	if !s.cardInfo().streaming {
		s.respond(w, c, b, Reply{Err: errUnsupported("streaming is not supported (capabilities.streaming is not true)")}, true)
		return
	}
	ch, cancel := s.tasks.subscribe(p.ID)
	defer cancel()
	t, ok := s.tasks.lookup(p.ID, c.Tenant, c.owner())
	if !ok {
		s.respond(w, c, b, Reply{Err: errTaskNotFound(p.ID)}, true)
		return
	}
	if a2a.IsTerminal(t.Status.State) {
		s.respond(w, c, b, Reply{Err: errUnsupported("task " + p.ID + " is in a terminal state")}, true)
		return
	}
	first := mustJSON(a2a.StreamEvent{Task: t})
	s.streamTask(w, c, b, 0, [][]byte{first}, t, ch)
}

func (s *Server) opExtendedCard(c *Ctx) Reply {
	if !s.cardInfo().extended {
		return Reply{Err: errUnsupported("the agent does not offer an extended card (capabilities.extendedAgentCard is not true)")}
	}
	if s.agent.ExtendedCard == nil {
		return Reply{Err: NewError(a2a.CodeExtendedCardNotConfigured, "extended agent card is not configured", nil)}
	}
	card, e := s.agent.ExtendedCard(c)
	if e != nil {
		return Reply{Err: e}
	}
	raw, err := marshal(card)
	if err != nil {
		return Reply{Err: errInternal("encoding the extended card: " + err.Error())}
	}
	raw = s.cardLatitudes(raw)
	if raw, err = s.signCard(raw); err != nil {
		return Reply{Err: errInternal(err.Error())}
	}
	return Reply{Result: json.RawMessage(raw)}
}
