package skiface

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/sabotage"
)

func (c *Client) key(endpoint, id string) TaskKey {
	if c.on(sabotage.SIClientGlobalTaskIDKeying) {
		return TaskKey{ID: id}
	}
	return TaskKey{Endpoint: endpoint, ID: id}
}

func (c *Client) track(res *Result, a *advertised, req Request, task *a2a.Task) TaskKey {
	k := c.key(a.endpoint, task.ID)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tasks == nil {
		c.tasks = map[TaskKey]*TaskRecord{}
	}
	c.tasks[k] = &TaskRecord{Key: TaskKey{Endpoint: a.endpoint, ID: task.ID}, Binding: a.binding, SkillID: req.SkillID, State: task.Status.State, Task: task, Updated: time.Now().UTC()}
	res.Task = &TaskKey{Endpoint: a.endpoint, ID: task.ID}
	return TaskKey{Endpoint: a.endpoint, ID: task.ID}
}

// Tasks returns the tasks the client tracks.
func (c *Client) Tasks() []TaskRecord {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]TaskRecord, 0, len(c.tasks))
	for _, t := range c.tasks {
		out = append(out, *t)
	}
	return out
}

// Refresh retrieves a tracked task with GetTask at the endpoint that issued it.
func (c *Client) Refresh(ctx context.Context, k TaskKey) (*a2a.Task, *a2a.Exchange, error) {
	c.mu.Lock()
	rec := c.tasks[c.key(k.Endpoint, k.ID)]
	c.mu.Unlock()
	if rec == nil {
		return nil, nil, fmt.Errorf("task %s at %s is not tracked", k.ID, k.Endpoint)
	}
	return c.getTask(ctx, rec.Key.Endpoint, rec.Binding, rec.Key.ID)
}

// getTask is GetTask on the binding the task was created through.
func (c *Client) getTask(ctx context.Context, endpoint, binding, id string) (*a2a.Task, *a2a.Exchange, error) {
	if binding == a2a.BindingHTTPJSON {
		ex, err := c.A2A.REST(ctx, http.MethodGet, endpoint, "/tasks/"+url.PathEscape(id), nil, c.call("GetTask"))
		if err != nil {
			return nil, ex, err
		}
		if ex.Status != http.StatusOK {
			return nil, ex, restError(ex.ResponseBody, ex.Status)
		}
		var t a2a.Task
		if err := a2a.DecodeStrict(ex.ResponseBody, &t); err != nil {
			return nil, ex, err
		}
		return &t, ex, nil
	}
	t, resp, ex, err := c.A2A.GetTask(ctx, endpoint, id, "", c.call("GetTask"))
	if err == nil && resp != nil && resp.Error != nil {
		err = resp.Error
	}
	return t, ex, err
}
