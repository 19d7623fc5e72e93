package schemaiface

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/refclients/skiface"
)

// Derivation: what an outside party holding the two credentials can find out by probing, so the operator need
// not type it. Every derived member rests on answers the agent gave, and is taken only when those answers are
// unambiguous; anything unexpected yields nothing, and the rows needing the member stay blocked naming it. A
// member the operator gives (or declares absent) is never derived. The same code serves the run (derived once
// per run, before the first spec needs it) and runsuite config init / check (written into the file, predicted).
//
// Only skills whose document declares default_mode observe_only or recommend_only are ever invoked with derived
// arguments ("observe_only: the default behavior reads or analyzes information and does not propose or apply an
// operational change"; "recommend_only: … does not apply it"): a probe must not cause a side effect.

// Agent is what a derivation probes: the agent's card, the documents describe_skill returned, and clients
// speaking as principal A and principal B (nil: no principal B, nothing about authorization is derived).
type Agent struct {
	Ctx      context.Context
	Card     *a2a.AgentCard
	A, B     *a2a.Client
	Docs     map[string]map[string]any // skill → its Skill Interface Document
	Degraded map[string]string         // skill → interface_unavailable | interface_invalid (describe_skill's answer)
	Limits   skiface.Limits

	entries   []entry
	rpc, rest *a2a.AgentInterface
	inputs    map[string]*skiface.Compiled
}

// Derivation is the members derived (only those the operator left out) and, per member, what showed it.
type Derivation struct {
	Profile Profile
	Notes   map[string]string // member path (as documents.schema-interface spells it) → what the probes showed
	// Refused: skill → how the agent answered the last valid candidate arguments that did not complete (the real
	// cause when no arguments could be derived).
	Refused map[string]string
}

// Worked example of the draft (§ Non-Normative End-to-End Example): the advertised digest and the arguments the
// draft sends with it. A served document with that digest is the draft's document byte for byte under JCS.
const workedExampleDigest = "sha256:4dedea3f7ddf19e94d9fd0b30886624f50afb5aadc1b407508a05dd3c40f380d"

var workedExampleArgs = json.RawMessage(`{"resource_id":"network-resource-123","condition":{"metric":"utilization","operator":"gte","threshold":80,"unit":"percent"}}`)

// constraintKinds are the constraint kinds the draft names ("the downstream agent MUST enforce the window,
// scope, unit, and freshness constraints represented by fields in its input schema"), with the word that marks
// a member of each kind in its name or its schema description.
var constraintKinds = []struct{ kind, word string }{{"window", "window"}, {"scope", "scope"}, {"unit", "unit"}, {"freshness", "fresh"}}

