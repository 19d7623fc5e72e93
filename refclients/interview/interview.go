package interview

// The interview extension's client side (https://agentsow.com/extensions/a2a-interview/v1): how an interviewer
// calls the five methods and reads what comes back. The §7 diff is in interview_diff.go, the §8 procedure in
// interview_procedure.go.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sort"

	"github.com/extconf/extconf/harness/a2a"
)

// URI is the interview extension's URI (§2), matched byte for byte.
const URI = "https://agentsow.com/extensions/a2a-interview/v1"

// Methods are the five methods of §4, in the order the procedure asks them.
var Methods = []string{"interview/identity", "interview/capabilities", "interview/usage", "interview/terms", "interview/refusals"}

// The closed member sets of §5 rule 3 and §6.
var (
	AnswerMembers     = []string{"question", "declared", "projections"}
	ProjectionMembers = []string{"source", "value"}
	SourceMembers     = []string{"document", "member", "url", "digest"}
	RefusalMembers    = []string{"refused", "reason", "detail", "declared_skills"}
	// RefusalReasons is the closed set of §6 rule 2.
	RefusalReasons = []string{"out_of_scope", "not_declared"}
)

// Endpoint is where interview calls go: the card's first JSON-RPC interface (the document names its
// methods JSON-RPC style and binds them to nothing else), with its tenant and any credential the operator gave.
type Endpoint struct {
	URL    string
	Tenant string
	Header http.Header
}

// EndpointOf picks the JSON-RPC interface of the card.
func EndpointOf(card *a2a.AgentCard) (Endpoint, error) {
	if card == nil {
		return Endpoint{}, errors.New("endpoint: no card")
	}
	i, ok := card.Interface(a2a.BindingJSONRPC)
	if !ok || i.URL == "" {
		return Endpoint{}, errors.New("endpoint: the card lists no JSONRPC interface; the interview defines no HTTP+JSON or gRPC binding")
	}
	return Endpoint{URL: i.URL, Tenant: i.Tenant}, nil
}

// Reply is one interview call as the interviewer saw it.
type Reply struct {
	Method   string
	Params   map[string]any
	Result   json.RawMessage // the JSON-RPC result, verbatim
	RPCError *a2a.RPCError   // a JSON-RPC error instead of a result
	Err      error           // transport, limit or decoding trouble
	Exchange *a2a.Exchange
	Answer   *Answer  // the result read as an answer (it has "question")
	Refusal  *Refusal // the result read as a refusal (it has "refused")
}

// Answer is a result carrying "question" (§5), read leniently so shape checks can see what is wrong.
type Answer struct {
	Keys        []string // top-level member names, sorted
	Question    string
	Declared    *bool
	Projections []Projection
	// Malformed says why the answer does not have the §5 shape ("" when it does).
	Malformed string
}

// Projection is one projections[] element.
type Projection struct {
	Keys       []string // member names, sorted
	SourceKeys []string // member names of source, sorted
	Source     Source
	Value      json.RawMessage // verbatim; nil when absent
}

// Source names the declared document and member a value was copied from.
type Source struct {
	Document, URL, Digest, Member string
}

// Refusal is a result carrying "refused" (§6).
type Refusal struct {
	Keys           []string
	Refused        bool
	Reason         string
	Detail         *string
	DeclaredSkills []string
	Malformed      string
}

// Label names a call for transcripts and messages: "interview/usage {skill: x}".
func (r *Reply) Label() string {
	if len(r.Params) == 0 {
		return r.Method
	}
	b, _ := json.Marshal(r.Params)
	return r.Method + " " + string(b)
}

// Observed says in one line what came back, for failure messages.
func (r *Reply) Observed() string {
	switch {
	case r == nil:
		return "no call made"
	case r.Err != nil:
		return "call failed: " + r.Err.Error()
	case r.RPCError != nil:
		return fmt.Sprintf("JSON-RPC error %d %q", r.RPCError.Code, r.RPCError.Message)
	default:
		return "result " + ivClipText(string(r.Result), 400)
	}
}

// Ask makes one interview call. activate lists the URI in A2A-Extensions; params nil sends {}. The
// interface's tenant is added to params when the card names one.
func Ask(ctx context.Context, c *a2a.Client, ep Endpoint, method string, params map[string]any, activate bool, note string) *Reply {
	p := map[string]any{}
	for k, v := range params {
		p[k] = v
	}
	if ep.Tenant != "" {
		if _, ok := p["tenant"]; !ok {
			p["tenant"] = ep.Tenant
		}
	}
	call := a2a.Call{Header: ep.Header.Clone(), Note: note}
	if activate {
		call.Extensions = []string{URI}
	}
	r := &Reply{Method: method, Params: params}
	resp, ex, err := c.RPC(ctx, ep.URL, method, p, call)
	r.Exchange = ex
	switch {
	case err != nil:
		r.Err = err
	case resp.Error != nil:
		r.RPCError = resp.Error
	default:
		r.Result = resp.Result
		r.Answer, r.Refusal = DecodeResult(resp.Result)
	}
	return r
}

// ivOptional decodes an optional member: nil when absent; when present but not a T, nil and *malformed says
// "<member> is not <want>".
func ivOptional[T any](top map[string]json.RawMessage, member, want string, malformed *string) *T {
	raw, ok := top[member]
	if !ok {
		return nil
	}
	var v T
	if json.Unmarshal(raw, &v) != nil {
		*malformed = member + " is not " + want
		return nil
	}
	return &v
}

