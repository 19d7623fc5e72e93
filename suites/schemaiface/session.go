package schemaiface

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	gosync "sync"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/verify/skiface"
)

// Role is the target role whose agent the suite examines.
const Role = "schema-interface"

// URI is the schema-interface extension.
const URI = skiface.ExtensionURI

// sess is one spec's view of the target: its card, the extension advertisement, the profile, and how to send.
type sess struct {
	w       *harness.W
	e       *harness.Env
	card    *a2a.AgentCard
	cardRaw []byte
	cardEx  *a2a.Exchange
	params  map[string]any // the extension's params, decoded loosely (numbers exact)
	entries []entry        // params.skills[] (or the values of a params.skills object)
	rpc     *a2a.AgentInterface
	rest    *a2a.AgentInterface
	prof    *Profile
	dv      *Derivation // what the run derived by probing (nil: nothing could be)
}

// entry is one params.skills[] binding as advertised (members missing read as "").
type entry struct {
	SkillID, SkillVersion, Digest string
	has                           map[string]bool
}

// open fetches (once per run) the card of the schema-interface role; a failed fetch fails row.
func open(w *harness.W, row string) *sess {
	card, raw, ex := w.Card(Role)
	s := &sess{w: w, e: w.Env(), card: card, cardRaw: raw, cardEx: ex}
	if card == nil {
		w.Failf(ex, "the agent card can be fetched", "no card")
	}
	if i, ok := card.Interface(a2a.BindingJSONRPC); ok {
		s.rpc = &i
	}
	if i, ok := card.Interface(a2a.BindingHTTPJSON); ok {
		s.rest = &i
	}
	if x, ok := card.Extension(URI); ok && len(x.Params) > 0 {
		s.params, _ = decodeTree(x.Params).(map[string]any)
	}
	s.entries = entriesOf(s.params)
	p, err := parseProfile(s.e.Target.Config.Requests)
	if err != nil {
		w.Blocked(err.Error())
	}
	s.prof = p
	s.dv = s.derivation()
	s.dv.Apply(s.prof)
	return s
}

// derivedKey keys the run's *derivedOnce in harness.Env.RunState.
type derivedKey struct{}

type derivedOnce struct {
	once gosync.Once
	d    *Derivation
}

// derivation is what the run derives by probing the agent (once per run, in the first spec that opens the
// session): the members the operator's profile leaves out that the agent's answers show (derive.go).
func (s *sess) derivation() *Derivation {
	dv := s.e.RunState(derivedKey{}, func() any { return &derivedOnce{} }).(*derivedOnce)
	dv.once.Do(func() {
		sv := s.surveyData()
		if sv.block != "" {
			return
		}
		ag := &Agent{Ctx: s.w.Ctx(), Card: s.card, A: s.client("A"), Docs: map[string]map[string]any{}, Degraded: sv.degraded, Limits: limits(s.e)}
		if p, ok := s.e.Target.Config.PrincipalOf(docID, "B"); ok && p.Header != "" {
			ag.B = s.e.Client.WithHeader(p.Header, p.Value)
		}
		for sk, d := range sv.bySk {
			if d.tree != nil {
				ag.Docs[sk] = d.tree
			}
		}
		in, _ := s.e.Input(docID).(*Input)
		absent := func(m string) bool {
			if in == nil {
				return false
			}
			_, ok := in.Declared(m)
			return ok
		}
		dv.d = Derive(ag, s.prof, s.arguments, absent)
	})
	return dv.d
}

// note records in the row's detail that the spec uses a derived member (nothing when the operator gave it).
func (s *sess) note(members ...string) {
	for _, m := range members {
		if n := s.dv.notes(m); n != "" {
			s.w.Note(n)
		}
	}
}

