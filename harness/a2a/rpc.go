package a2a

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
)

// Method names of A2A 1.0 (the JSON-RPC method; the HTTP+JSON binding maps its routes onto the same names). The
// client and the server kit (harness/a2atest) both use these.
const (
	MethodSendMessage          = "SendMessage"
	MethodSendStreamingMessage = "SendStreamingMessage"
	MethodGetTask              = "GetTask"
	MethodListTasks            = "ListTasks"
	MethodCancelTask           = "CancelTask"
	MethodSubscribeToTask      = "SubscribeToTask"
	MethodGetExtendedAgentCard = "GetExtendedAgentCard"
	MethodCreatePushConfig     = "CreateTaskPushNotificationConfig"
	MethodGetPushConfig        = "GetTaskPushNotificationConfig"
	MethodListPushConfigs      = "ListTaskPushNotificationConfigs"
	MethodDeletePushConfig     = "DeleteTaskPushNotificationConfig"
)

type rpcRequest struct {
	JSONRPC string `json:"jsonrpc"`
	ID      any    `json:"id"`
	Method  string `json:"method"`
	Params  any    `json:"params,omitempty"`
}

// envelope encodes a JSON-RPC request; params that cannot be encoded are the caller's bug.
func (c *Client) envelope(method string, params any, call Call) ([]byte, error) {
	id := call.ID
	if id == nil {
		id = c.nextID.Add(1)
	}
	b, err := json.Marshal(rpcRequest{JSONRPC: "2.0", ID: id, Method: method, Params: params})
	if err != nil {
		return nil, fmt.Errorf("a2a: encoding %s request: %w", method, err)
	}
	return b, nil
}

// RPC calls a JSON-RPC method. A JSON-RPC error is a response (resp.Error), not an error: err is only
// transport, limit or decoding trouble.
func (c *Client) RPC(ctx context.Context, url, method string, params any, call Call) (*RPCResponse, *Exchange, error) {
	body, err := c.envelope(method, params, call)
	if err != nil {
		return nil, nil, err
	}
	return c.rpc(ctx, url, body, call, nil)
}

// RPCRaw posts body verbatim (deliberately bad requests included) and decodes the JSON-RPC response.
func (c *Client) RPCRaw(ctx context.Context, url string, body []byte, call Call) (*RPCResponse, *Exchange, error) {
	return c.rpc(ctx, url, body, call, nil)
}

// rpc runs then decodes; post (if any) decodes the result so its failure is recorded on the exchange too.
func (c *Client) rpc(ctx context.Context, url string, body []byte, call Call, post func(*RPCResponse) error) (*RPCResponse, *Exchange, error) {
	ex, err := c.exchange(ctx, request{method: http.MethodPost, url: url, body: body, call: call})
	var resp *RPCResponse
	if err == nil {
		resp, err = decodeRPC(ex.ResponseBody, "HTTP %d response", ex.Status)
	}
	if err == nil && post != nil && resp.Error == nil {
		err = post(resp)
	}
	c.finish(ex, err)
	return resp, ex, err
}

// decodeRPC decodes a JSON-RPC response; what (a format with one number: the status or the event) names it in
// the error, formatted only then.
func decodeRPC(b []byte, what string, n int) (*RPCResponse, error) {
	var r RPCResponse
	if err := DecodeStrict(b, &r); err != nil {
		return nil, fmt.Errorf("%s is not a JSON-RPC response: %w", fmt.Sprintf(what, n), err)
	}
	return &r, nil
}

// RPCStream calls a streaming method (SSE). Each event's data is a JSON-RPC response. It reads until the
// server closes the stream, a limit trips, or ctx ends, and returns the responses decoded so far in any case.
// A JSON (not SSE) answer is returned as one response; unless it is a JSON-RPC error, err wraps ErrContentType.
func (c *Client) RPCStream(ctx context.Context, url, method string, params any, call Call) ([]RPCResponse, *Exchange, error) {
	body, err := c.envelope(method, params, call)
	if err != nil {
		return nil, nil, err
	}
	return c.rpcStream(ctx, url, body, call, nil)
}

func (c *Client) rpcStream(ctx context.Context, url string, body []byte, call Call, post func([]RPCResponse) error) ([]RPCResponse, *Exchange, error) {
	ex, err := c.exchange(ctx, request{method: http.MethodPost, url: url, body: body, call: call, accept: "text/event-stream", stream: true})
	var out []RPCResponse
	for i, data := range ex.Events {
		r, derr := decodeRPC(data, "SSE event %d", i+1)
		if derr != nil {
			if err == nil {
				err = derr
			}
			break
		}
		out = append(out, *r)
	}
	if err == nil && !isMediaType(ex.ResponseHeader.Get("Content-Type"), "text/event-stream") {
		r, derr := decodeRPC(ex.ResponseBody, "HTTP %d response", ex.Status)
		switch {
		case derr != nil:
			err = derr
		case r.Error == nil:
			out, err = []RPCResponse{*r}, fmt.Errorf("%w: %q for a streaming call, want text/event-stream",
				ErrContentType, ex.ResponseHeader.Get("Content-Type"))
		default:
			out = []RPCResponse{*r}
		}
	}
	if err == nil && post != nil {
		err = post(out)
	}
	c.finish(ex, err)
	return out, ex, err
}