// DecodeResult reads a result as an answer (it has "question") or a refusal (it has "refused"); neither
// when it is not an object or has neither member.
func DecodeResult(raw json.RawMessage) (*Answer, *Refusal) {
	var top map[string]json.RawMessage
	if json.Unmarshal(raw, &top) != nil || top == nil {
		return nil, nil
	}
	keys := ivSortedMembers(top)
	var ans *Answer
	var ref *Refusal
	if q, ok := top["question"]; ok {
		ans = &Answer{Keys: keys}
		if json.Unmarshal(q, &ans.Question) != nil {
			ans.Malformed = "question is not a string"
		}
		ans.Declared = ivOptional[bool](top, "declared", "a boolean", &ans.Malformed)
		var projs []json.RawMessage
		if p, ok := top["projections"]; !ok {
			ans.Malformed = "projections is absent"
		} else if json.Unmarshal(p, &projs) != nil || projs == nil {
			ans.Malformed = "projections is not an array"
		}
		for i, pr := range projs {
			p, why := ivDecodeProjection(pr)
			if why != "" && ans.Malformed == "" {
				ans.Malformed = fmt.Sprintf("projections[%d]: %s", i, why)
			}
			ans.Projections = append(ans.Projections, p)
		}
	}
	if f, ok := top["refused"]; ok {
		ref = &Refusal{Keys: keys}
		if json.Unmarshal(f, &ref.Refused) != nil {
			ref.Malformed = "refused is not a boolean"
		}
		if json.Unmarshal(top["reason"], &ref.Reason) != nil {
			ref.Malformed = "reason is not a string"
		}
		ref.Detail = ivOptional[string](top, "detail", "a string", &ref.Malformed)
		if json.Unmarshal(top["declared_skills"], &ref.DeclaredSkills) != nil || ref.DeclaredSkills == nil {
			ref.Malformed = "declared_skills is not an array of strings"
		}
	}
	return ans, ref
}

func ivDecodeProjection(raw json.RawMessage) (Projection, string) {
	var p Projection
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return p, "not an object"
	}
	p.Keys = ivSortedMembers(m)
	p.Value = m["value"]
	var src map[string]json.RawMessage
	if json.Unmarshal(m["source"], &src) != nil || src == nil {
		return p, "source is not an object"
	}
	p.SourceKeys = ivSortedMembers(src)
	for k, dst := range map[string]*string{"document": &p.Source.Document, "member": &p.Source.Member, "url": &p.Source.URL, "digest": &p.Source.Digest} {
		if v, ok := src[k]; ok && json.Unmarshal(v, dst) != nil {
			return p, "source." + k + " is not a string"
		}
	}
	if p.Value == nil {
		return p, "value is absent"
	}
	return p, ""
}

// IsStandardRefusal checks a reply against §6: a result (not an error) with refused true, reason out_of_scope,
// a string detail and declared_skills equal, as a set without duplicates, to skills. It returns "" when it is.
func IsStandardRefusal(r *Reply, skills []string) string {
	switch {
	case r.Err != nil || r.RPCError != nil:
		return "not a result: " + r.Observed()
	case r.Answer != nil:
		return "an answer (it carries question), not a refusal: " + r.Observed()
	case r.Refusal == nil:
		return "not a refusal (no refused member): " + r.Observed()
	}
	f := r.Refusal
	switch {
	case f.Malformed != "":
		return f.Malformed
	case !f.Refused:
		return "refused is not true"
	case f.Reason != "out_of_scope":
		return fmt.Sprintf("reason %q, want \"out_of_scope\"", f.Reason)
	case f.Detail == nil:
		return "detail is absent"
	}
	if extra := Outside(f.Keys, RefusalMembers); len(extra) > 0 {
		return fmt.Sprintf("extra members %q beside refused, reason, detail, declared_skills", extra)
	}
	if why := SameSkillSet(f.DeclaredSkills, skills); why != "" {
		return "declared_skills " + why
	}
	return ""
}

// SameSkillSet reports "" when got holds exactly the ids of want, each once.
func SameSkillSet(got, want []string) string {
	seen := map[string]int{}
	for _, s := range got {
		seen[s]++
	}
	for s, n := range seen {
		if n > 1 {
			return fmt.Sprintf("lists %q %d times", s, n)
		}
	}
	w := map[string]bool{}
	for _, s := range want {
		w[s] = true
		if seen[s] == 0 {
			return fmt.Sprintf("%q lacks the declared skill %q (card skills %q)", got, s, want)
		}
	}
	for _, s := range got {
		if !w[s] {
			return fmt.Sprintf("%q names %q, which the card does not declare (card skills %q)", got, s, want)
		}
	}
	return ""
}

// Outside reports the members of keys not in allowed.
func Outside(keys, allowed []string) []string {
	var out []string
	for _, k := range keys {
		ok := false
		for _, a := range allowed {
			ok = ok || k == a
		}
		if !ok {
			out = append(out, k)
		}
	}
	return out
}

// SkillIDs are the card's skills[].id in card order.
func SkillIDs(card *a2a.AgentCard) []string {
	out := make([]string, 0, len(card.Skills))
	for _, s := range card.Skills {
		out = append(out, s.ID)
	}
	return out
}

func ivSortedMembers(m map[string]json.RawMessage) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func ivClipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