func entriesOf(params map[string]any) []entry {
	var raw []any
	switch x := params["skills"].(type) {
	case []any:
		raw = x
	case map[string]any:
		for _, k := range sortedKeys(x) {
			raw = append(raw, x[k])
		}
	}
	var out []entry
	for _, r := range raw {
		m, _ := r.(map[string]any)
		e := entry{has: map[string]bool{}}
		for k := range m {
			e.has[k] = true
		}
		e.SkillID, _ = m["skill_id"].(string)
		e.SkillVersion, _ = m["skill_version"].(string)
		e.Digest, _ = m["interface_digest"].(string)
		out = append(out, e)
	}
	return out
}

// entry returns the advertised binding of a skill.
func (s *sess) entry(skill string) (entry, bool) {
	for _, e := range s.entries {
		if e.SkillID == skill {
			return e, true
		}
	}
	return entry{}, false
}

// client returns the client speaking as principal name ("A", "B"); without configured principals, "A" is the
// anonymous harness client (an agent that needs no credential) and other names block the spec.
func (s *sess) client(name string) *a2a.Client {
	p, ok := s.e.Target.Config.PrincipalOf(docID, name)
	if !ok || p.Header == "" {
		if name == "A" {
			return s.e.Client
		}
		s.w.Blocked(fmt.Sprintf("no credential for principal %s (name a credential in documents.schema-interface.principals.%s: a principal that authenticates but holds fewer grants than A)", name, name))
	}
	return s.e.Client.WithHeader(p.Header, p.Value)
}

// principal returns principal name's credential, blocking when it is not configured.
func (s *sess) principal(name string) (header, value string) {
	p, ok := s.e.Target.Config.PrincipalOf(docID, name)
	if !ok || p.Header == "" || p.Value == "" {
		s.w.Blocked(fmt.Sprintf("no credential for principal %s (name a credential in documents.schema-interface.principals.%s)", name, name))
	}
	return p.Header, p.Value
}

// answer is one request's outcome, whatever the binding or delivery mode.
type answer struct {
	ex      *a2a.Exchange
	err     error           // transport, limit or decoding trouble
	task    *a2a.Task       // the (assembled) task
	msg     *a2a.Message    // a message result
	bindErr json.RawMessage // the binding's error object (JSON-RPC error / google.rpc.Status error member)
	events  []a2a.StreamEvent
}

// Delivery modes.
const (
	modeSync   = "SendMessage"
	modeStream = "SendStreamingMessage"
)

func newID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "extconf-" + hex.EncodeToString(b[:])
}

// message is a user Message carrying one Data Part, with the extension listed.
func message(data any) a2a.Message {
	return a2a.Message{MessageID: newID(), Role: a2a.RoleUser, Parts: []a2a.Part{a2a.DataPart(data)}, Extensions: []string{URI}}
}

func describeReq(skill string) map[string]any {
	return map[string]any{"skill": skiface.DescribeSkill, "arguments": map[string]any{"skill_id": skill}}
}

func invokeReq(skill, version, digest string, args json.RawMessage) map[string]any {
	if args == nil {
		args = json.RawMessage("{}")
	}
	return map[string]any{"skill": skill, "skill_version": version, "interface_digest": digest, "arguments": args}
}

// send sends m over JSON-RPC (rest=false) or HTTP+JSON, synchronously or streamed, activating the extension.
// An agent that refuses unauthenticated callers when no credential is configured blocks the spec.
func (s *sess) send(cl *a2a.Client, rest bool, mode string, m a2a.Message, note string) *answer {
	an := s.send1(cl, rest, mode, m, note)
	if r := s.unauthenticated(an); r != "" {
		s.w.Blocked(r)
	}
	return an
}

// unauthenticated says why a spec is blocked when the agent refuses a caller the configuration gave no credential.
func (s *sess) unauthenticated(an *answer) string {
	if an.ex == nil || an.ex.Status != http.StatusUnauthorized {
		return ""
	}
	if p, ok := s.e.Target.Config.PrincipalOf(docID, "A"); ok && p.Header != "" {
		return ""
	}
	return "the agent refuses unauthenticated requests (HTTP 401, " + an.ex.ID + "): name a credential in documents.schema-interface.principals.A"
}

