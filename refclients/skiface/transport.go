package skiface

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/sabotage"
)

func newID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func (c *Client) message(obj any, extraText, roleAgent bool) a2a.Message {
	m := a2a.Message{MessageID: "extconf-" + newID(), Role: a2a.RoleUser}
	if roleAgent {
		m.Role = a2a.RoleAgent
	}
	if c.on(sabotage.SIClientTextPartRequests) {
		b, _ := json.Marshal(obj)
		m.Parts = []a2a.Part{a2a.TextPart(string(b))}
	} else {
		m.Parts = []a2a.Part{a2a.DataPart(obj)}
	}
	if extraText {
		m.Parts = append([]a2a.Part{a2a.TextPart("request object follows")}, m.Parts...)
	}
	if !c.on(sabotage.SIClientNoMessageExtensions) {
		m.Extensions = []string{ExtensionURI}
	}
	return m
}

func (c *Client) call(note string) a2a.Call {
	call := a2a.Call{Note: "schema-interface client: " + note}
	if !c.on(sabotage.SIClientNoActivationHeader) {
		call.Extensions = []string{ExtensionURI}
	}
	return call
}

// send delivers one request object and returns the terminal (or last) task. A binding error or an answer that is
// not a task is an *Error: the condition code when the agent gave one, otherwise a transport failure.
func (c *Client) send(ctx context.Context, res *Result, a *advertised, msg a2a.Message, stream bool, step string, customMethod bool) (*a2a.Task, *a2a.Exchange, *Error) {
	req := a2a.SendMessageRequest{Message: msg}
	call := c.call(step)
	var (
		ex   *a2a.Exchange
		task *a2a.Task
		msgR *a2a.Message
		rerr *a2a.RPCError
		err  error
	)
	switch {
	case customMethod && a.binding == a2a.BindingJSONRPC:
		var resp *a2a.RPCResponse
		resp, ex, err = c.A2A.RPC(ctx, a.endpoint, DescribeSkill, map[string]any{"message": msg}, call)
		if err == nil && resp.Error != nil {
			rerr = resp.Error
		} else if err == nil {
			var sr a2a.SendResult
			if derr := json.Unmarshal(resp.Result, &sr); derr == nil {
				task, msgR = sr.Task, sr.Message
			}
		}
	case stream:
		task, msgR, ex, rerr, err = c.stream(ctx, a, req, call)
	case a.binding == a2a.BindingHTTPJSON:
		task, msgR, ex, rerr, err = c.restSend(ctx, a, req, call)
	default:
		var sr *a2a.SendResult
		var resp *a2a.RPCResponse
		sr, resp, ex, err = c.A2A.SendMessage(ctx, a.endpoint, req, call)
		if resp != nil && resp.Error != nil {
			rerr = resp.Error
		}
		if sr != nil {
			task, msgR = sr.Task, sr.Message
		}
	}
	res.addExchange(ex)
	if err != nil {
		return nil, ex, c.transportErr(step, "sending the request", err)
	}
	if ex != nil && !c.on(sabotage.SIClientNoLimitPayloadSize) && int64(len(ex.ResponseBody)) > c.lim().MaxPayloadBytes {
		return nil, ex, errf(ResourceLimitExceeded, step, "", "the response is %d bytes, over the payload limit", len(ex.ResponseBody))
	}
	if rerr != nil {
		code := bindingCondition(rerr)
		res.step(step, false, ex, "binding error %d: %s", rerr.Code, rerr.Message)
		if code != "" {
			return nil, ex, &Error{Code: code, Step: step, Msg: "the agent refused before creating a task: " + rerr.Message}
		}
		return nil, ex, &Error{Step: step, Msg: fmt.Sprintf("the agent answered with binding error %d: %s", rerr.Code, rerr.Message)}
	}
	if task == nil {
		what := "neither a task nor a message"
		if msgR != nil {
			what = "a message instead of a task"
		}
		return nil, ex, &Error{Code: InterfaceInvalid, Step: step, Msg: "the agent answered with " + what}
	}
	return task, ex, nil
}

// bindingCondition finds a condition code in a binding error: an ErrorInfo reason or an {"error":{"code"}} object.
func bindingCondition(e *a2a.RPCError) string {
	var items []json.RawMessage
	if json.Unmarshal(e.Data, &items) != nil {
		items = []json.RawMessage{e.Data}
	}
	for _, it := range items {
		var d struct {
			Reason string `json:"reason"`
			Error  struct {
				Code string `json:"code"`
			} `json:"error"`
		}
		if json.Unmarshal(it, &d) != nil {
			continue
		}
		for _, s := range []string{d.Reason, d.Error.Code} {
			if IsCode(s) {
				return s
			}
		}
	}
	return ""
}

func (c *Client) restSend(ctx context.Context, a *advertised, req a2a.SendMessageRequest, call a2a.Call) (*a2a.Task, *a2a.Message, *a2a.Exchange, *a2a.RPCError, error) {
	ex, err := c.A2A.REST(ctx, http.MethodPost, a.endpoint, "/message:send", req, call)
	if err != nil {
		return nil, nil, ex, nil, err
	}
	if ex.Status != http.StatusOK {
		return nil, nil, ex, restError(ex.ResponseBody, ex.Status), nil
	}
	var sr a2a.SendResult
	if err := a2a.DecodeStrict(ex.ResponseBody, &sr); err != nil {
		return nil, nil, ex, nil, err
	}
	return sr.Task, sr.Message, ex, nil, nil
}

// restError maps a google.rpc.Status body to the JSON-RPC error shape (details become data).
func restError(body []byte, status int) *a2a.RPCError {
	var s struct {
		Error struct {
			Code    int             `json:"code"`
			Message string          `json:"message"`
			Details json.RawMessage `json:"details"`
		} `json:"error"`
	}
	_ = json.Unmarshal(body, &s)
	return &a2a.RPCError{Code: status, Message: s.Error.Message, Data: s.Error.Details}
}

func (c *Client) stream(ctx context.Context, a *advertised, req a2a.SendMessageRequest, call a2a.Call) (*a2a.Task, *a2a.Message, *a2a.Exchange, *a2a.RPCError, error) {
	var events []a2a.StreamEvent
	var ex *a2a.Exchange
	var err error
	if a.binding == a2a.BindingHTTPJSON {
		ex, err = c.A2A.REST(ctx, http.MethodPost, a.endpoint, "/message:stream", req, call)
		if err == nil && ex.Status != http.StatusOK {
			return nil, nil, ex, restError(ex.ResponseBody, ex.Status), nil
		}
		if err == nil {
			for _, d := range ex.Events {
				var e a2a.StreamEvent
				if json.Unmarshal(d, &e) == nil {
					events = append(events, e)
				}
			}
		}
	} else {
		var resps []a2a.RPCResponse
		events, resps, ex, err = c.A2A.SendStreamingMessage(ctx, a.endpoint, req, call)
		for _, r := range resps {
			if r.Error != nil {
				return nil, nil, ex, r.Error, nil
			}
		}
	}
	if err != nil {
		return nil, nil, ex, nil, err
	}
	task, msg := Assemble(events)
	return task, msg, ex, nil, nil
}
