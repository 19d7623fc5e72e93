package agentcards

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/extconf/extconf/harness/a2a"
)

// Every A2A 1.0 operation that can carry a tenant; "every A2A operation" of RFC 0202 §D is probed with all of
// them on every binding the host serves, push-config methods included (a host without push support must still
// refuse a foreign R exactly as a never-minted one).
var operations = []string{
	"SendMessage", "SendStreamingMessage", "GetTask", "ListTasks", "CancelTask", "SubscribeToTask",
	"GetExtendedAgentCard", "CreateTaskPushNotificationConfig", "GetTaskPushNotificationConfig",
	"ListTaskPushNotificationConfigs", "DeleteTaskPushNotificationConfig",
}

// leg is one operation on one binding.
type leg struct{ binding, op string }

func (l leg) String() string { return l.binding + " " + l.op }

// answer is what one probe got back.
type answer struct {
	leg    leg
	ex     *a2a.Exchange
	err    error
	status int
	body   []byte // the response body (an SSE stream's raw bytes)
	code   string // the error code as the binding carries it; "" when no error
	result bool   // a result (JSON-RPC result member, HTTP+JSON 2xx) was returned
	header http.Header
}

// same reports whether two answers are the same refusal in the sense of §D.7: status, code, body (the two
// requests carry the same JSON-RPC id, so nothing needs normalising).
func same(a, b answer) (status, code, body bool) {
	return a.status == b.status, a.code == b.code, string(a.body) == string(b.body)
}

// perResponse are headers that report the response itself rather than what was asked (RFC 9110 Date, caching age,
// timing and tracing): never compared. Any other header is compared unless it already differs between two
// identical requests for a never-minted R (the baseline): that one varies per response on this host.
var perResponse = map[string]bool{"Date": true, "Age": true, "Expires": true, "Server-Timing": true,
	"Traceparent": true, "Tracestate": true, "X-Request-Id": true, "Request-Id": true, "X-Correlation-Id": true,
	"X-Amzn-Trace-Id": true, "X-Response-Time": true, "X-Runtime": true, "Cf-Ray": true}

// volatile returns the headers not compared for a leg: perResponse, and those that differ between base1 and base2.
func volatile(base1, base2 answer) map[string]bool {
	v := map[string]bool{}
	for k := range perResponse {
		v[k] = true
	}
	for _, h := range []http.Header{base1.header, base2.header} {
		for k := range h {
			if !slices.Equal(base1.header.Values(k), base2.header.Values(k)) {
				v[http.CanonicalHeaderKey(k)] = true
			}
		}
	}
	return v
}

// sameHeaders reports whether a and b carry the same response headers apart from the volatile ones, and the first
// difference.
func sameHeaders(a, b answer, skip map[string]bool) (bool, string) {
	names := map[string]bool{}
	for _, h := range []http.Header{a.header, b.header} {
		for k := range h {
			if !skip[http.CanonicalHeaderKey(k)] {
				names[http.CanonicalHeaderKey(k)] = true
			}
		}
	}
	keys := make([]string, 0, len(names))
	for k := range names {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !slices.Equal(a.header.Values(k), b.header.Values(k)) {
			return false, fmt.Sprintf("header %s: %q vs %q", k, a.header.Values(k), b.header.Values(k))
		}
	}
	return true, ""
}

func (a answer) describe() string {
	if a.err != nil && a.ex == nil {
		return "transport error: " + a.err.Error()
	}
	code := a.code
	if code == "" {
		code = "none"
	}
	return fmt.Sprintf("HTTP %d, error code %s, body %s", a.status, code, clip(string(a.body), 220))
}

// authRefused reports an answer that refuses the caller as unauthenticated or unauthorized (A2A 1.0: HTTP 401 /
// 403) and carries no result.
// On JSON-RPC the refusal may ride an HTTP 200 as error -31401 (UNAUTHENTICATED) or -31403 (PERMISSION_DENIED),
// the codes a2a-go v2 (the official Go SDK) gives them: A2A 1.0 leaves the JSON-RPC code of these custom, and §D.6
// asks that the request be refused, not for a status (README, reading 19).
func (a answer) authRefused() bool {
	if a.result {
		return false
	}
	if a.leg.binding == a2a.BindingJSONRPC && (a.code == "-31401" || a.code == "-31403") {
		return true
	}
	if a.leg.binding != a2a.BindingJSONRPC && (strings.HasPrefix(a.code, "401/") || strings.HasPrefix(a.code, "403/")) {
		return true // a stream whose event is the 401/403 google.rpc.Status
	}
	return a.status == http.StatusUnauthorized || a.status == http.StatusForbidden
}