func (s *sess) send1(cl *a2a.Client, rest bool, mode string, m a2a.Message, note string) *answer {
	if want := s.deliverable(skillOf(m), mode); want != mode {
		mode, note = want, note+" (as "+want+": "+mode+" not offered)"
	}
	an, why := post(s.w.Ctx(), cl, s.rpc, s.rest, rest, mode, m, note)
	if why != "" {
		s.w.Inapplicable(why)
	}
	return an
}

// post sends m over JSON-RPC (rest=false, when the card declares it) or HTTP+JSON, synchronously or streamed,
// activating the extension. why is set when the card declares no interface to send it over.
func post(ctx context.Context, cl *a2a.Client, rpc, restIf *a2a.AgentInterface, rest bool, mode string, m a2a.Message, note string) (_ *answer, why string) {
	if !rest && rpc == nil && restIf != nil {
		rest = true // an agent serving HTTP+JSON only
	}
	call := a2a.Call{Extensions: []string{URI}, Note: note}
	if rest {
		if restIf == nil {
			return &answer{err: errors.New("no HTTP+JSON interface")}, "the card declares no HTTP+JSON interface"
		}
		path := "/message:send"
		if mode == modeStream {
			path = "/message:stream"
		}
		if restIf.Tenant != "" {
			path = "/" + url.PathEscape(restIf.Tenant) + path
		}
		ex, err := cl.REST(ctx, http.MethodPost, restIf.URL, path, a2a.SendMessageRequest{Message: m}, call)
		an := &answer{ex: ex, err: err}
		if err != nil {
			return an, ""
		}
		if ex.Status != http.StatusOK {
			var st struct {
				Error json.RawMessage `json:"error"`
			}
			if json.Unmarshal(ex.ResponseBody, &st) == nil && len(st.Error) > 0 {
				an.bindErr = st.Error
			} else {
				an.err = fmt.Errorf("HTTP %d without a google.rpc.Status body", ex.Status)
			}
			return an, ""
		}
		if mode == modeStream {
			for i, ev := range ex.Events {
				var e a2a.StreamEvent
				if err := json.Unmarshal(ev, &e); err != nil {
					an.err = fmt.Errorf("SSE event %d: %w", i+1, err)
					return an, ""
				}
				an.events = append(an.events, e)
			}
			an.task, an.msg = assembleStream(an.events)
			return an, ""
		}
		var res a2a.SendResult
		if err := json.Unmarshal(ex.ResponseBody, &res); err != nil {
			an.err = fmt.Errorf("message:send result: %w", err)
		}
		an.task, an.msg = res.Task, res.Message
		return an, ""
	}
	if rpc == nil {
		return &answer{err: errors.New("no interface")}, "the card declares neither a JSON-RPC nor an HTTP+JSON interface"
	}
	req := a2a.SendMessageRequest{Message: m, Tenant: rpc.Tenant}
	if mode == modeStream {
		evs, resps, ex, err := cl.SendStreamingMessage(ctx, rpc.URL, req, call)
		an := &answer{ex: ex, err: err, events: evs}
		for _, r := range resps {
			if r.Error != nil {
				an.bindErr, _ = json.Marshal(r.Error)
				return an, ""
			}
		}
		an.task, an.msg = assembleStream(evs)
		return an, ""
	}
	res, resp, ex, err := cl.SendMessage(ctx, rpc.URL, req, call)
	an := &answer{ex: ex, err: err}
	if resp != nil && resp.Error != nil {
		an.bindErr, _ = json.Marshal(resp.Error)
		an.err = nil
	}
	if res != nil {
		an.task, an.msg = res.Task, res.Message
	}
	return an, ""
}

