package onrequest

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/target"
	vonrequest "github.com/extconf/extconf/refclients/onrequest"
)

// Roles this suite reads from the target.
const (
	roleMain       = "on-request"
	roleUnattested = "on-request.unattested" // an agent whose operator holds no current level-2 attestation
	roleUnstaffed  = "on-request.unstaffed"  // an agent where nobody can be reached
	roleOperator   = "on-request.operator"   // the operator statement (README: "Operator statement")
)

// defaultActingFor is the harness's convention for OR-5.5 when the target configuration names none: the user
// Message's metadata keyed by the extension URI, where A2A carries per-message extension data (and where this
// document puts its own reply object).
var defaultActingFor = json.RawMessage(`{"` + vonrequest.URI + `":{"actingFor":{"name":"<person>"}}}`)

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
	var problems []string
	for _, e := range a.entries(w) {
		if len(e.TypeProblems) > 0 {
			problems = append(problems, fmt.Sprintf("entry %s: %s", e.ID, strings.Join(e.TypeProblems, "; ")))
		}
	}
	if len(problems) > 0 {
		w.Blocked(fmt.Sprintf("params.skills cannot be read as the document defines it (%s): whether the operator opted in, or how an action completes, is not guessed",
			strings.Join(problems, "; ")))
	}
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
	lx      *lexicon
	// values are the operator's stated values for the skill asked; stated says the statement has a values member
	// (without one the default values are the amounts of money in the reply).
	values []string
	stated bool
}

// lexicon is how reply text is read in this run: the wording patterns (defaults, extended by the operator
// statement's phrases) and the operator's country calling code for national phone numbers.
type lexicon struct {
	ph vonrequest.Phrases
	cc string
}

func (o outcome) ph() vonrequest.Phrases {
	if o.lx == nil {
		return vonrequest.DefaultPhrases
	}
	return o.lx.ph
}

// gives reports whether text gives the personEntry (normalised URL, or the number in global or national form).
func (o outcome) gives(text, pe string) bool {
	cc := ""
	if o.lx != nil {
		cc = o.lx.cc
	}
	return vonrequest.TextGivesAddressIn(text, pe, cc)
}

// leaks returns the values given on request found in the reply: the operator's stated values for the skill, or,
// when the statement states no values, the amounts of money in the reply's text (what is given on request is
// mostly prices; OR-3.9 reads the amounts the agent gives on opt-in the same way).
func (o outcome) leaks() []string {
	if o.err != "" {
		return nil
	}
	if o.stated {
		return valuesIn(o, o.values)
	}
	return vonrequest.MoneyAmounts(o.reply.AllText())
}

// unclearValue returns the sentence holding one of the skill's stated amounts written without its currency in a
// sentence about cost ("it costs 1,950"): neither a leak nor clearly none, so the row blocks quoting it.
func (o outcome) unclearValue() string {
	if o.err != "" || !o.stated {
		return ""
	}
	text := o.reply.AllText()
	for _, v := range o.values {
		if _, amb := vonrequest.MatchValue(text, v); amb != "" {
			return amb
		}
	}
	return ""
}

// lexicon returns the run's lexicon, reading the operator statement once.
func (s *suite) lexicon(w *harness.W, row string) *lexicon {
	s.mu.Lock()
	lx := s.lx
	s.mu.Unlock()
	if lx != nil {
		return lx
	}
	lx = &lexicon{ph: vonrequest.DefaultPhrases}
	if st := s.loadStatement(w, row); st != nil {
		ph, err := vonrequest.DefaultPhrases.Extend(st.Phrases)
		if err != nil {
			w.Blocked("the operator statement's phrases do not compile: " + err.Error())
		}
		lx.ph, lx.cc = ph, st.CountryCode
	}
	s.mu.Lock()
	s.lx = lx
	s.mu.Unlock()
	return lx
}

func (o outcome) String() string {
	if o.err != "" {
		return fmt.Sprintf("%s (%s): error: %s", o.variant, o.mode, o.err)
	}
	return fmt.Sprintf("%s (%s): %s", o.variant, o.mode, o.reply.Describe())
}

var personSeq atomic.Int64

// personTag sets this process's people apart from another run's: an agent's action log outlives a run, and a
// log entry is matched to a probe by the person's name where it carries no task id.
var personTag = func() string {
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	const letters = "ABCDEFGHJKLMNPQRSTUVWXYZ"
	for i := range b {
		b[i] = letters[int(b[i])%len(letters)]
	}
	return string(b)
}()

