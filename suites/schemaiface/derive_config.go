package schemaiface

import (
	"context"
	"encoding/json"
	"net/http"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/target"
	"github.com/extconf/extconf/refclients/skiface"
)

// DeriveSection (harness.SectionDeriver) is the run's derivation (Derive) for runsuite config init and check: it asks describe_skill for
// every advertised skill as principal A, probes as the run does, and writes the derived members into sec (the
// documents.schema-interface section, decoded JSON), leaving every member sec gives or declares absent. cfg is
// the prepared configuration (its principals of this document). It returns what was derived, one note per member,
// and the inputs this agent's rows need beyond the static Needs table (arguments of a skill of the kind a row picks).
func (document) DeriveSection(ctx context.Context, cl *a2a.Client, _ string, card *a2a.AgentCard, cfg target.Config, sec map[string]any) ([]string, []harness.Need) {
	if card == nil {
		return nil, nil
	}
	var in Input
	b, _ := json.Marshal(sec)
	if json.Unmarshal(b, &in) != nil {
		return nil, nil
	}
	ag := &Agent{Ctx: ctx, Card: card, A: cl, Docs: map[string]map[string]any{}, Degraded: map[string]string{}, Limits: skiface.DefaultLimits()}
	if p, ok := cfg.PrincipalOf(docID, "A"); ok {
		ag.A = cl.WithHeader(p.Header, p.Value)
	}
	if p, ok := cfg.PrincipalOf(docID, "B"); ok {
		ag.B = cl.WithHeader(p.Header, p.Value)
	}
	if l, err := harness.ParseLimits(cfg.Limits); err == nil {
		if sl, err := skiface.ParseLimits(l.Documents[skiface.LimitsMember]); err == nil {
			ag.Limits = sl
		}
	}
	var rpc, rest *a2a.AgentInterface
	if i, ok := card.Interface(a2a.BindingJSONRPC); ok {
		rpc = &i
	}
	if i, ok := card.Interface(a2a.BindingHTTPJSON); ok {
		rest = &i
	}
	var params map[string]any
	if x, ok := card.Extension(URI); ok && len(x.Params) > 0 {
		params, _ = decodeTree(x.Params).(map[string]any)
	}
	faulty := func(skill string) bool {
		return skill == in.UnavailableSkill || (in.CorruptSkill != nil && skill == in.CorruptSkill.Skill)
	}
	_, hasA := cfg.PrincipalOf(docID, "A")
	refused := false // describe_skill answered HTTP 401 to a caller the configuration gave no credential
	// The run's survey: one describe_skill per advertised skill, skills the section names faulty excepted.
	for _, e := range entriesOf(params) {
		if e.SkillID == "" || faulty(e.SkillID) || ag.Docs[e.SkillID] != nil || ag.Degraded[e.SkillID] != "" {
			continue
		}
		an, _ := post(ctx, ag.A, rpc, rest, false, modeSync, message(describeReq(e.SkillID)), "config: describe_skill("+e.SkillID+")")
		refused = refused || (!hasA && an.ex != nil && an.ex.Status == http.StatusUnauthorized)
		d := &docSeen{skill: e.SkillID, ans: an}
		readDescribe(d)
		if c := an.code(); an.state() != a2a.StateCompleted && (c == skiface.InterfaceUnavailable || c == skiface.InterfaceInvalid) {
			ag.Degraded[e.SkillID] = c
			continue
		}
		if d.tree != nil {
			ag.Docs[e.SkillID] = d.tree
		}
	}
	givenArgs := func(skill string) (json.RawMessage, bool) {
		if a, ok := in.Arguments[skill]; ok && len(a) > 0 {
			return a, true
		}
		for _, r := range [][]string{in.Requests[skill], cfg.Requests[skill]} {
			if len(r) > 0 {
				if _, ok := decodeTree([]byte(r[0])).(map[string]any); ok {
					return json.RawMessage(r[0]), true
				}
			}
		}
		return nil, false
	}
	absent := func(m string) bool { _, ok := in.Declared(m); return ok }
	dv := Derive(ag, &in.Profile, givenArgs, absent)
	var derived map[string]any
	b, _ = json.Marshal(dv.Profile)
	_ = json.Unmarshal(b, &derived)
	for k, v := range derived {
		cur, given := sec[k]
		if !given {
			sec[k] = v
			continue
		}
		// arguments and authorization: the derived sub-members the section leaves out.
		cm, ok1 := cur.(map[string]any)
		dm, ok2 := v.(map[string]any)
		if ok1 && ok2 {
			for kk, vv := range dm {
				if _, has := cm[kk]; !has {
					cm[kk] = vv
				}
			}
		}
	}
	var notes []string
	for _, k := range sortedKeys(anyStrMap(dv.Notes)) {
		notes = append(notes, dv.Notes[k])
	}
	var skills []string
	for _, e := range entriesOf(params) {
		skills = append(skills, e.SkillID)
	}
	argsNow, _ := sec["arguments"].(map[string]any)
	has := func(skill string) bool {
		if a, ok := argsNow[skill].(map[string]any); ok && a != nil {
			return true
		}
		_, ok := givenArgs(skill)
		return ok
	}
	needs := append(argumentNeeds(skills, ag.Docs, has), derivedNeeds(ag.Docs, &in, dv)...)
	if refused {
		needs = append([]harness.Need{credentialNeed()}, needs...)
	}
	return notes, needs
}

// derivedNeeds are the rows a derivation leaves blocked beyond the static table: SI-8.3 for each advertised
// default_mode no case covers, SI-8.10a/b when the constraints were derived (they cannot fail on those).
func derivedNeeds(docs map[string]map[string]any, given *Input, dv *Derivation) []harness.Need {
	var out []harness.Need
	modes := map[string]Case{}
	for _, p := range []*Profile{&given.Profile, &dv.Profile} {
		if p.Authorization != nil {
			for m, c := range p.Authorization.Modes {
				modes[m] = c
			}
		}
	}
	seen := map[string]bool{}
	for _, d := range docs {
		au, _ := d["authority"].(map[string]any)
		if m, ok := au["default_mode"].(string); ok && m != "" && !seen[m] {
			seen[m] = true
			if _, covered := modes[m]; !covered && len(modes) > 0 && !given.declared("authorization.modes."+m) {
				out = append(out, harness.Need{Member: "authorization.modes." + m, What: modeWhat(m), Rows: []string{"SI-8.3"}})
			}
		}
	}
	// SI-8.2b / SI-12.4b: a given authorization.skill of another mode does not meet the observe_only need.
	if _, covered := modes["observe_only"]; !covered && given.Authorization != nil && given.Authorization.Skill != nil {
		if au, _ := docs[given.Authorization.Skill.Skill]["authority"].(map[string]any); au != nil && au["default_mode"] != "observe_only" {
			out = append(out, harness.Need{Member: "authorization.modes.observe_only", What: observeOnlyWhat, Rows: []string{"SI-12.4b", "SI-8.2b"}})
		}
	}
	if dv.Notes["constraints"] != "" {
		out = append(out, harness.Need{Member: "constraints", What: constraintsWhat, Rows: []string{"SI-8.10a", "SI-8.10b"}})
	}
	return out
}

// declared reports whether the operator declares member absent.
func (in *Input) declared(member string) bool {
	_, ok := in.Declared(member)
	return ok
}