// skillOf is the skill a request object names ("" when m carries none).
func skillOf(m a2a.Message) string {
	if len(m.Parts) != 1 || len(m.Parts[0].Data) == 0 {
		return ""
	}
	var r struct {
		Skill string `json:"skill"`
	}
	_ = json.Unmarshal(m.Parts[0].Data, &r)
	return r.Skill
}

// cardStreams reports whether the card offers streaming (AgentCapabilities.streaming).
func (s *sess) cardStreams() bool { return s.card != nil && s.card.Capabilities.Streaming }

// responseModes returns interaction.supported_response_modes of skill's surveyed document (nil when the skill is
// describe_skill, unsurveyed, or the document declares none).
func (s *sess) responseModes(skill string) []string {
	if skill == "" || skill == skiface.DescribeSkill {
		return nil
	}
	if _, ok := s.entry(skill); !ok || s.faulty(skill) {
		return nil
	}
	d := s.survey().bySk[skill]
	if d == nil || d.tree == nil {
		return nil
	}
	in, _ := d.tree["interaction"].(map[string]any)
	list, _ := in["supported_response_modes"].([]any)
	var out []string
	for _, v := range list {
		if m, ok := v.(string); ok {
			out = append(out, m)
		}
	}
	return out
}

// canStream reports whether skill may be asked over SendStreamingMessage: the card offers streaming and the
// skill's document, when it lists response modes, lists stream. "The client MUST invoke the A2A Send Message or
// Send Streaming Message operation" offers both operations; the suite never requires the one the agent does not
// offer.
func (s *sess) canStream(skill string) bool {
	if !s.cardStreams() {
		return false
	}
	ms := s.responseModes(skill)
	return ms == nil || contains(ms, "stream")
}

// deliverable maps a requested delivery mode to one the agent offers for skill: streaming falls back to
// SendMessage when it is not offered; SendMessage goes streamed only when the document lists stream and not sync.
func (s *sess) deliverable(skill, mode string) string {
	switch mode {
	case modeStream:
		if !s.canStream(skill) {
			return modeSync
		}
	case modeSync:
		if ms := s.responseModes(skill); ms != nil && !contains(ms, "sync") && contains(ms, "stream") && s.cardStreams() {
			return modeStream
		}
	}
	return mode
}

// modes is the delivery modes the suite uses for skill: SendMessage, and SendStreamingMessage when offered.
func (s *sess) modes(skill string) []string {
	if s.canStream(skill) {
		return []string{modeSync, modeStream}
	}
	return []string{s.deliverable(skill, modeSync)}
}

// httpRefusal reports whether the binding refused the request with HTTP 401 or 403 (RFC 7235 / RFC 9110), with or
// without a JSON body: the binding's own error mechanism for authentication and authorization failures.
func (an *answer) httpRefusal() bool {
	return an.ex != nil && (an.ex.Status == http.StatusUnauthorized || an.ex.Status == http.StatusForbidden)
}

// getTask retrieves a task over the binding.
func (s *sess) getTask(cl *a2a.Client, rest bool, id, note string) *answer {
	if !rest && s.rpc == nil && s.rest != nil {
		rest = true
	}
	call := a2a.Call{Extensions: []string{URI}, Note: note}
	if rest {
		if s.rest == nil {
			s.w.Inapplicable("the card declares no HTTP+JSON interface")
		}
		path := "/tasks/" + url.PathEscape(id)
		if s.rest.Tenant != "" {
			path = "/" + url.PathEscape(s.rest.Tenant) + path
		}
		ex, err := cl.REST(s.w.Ctx(), http.MethodGet, s.rest.URL, path, nil, call)
		an := &answer{ex: ex, err: err}
		if err == nil {
			var t a2a.Task
			if ex.Status != http.StatusOK {
				an.err = fmt.Errorf("GET tasks/%s: HTTP %d", id, ex.Status)
			} else if err := json.Unmarshal(ex.ResponseBody, &t); err != nil {
				an.err = err
			} else {
				an.task = &t
			}
		}
		return an
	}
	if s.rpc == nil {
		s.w.Inapplicable("the card declares neither a JSON-RPC nor an HTTP+JSON interface")
	}
	t, resp, ex, err := cl.GetTask(s.w.Ctx(), s.rpc.URL, id, s.rpc.Tenant, call)
	an := &answer{ex: ex, err: err, task: t}
	if resp != nil && resp.Error != nil {
		an.bindErr, _ = json.Marshal(resp.Error)
	}
	return an
}

