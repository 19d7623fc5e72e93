package onrequest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/target"
	vonrequest "github.com/extconf/extconf/harness/verify/onrequest"
)

// Roles this suite reads from the target.
const (
	roleMain       = "on-request"
	roleUnattested = "on-request.unattested" // an agent whose operator holds no current level-2 attestation
	roleUnstaffed  = "on-request.unstaffed"  // an agent where nobody can be reached
	roleOperator   = "on-request.operator"   // the operator statement (README: "Operator statement")
)

// defaultActingFor is the harness's convention for OR-5.5 when the target configuration names none.
var defaultActingFor = json.RawMessage(`{"onRequest":{"actingFor":{"name":"<person>"}}}`)

// defaultStaffRequest asks for a member of staff where the card has no escalation skill to take an example from.
const defaultStaffRequest = "Can I speak to a member of staff?"

// agentView is one agent as the suite sees it: its card and its declaration.
type agentView struct {
	role string
	card *a2a.AgentCard
	raw  []byte
	ex   *a2a.Exchange
	decl *vonrequest.Declaration
}

// loadAgent fetches the card of role and reads the declaration. A card that declares neither the URI nor a near
// miss of it makes the spec inapplicable.
func (s *suite) loadAgent(w *harness.W, role, row string) *agentView {
	card, raw, ex := w.Card(role)
	decl, err := vonrequest.FindDeclaration(raw)
	if err != nil {
		w.Failf(ex, "the agent card is a JSON object", "%v", err)
	}
	if decl == nil {
		w.Inapplicable(fmt.Sprintf("the card of role %s (%s) does not declare %s", role, ex.Summary(), vonrequest.URI))
	}
	return &agentView{role: role, card: card, raw: raw, ex: ex, decl: decl}
}

// entries returns the declaration's entries; when none can be read the spec is blocked (OR-3.2a grades why).
func (a *agentView) entries(w *harness.W) []vonrequest.Entry {
	if len(a.decl.Entries) == 0 {
		why := a.decl.EntriesProblem
		if why == "" {
			why = "params.skills is empty"
		}
		w.Blocked(fmt.Sprintf("no on-request skill can be read from the card of role %s: %s (graded by OR-3.2a)", a.role, why))
	}
	return a.decl.Entries
}

// skillEntries returns the entries that name a skill of the card, filtered by keep.
func (a *agentView) skillEntries(w *harness.W, keep func(vonrequest.Entry) bool) []vonrequest.Entry {
	var out []vonrequest.Entry
	seen := map[string]bool{}
	for _, e := range a.entries(w) {
		if _, ok := a.card.Skill(e.ID); !ok || seen[e.ID] {
			continue // a dangling or repeated id is graded by OR-3.3b / OR-3.2b
		}
		seen[e.ID] = true
		if keep(e) {
			out = append(out, e)
		}
	}
	return out
}

// publicSkill returns a skill that is neither listed nor signed-in, with a request text: the positive control's.
func (s *suite) publicSkill(a *agentView) (string, bool) {
	for _, sk := range a.card.Skills {
		if _, listed := a.decl.Entry(sk.ID); listed || len(sk.SecurityRequirements) > 0 {
			continue
		}
		if _, ok := s.requestText(a, sk.ID); ok {
			return sk.ID, true
		}
	}
	return "", false
}

// requestText is how the harness asks for a skill: the configured text, else the skill's first example.
func (s *suite) requestText(a *agentView, skillID string) (string, bool) {
	if t := s.e.Target.Config.Requests[skillID]; len(t) > 0 && t[0] != "" {
		return t[0], true
	}
	if sk, ok := a.card.Skill(skillID); ok && len(sk.Examples) > 0 && sk.Examples[0] != "" {
		return sk.Examples[0], true
	}
	return "", false
}

func (s *suite) mustRequestText(w *harness.W, a *agentView, skillID string) string {
	t, ok := s.requestText(a, skillID)
	if !ok {
		w.Blocked(fmt.Sprintf("no request text for skill %q of role %s: the card gives no examples; set requests.%s in the target configuration", skillID, a.role, skillID))
	}
	return t
}

// probe is one question put to an agent.
type probe struct {
	skill      string // the skill asked for (request text from config or examples)
	text       string // the request text; empty: the skill's
	prefix     string // words before the request text (context about the caller)
	suffix     string // words after it
	activated  bool   // list the URI in A2A-Extensions
	person     bool   // speak as an assistant acting for a named person (a fresh name per probe)
	personName string // the person's name when it must stay the same across probes
	principal  string // the calling assistant's credential (target config principal), "" for none
	first      bool   // only the first binding variant (for requests whose repetitions count)
}

