package main

import (
	"context"
	"iter"
	"net/http"
	"strings"
	"sync"

	"github.com/a2aproject/a2a-go/v2/a2a"
	"github.com/a2aproject/a2a-go/v2/a2asrv"
	"github.com/a2aproject/a2a-go/v2/a2asrv/taskstore"
)

// The refusals. One for an R the caller cannot use, whatever the reason (§D.7: a foreign agent and a value
// never minted must look the same), never quoting R.
var (
	errNoToken = a2a.NewError(a2a.ErrUnauthenticated, "a platform token is required")
	errScope   = a2a.NewError(a2a.ErrUnauthorized, "the agents:read scope is required to address an agent")
	errNoAgent = a2a.NewError(a2a.ErrUnauthorized, "no agent is available to this caller under that tenant")
)

type resolvedKey struct{}

// gate runs before every operation: authenticate, then (for a request carrying R) authorize as GET
// /agents/{agentId} does, and only then resolve R within the caller's inventory (§D.6).
type gate struct {
	a2asrv.PassthroughCallInterceptor
	h *host
}

func (g gate) Before(ctx context.Context, cc *a2asrv.CallContext, req *a2asrv.Request) (context.Context, any, error) {
	tok, _ := cc.ServiceParams().Get("Authorization")
	var p *principal
	if len(tok) == 1 {
		p = principals[tok[0]]
	}
	if p == nil {
		return ctx, nil, errNoToken
	}
	owner := p.tenant + "/"
	if r := cc.Tenant(); r != "" {
		if !p.readAgents {
			return ctx, nil, errScope
		}
		a := g.h.resolve(p, r)
		if a == nil {
			return ctx, nil, errNoAgent
		}
		owner += a.id
		ctx = context.WithValue(ctx, resolvedKey{}, a)
	}
	cc.User = a2asrv.NewAuthenticatedUser(owner, map[string]any{"principal": p})
	if id := taskOf(req.Payload); id != "" && !g.h.tasks.owns(owner, id) {
		return ctx, nil, a2a.ErrTaskNotFound // tasks stay in the caller's tenant of record
	}
	return ctx, nil, nil
}

func taskOf(payload any) a2a.TaskID {
	switch r := payload.(type) {
	case *a2a.GetTaskRequest:
		return r.ID
	case *a2a.CancelTaskRequest:
		return r.ID
	case *a2a.SubscribeToTaskRequest:
		return r.ID
	case *a2a.SendMessageRequest:
		if r.Message != nil {
			return r.Message.TaskID
		}
	case *a2a.GetTaskPushConfigRequest:
		return r.TaskID
	case *a2a.ListTaskPushConfigRequest:
		return r.TaskID
	case *a2a.DeleteTaskPushConfigRequest:
		return r.TaskID
	case *a2a.PushConfig:
		return r.TaskID
	}
	return ""
}

// cardFor answers GetExtendedAgentCard: the agent's card for a resolved R. The host has no extended card of its
// own (it declares the operation for the per-agent cards, §A.1), so without a tenant it says so.
func (h *host) cardFor(ctx context.Context, _ *a2a.GetExtendedAgentCardRequest) (*a2a.AgentCard, error) {
	cc, _ := a2asrv.CallContextFrom(ctx)
	p, _ := cc.User.Attributes["principal"].(*principal)
	if a, ok := ctx.Value(resolvedKey{}).(*agent); ok && p != nil {
		return h.agentCard(p, a), nil
	}
	return nil, a2a.ErrExtendedCardNotConfigured
}

// store is the SDK's in-memory store, remembering which caller tenant and agent each task belongs to.
type store struct {
	*taskstore.InMemory
	mu    sync.Mutex
	owner map[a2a.TaskID]string
}

func newStore() *store {
	return &store{InMemory: taskstore.NewInMemory(&taskstore.InMemoryStoreConfig{Authenticator: a2asrv.NewTaskStoreAuthenticator()}),
		owner: map[a2a.TaskID]string{}}
}

func (s *store) Create(ctx context.Context, t *a2a.Task) (taskstore.TaskVersion, error) {
	v, err := s.InMemory.Create(ctx, t)
	if cc, ok := a2asrv.CallContextFrom(ctx); ok && err == nil {
		s.mu.Lock()
		s.owner[t.ID] = cc.User.Name
		s.mu.Unlock()
	}
	return v, err
}

// owns: a task id nobody created passes through (the SDK answers TaskNotFound itself).
func (s *store) owns(owner string, id a2a.TaskID) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	o, ok := s.owner[id]
	return !ok || o == owner
}

// runner "runs" the workflow a message asks for: a completed task acknowledging it.
type runner struct{}

func (runner) Execute(_ context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		if ec.StoredTask == nil && !yield(a2a.NewSubmittedTask(ec, ec.Message), nil) {
			return
		}
		reply := a2a.NewMessageForTask(a2a.MessageRoleAgent, ec, a2a.NewTextPart("Queued. A dispatcher confirms the result within the hour."))
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCompleted, reply), nil)
	}
}

func (runner) Cancel(_ context.Context, ec *a2asrv.ExecutorContext) iter.Seq2[a2a.Event, error] {
	return func(yield func(a2a.Event, error) bool) {
		yield(a2a.NewStatusUpdateEvent(ec, a2a.TaskStateCanceled, nil), nil)
	}
}

// restRoots are the HTTP+JSON binding's first path segments; any other first segment is a tenant.
var restRoots = map[string]bool{"message:send": true, "message:stream": true, "tasks": true, "extendedAgentCard": true}

// rest serves the HTTP+JSON binding with and without the /{tenant}/ prefix.
func rest(handler a2asrv.RequestHandler) http.Handler {
	plain := a2asrv.NewRESTHandler(handler)
	tenant := a2asrv.NewTenantRESTHandler("/{*}", handler)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		first, _, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
		if restRoots[first] || strings.HasPrefix(first, "tasks:") {
			plain.ServeHTTP(w, r)
			return
		}
		tenant.ServeHTTP(w, r)
	})
}