// decodeResult decodes a successful result strictly into v.
func decodeResult(method string, r *RPCResponse, v any) error {
	if err := DecodeStrict(r.Result, v); err != nil {
		return fmt.Errorf("%s result: %w", method, err)
	}
	return nil
}

// SendMessage calls SendMessage. On a JSON-RPC error the result is nil and resp.Error is set.
func (c *Client) SendMessage(ctx context.Context, url string, req SendMessageRequest, call Call) (*SendResult, *RPCResponse, *Exchange, error) {
	var res *SendResult
	resp, ex, err := c.typed(ctx, url, MethodSendMessage, req, call, func(r *RPCResponse) error {
		res = new(SendResult)
		return decodeResult(MethodSendMessage, r, res)
	})
	if err != nil {
		res = nil
	}
	return res, resp, ex, err
}

// SendStreamingMessage calls SendStreamingMessage; events are the decoded results (JSON-RPC errors are only in
// the responses).
func (c *Client) SendStreamingMessage(ctx context.Context, url string, req SendMessageRequest, call Call) ([]StreamEvent, []RPCResponse, *Exchange, error) {
	body, err := c.envelope(MethodSendStreamingMessage, req, call)
	if err != nil {
		return nil, nil, nil, err
	}
	var events []StreamEvent
	resps, ex, err := c.rpcStream(ctx, url, body, call, func(rs []RPCResponse) error {
		for i := range rs {
			if rs[i].Error != nil {
				continue
			}
			var e StreamEvent
			if err := decodeResult(MethodSendStreamingMessage, &rs[i], &e); err != nil {
				return fmt.Errorf("event %d: %w", i+1, err)
			}
			events = append(events, e)
		}
		return nil
	})
	return events, resps, ex, err
}

type taskParams struct {
	ID     string `json:"id"`
	Tenant string `json:"tenant,omitempty"`
}

// GetTask calls GetTask.
func (c *Client) GetTask(ctx context.Context, url, taskID, tenant string, call Call) (*Task, *RPCResponse, *Exchange, error) {
	return typedTask(c, ctx, url, MethodGetTask, taskParams{ID: taskID, Tenant: tenant}, call)
}

// CancelTask calls CancelTask.
func (c *Client) CancelTask(ctx context.Context, url, taskID, tenant string, call Call) (*Task, *RPCResponse, *Exchange, error) {
	return typedTask(c, ctx, url, MethodCancelTask, taskParams{ID: taskID, Tenant: tenant}, call)
}

func typedTask(c *Client, ctx context.Context, url, method string, params any, call Call) (*Task, *RPCResponse, *Exchange, error) {
	var t *Task
	resp, ex, err := c.typed(ctx, url, method, params, call, func(r *RPCResponse) error {
		t = new(Task)
		return decodeResult(method, r, t)
	})
	if err != nil {
		t = nil
	}
	return t, resp, ex, err
}

// ListTasks calls ListTasks with params as given and returns the raw result.
func (c *Client) ListTasks(ctx context.Context, url string, params map[string]any, call Call) (json.RawMessage, *RPCResponse, *Exchange, error) {
	if params == nil {
		params = map[string]any{}
	}
	resp, ex, err := c.typed(ctx, url, MethodListTasks, params, call, func(r *RPCResponse) error {
		var v any
		return decodeResult(MethodListTasks, r, &v)
	})
	if err != nil || resp == nil || resp.Error != nil {
		return nil, resp, ex, err
	}
	return resp.Result, resp, ex, nil
}

type tenantParams struct {
	Tenant string `json:"tenant,omitempty"`
}

// GetExtendedAgentCard calls GetExtendedAgentCard.
func (c *Client) GetExtendedAgentCard(ctx context.Context, url, tenant string, call Call) (*AgentCard, *RPCResponse, *Exchange, error) {
	var card *AgentCard
	resp, ex, err := c.typed(ctx, url, MethodGetExtendedAgentCard, tenantParams{Tenant: tenant}, call, func(r *RPCResponse) error {
		card = new(AgentCard)
		if err := decodeResult(MethodGetExtendedAgentCard, r, card); err != nil {
			return err
		}
		return checkCardSize(card, c.lim, "the extended card")
	})
	if err != nil {
		card = nil
	}
	return card, resp, ex, err
}

func (c *Client) typed(ctx context.Context, url, method string, params any, call Call, post func(*RPCResponse) error) (*RPCResponse, *Exchange, error) {
	body, err := c.envelope(method, params, call)
	if err != nil {
		return nil, nil, err
	}
	return c.rpc(ctx, url, body, call, post)
}