// Derive probes for the members given leaves out. givenArgs reports the operator's valid arguments for a skill
// (the profile's or requests[<skill>]); absent reports a member the operator declared absent.
func Derive(ag *Agent, given *Profile, givenArgs func(skill string) (json.RawMessage, bool), absent func(member string) bool) *Derivation {
	d := &Derivation{Notes: map[string]string{}}
	if ag == nil || ag.Card == nil {
		return d
	}
	if x, ok := ag.Card.Extension(URI); ok && len(x.Params) > 0 {
		params, _ := decodeTree(x.Params).(map[string]any)
		ag.entries = entriesOf(params)
	}
	if i, ok := ag.Card.Interface(a2a.BindingJSONRPC); ok {
		ag.rpc = &i
	}
	if i, ok := ag.Card.Interface(a2a.BindingHTTPJSON); ok {
		ag.rest = &i
	}
	ag.inputs = map[string]*skiface.Compiled{}
	plain := map[string]map[string]any{} // numbers as float64, as the schema readers expect
	for k, doc := range ag.Docs {
		var m map[string]any
		if json.Unmarshal(mustJSON(doc), &m) == nil {
			plain[k] = m
		}
	}
	ag.Docs = plain
	p := &d.Profile

	// Degraded interfaces, from describe_skill's own answer: "If an advertised interface cannot currently be
	// returned, the agent MUST report interface_unavailable"; a stored document that fails validation is reported
	// interface_invalid.
	for _, e := range ag.entries {
		switch ag.Degraded[e.SkillID] {
		case skiface.InterfaceUnavailable:
			if given.UnavailableSkill == "" && p.UnavailableSkill == "" && !absent("unavailableSkill") {
				p.UnavailableSkill = e.SkillID
				d.Notes["unavailableSkill"] = fmt.Sprintf("unavailableSkill derived: describe_skill(%s) answered interface_unavailable", e.SkillID)
			}
		case skiface.InterfaceInvalid:
			if given.CorruptSkill == nil && p.CorruptSkill == nil && !absent("corruptSkill") {
				args, from := json.RawMessage(`{}`), "{}"
				if ex := ag.cardExamples(e.SkillID); len(ex) > 0 {
					args, from = ex[0], "the AgentSkill's example"
				}
				p.CorruptSkill = &Case{Skill: e.SkillID, Arguments: args}
				d.Notes["corruptSkill"] = fmt.Sprintf("corruptSkill derived: describe_skill(%s) answered interface_invalid; arguments %s", e.SkillID, from)
			}
		}
	}

	// Valid arguments: the operator's, else (side-effect-free skills only) the draft's worked example when the
	// digest matches, the AgentSkill's examples, or an instance built from input_schema — each taken only when it
	// validates against input_schema and principal A's invocation with it completes.
	args := map[string]json.RawMessage{}
	okA := map[string]*answer{} // principal A's completed invocation with args[skill]
	for _, e := range ag.entries {
		doc := ag.Docs[e.SkillID]
		if doc == nil || ag.Degraded[e.SkillID] != "" {
			continue
		}
		if a, ok := givenArgs(e.SkillID); ok {
			args[e.SkillID] = a
			continue
		}
		if !sideEffectFree(doc) || absent("arguments") {
			continue
		}
		in := ag.input(e.SkillID)
		if in == nil {
			continue
		}
		type cand struct {
			from string
			args json.RawMessage
		}
		var cs []cand
		if e.Digest == workedExampleDigest && e.SkillID == "evaluate_resource_condition" {
			cs = append(cs, cand{"the draft's worked example (digest " + workedExampleDigest + ")", workedExampleArgs})
		}
		for _, ex := range ag.cardExamples(e.SkillID) {
			cs = append(cs, cand{"the AgentSkill's example", ex})
		}
		if v, ok := instanceOf(inputSchema(doc), 0); ok {
			cs = append(cs, cand{"an instance built from input_schema", mustJSON(v)})
		}
		for _, c := range cs {
			if len(in.Validate(json.RawMessage(c.args))) > 0 {
				continue
			}
			an := ag.invoke(ag.A, e.SkillID, c.args, "derive arguments."+e.SkillID+": "+c.from+" as principal A")
			if an.state() != a2a.StateCompleted {
				if d.Refused == nil {
					d.Refused = map[string]string{}
				}
				d.Refused[e.SkillID] = fmt.Sprintf("%s (%s) answered %s", c.from, exID(an), clip(an.describe(), 160))
				continue
			}
			args[e.SkillID], okA[e.SkillID] = c.args, an
			if p.Arguments == nil {
				p.Arguments = map[string]json.RawMessage{}
			}
			p.Arguments[e.SkillID] = c.args
			d.Notes["arguments."+e.SkillID] = fmt.Sprintf("arguments.%s derived: %s, valid against input_schema; principal A's invocation completed (%s)", e.SkillID, c.from, exID(an))
			break
		}
	}
	// completedA is principal A's completed invocation of a side-effect-free skill with its arguments (nil when
	// it does not complete).
	completedA := func(skill string) *answer {
		if an, ok := okA[skill]; ok {
			return an
		}
		an := ag.invoke(ag.A, skill, args[skill], "derive: "+skill+" as principal A")
		if an.state() != a2a.StateCompleted {
			an = nil
		}
		okA[skill] = an
		return an
	}
	az := given.Authorization
	if az == nil {
		az = &AuthzProfile{}
	}

	// Requests principal B may not make: a skill A completes and B is refused with authorization_failed ("A
	// denied authentication, authorization, or required approval check MUST reject the invocation with the
	// authorization_failed machine-readable condition").
	wantSkill := az.Skill == nil && !absent("authorization") && !absent("authorization.skill")
	wantModes := len(az.Modes) == 0 && !absent("authorization") && !absent("authorization.modes")
	if ag.B != nil && (wantSkill || wantModes) {
		for _, e := range ag.entries {
			doc := ag.Docs[e.SkillID]
			if _, ok := args[e.SkillID]; !ok || doc == nil || !sideEffectFree(doc) {
				continue
			}
			mode := defaultMode(doc)
			if !wantSkill && (p.Authorization != nil && p.Authorization.Modes[mode].Skill != "") {
				continue
			}
			a := completedA(e.SkillID)
			if a == nil {
				continue
			}
			b := ag.invoke(ag.B, e.SkillID, args[e.SkillID], "derive authorization: "+e.SkillID+" as principal B")
			if !refusal(b) || b.msg != nil || b.code() != skiface.AuthorizationFailed {
				continue
			}
			c := Case{Skill: e.SkillID, Arguments: args[e.SkillID]}
			why := fmt.Sprintf("A completed %s (%s), B was refused with authorization_failed (%s)", e.SkillID, exID(a), exID(b))
			if p.Authorization == nil {
				p.Authorization = &AuthzProfile{}
			}
			if wantSkill && (p.Authorization.Skill == nil || (mode == "observe_only" && defaultMode(ag.Docs[p.Authorization.Skill.Skill]) != "observe_only")) {
				cc := c
				p.Authorization.Skill = &cc
				d.Notes["authorization.skill"] = "authorization.skill derived: " + why
			}
			if wantModes && p.Authorization.Modes[mode].Skill == "" && !absent("authorization.modes."+mode) {
				if p.Authorization.Modes == nil {
					p.Authorization.Modes = map[string]Case{}
				}
				p.Authorization.Modes[mode] = c
				d.Notes["authorization.modes."+mode] = "authorization.modes." + mode + " derived: " + why
			}
		}
	}

	// Constraints: a root member of input_schema whose description or name marks it as one of the kinds the draft
	// names, and a value of it (from the schema) for which principal A's otherwise valid request is refused with
	// constraint_rejected ("A receiving agent MUST enforce a supplied constraint or reject the invocation with the
	// constraint_rejected machine-readable error condition"). Next to it, a value principal B alone is refused
	// with authorization_failed is a constraint beyond B's grant.
	wantCons := given.Constraints == nil && !absent("constraints")
	wantPair := az.Constraint == nil && ag.B != nil && !absent("authorization") && !absent("authorization.constraint")
	if wantCons || wantPair {
		for _, e := range ag.entries {
			doc := ag.Docs[e.SkillID]
			base, ok := args[e.SkillID]
			if !ok || doc == nil || !sideEffectFree(doc) || ag.input(e.SkillID) == nil {
				continue
			}
			cons, pair := ag.constraints(e.SkillID, doc, base, completedA, wantPair)
			if wantCons && cons != nil {
				p.Constraints, wantCons = cons, false
				var kinds []string
				for _, k := range sortedKeys(anyRawMap(cons.Unsatisfiable)) {
					kinds = append(kinds, k+" "+jsonOf(cons.Unsatisfiable[k]))
				}
				d.Notes["constraints"] = fmt.Sprintf("constraints derived: %s members %v (named so in input_schema); principal A was refused with constraint_rejected for %s", e.SkillID, cons.Members, strings.Join(kinds, ", "))
			}
			if wantPair && pair != nil {
				if p.Authorization == nil {
					p.Authorization = &AuthzProfile{}
				}
				p.Authorization.Constraint, wantPair = pair.pc, false
				d.Notes["authorization.constraint"] = "authorization.constraint derived: " + pair.why
			}
			if !wantCons && !wantPair {
				break
			}
		}
	}

	// Limits: the payload size and nesting depth at which the agent starts refusing with resource_limit_exceeded
	// (or a plain HTTP 413), found by doubling then halving the gap; "MUST report the resource_limit_exceeded
	// machine-readable condition" when a limit is exceeded.
	if given.Limits == nil && !absent("limits") {
		if l := ag.limits(args); l != nil {
			p.Limits = l
			d.Notes["limits"] = limitsNote(l)
		}
	}
	return d
}

