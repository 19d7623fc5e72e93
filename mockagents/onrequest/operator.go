package onrequest

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/a2atest"
	"github.com/extconf/extconf/sabotage"
)

// The operator's test endpoints (on the chapel's origin).
const (
	statementPath = "/_operator/statement.json"
	actionsPath   = "/_operator/actions"
	reversePath   = "/_operator/reverse"
	limitWindow   = 10 * time.Minute
)

// action is one entry of the operator's action log: what the agent carried out or accepted, for whom, and
// which member of staff was told.
type action struct {
	TaskID           string `json:"taskId"`
	SkillID          string `json:"skillId"`
	Assistant        string `json:"assistant"`
	Person           string `json:"person"`
	State            string `json:"state"` // done | pending | awaiting-confirmation | published | reversed
	StaffMember      string `json:"staffMember,omitempty"`
	IrreversibleDone bool   `json:"irreversibleDone"`
	At               string `json:"at"`
	token            string
	at               time.Time
}

// operatorLog is the operator's side: the action log, the limits' counters and confirmation tokens.
type operatorLog struct {
	mu        sync.Mutex
	actions   []*action
	statement []byte
}

func newOperatorLog() *operatorLog { return &operatorLog{} }

func (l *operatorLog) add(a *action) {
	l.mu.Lock()
	defer l.mu.Unlock()
	a.at = time.Now()
	a.At = a2atest.Timestamp(a.at)
	l.actions = append(l.actions, a)
}

// counts returns how many times skill was carried out or accepted for person within the window: by assistant,
// and in total (OR-5.6(c): duplicates limited per calling assistant and in total).
func (l *operatorLog) counts(skill, person, assistant string, anyPerson bool) (mine, total int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	since := time.Now().Add(-limitWindow)
	for _, a := range l.actions {
		if a.SkillID != skill || (a.Person != person && !anyPerson) || a.at.Before(since) {
			continue
		}
		total++
		if a.Assistant == assistant {
			mine++
		}
	}
	return mine, total
}

func (l *operatorLog) byToken(tok string) *action {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, a := range l.actions {
		if a.token != "" && a.token == tok {
			return a
		}
	}
	return nil
}

func (a *agent) serveStatement(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(a.ops.statement)
}

func (a *agent) serveActions(w http.ResponseWriter, _ *http.Request) {
	a.ops.mu.Lock()
	list := make([]action, 0, len(a.ops.actions))
	for _, x := range a.ops.actions {
		list = append(list, *x)
	}
	a.ops.mu.Unlock()
	b, _ := json.Marshal(map[string]any{"actions": list})
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}

// serveReverse is the staff's reversal of an action (OR-5.6(b)), by task id.
func (a *agent) serveReverse(w http.ResponseWriter, r *http.Request) {
	var req struct {
		TaskID string `json:"taskId"`
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 4096))
	if json.Unmarshal(body, &req) != nil || req.TaskID == "" {
		http.Error(w, `want {"taskId": "…"}`, http.StatusBadRequest)
		return
	}
	a.ops.mu.Lock()
	defer a.ops.mu.Unlock()
	for _, x := range a.ops.actions {
		if x.TaskID != req.TaskID {
			continue
		}
		if a.set.On(sabotage.ORActionIrreversible) {
			http.Error(w, "this booking cannot be reversed by staff", http.StatusConflict)
			return
		}
		x.State = "reversed"
		b, _ := json.Marshal(x)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(b)
		return
	}
	http.Error(w, "no such action", http.StatusNotFound)
}

// serveConfirmPage is the form the person sees before anything irreversible is done (OR-5.6(d)).
func (a *agent) serveConfirmPage(w http.ResponseWriter, r *http.Request) {
	x := a.ops.byToken(r.PathValue("token"))
	if x == nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, "<!doctype html><title>Confirm your notice</title><form method=post><p>%s: please read the notice and confirm it yourself.</p><button>Confirm and publish</button></form>\n", x.Person)
}

// serveConfirm is the person's own confirmation: only now is the notice published.
func (a *agent) serveConfirm(w http.ResponseWriter, r *http.Request) {
	x := a.ops.byToken(r.PathValue("token"))
	if x == nil {
		http.NotFound(w, r)
		return
	}
	a.ops.mu.Lock()
	x.State, x.IrreversibleDone = "published", true
	a.ops.mu.Unlock()
	if t, ok := a.srv.Tasks().Get(x.TaskID); ok {
		t.Status = a2a.TaskStatus{State: a2a.StateCompleted, Timestamp: a2atest.Timestamp(time.Now()),
			Message: &a2a.Message{MessageID: newID(), Role: a2a.RoleAgent, TaskID: t.ID, ContextID: t.ContextID,
				Parts: []a2a.Part{a2a.TextPart("The person confirmed the notice; it is published.")}}}
		a.srv.Tasks().Put(t)
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprint(w, "<!doctype html><title>Published</title><p>Thank you. The notice is published.</p>\n")
}

func newID() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