// newPerson names a person no earlier probe, of this run or another, has named.
func newPerson() string { return fmt.Sprintf("Alex Example %s%d", personTag, personSeq.Add(1)) }

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
	lx := s.lexicon(w, row)
	var values []string
	stated := false
	// Stated per skill: a skill the statement gives values for is read with them (an empty list: none), any other
	// with the amounts of money in the reply, so that values stated for one skill never switch the money check off
	// for another.
	if st := s.loadStatement(w, row); st != nil && st.Values != nil {
		values, stated = st.Values[p.skill]
	}
	var out []outcome
	for _, v := range vs {
		o := outcome{variant: v.name, mode: modeOf(p), lx: lx, values: values, stated: stated}
		call := a2a.Call{Header: http.Header{}}
		if p.activated {
			call.Extensions = []string{vonrequest.URI}
		}
		var md, msgMD json.RawMessage
		principal := p.principal
		if p.person {
			o.person = p.personName
			if o.person == "" {
				o.person = newPerson()
			}
			af := s.actingFor(w)
			md = substitutePerson(af.Metadata, o.person)
			msgMD = substitutePerson(af.Message, o.person)
			if af.Header != "" {
				call.Header.Set(af.Header, strings.ReplaceAll(af.Value, "<person>", o.person))
			}
			if af.Credential && principal == "" {
				principal = af.Principal
				if principal == "" {
					w.Blocked(`actingFor.credential is set but the probe names no calling assistant and actingFor.principal is empty: name the principal whose credential asserts the person`)
				}
			}
			o.mode += " for " + o.person
		}
		if principal != "" {
			pr, ok := s.e.Target.Config.Principals[principal]
			if !ok || pr.Header == "" {
				w.Blocked(fmt.Sprintf("no credential for principal %q in the target configuration's principals", principal))
			}
			value := pr.Value
			if p.person {
				value = strings.ReplaceAll(value, "<person>", o.person)
			} else if strings.Contains(value, "<person>") {
				value = "" // a per-person credential is not sent by a client acting for nobody
			}
			if value != "" {
				call.Header.Set(pr.Header, value)
			}
		}
		call.Note = fmt.Sprintf("%s: %s, %s, %s", row, p.skill, o.mode, v.name)
		msg := a2a.Message{MessageID: newMessageID(), Role: a2a.RoleUser, Parts: []a2a.Part{a2a.TextPart(text)}, Metadata: msgMD}
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
		if p.person && o.err == "" && o.reply.State() != a2a.StateRejected && o.reply.State() != a2a.StateFailed {
			s.countRequest(p.skill)
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
			w.Need("actingFor", false, `how an assistant shows that it acts for a named person is not configured (OR-5.5 and §9 item 1 leave it undefined): set "actingFor" in the target configuration: {} for the default (Message.metadata[`+vonrequest.URI+`] = {"actingFor": {"name": "<person>"}}, with the extension activated), or any of "message", "metadata" (SendMessage params.metadata), "header"/"value", "credential"/"principal", each a template where "<person>" is replaced by the person's name`)
		}
		return target.ActingFor{Message: defaultActingFor}
	}
	out := *af
	if len(out.Metadata) == 0 && len(out.Message) == 0 && out.Header == "" && !out.Credential {
		out.Message = defaultActingFor
	}
	return out
}

// substitutePerson replaces "<person>" inside the metadata's strings with the person's name.
func substitutePerson(md json.RawMessage, person string) json.RawMessage {
	if len(md) == 0 {
		return nil
	}
	// On the decoded value: the template may spell "<person>" with JSON escapes ("\u003cperson\u003e", as Go's
	// encoder writes it), and it is the same string.
	dec := json.NewDecoder(bytes.NewReader(md))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return md // CheckConfig has decoded it before; never reached
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(replacePerson(v, person)); err != nil {
		return md
	}
	return bytes.TrimSpace(b.Bytes())
}

// replacePerson replaces "<person>" in every string of v, member names included.
func replacePerson(v any, person string) any {
	switch x := v.(type) {
	case string:
		return strings.ReplaceAll(x, "<person>", person)
	case []any:
		for i := range x {
			x[i] = replacePerson(x[i], person)
		}
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[strings.ReplaceAll(k, "<person>", person)] = replacePerson(e, person)
		}
		return out
	}
	return v
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