// assembleStream applies A2A's update semantics: the Task event starts the task; an artifact update with append
// adds its parts to the Artifact with the same artifactId, otherwise it replaces (or adds) that Artifact; a status
// update replaces the status.
func assembleStream(evs []a2a.StreamEvent) (*a2a.Task, *a2a.Message) {
	var t *a2a.Task
	for _, e := range evs {
		switch {
		case e.Message != nil:
			if t == nil {
				return nil, e.Message
			}
		case e.Task != nil:
			c := *e.Task
			c.Artifacts = append([]a2a.Artifact(nil), e.Task.Artifacts...)
			t = &c
		case e.ArtifactUpdate != nil && t != nil:
			u := e.ArtifactUpdate
			found := false
			for i := range t.Artifacts {
				if t.Artifacts[i].ArtifactID != u.Artifact.ArtifactID {
					continue
				}
				found = true
				if u.Append {
					t.Artifacts[i].Parts = append(append([]a2a.Part(nil), t.Artifacts[i].Parts...), u.Artifact.Parts...)
				} else {
					t.Artifacts[i] = u.Artifact
				}
			}
			if !found {
				t.Artifacts = append(t.Artifacts, u.Artifact)
			}
		case e.StatusUpdate != nil && t != nil:
			t.Status = e.StatusUpdate.Status
		}
	}
	return t, nil
}

func (an *answer) state() string {
	if an.task == nil {
		return ""
	}
	return an.task.Status.State
}

// describe says what came back, for failure messages.
func (an *answer) describe() string {
	switch {
	case an == nil:
		return "no answer"
	case an.err != nil && an.bindErr == nil && an.task == nil:
		return "no usable answer: " + an.err.Error()
	case an.bindErr != nil:
		return "binding error " + clip(string(an.bindErr), 300)
	case an.msg != nil:
		return "a Message result " + clip(string(mustJSON(an.msg)), 300)
	case an.task != nil:
		s := "Task in " + an.task.Status.State
		if c := an.code(); c != "" {
			s += " with condition " + c
		}
		return s
	}
	return "an empty answer"
}

// code reads the condition an answer carries, tolerantly: the error Data Part of a task's final status Message
// (or of a Message result), or an ErrorInfo reason / {"error":{"code"}} entry inside a binding error. The strict
// shape is graded by its own rows.
func (an *answer) code() string {
	if an == nil {
		return ""
	}
	var parts []a2a.Part
	switch {
	case an.task != nil && an.task.Status.Message != nil:
		parts = an.task.Status.Message.Parts
	case an.msg != nil:
		parts = an.msg.Parts
	}
	for _, p := range parts {
		if c := codeIn(decodeTree(p.Data)); c != "" {
			return c
		}
	}
	if an.bindErr != nil {
		return bindingCode(an.bindErr)
	}
	return ""
}

func codeIn(v any) string {
	m, _ := v.(map[string]any)
	if e, ok := m["error"].(map[string]any); ok {
		if c, ok := e["code"].(string); ok {
			return c
		}
	}
	if c, ok := m["code"].(string); ok {
		return c
	}
	return ""
}

