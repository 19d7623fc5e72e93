package rules

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/jsonptr"
)

// Verdicts of one evaluation of a rule. They mirror the harness's row verdicts; a proposed row is never counted in
// a run's status or a certification claim.
const (
	Pass         = "executed-pass"
	Fail         = "executed-fail"
	Blocked      = "blocked"      // the rule could not be evaluated: a fetch failed, an expression erred
	Inapplicable = "inapplicable" // the rule's when gave false
)

// Outcome is one evaluation of a rule against one agent.
type Outcome struct {
	Rule      string   `json:"rule"`
	Verdict   string   `json:"verdict"`
	Expected  string   `json:"expected,omitempty"`
	Observed  string   `json:"observed,omitempty"`
	Reason    string   `json:"reason,omitempty"` // blocked or inapplicable: why
	Exchanges []string `json:"exchanges,omitempty"`
	// CheckFailed is true only when the rule's own check evaluated to false: the rule was killed for the right
	// reason (not a transport error, a patch that broke the card's JSON, or an expression error).
	CheckFailed bool `json:"-"`

	summaries []string
}

// Summaries are one line per exchange the evaluation made ("ex#1 sha256:… GET … → 200").
func (o *Outcome) Summaries() []string { return o.summaries }

func (o *Outcome) cite(ex *a2a.Exchange) {
	if ex == nil {
		return
	}
	o.Exchanges = append(o.Exchanges, ex.ID)
	o.summaries = append(o.summaries, ex.Summary())
}

func (o *Outcome) block(format string, a ...any) *Outcome {
	o.Verdict, o.Reason = Blocked, fmt.Sprintf(format, a...)
	return o
}

// Evaluate fetches the card at cardURL with client (its limits, reach and recorder apply), then the rule's document
// and exchange, and evaluates the rule's when and check. It never panics on target data and never returns a pass
// unless the check evaluated to true.
func Evaluate(ctx context.Context, client *a2a.Client, cardURL string, r *Rule) *Outcome {
	o := &Outcome{Rule: r.ID, Expected: r.ClauseOrSource()}
	vars := map[string]any{"card": nil, "document": nil, "request": nil, "response": nil}

	_, ex, err := client.FetchCard(ctx, cardURL, a2a.Call{Note: "agent card for proposed rule " + r.ID})
	o.cite(ex)
	if err != nil {
		return o.block("the agent card can be fetched and decoded: %v", err)
	}
	var card any
	if err := json.Unmarshal(ex.ResponseBody, &card); err != nil {
		return o.block("the agent card is JSON: %v", err)
	}
	vars["card"] = card

	if r.When != "" {
		ok, err := evalBool(ctx, r.When, vars)
		if err != nil {
			return o.block("when: %v", err)
		}
		if !ok {
			o.Verdict, o.Reason = Inapplicable, "the rule's when is false for this card: "+r.When
			return o
		}
	}

	if r.Fetch != "" {
		v, err := jsonptr.Resolve(card, r.Fetch)
		u, isStr := v.(string)
		if err != nil || !isStr || u == "" {
			return o.block("fetch %s: the card has no URL there (%v)", r.Fetch, errOr(err, "not a non-empty string"))
		}
		raw, dex, err := client.FetchJSON(ctx, u, a2a.Call{Note: "document for proposed rule " + r.ID})
		o.cite(dex)
		if err != nil {
			return o.block("fetch %s: %v", r.Fetch, err)
		}
		var doc any
		if err := json.Unmarshal(raw, &doc); err != nil {
			return o.block("fetch %s: %v", r.Fetch, err)
		}
		vars["document"] = doc
	}

	if r.Request != nil {
		req, resp, err := call(ctx, client, card, r, o)
		if err != nil {
			return o.block("request %s: %v", r.Request.Method, err)
		}
		vars["request"], vars["response"] = req, resp
	}

	ok, err := evalBool(ctx, r.Check, vars)
	if err != nil {
		return o.block("check: %v", err)
	}
	if r.Observe != "" {
		o.Observed = evalString(ctx, r.Observe, vars)
	}
	if ok {
		o.Verdict = Pass
		return o
	}
	o.Verdict, o.CheckFailed = Fail, true
	if o.Observed == "" {
		o.Observed = "the check is false: " + r.Check
	}
	return o
}

func errOr(err error, s string) string {
	if err != nil {
		return err.Error()
	}
	return s
}

// call makes the rule's one exchange over the card's JSON-RPC interface; a JSON-RPC error or a non-200 status is
// a response to check, not an error.
func call(ctx context.Context, client *a2a.Client, card any, r *Rule, o *Outcome) (map[string]any, map[string]any, error) {
	url := jsonRPCURL(card)
	if url == "" {
		return nil, nil, fmt.Errorf("the card lists no JSONRPC interface in supportedInterfaces")
	}
	params, err := template(r.Request.Params, card)
	if err != nil {
		return nil, nil, err
	}
	env := map[string]any{"jsonrpc": "2.0", "id": 1, "method": r.Request.Method}
	if params != nil {
		env["params"] = params
	}
	body, err := json.Marshal(env)
	if err != nil {
		return nil, nil, err
	}
	var c a2a.Call
	c.Note = fmt.Sprintf("%s for proposed rule %s", r.Request.Method, r.ID)
	if len(r.Request.Extensions) > 0 {
		c.Extensions = r.Request.Extensions
	}
	ex, err := client.HTTP(ctx, http.MethodPost, url, body, c)
	o.cite(ex)
	if err != nil {
		return nil, nil, err
	}
	req := map[string]any{"method": r.Request.Method, "params": params, "url": url, "headers": headerMap(ex.RequestHeader)}
	resp := map[string]any{"status": int64(ex.Status), "headers": headerMap(ex.ResponseHeader), "body": nil}
	var b any
	if err := json.Unmarshal(ex.ResponseBody, &b); err == nil {
		resp["body"] = b
	} else {
		resp["body"] = string(ex.ResponseBody)
	}
	return req, resp, nil
}

// headerMap lower-cases names and joins repeated values with ", " (RFC 9110 §5.3).
func headerMap(h http.Header) map[string]any {
	out := map[string]any{}
	for k, v := range h {
		out[strings.ToLower(k)] = strings.Join(v, ", ")
	}
	return out
}

func jsonRPCURL(card any) string {
	m, _ := card.(map[string]any)
	list, _ := m["supportedInterfaces"].([]any)
	for _, it := range list {
		i, _ := it.(map[string]any)
		if i["protocolBinding"] == "JSONRPC" {
			if u, ok := i["url"].(string); ok {
				return u
			}
		}
	}
	return ""
}

// template replaces every string "{{card:/pointer}}" in v by the card's value at the pointer.
func template(v any, card any) (any, error) {
	switch t := v.(type) {
	case string:
		if strings.HasPrefix(t, "{{card:") && strings.HasSuffix(t, "}}") {
			ptr := strings.TrimSuffix(strings.TrimPrefix(t, "{{card:"), "}}")
			got, err := jsonptr.Resolve(card, ptr)
			if err != nil {
				return nil, fmt.Errorf("params: %s: %v", t, err)
			}
			return got, nil
		}
		return t, nil
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			y, err := template(x, card)
			if err != nil {
				return nil, err
			}
			out[k] = y
		}
		return out, nil
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			y, err := template(x, card)
			if err != nil {
				return nil, err
			}
			out[i] = y
		}
		return out, nil
	}
	return v, nil
}
