package a2atest

import (
	"bytes"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/extconf/extconf/harness/a2a"
)

// TaskStore holds the tasks of one server, each under a scope: the routing tenant of the request that created it
// and the tenant of the principal that created it ("" when unauthenticated). The A2A operations see a task only
// from the same scope (A2A §13.1), so a task of tenant A answers TaskNotFound to tenant B exactly like an id that
// never existed. Get, Put and List are the agent-side accessors and ignore the principal; they hand out copies.
type TaskStore struct {
	mu    sync.Mutex
	seq   int64
	tasks map[string]*taskEntry
	subs  map[string][]chan a2a.Task
}

type taskEntry struct {
	task    a2a.Task
	tenant  string // routing tenant (params.tenant or the /{tenant}/ prefix)
	owner   string // Principal.Tenant of the creator, "" when unauthenticated
	updated time.Time
	seq     int64 // tie-breaker for equal update times
}

func newTaskStore() *TaskStore {
	return &TaskStore{tasks: map[string]*taskEntry{}, subs: map[string][]chan a2a.Task{}}
}

// cloneTask deep-copies a task: nothing of the copy aliases the stored task. (It was a JSON round trip, 4 % of a
// run; the copy encodes to the same JSON, TestCloneTaskEncodesAlike.)
func cloneTask(t *a2a.Task) a2a.Task {
	out := *t
	out.Status.Message = cloneMessagePtr(t.Status.Message)
	out.Artifacts = cloneSlice(t.Artifacts, func(a a2a.Artifact) a2a.Artifact {
		a.Parts = cloneParts(a.Parts)
		a.Metadata = bytes.Clone(a.Metadata)
		a.Extensions = slices.Clone(a.Extensions)
		return a
	})
	out.History = cloneSlice(t.History, cloneMessage)
	out.Metadata = bytes.Clone(t.Metadata)
	return out
}

func cloneMessagePtr(m *a2a.Message) *a2a.Message {
	if m == nil {
		return nil
	}
	c := cloneMessage(*m)
	return &c
}

func cloneMessage(m a2a.Message) a2a.Message {
	m.Parts = cloneParts(m.Parts)
	m.Metadata = bytes.Clone(m.Metadata)
	m.Extensions = slices.Clone(m.Extensions)
	m.ReferenceTaskIDs = slices.Clone(m.ReferenceTaskIDs)
	return m
}

func cloneParts(ps []a2a.Part) []a2a.Part {
	return cloneSlice(ps, func(p a2a.Part) a2a.Part {
		p.Text = clonePtr(p.Text)
		p.URL = clonePtr(p.URL)
		p.Data = bytes.Clone(p.Data)
		p.Raw = bytes.Clone(p.Raw)
		p.Metadata = bytes.Clone(p.Metadata)
		return p
	})
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// cloneSlice copies s element by element with f, keeping nil nil and empty empty (the JSON differs: null, []).
func cloneSlice[T any](s []T, f func(T) T) []T {
	if s == nil {
		return nil
	}
	out := make([]T, len(s))
	for i, v := range s {
		out[i] = f(v)
	}
	return out
}

// Len returns the number of stored tasks.
func (ts *TaskStore) Len() int {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return len(ts.tasks)
}

// Get returns a copy of the task with id, in any scope.
func (ts *TaskStore) Get(id string) (*a2a.Task, bool) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	e, ok := ts.tasks[id]
	if !ok {
		return nil, false
	}
	t := cloneTask(&e.task)
	return &t, true
}

// Put stores a copy of t. An existing task keeps its scope; a new one gets the default scope (tenant "", no owner).
// Streams following the task (SendStreamingMessage, SubscribeToTask) receive the change.
func (ts *TaskStore) Put(t *a2a.Task) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	tenant, owner := "", ""
	if e, ok := ts.tasks[t.ID]; ok {
		tenant, owner = e.tenant, e.owner
	}
	ts.putLocked(t, tenant, owner)
}

// PutScoped stores a copy of t under the routing tenant and the owner principal's tenant ("" for none).
func (ts *TaskStore) PutScoped(t *a2a.Task, tenant, owner string) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.putLocked(t, tenant, owner)
}

func (ts *TaskStore) putLocked(t *a2a.Task, tenant, owner string) {
	ts.seq++
	c := cloneTask(t)
	ts.tasks[t.ID] = &taskEntry{task: c, tenant: tenant, owner: owner, updated: time.Now(), seq: ts.seq}
	for _, ch := range ts.subs[t.ID] {
		snap := cloneTask(&c)
		select { // keep only the newest snapshot: followers diff against what they last sent
		case ch <- snap:
		default:
			select {
			case <-ch:
			default:
			}
			select {
			case ch <- snap:
			default:
			}
		}
	}
}

// List returns copies of the tasks of a routing tenant, most recently updated first.
func (ts *TaskStore) List(tenant string) []a2a.Task {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	var out []a2a.Task
	for _, e := range ts.sortedLocked() {
		if e.tenant == tenant {
			out = append(out, cloneTask(&e.task))
		}
	}
	return out
}

func (ts *TaskStore) sortedLocked() []*taskEntry {
	es := make([]*taskEntry, 0, len(ts.tasks))
	for _, e := range ts.tasks {
		es = append(es, e)
	}
	sort.Slice(es, func(i, j int) bool {
		if !es[i].updated.Equal(es[j].updated) {
			return es[i].updated.After(es[j].updated)
		}
		return es[i].seq > es[j].seq
	})
	return es
}

// lookup returns a copy of the task only when it lies in the caller's scope.
func (ts *TaskStore) lookup(id, tenant, owner string) (*a2a.Task, bool) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	e, ok := ts.tasks[id]
	if !ok || e.tenant != tenant || e.owner != owner {
		return nil, false
	}
	t := cloneTask(&e.task)
	return &t, true
}

// visible returns copies of the caller's tasks, most recently updated first.
func (ts *TaskStore) visible(tenant, owner string) []a2a.Task {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	var out []a2a.Task
	for _, e := range ts.sortedLocked() {
		if e.tenant == tenant && e.owner == owner {
			out = append(out, cloneTask(&e.task))
		}
	}
	return out
}

// putAndSubscribe stores t and, atomically with it, subscribes to later changes of the task.
func (ts *TaskStore) putAndSubscribe(t *a2a.Task, tenant, owner string) (<-chan a2a.Task, func()) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	ts.putLocked(t, tenant, owner)
	return ts.subscribeLocked(t.ID)
}

// subscribe follows the task with id (which the caller has already looked up).
func (ts *TaskStore) subscribe(id string) (<-chan a2a.Task, func()) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	return ts.subscribeLocked(id)
}

func (ts *TaskStore) subscribeLocked(id string) (<-chan a2a.Task, func()) {
	ch := make(chan a2a.Task, 1)
	ts.subs[id] = append(ts.subs[id], ch)
	return ch, func() {
		ts.mu.Lock()
		defer ts.mu.Unlock()
		list := ts.subs[id]
		for i, c := range list {
			if c == ch {
				ts.subs[id] = append(list[:i:i], list[i+1:]...)
				break
			}
		}
		if len(ts.subs[id]) == 0 {
			delete(ts.subs, id)
		}
	}
}