// bindingCode finds a condition inside a binding error: error.data[] (JSON-RPC) or error.details[] (HTTP+JSON)
// holding an ErrorInfo whose reason is a condition name, or an {"error":{"code"}} object.
func bindingCode(raw json.RawMessage) string {
	m, _ := decodeTree(raw).(map[string]any)
	var list []any
	switch x := m["data"].(type) {
	case []any:
		list = x
	case map[string]any:
		list = []any{x}
	}
	if d, ok := m["details"].([]any); ok {
		list = append(list, d...)
	}
	for _, it := range list {
		o, _ := it.(map[string]any)
		if r, ok := o["reason"].(string); ok && isCodeFold(r) {
			// An ErrorInfo reason is conventionally UPPER_SNAKE_CASE; the draft fixes the code's spelling only in
			// the Task's error Data Part, so a binding error's reason is read case-insensitively.
			return strings.ToLower(r)
		}
		if c := codeIn(o); c != "" {
			return c
		}
	}
	return ""
}

func isCodeFold(s string) bool {
	for _, c := range skiface.Codes {
		if strings.EqualFold(c, s) {
			return true
		}
	}
	return false
}

// artifactsNamed returns the task's artifacts with the name.
func artifactsNamed(t *a2a.Task, name string) []a2a.Artifact {
	var out []a2a.Artifact
	if t == nil {
		return nil
	}
	for _, a := range t.Artifacts {
		if a.Name == name {
			out = append(out, a)
		}
	}
	return out
}

// resultOf returns the skill result object's result member from the primary result Artifact (tolerantly: the
// first Data Part of the first Artifact named after the skill).
func resultOf(t *a2a.Task, skill string) (any, bool) {
	for _, a := range artifactsNamed(t, skill) {
		for _, p := range a.Parts {
			if m, ok := decodeTree(p.Data).(map[string]any); ok {
				r, ok := m["result"]
				return r, ok
			}
		}
	}
	return nil, false
}

func decodeTree(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return nil
	}
	return v
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return []byte(fmt.Sprintf("%q", err.Error()))
	}
	return b
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

func sortedKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// arguments returns valid arguments for a skill: the profile's, else requests[<skill>][0] when it is a JSON object.
func (s *sess) arguments(skill string) (json.RawMessage, bool) {
	if a, ok := s.prof.Arguments[skill]; ok && len(a) > 0 {
		s.note("arguments." + skill)
		return a, true
	}
	if r := s.e.Target.Config.Requests[skill]; len(r) > 0 {
		if _, ok := decodeTree([]byte(r[0])).(map[string]any); ok {
			return json.RawMessage(r[0]), true
		}
	}
	return nil, false
}

// primary picks the skill the wire specs invoke: the profile's primary, else the first advertised skill with
// valid arguments.
func (s *sess) primary() (entry, json.RawMessage) {
	e, a, ok := s.primaryOK()
	if !ok {
		s.w.Blocked("no valid arguments for any advertised skill (set documents.schema-interface.arguments.<skill_id> to a JSON arguments object)")
	}
	return e, a
}

func (s *sess) primaryOK() (entry, json.RawMessage, bool) {
	if s.prof.Primary != "" {
		if e, ok := s.entry(s.prof.Primary); ok {
			if a, ok := s.arguments(e.SkillID); ok {
				return e, a, true
			}
		}
	}
	for _, e := range s.entries {
		if a, ok := s.arguments(e.SkillID); ok && !s.faulty(e.SkillID) {
			return e, a, true
		}
	}
	return entry{}, nil, false
}

// faulty reports whether the skill's interface is degraded: named unavailable or corrupt by the profile, or
// answered interface_unavailable / interface_invalid in the survey.
func (s *sess) faulty(skill string) bool {
	if s.profileFaulty(skill) {
		return true
	}
	return s.survey().degraded[skill] != ""
}

// profileFaulty reports whether the profile names the skill deliberately unavailable or corrupt.
func (s *sess) profileFaulty(skill string) bool {
	return skill == s.prof.UnavailableSkill || (s.prof.CorruptSkill != nil && skill == s.prof.CorruptSkill.Skill)
}

// surveyKey keys the run's *survey in harness.Env.RunState.
type surveyKey struct{}