// probeReq is what varies between probes: the routing value, the task id and the message id.
type probeReq struct {
	tenant string
	taskID string
	msgID  string
	text   string
	note   string
}

const (
	probeRPCID    = "extconf-ac-probe"
	probeConfigID = "extconf-ac-push"
	probePushURL  = "https://push.invalid/extconf" // .invalid never resolves: nothing is ever called back
)

// probe performs one operation through c.
func probe(ctx context.Context, c *a2a.Client, ifs ifaces, l leg, p probeReq) answer {
	if l.binding == a2a.BindingJSONRPC {
		return probeRPC(ctx, c, ifs.rpc, l, p)
	}
	return probeREST(ctx, c, ifs.rest, l, p)
}

func message(p probeReq) a2a.Message {
	return a2a.Message{MessageID: p.msgID, Role: a2a.RoleUser, Parts: []a2a.Part{a2a.TextPart(p.text)}}
}

func probeRPC(ctx context.Context, c *a2a.Client, u string, l leg, p probeReq) answer {
	params := map[string]any{}
	if p.tenant != "" {
		params["tenant"] = p.tenant
	}
	switch l.op {
	case "SendMessage", "SendStreamingMessage":
		params["message"] = message(p)
	case "GetTask", "CancelTask", "SubscribeToTask":
		params["id"] = p.taskID
	case "CreateTaskPushNotificationConfig":
		params["taskId"] = p.taskID
		params["configId"] = probeConfigID
		params["config"] = map[string]any{"url": probePushURL}
	case "GetTaskPushNotificationConfig", "DeleteTaskPushNotificationConfig":
		params["taskId"] = p.taskID
		params["id"] = probeConfigID
	case "ListTaskPushNotificationConfigs":
		params["taskId"] = p.taskID
	}
	call := a2a.Call{ID: probeRPCID, Note: p.note}
	ans := answer{leg: l}
	if l.op == "SendStreamingMessage" || l.op == "SubscribeToTask" {
		resps, ex, err := c.RPCStream(ctx, u, l.op, params, call)
		ans.ex, ans.err = ex, err
		for _, r := range resps {
			if r.Error != nil && ans.code == "" {
				ans.code = fmt.Sprint(r.Error.Code)
			}
			if len(r.Result) > 0 {
				ans.result = true
			}
		}
	} else {
		resp, ex, err := c.RPC(ctx, u, l.op, params, call)
		ans.ex, ans.err = ex, err
		if resp != nil {
			if resp.Error != nil {
				ans.code = fmt.Sprint(resp.Error.Code)
			}
			ans.result = len(resp.Result) > 0
		}
	}
	if ans.ex != nil {
		ans.status, ans.body, ans.header = ans.ex.Status, ans.ex.ResponseBody, ans.ex.ResponseHeader
	}
	return ans
}

func probeREST(ctx context.Context, c *a2a.Client, base string, l leg, p probeReq) answer {
	pre := ""
	if p.tenant != "" {
		pre = "/" + url.PathEscape(p.tenant)
	}
	t := url.PathEscape(p.taskID)
	var method, path string
	var body any
	switch l.op {
	case "SendMessage":
		method, path, body = http.MethodPost, "/message:send", map[string]any{"message": message(p)}
	case "SendStreamingMessage":
		method, path, body = http.MethodPost, "/message:stream", map[string]any{"message": message(p)}
	case "GetTask":
		method, path = http.MethodGet, "/tasks/"+t
	case "ListTasks":
		method, path = http.MethodGet, "/tasks"
	case "CancelTask":
		method, path, body = http.MethodPost, "/tasks/"+t+":cancel", map[string]any{}
	case "SubscribeToTask":
		method, path = http.MethodPost, "/tasks/"+t+":subscribe"
	case "GetExtendedAgentCard":
		method, path = http.MethodGet, "/extendedAgentCard"
	case "CreateTaskPushNotificationConfig":
		method, path, body = http.MethodPost, "/tasks/"+t+"/pushNotificationConfigs",
			map[string]any{"configId": probeConfigID, "config": map[string]any{"url": probePushURL}}
	case "GetTaskPushNotificationConfig":
		method, path = http.MethodGet, "/tasks/"+t+"/pushNotificationConfigs/"+probeConfigID
	case "ListTaskPushNotificationConfigs":
		method, path = http.MethodGet, "/tasks/"+t+"/pushNotificationConfigs"
	case "DeleteTaskPushNotificationConfig":
		method, path = http.MethodDelete, "/tasks/"+t+"/pushNotificationConfigs/"+probeConfigID
	}
	ex, err := c.REST(ctx, method, base, pre+path, body, a2a.Call{Note: p.note})
	ans := answer{leg: l, ex: ex, err: err}
	if ex == nil {
		return ans
	}
	ans.status, ans.body, ans.header = ex.Status, ex.ResponseBody, ex.ResponseHeader
	ans.result = ex.Status >= 200 && ex.Status < 300
	if ans.result && strings.HasPrefix(ex.ResponseHeader.Get("Content-Type"), "text/event-stream") {
		ans.result, ans.code = restStream(ex.ResponseBody)
	} else if !ans.result {
		ans.code = restCode(ex.ResponseBody, ex.Status)
	}
	return ans
}