// notes is the note on a derived member ("" when it was not derived).
func (d *Derivation) notes(member string) string {
	if d == nil || d.Notes == nil {
		return ""
	}
	return d.Notes[member]
}

// Apply fills the members p leaves out with the derived ones (p's own always win).
func (d *Derivation) Apply(p *Profile) {
	if d == nil {
		return
	}
	dp := d.Profile
	if p.UnavailableSkill == "" {
		p.UnavailableSkill = dp.UnavailableSkill
	}
	if p.CorruptSkill == nil {
		p.CorruptSkill = dp.CorruptSkill
	}
	if len(dp.Arguments) > 0 {
		m := map[string]json.RawMessage{}
		for k, v := range dp.Arguments {
			m[k] = v
		}
		for k, v := range p.Arguments {
			m[k] = v
		}
		p.Arguments = m
	}
	if dz := dp.Authorization; dz != nil {
		z := AuthzProfile{}
		if p.Authorization != nil {
			z = *p.Authorization
		}
		if z.Skill == nil {
			z.Skill = dz.Skill
		}
		if z.Constraint == nil {
			z.Constraint = dz.Constraint
		}
		if len(z.Modes) == 0 {
			z.Modes = dz.Modes
		}
		p.Authorization = &z
	}
	if p.Constraints == nil {
		p.Constraints = dp.Constraints
	}
	if p.Limits == nil {
		p.Limits = dp.Limits
	}
}