// outcome is one variant's answer.
type outcome struct {
	variant string
	ex      *a2a.Exchange
	err     string // transport, decoding, JSON-RPC or HTTP error; "" when a result came
	reply   vonrequest.Reply
	person  string
	mode    string
}

func (o outcome) String() string {
	if o.err != "" {
		return fmt.Sprintf("%s (%s): error: %s", o.variant, o.mode, o.err)
	}
	return fmt.Sprintf("%s (%s): %s", o.variant, o.mode, o.reply.Describe())
}

var personSeq atomic.Int64

// send puts p to the agent over every binding variant the card declares and the harness speaks: JSON-RPC
// SendMessage, JSON-RPC SendStreamingMessage (when capabilities.streaming), HTTP+JSON message:send.
func (s *suite) send(w *harness.W, row string, a *agentView, p probe) []outcome {
	text := p.text
	if text == "" {
		text = s.mustRequestText(w, a, p.skill)
	}
	text = strings.TrimSpace(p.prefix + " " + text + " " + p.suffix)
	rpc, hasRPC := a.card.Interface(a2a.BindingJSONRPC)
	rest, hasREST := a.card.Interface(a2a.BindingHTTPJSON)
	if !hasRPC && !hasREST {
		w.Blocked(fmt.Sprintf("the card of role %s declares no JSONRPC or HTTP+JSON interface, the bindings the harness speaks", a.role))
	}
	type variant struct {
		name  string
		iface a2a.AgentInterface
	}
	var vs []variant
	if hasRPC {
		vs = append(vs, variant{"JSON-RPC SendMessage", rpc})
		if a.card.Capabilities.Streaming {
			vs = append(vs, variant{"JSON-RPC SendStreamingMessage", rpc})
		}
	}
	if hasREST {
		vs = append(vs, variant{"HTTP+JSON message:send", rest})
	}
	if p.first {
		vs = vs[:1]
	}
	var out []outcome
	for _, v := range vs {
		o := outcome{variant: v.name, mode: modeOf(p)}
		call := a2a.Call{Header: http.Header{}}
		if p.activated {
			call.Extensions = []string{vonrequest.URI}
		}
		if p.principal != "" {
			pr := s.e.Target.Config.Principals[p.principal]
			call.Header.Set(pr.Header, pr.Value)
		}
		var md json.RawMessage
		if p.person {
			o.person = p.personName
			if o.person == "" {
				o.person = fmt.Sprintf("Alex Example %d", personSeq.Add(1))
			}
			af := s.actingFor(w)
			md = substitutePerson(af.Metadata, o.person)
			if af.Header != "" {
				call.Header.Set(af.Header, strings.ReplaceAll(af.Value, "<person>", o.person))
			}
			o.mode += " for " + o.person
		}
		call.Note = fmt.Sprintf("%s: %s, %s, %s", row, p.skill, o.mode, v.name)
		msg := a2a.Message{MessageID: newMessageID(), Role: a2a.RoleUser, Parts: []a2a.Part{a2a.TextPart(text)}}
		req := a2a.SendMessageRequest{Message: msg, Metadata: md, Tenant: v.iface.Tenant}
		ctx := w.Ctx()
		switch v.name {
		case "JSON-RPC SendMessage":
			res, resp, ex, err := s.e.Client.SendMessage(ctx, v.iface.URL, req, call)
			o.ex = ex
			switch {
			case err != nil:
				o.err = err.Error()
			case resp != nil && resp.Error != nil:
				o.err = fmt.Sprintf("JSON-RPC error %d: %s", resp.Error.Code, resp.Error.Message)
			default:
				o.reply = vonrequest.ReplyFromResult(res)
			}
		case "JSON-RPC SendStreamingMessage":
			events, resps, ex, err := s.e.Client.SendStreamingMessage(ctx, v.iface.URL, req, call)
			o.ex = ex
			for _, r := range resps {
				if r.Error != nil && o.err == "" {
					o.err = fmt.Sprintf("JSON-RPC error %d on the stream: %s", r.Error.Code, r.Error.Message)
				}
			}
			if err != nil && o.err == "" {
				o.err = err.Error()
			}
			if o.err == "" {
				o.reply = vonrequest.ReplyFromStream(events)
			}
		default:
			path := "/message:send"
			if v.iface.Tenant != "" {
				path = "/" + url.PathEscape(v.iface.Tenant) + path
			}
			req.Tenant = ""
			ex, err := s.e.Client.REST(ctx, http.MethodPost, v.iface.URL, path, req, call)
			o.ex = ex
			var res a2a.SendResult
			switch {
			case err != nil:
				o.err = err.Error()
			case ex.Status >= 300:
				o.err = fmt.Sprintf("HTTP %d: %s", ex.Status, clip(string(ex.ResponseBody), 200))
			default:
				if derr := a2a.DecodeStrict(ex.ResponseBody, &res); derr != nil {
					o.err = "the HTTP+JSON response is not a SendMessageResponse: " + derr.Error()
				} else {
					o.reply = vonrequest.ReplyFromResult(&res)
				}
			}
		}
		if o.err == "" && o.reply.Message == nil && o.reply.Task == nil {
			o.err = "the result holds neither a message nor a task"
		}
		out = append(out, o)
	}
	return out
}

