package schemaiface

import (
	"encoding/json"
	"fmt"
	"strings"
	gosync "sync"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/refclients/skiface"
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
		s.w.Blocked(s.noArguments())
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

// noArguments is why no skill has valid arguments: the operator gave none and, when the agent answered the
// derivation's valid candidates, how it answered them (a Message, a refusal): the real cause, not a missing member.
func (s *sess) noArguments() string {
	msg := "no valid arguments for any advertised skill (give documents.schema-interface.arguments[\"<skill_id>\"], a JSON arguments object)"
	if s.dv == nil || len(s.dv.Refused) == 0 {
		return msg
	}
	var why []string
	for _, k := range sortedKeys(anyStrMap(s.dv.Refused)) {
		why = append(why, k+": "+s.dv.Refused[k])
	}
	return "the agent completed no invocation with arguments valid against input_schema — " + strings.Join(why, "; ") + " — so " + msg
}