// sideEffectFree reports whether a document's default_mode says its skill changes nothing.
func sideEffectFree(doc map[string]any) bool {
	m := defaultMode(doc)
	return m == "observe_only" || m == "recommend_only"
}

func defaultMode(doc map[string]any) string {
	au, _ := doc["authority"].(map[string]any)
	m, _ := au["default_mode"].(string)
	return m
}

// input compiles a skill's input_schema once (nil: untrusted dialect or not compilable; nothing is derived).
func (ag *Agent) input(skill string) *skiface.Compiled {
	if c, ok := ag.inputs[skill]; ok {
		return c
	}
	var c *skiface.Compiled
	ref, _ := ag.Docs[skill]["input_schema"].(map[string]any)
	if dl, _ := ref["dialect"].(string); ref != nil && skiface.TrustedDialect(dl) {
		c, _ = skiface.CompileSchema(mustJSON(ref), ag.Limits)
	}
	ag.inputs[skill] = c
	return c
}

// cardExamples are the AgentSkill's examples that are JSON objects.
func (ag *Agent) cardExamples(skill string) []json.RawMessage {
	var out []json.RawMessage
	for _, sk := range ag.Card.Skills {
		if sk.ID != skill {
			continue
		}
		for _, ex := range sk.Examples {
			if _, ok := decodeTree([]byte(ex)).(map[string]any); ok {
				out = append(out, json.RawMessage(ex))
			}
		}
	}
	return out
}

// send sends one message synchronously (streamed only when the skill's document offers nothing else).
func (ag *Agent) send(cl *a2a.Client, skill string, m a2a.Message, note string) *answer {
	mode := modeSync
	if in, _ := ag.Docs[skill]["interaction"].(map[string]any); in != nil {
		list, _ := in["supported_response_modes"].([]any)
		if len(list) > 0 && !containsAny(list, "sync") && containsAny(list, "stream") && ag.Card.Capabilities.Streaming {
			mode = modeStream
		}
	}
	an, _ := post(ag.Ctx, cl, ag.rpc, ag.rest, false, mode, m, note)
	return an
}

func (ag *Agent) entry(skill string) entry {
	for _, e := range ag.entries {
		if e.SkillID == skill {
			return e
		}
	}
	return entry{}
}

func (ag *Agent) invoke(cl *a2a.Client, skill string, args json.RawMessage, note string) *answer {
	e := ag.entry(skill)
	return ag.send(cl, skill, message(invokeReq(skill, e.SkillVersion, e.Digest, args)), note)
}

func exID(an *answer) string {
	if an == nil || an.ex == nil {
		return "no exchange"
	}
	return "exchange " + an.ex.ID
}

func jsonOf(b json.RawMessage) string { return clip(string(b), 200) }