// restStream reads an HTTP+JSON stream: a stream may open (200) before the host refuses, then carry the refusal as
// its event, a google.rpc.Status (a2a-go v2 does so). Only an event that is not an error is a result; the first
// error event gives the code (README, reading 19).
func restStream(body []byte) (result bool, code string) {
	_ = a2a.ReadSSE(bytes.NewReader(body), len(body)+1, 1<<16, func(e a2a.SSEEvent) {
		var probe struct {
			Error json.RawMessage `json:"error"`
		}
		if json.Unmarshal(e.Data, &probe) == nil && len(probe.Error) > 0 {
			if code == "" {
				code = restCode(e.Data, 200)
			}
			return
		}
		if len(bytes.TrimSpace(e.Data)) > 0 {
			result = true
		}
	})
	return result, code
}

// restCode is the HTTP+JSON error identity: google.rpc.Status code and status, and every ErrorInfo reason.
func restCode(body []byte, status int) string {
	var st struct {
		Error struct {
			Code    json.RawMessage `json:"code"`
			Status  string          `json:"status"`
			Details []struct {
				Reason string `json:"reason"`
			} `json:"details"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &st) != nil || len(st.Error.Code) == 0 && st.Error.Status == "" {
		return fmt.Sprintf("HTTP %d (no google.rpc.Status body)", status)
	}
	var reasons []string
	for _, d := range st.Error.Details {
		if d.Reason != "" {
			reasons = append(reasons, d.Reason)
		}
	}
	return fmt.Sprintf("%s/%s/%s", st.Error.Code, st.Error.Status, strings.Join(reasons, ","))
}

// refusalToken splits a body into tokens of the a2aTenant alphabet and single other characters, so that a routing
// value or an id is one token wherever it sits (a path, a message, a JSON member).
var refusalToken = regexp.MustCompile(`[A-Za-z0-9._~-]+|(?s:.)`)

// sameAsBaseline reports whether a (for routing value ra) is the refusal n (for rn) apart from what two identical
// never-minted requests (n, n2) already differ in and from the routing value itself: the body baseline of §D.6
// and of the non-disclosure reading (a 401 quoting the request path, a fresh request id). Status and code are
// compared as they are. §D.7c uses it with R compared (ra, rn empty). A timestamp of the answer's own time is
// not compared either (ownTimeless).
func sameAsBaseline(a, n, n2 answer, ra, rn string) (status, code, body bool) {
	status, code = a.status == n.status, a.code == n.code
	ta, tn, t2 := bodyTokens(ownTimeless(a), ra), bodyTokens(ownTimeless(n), rn), bodyTokens(ownTimeless(n2), rn)
	if len(ta) != len(tn) {
		return status, code, false
	}
	vary := len(tn) == len(t2)
	for i := range ta {
		if ta[i] != tn[i] && !(vary && tn[i] != t2[i]) {
			return status, code, false
		}
	}
	return status, code, true
}

// bodyTokens tokenises body with r (when it is one whole token) replaced by a placeholder.
func bodyTokens(body []byte, r string) []string {
	toks := refusalToken.FindAllString(string(body), -1)
	for i, t := range toks {
		if r != "" && t == r {
			toks[i] = "\x00R"
		}
	}
	return toks
}