func modeOf(p probe) string {
	var parts []string
	if p.activated {
		parts = append(parts, "activated")
	} else {
		parts = append(parts, "not activated")
	}
	if p.principal != "" {
		parts = append(parts, "as "+p.principal)
	}
	if !p.person {
		parts = append(parts, "acting for nobody")
	}
	return strings.Join(parts, ", ")
}

// actingFor returns how the harness asserts it acts for a named person (OR-5.5): the target configuration's
// actingFor, or the default convention against the reference mocks. A target that says nothing blocks the spec.
func (s *suite) actingFor(w *harness.W) target.ActingFor {
	af := s.e.Target.Config.ActingFor
	if af == nil {
		if s.e.Target.Kind != target.KindMock {
			w.Blocked(`how an assistant shows that it acts for a named person is not configured (OR-5.5 and §9 item 1 leave it undefined): set "actingFor" in the target configuration, e.g. {"metadata": {"onRequest": {"actingFor": {"name": "<person>"}}}} (the default convention: SendMessage params.metadata, with the extension activated; "<person>" is replaced by the person's name)`)
		}
		return target.ActingFor{Metadata: defaultActingFor}
	}
	out := *af
	if len(out.Metadata) == 0 && out.Header == "" {
		out.Metadata = defaultActingFor
	}
	return out
}

// substitutePerson replaces "<person>" inside the metadata's strings with the person's name.
func substitutePerson(md json.RawMessage, person string) json.RawMessage {
	if len(md) == 0 {
		return nil
	}
	name, _ := json.Marshal(person)
	return bytes.ReplaceAll(md, []byte("<person>"), bytes.Trim(name, `"`))
}

var msgSeq atomic.Int64

func newMessageID() string { return fmt.Sprintf("extconf-or-%d", msgSeq.Add(1)) }

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// --- reading outcomes ---

// reachedSkill reports whether the answer is about skillID: for an activated client the object names it (any
// status, anywhere §6.2 puts it); otherwise the text gives the entry's address or the reply carries a result.
// It is the positive control before a refusal is graded: an answer about something else never passes a row.
func reachedSkill(o outcome, e vonrequest.Entry) (bool, string) {
	if o.err != "" {
		return false, o.String()
	}
	if obj := o.reply.Object(); obj != nil && obj.SkillID == e.ID {
		return true, ""
	}
	for _, obj := range o.reply.ArtifactObjects() {
		if obj.SkillID == e.ID {
			return true, ""
		}
	}
	if vonrequest.TextGivesAddress(o.reply.AllText(), e.PersonEntry) || saysOnRequest(o) {
		return true, ""
	}
	return false, o.String()
}

// saysOnRequest reports a text that refers the person in the document's terms (the operator gives it to the
// person who asks), with no result attached: a referral in words even when the address is missing.
func saysOnRequest(o outcome) bool {
	return len(o.reply.Artifacts()) == 0 && vonrequest.MatchAny(vonrequest.DefaultPhrases.OperatorGives, o.reply.Text()) != ""
}

// isReferral reports whether the answer refers the person elsewhere: a referral object (activated) or, in words,
// the entry's address with no result attached.
func isReferral(o outcome, e vonrequest.Entry) bool {
	if o.err != "" {
		return false
	}
	if obj := o.reply.Object(); obj != nil && (obj.Status == vonrequest.StatusOnRequest || obj.Status == vonrequest.StatusActionReferred) {
		return true
	}
	return len(o.reply.Artifacts()) == 0 && (vonrequest.TextGivesAddress(o.reply.Text(), e.PersonEntry) || saysOnRequest(o))
}

// carriedOut reports whether an action request was carried out or accepted: answered, not referred, not
// rejected.
func carriedOut(o outcome, e vonrequest.Entry) bool {
	return o.err == "" && !isReferral(o, e) && o.reply.State() != a2a.StateRejected && o.reply.State() != a2a.StateFailed
}

// valuesIn returns the configured values found anywhere in the response bytes (text, data, metadata).
func valuesIn(o outcome, values []string) []string {
	if o.ex == nil {
		return nil
	}
	body := string(o.ex.ResponseBody)
	// JSON escapes (\u00a0, …) do not hide a value from the folded comparison, which drops non-alphanumerics.
	var found []string
	for _, v := range values {
		if vonrequest.ContainsValue(body, v) {
			found = append(found, v)
		}
	}
	return found
}
