package schemaiface

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"strings"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/refclients/skiface"
)

// constraintPointer is the input member an unsatisfiable case of each kind varies when the profile's members do
// not show it (the case and the satisfiable arguments differ in no listed member).

// varied returns the constraint members (instance pointers) whose value differs between the satisfiable arguments
// and an unsatisfiable case.
func varied(members []string, satisfiable, unsat json.RawMessage, kind string) []string {
	a, b := decodeTree(satisfiable), decodeTree(unsat)
	var out []string
	for _, p := range members {
		x, okx := resolve(a, p)
		y, oky := resolve(b, p)
		if okx != oky || string(mustJSON(x)) != string(mustJSON(y)) {
			out = append(out, p)
		}
	}
	return out
}

func resolve(v any, p string) (any, bool) { return skiface.Resolve(v, p) }

func registerGated(e *harness.Env) {
	spec(e, "SI-6.5b", "a structurally valid but semantically invalid representation is not applied", func(w *harness.W) {
		s := open(w, "SI-6.5b")
		se := s.prof.Semantic
		if se == nil {
			w.Need("semantic", false, "a structurally valid, semantically invalid request, a valid one, and a read showing its target")
		}
		cl := s.client("A")
		read := cmp.Or(se.CheckSkill, se.Skill) // reading 30: the read may be another skill
		var before *answer
		if se.Check != nil {
			before = s.invoke(cl, false, modeSync, read, se.Check, "state before the semantically invalid request")
		}
		s.control("SI-6.5b", cl, se.Skill, se.Valid, "a semantically valid request")
		an := s.invoke(cl, false, modeSync, se.Skill, se.Invalid, "a semantically invalid request")
		w.Negative(an.state() != a2a.StateCompleted, "the semantically invalid representation is not applied (no completed task)", an.describe(), an.ex)
		if se.Check != nil {
			after := s.invoke(cl, false, modeSync, read, se.Check, "state after the semantically invalid request")
			b1, _ := resultOf(before.task, read)
			b2, _ := resultOf(after.task, read)
			w.Negative(string(mustJSON(b1)) == string(mustJSON(b2)), "the follow-up read shows no change", fmt.Sprintf("before %s, after %s", mustJSON(b1), mustJSON(b2)), after.ex)
		}
	})

	multi := func(row, text string, body func(w *harness.W, s *sess, sch map[string]any)) {
		spec(e, row, text, func(w *harness.W) {
			s := open(w, row)
			mo := s.prof.MultiOperation
			if mo == nil {
				w.Need("multiOperation", false, "a multi-operation skill, its selector member, operations and arguments per operation")
			}
			body(w, s, inputSchema(s.doc(row, mo.Skill).tree))
		})
	}
	multi("SI-8.4a", "a multi-operation skill requires its operation selector", func(w *harness.W, s *sess, sch map[string]any) {
		mo := s.prof.MultiOperation
		// Required at the root, in an allOf branch, in every oneOf/anyOf branch, or in both then and else.
		w.Check(requires(sch, sch, mo.Selector, 0), "input_schema of "+mo.Skill+" requires "+mo.Selector+" (required at the root, or in every branch of its union)",
			clip(string(mustJSON(sch)), 300), s.doc("SI-8.4a", mo.Skill).ans.ex)
		op := mo.Operations[0]
		s.control("SI-8.4a", s.client("A"), mo.Skill, mo.Arguments[op], mo.Skill+" "+op)
		an := s.invoke(s.client("A"), false, modeSync, mo.Skill, withoutMember(mo.Arguments[op], mo.Selector), mo.Skill+" without "+mo.Selector)
		s.refused("SI-8.4a", an, skiface.InputInvalid, "a request without the operation selector")
	})
	multi("SI-8.4b", "a multi-operation skill enumerates its permitted operations", func(w *harness.W, s *sess, sch map[string]any) {
		mo := s.prof.MultiOperation
		// The selector's enum/const at the root, or the values a oneOf/anyOf discriminated union fixes per branch.
		got := enumeratedIn(sch, mo.Selector)
		want := append([]string(nil), mo.Operations...)
		sort.Strings(want)
		w.Check(strings.Join(got, ",") == strings.Join(want, ","), "the selector schema enumerates exactly "+fmt.Sprint(want), fmt.Sprintf("%v from %s", got, clip(string(mustJSON(sch)), 300)), s.doc("SI-8.4b", mo.Skill).ans.ex)
		op := mo.Operations[0]
		s.control("SI-8.4b", s.client("A"), mo.Skill, mo.Arguments[op], mo.Skill+" "+op)
		an := s.invoke(s.client("A"), false, modeSync, mo.Skill, withMember(mo.Arguments[op], mo.Selector, "extconf-undeclared-operation"), mo.Skill+" with an undeclared operation")
		s.refused("SI-8.4b", an, skiface.InputInvalid, "an undeclared operation")
	})
	multi("SI-8.4c", "a multi-operation skill's input_schema defines each operation's own requirements", func(w *harness.W, s *sess, sch map[string]any) {
		mo := s.prof.MultiOperation
		if len(mo.Requires) == 0 {
			w.Need("multiOperation.requires", false, "per operation, a member only that operation requires")
		}
		for _, op := range sortedKeys(anyStrMap(mo.Requires)) {
			member := mo.Requires[op]
			s.control("SI-8.4c", s.client("A"), mo.Skill, mo.Arguments[op], mo.Skill+" "+op+" with "+member)
			an := s.invoke(s.client("A"), false, modeSync, mo.Skill, withoutMember(mo.Arguments[op], member), mo.Skill+" "+op+" without "+member)
			s.refused("SI-8.4c", an, skiface.InputInvalid, op+" without "+member)
		}
	})
	spec(e, "SI-8.5", "a skill with an operation that may need approval advertises approval_may_be_required true", func(w *harness.W) {
		s := open(w, "SI-8.5")
		if len(s.prof.ApprovalSkills) == 0 {
			w.Need("approvalSkills", false, "skills with an operation that may require approval under deployment policy")
		}
		for _, id := range s.prof.ApprovalSkills {
			d := s.doc("SI-8.5", id)
			au, _ := d.tree["authority"].(map[string]any)
			w.Check(au["approval_may_be_required"] == true, id+" advertises authority.approval_may_be_required true", fmt.Sprintf("%#v", au["approval_may_be_required"]), d.ans.ex)
		}
	})

	cons := func(w *harness.W, row string) *sess {
		s := open(w, row)
		if s.prof.Constraints == nil {
			w.Need("constraints", false, "a skill, its constraint members, satisfiable and unsatisfiable arguments")
		}
		s.note("constraints")
		return s
	}
	// satisfied sends the constraint skill with satisfiable constraints, the positive control of the constraint rows.
	satisfied := func(s *sess, row string) *answer {
		c := s.prof.Constraints
		return s.control(row, s.client("A"), c.Skill, c.Satisfiable, c.Skill+" with satisfiable constraints")
	}
	// unsatisfied sends the constraint skill once per unsatisfiable case of the profile, in key order (none blocks),
	// and hands each answer to check.
	unsatisfied := func(s *sess, check func(k string, an *answer)) {
		c := s.prof.Constraints
		ks := sortedKeys(anyRawMap(c.Unsatisfiable))
		if len(ks) == 0 {
			s.w.Need("constraints.unsatisfiable", false, "arguments with a constraint the target cannot honour")
		}
		for _, k := range ks {
			check(k, s.invoke(s.client("A"), false, modeSync, c.Skill, c.Unsatisfiable[k], c.Skill+" with an unsatisfiable "+k+" constraint"))
		}
	}
	spec(e, "SI-8.10a", "each constraint the skill honours is a member of its input_schema", func(w *harness.W) {
		s := cons(w, "SI-8.10a")
		derivedConstraints(s)
		c := s.prof.Constraints
		d := s.doc("SI-8.10a", c.Skill)
		sch := inputSchema(d.tree)
		for _, m := range c.Members {
			// m points into the instance; each of its tokens must be declared through properties (nested, across
			// in-place branches and local references).
			w.Check(declares(sch, m), "constraint "+m+" is defined in input_schema of "+c.Skill, "no such member declared", d.ans.ex)
		}
	})
	spec(e, "SI-8.10b", "a structurally invalid constraint value fails input validation", func(w *harness.W) {
		s := cons(w, "SI-8.10b")
		derivedConstraints(s)
		c := s.prof.Constraints
		if c.Invalid == nil {
			w.Need("constraints.invalid", false, "arguments with a structurally invalid constraint value")
		}
		satisfied(s, "SI-8.10b")
		an := s.invoke(s.client("A"), false, modeSync, c.Skill, c.Invalid, c.Skill+" with a structurally invalid constraint")
		s.refused("SI-8.10b", an, skiface.InputInvalid, "a structurally invalid constraint value")
	})
	spec(e, "SI-8.11a", "a valid constraint the agent cannot honour is rejected with constraint_rejected", func(w *harness.W) {
		s := cons(w, "SI-8.11a")
		satisfied(s, "SI-8.11a")
		unsatisfied(s, func(k string, an *answer) {
			s.refused("SI-8.11a", an, skiface.ConstraintRejected, "an unsatisfiable "+k+" constraint")
		})
	})
	spec(e, "SI-8.11b", "a valid constraint is never silently ignored", func(w *harness.W) {
		s := cons(w, "SI-8.11b")
		c := s.prof.Constraints
		ok := satisfied(s, "SI-8.11b")
		res, _ := resultOf(ok.task, c.Skill)
		in := decodeTree(c.Satisfiable)
		if len(c.Reflects) == 0 {
			// Which output member shows a constraint honoured is the domain schema's business ("The names,
			// structures, and semantics of transmitted constraints are defined by the domain-specific input
			// schema"): without the operator's constraints.reflects only the refused half is graded.
			w.Note("the honoured half (a completed task reflecting the constraint) needs constraints.reflects; graded: constraints the agent cannot honour are not completed")
		}
		for _, p := range sortedKeys(anyStrMap(c.Reflects)) {
			q := c.Reflects[p]
			want, asked := resolve(in, p)
			if !asked {
				continue // the satisfiable request does not supply this constraint: nothing to reflect
			}
			got, _ := resolve(res, q)
			w.Check(fmt.Sprint(want) == fmt.Sprint(got), "the output member "+q+" reflects the honoured constraint "+p, fmt.Sprintf("requested %v, output %v", want, got), ok.ex)
		}
		unsatisfied(s, func(k string, an *answer) {
			w.Negative(an.state() != a2a.StateCompleted, "a request whose "+k+" constraint cannot be honoured does not complete", an.describe(), an.ex)
		})
	})
	for _, cs := range []struct{ row, kind string }{{"SI-9.67a", "window"}, {"SI-9.67b", "scope"}, {"SI-9.67c", "unit"}, {"SI-9.67d", "freshness"}} {
		cs := cs
		spec(e, cs.row, "the agent enforces the "+cs.kind+" constraint: honoured or rejected with constraint_rejected", func(w *harness.W) {
			s := cons(w, cs.row)
			c := s.prof.Constraints
			args, ok := c.Unsatisfiable[cs.kind]
			if !ok {
				w.Need("constraints.unsatisfiable."+cs.kind, false, "arguments with a "+cs.kind+" constraint the target cannot honour")
			}
			satisfied(s, cs.row)
			an := s.invoke(s.client("A"), false, modeSync, c.Skill, args, c.Skill+" with an unsatisfiable "+cs.kind+" constraint")
			if an.state() == a2a.StateCompleted {
				// Honoured when every constraint member this request varies shows the requested value in the
				// output member the profile maps it to.
				res, _ := resultOf(an.task, c.Skill)
				ps := varied(c.Members, c.Satisfiable, args, cs.kind)
				if len(ps) == 0 {
					w.Blocked("the task completed, and constraints.unsatisfiable." + cs.kind + " varies no member listed in constraints.members, so nothing shows whether the constraint was honoured: list the member it varies")
				}
				if len(c.Reflects) == 0 {
					w.Blocked("the task completed a request with a " + cs.kind + " constraint the agent cannot honour; whether the output honours it is the domain's (\"The names, structures, and semantics of transmitted constraints are defined by the domain-specific input schema\"): state constraints.reflects, the output member that shows it")
				}
				for _, p := range ps {
					q, mapped := c.Reflects[p]
					want, _ := resolve(decodeTree(args), p)
					got, has := resolve(res, q)
					w.Negative(mapped && has && fmt.Sprint(want) == fmt.Sprint(got), "a completed task honours the "+cs.kind+" constraint "+p+" (output "+firstNonEmpty(q, "not mapped")+")",
						fmt.Sprintf("requested %v, output %v", want, got), an.ex)
				}
				return
			}
			w.Negative(an.code() == skiface.ConstraintRejected, "the unhonoured "+cs.kind+" constraint is rejected with constraint_rejected", an.describe(), an.ex)
		})
	}
	spec(e, "SI-9.68a", "the agent that detects a constraint failure rejects with constraint_rejected", func(w *harness.W) {
		s := cons(w, "SI-9.68a")
		satisfied(s, "SI-9.68a")
		unsatisfied(s, func(k string, an *answer) {
			w.Negative(an.state() == a2a.StateCompleted || an.code() == skiface.ConstraintRejected, "a detected "+k+" constraint failure carries constraint_rejected", an.describe(), an.ex)
		})
	})
	spec(e, "SI-9.50c", "a constraint_rejected refusal ends the Task in TASK_STATE_REJECTED", func(w *harness.W) {
		s := cons(w, "SI-9.50c")
		satisfied(s, "SI-9.50c")
		unsatisfied(s, func(k string, an *answer) {
			w.Negative(an.code() == skiface.ConstraintRejected && an.state() == a2a.StateRejected, "constraint_rejected in TASK_STATE_REJECTED", an.describe(), an.ex)
		})
	})

	describeFault := func(row, text string, id func(p *Profile) string, check func(w *harness.W, s *sess, d *docSeen)) {
		spec(e, row, text, func(w *harness.W) {
			s := open(w, row)
			skill := id(s.prof)
			member := map[string]string{"SI-9.27": "unavailableSkill", "SI-9.28": "corruptSkill"}[row]
			w.Need(member, skill != "", map[string]string{"SI-9.27": "a skill deliberately unavailable (describe_skill answered interface_unavailable for none)",
				"SI-9.28": "an advertised skill whose stored document is corrupt (describe_skill answered interface_invalid for none)"}[row])
			s.note(member)
			cl := s.client("A")
			s.describeControl(row, cl)
			check(w, s, s.describeSkill(cl, false, modeSync, skill, "describe_skill("+skill+")"))
		})
	}
	unavailable := func(p *Profile) string { return p.UnavailableSkill }
	describeFault("SI-9.27", "an advertised interface that cannot be returned is reported as interface_unavailable", unavailable, func(w *harness.W, s *sess, d *docSeen) {
		w.Negative(d.ans.state() != a2a.StateCompleted && d.ans.code() == skiface.InterfaceUnavailable, "describe_skill("+d.skill+") ends with interface_unavailable", d.ans.describe(), d.ans.ex)
	})
	describeFault("SI-9.28", "a stored document that fails validation is reported as interface_invalid", corruptID, func(w *harness.W, s *sess, d *docSeen) {
		w.Negative(d.ans.state() != a2a.StateCompleted && d.ans.code() == skiface.InterfaceInvalid, "describe_skill("+d.skill+") ends with interface_invalid", d.ans.describe(), d.ans.ex)
	})
	spec(e, "SI-9.51a", "a describe_skill that cannot produce a valid advertised interface ends in TASK_STATE_FAILED", func(w *harness.W) {
		s := open(w, "SI-9.51a")
		ids := []string{}
		for _, id := range []string{s.prof.UnavailableSkill, corruptID(s.prof)} {
			if id != "" {
				ids = append(ids, id)
			}
		}
		w.Need("unavailableSkill|corruptSkill", len(ids) > 0, "a skill deliberately unavailable, or one whose stored document is corrupt (describe_skill answered interface_unavailable or interface_invalid for none)")
		s.note("unavailableSkill", "corruptSkill")
		cl := s.client("A")
		s.describeControl("SI-9.51a", cl)
		for _, id := range ids {
			d := s.describeSkill(cl, false, modeSync, id, "describe_skill("+id+")")
			w.Negative(d.ans.state() == a2a.StateFailed, "describe_skill("+id+") ends in TASK_STATE_FAILED", d.ans.describe(), d.ans.ex)
		}
	})
	spec(e, "SI-9.29b", "invocations under an invalid document are not executed", func(w *harness.W) {
		s := open(w, "SI-9.29b")
		c := s.prof.CorruptSkill
		if c == nil {
			w.Need("corruptSkill", false, "an advertised skill whose stored document is corrupt, and plausible arguments")
		}
		s.note("corruptSkill")
		s.primaryControl("SI-9.29b", "valid arguments")
		an := s.invoke(s.client("A"), false, modeSync, c.Skill, c.Arguments, c.Skill+" with its advertised binding")
		// A refusal of the arguments says nothing of the document: an agent executing under its corrupt document
		// would refuse arguments its stand-in schema rejects just the same.
		if an.state() != a2a.StateCompleted && an.code() == skiface.InputInvalid {
			w.Need("corruptSkill.arguments", false, fmt.Sprintf("arguments %s accepts when its document is valid: these were refused as input_invalid (%s), which says nothing of the corrupt document", c.Skill, an.describe()))
		}
		w.Negative(an.state() != a2a.StateCompleted, "the skill with a corrupt document is not executed", an.describe(), an.ex)
	})
	fault := func(row, text string, check func(w *harness.W, an *answer, skill string)) {
		spec(e, row, text, func(w *harness.W) {
			s := open(w, row)
			f := s.prof.FaultInput
			if f == nil {
				w.Need("faultInput", false, "arguments that drive the skill's domain logic to produce invalid output")
			}
			s.primaryControl(row, "valid arguments")
			check(w, s.invoke(s.client("A"), false, modeSync, f.Skill, f.Arguments, f.Skill+" with the fault input"), f.Skill)
		})
	}
	fault("SI-9.51b", "processing that cannot produce valid output ends in TASK_STATE_FAILED", func(w *harness.W, an *answer, _ string) {
		w.Negative(an.state() == a2a.StateFailed, "TASK_STATE_FAILED", an.describe(), an.ex)
	})
	fault("SI-9.58b", "invalid domain output ends FAILED with output_invalid and no primary result", func(w *harness.W, an *answer, skill string) {
		w.Negative(an.state() == a2a.StateFailed && an.code() == skiface.OutputInvalid && len(artifactsNamed(an.task, skill)) == 0,
			"TASK_STATE_FAILED, output_invalid, no primary result Artifact", an.describe()+" "+partsSummary(taskArtifacts(an.task)), an.ex)
	})
	spec(e, "SI-9.57b", "error answers do not disclose sensitive policy state", func(w *harness.W) {
		s := open(w, "SI-9.57b")
		if s.prof.Sensitive == nil || len(s.prof.Sensitive.PolicyStrings) == 0 {
			w.Need("sensitive.policyStrings", false, "strings of local policy state no error may show")
		}
		p, args, _ := s.primaryControl("SI-9.57b", "valid arguments")
		var ans []*answer
		if az := s.prof.Authorization; az != nil {
			if az.Skill != nil {
				ans = append(ans, s.invoke(s.client("B"), false, modeSync, az.Skill.Skill, az.Skill.Arguments, "principal B refused a skill"))
			}
			for _, pc := range []*PairCase{az.Resource, az.Operation, az.Constraint} {
				if pc != nil {
					ans = append(ans, s.invoke(s.client("B"), false, modeSync, pc.Skill, pc.Denied, "principal B refused a request"))
				}
			}
		}
		if bad, _, ok := withoutRequired(inputSchema(s.doc("SI-9.57b", p.SkillID).tree), args); ok {
			ans = append(ans, s.invoke(s.client("A"), false, modeSync, p.SkillID, bad, "invalid arguments"))
		}
		for _, an := range ans {
			for _, ps := range s.prof.Sensitive.PolicyStrings {
				w.Negative(an.state() != a2a.StateCompleted && !disclosed(an.ex, ps), fmt.Sprintf("the refusal (%s) does not show %q", an.ex.Note, ps), an.describe(), an.ex)
			}
		}
	})
	spec(e, "SI-9.57c", "error answers do not echo input values local policy forbids disclosing", func(w *harness.W) {
		s := open(w, "SI-9.57c")
		if s.prof.Sensitive == nil || s.prof.Sensitive.Prohibited == nil {
			w.Need("sensitive.prohibited", false, "arguments with a prohibited value and one unrelated schema error, and the value")
		}
		pr := s.prof.Sensitive.Prohibited
		s.primaryControl("SI-9.57c", "valid arguments")
		an := s.invoke(s.client("A"), false, modeSync, pr.Skill, pr.Arguments, pr.Skill+" with a prohibited value and a schema error")
		w.Negative(an.state() != a2a.StateCompleted && !disclosed(an.ex, pr.Canary), fmt.Sprintf("the refusal does not echo %q", pr.Canary), clip(string(an.ex.ResponseBody), 300), an.ex)
	})
	spec(e, "SI-10.1", "a skill whose interface failed at start-up is neither advertised nor served unconstrained", func(w *harness.W) {
		s := open(w, "SI-10.1")
		f := s.prof.FailedInitSkill
		// Only the operator knows which skill failed to start: an AgentSkill the extension does not list may be an
		// ordinary A2A skill the agent "MAY still" serve, so a candidate taken from the card could not tell a correct
		// agent from one that advertises a failed skill with an opaque document (issue #40).
		if f == nil {
			w.Need("failedInitSkill", false, "a skill whose interface failed to load, assemble or validate")
		}
		cl := s.client("A")
		s.describeControl("SI-10.1", cl)
		_, listed := s.entry(f.Skill)
		w.Negative(!listed, f.Skill+" is not advertised in params.skills", fmt.Sprint(listed), s.cardEx)
		d := s.describeSkill(cl, false, modeSync, f.Skill, "describe_skill("+f.Skill+")")
		w.Negative(d.ans.state() != a2a.StateCompleted, "describe_skill("+f.Skill+") returns no document", d.ans.describe(), d.ans.ex)
		an := s.send(cl, false, modeSync, message(invokeReq(f.Skill, "1.0", wrongDigest(""), f.Arguments)), f.Skill+" as a schema-interface request")
		w.Negative(an.state() != a2a.StateCompleted, f.Skill+" is not executed as an unconstrained schema-interface skill", an.describe(), an.ex)
	})
	limits := func(row, text string, check func(w *harness.W, an *answer, what string)) {
		spec(e, row, text, func(w *harness.W) {
			s := open(w, row)
			l := s.prof.Limits
			switch row {
			case "SI-12.2h":
				w.Need("limits.payloadBytes", l != nil && l.PayloadBytes > 0, "the target's payload size limit, a skill and its arguments")
			case "SI-12.2i":
				w.Need("limits.nestingDepth", l != nil && l.NestingDepth > 0, "the target's nesting limit, a skill and its arguments")
			default:
				w.Need("limits", l != nil && (l.PayloadBytes > 0 || l.NestingDepth > 0), "the target's payload size or nesting limit, a skill and its arguments")
			}
			s.note("limits")
			en, _ := s.entry(l.Skill)
			cl := s.client("A")
			if l.PayloadBytes > 0 && row != "SI-12.2i" {
				under := s.send(cl, false, modeSync, padded(en, l.Arguments, l.Pad, l.PayloadBytes-4096), fmt.Sprintf("a request of about %d bytes", l.PayloadBytes-4096))
				w.Control(under.state() == a2a.StateCompleted, "a request under the payload limit is processed", under.describe(), under.ex)
				check(w, s.send(cl, false, modeSync, padded(en, l.Arguments, l.Pad, l.PayloadBytes+4096), fmt.Sprintf("a request of about %d bytes", l.PayloadBytes+4096)), "over the payload limit")
			}
			if l.NestingDepth > 0 && row != "SI-12.2h" {
				// Where the nesting is counted is the implementation's ("MUST enforce limits on … nesting"): each
				// carrier gets its own control under the limit; the first refused over the limit is graded, and the
				// row fails only when every carrier whose control passed accepted the request over the limit.
				// A carrier whose control is refused (a closed schema refuses the extra member) still counts when
				// the request over the limit is refused with resource_limit_exceeded: the condition names the cause.
				plain := s.send(cl, false, modeSync, message(invokeReq(en.SkillID, en.SkillVersion, en.Digest, l.Arguments)), "the limits' request, nothing nested")
				w.Control(plain.state() == a2a.StateCompleted, "the request the nesting probes build on is processed", plain.describe(), plain.ex)
				var first, lastOver *answer
				for _, c := range nestingCarriers {
					under := s.send(cl, false, modeSync, nestedVia(c, en, l.Arguments, l.NestingDepth-8), fmt.Sprintf("%s nested %d deep", c, l.NestingDepth-8))
					over := s.send(cl, false, modeSync, nestedVia(c, en, l.Arguments, l.NestingDepth+8), fmt.Sprintf("%s nested %d deep", c, l.NestingDepth+8))
					switch {
					case over.code() == skiface.ResourceLimitExceeded, under.state() == a2a.StateCompleted && over.state() != a2a.StateCompleted:
						check(w, over, "over the nesting limit ("+c+")")
						return
					case under.state() == a2a.StateCompleted:
						lastOver = over
					default:
						first = cmp.Or(first, under)
					}
				}
				if lastOver == nil {
					w.Control(false, "a request under the nesting limit is processed (message metadata, part metadata, request object, arguments)", first.describe(), first.ex)
				}
				check(w, lastOver, "over the nesting limit (in every carrier whose control passed)")
			}
		})
	}
	// "A resource_limit_exceeded condition uses TASK_STATE_REJECTED when the limit is checked before acceptance and
	// TASK_STATE_FAILED when the limit is reached during processing": when the limit is checked is not visible, so
	// either state passes; a refusal before any task (a binding error) has no state to grade.
	spec(e, "SI-9.51c", "a limit refusal made through a Task ends it REJECTED or FAILED", func(w *harness.W) {
		s := open(w, "SI-9.51c")
		l := s.prof.Limits
		w.Need("limits", l != nil && (l.PayloadBytes > 0 || l.NestingDepth > 0), "the target's payload size or nesting limit, a skill and its arguments")
		s.note("limits")
		en, _ := s.entry(l.Skill)
		cl := s.client("A")
		plain := s.send(cl, false, modeSync, message(invokeReq(en.SkillID, en.SkillVersion, en.Digest, l.Arguments)), "the limits' request, nothing added")
		w.Control(plain.state() == a2a.StateCompleted, "the request the limit probes build on is processed", plain.describe(), plain.ex)
		var overs []*answer
		if l.PayloadBytes > 0 {
			overs = append(overs, s.send(cl, false, modeSync, padded(en, l.Arguments, l.Pad, l.PayloadBytes+4096), fmt.Sprintf("a request of about %d bytes", l.PayloadBytes+4096)))
		}
		if l.NestingDepth > 0 {
			for _, c := range nestingCarriers {
				overs = append(overs, s.send(cl, false, modeSync, nestedVia(c, en, l.Arguments, l.NestingDepth+8), fmt.Sprintf("%s nested %d deep", c, l.NestingDepth+8)))
			}
		}
		n := 0
		for _, an := range overs {
			if an.task == nil || an.code() != skiface.ResourceLimitExceeded {
				continue
			}
			n++
			w.Negative(an.state() == a2a.StateRejected || an.state() == a2a.StateFailed, "a Task refused with resource_limit_exceeded ends TASK_STATE_REJECTED or TASK_STATE_FAILED ("+an.ex.Note+")", an.describe(), an.ex)
		}
		if n == 0 {
			w.Inapplicable("no request over the limit was refused through a Task with resource_limit_exceeded (refusals came before any task, or carried no such condition: SI-12.3a grades the condition)")
		}
	})
	limits("SI-12.2h", "the agent enforces a payload size limit", func(w *harness.W, an *answer, what string) {
		// Any refusal enforces the limit: a rejected/failed Task, the binding's error, or an HTTP 4xx such as 413
		// Content Too Large (RFC 9110 §15.5.14) before any task exists.
		w.Negative(refusal(an) || (an.task == nil && an.msg == nil && an.ex != nil && an.ex.Status >= 400 && an.ex.Status < 500),
			"a request "+what+" is refused", an.describe(), an.ex)
	})
	limits("SI-12.2i", "the agent enforces a nesting limit", func(w *harness.W, an *answer, what string) {
		w.Negative(refusal(an), "a request "+what+" is refused", an.describe(), an.ex)
	})
	limits("SI-12.3a", "a limit refusal reports resource_limit_exceeded", func(w *harness.W, an *answer, what string) {
		// A plain HTTP 413 Content Too Large before any task is the HTTP binding's own report of a payload limit
		// (reading 20); any condition exposed must be resource_limit_exceeded.
		too413 := an.task == nil && an.msg == nil && an.ex != nil && an.ex.Status == http.StatusRequestEntityTooLarge && an.code() == ""
		w.Negative(an.state() != a2a.StateCompleted && (an.code() == skiface.ResourceLimitExceeded || too413),
			"the refusal of a request "+what+" carries resource_limit_exceeded (or is an HTTP 413 exposing no other condition)", an.describe(), an.ex)
	})
}

// padded is a request for skill whose string member at pad (or, when pad is empty, the message metadata's
// extconf_padding) is lengthened so the Message is about size bytes.
func padded(en entry, args json.RawMessage, pad string, size int) a2a.Message {
	if pad == "" {
		msg := message(invokeReq(en.SkillID, en.SkillVersion, en.Digest, args))
		msg.Metadata = json.RawMessage(`{"extconf_padding":""}`)
		n := max(size-len(mustJSON(msg)), 0)
		msg.Metadata = json.RawMessage(`{"extconf_padding":"` + strings.Repeat("x", n) + `"}`)
		return msg
	}
	m := cloneArgs(args)
	setPtr(m, pad, "")
	base := len(mustJSON(message(invokeReq(en.SkillID, en.SkillVersion, en.Digest, mustJSON(m)))))
	n := size - base
	if n < 0 {
		n = 0
	}
	setPtr(m, pad, strings.Repeat("x", n))
	return message(invokeReq(en.SkillID, en.SkillVersion, en.Digest, mustJSON(m)))
}

// nested is a valid request whose message metadata nests depth levels.
func nested(en entry, args json.RawMessage, depth int) a2a.Message {
	return nestedVia(nestingCarriers[0], en, args, depth)
}

// nestingCarriers are the places of a request a nesting probe nests a value in, the message's metadata first.
var nestingCarriers = []string{"message metadata", "part metadata", "request object", "arguments"}

// nestedVia is the request for en with args whose carrier holds a value nesting depth levels (arguments and the
// request object get an extra member, extconf_nesting, which a strict schema may refuse: the carrier's control
// then fails and another carrier is tried).
func nestedVia(carrier string, en entry, args json.RawMessage, depth int) a2a.Message {
	depth = max(depth, 1)
	deep := json.RawMessage(strings.Repeat(`{"n":`, depth-1) + "{}" + strings.Repeat("}", depth-1))
	switch carrier {
	case "part metadata":
		msg := message(invokeReq(en.SkillID, en.SkillVersion, en.Digest, args))
		msg.Parts[0].Metadata = deep
		return msg
	case "request object":
		req := invokeReq(en.SkillID, en.SkillVersion, en.Digest, args)
		req["extconf_nesting"] = deep
		return message(req)
	case "arguments":
		m := cloneArgs(args)
		m["extconf_nesting"] = deep
		return message(invokeReq(en.SkillID, en.SkillVersion, en.Digest, mustJSON(m)))
	}
	msg := message(invokeReq(en.SkillID, en.SkillVersion, en.Digest, args))
	msg.Metadata = deep
	return msg
}

func containsAny(list []any, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// enumerated returns the sorted values a selector schema permits: enum, const, or oneOf/anyOf of consts.
func enumerated(sch map[string]any) []string {
	var out []string
	add := func(v any) {
		if s, ok := v.(string); ok {
			out = append(out, s)
		}
	}
	if en, ok := sch["enum"].([]any); ok {
		for _, v := range en {
			add(v)
		}
	}
	if c, ok := sch["const"]; ok {
		add(c)
	}
	for _, k := range []string{"oneOf", "anyOf"} {
		if alts, ok := sch[k].([]any); ok {
			for _, a := range alts {
				m, _ := a.(map[string]any)
				if c, ok := m["const"]; ok {
					add(c)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

func anyStrMap(m map[string]string) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

func anyRawMap(m map[string]json.RawMessage) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

// constraintsWhat is why SI-8.10a/b need the operator's constraints: derived ones are found among input_schema's
// root properties, so a row about whether the constraints are in input_schema cannot fail on them.
const constraintsWhat = "the skill's execution constraint members as the operator knows them: derived ones are read from input_schema itself, so they cannot show a constraint missing from it or validated by another member"

// derivedConstraints blocks a row that cannot tell a correct agent from a defective one on derived constraints.
func derivedConstraints(s *sess) {
	if s.dv != nil && s.dv.Notes["constraints"] != "" {
		s.w.Need("constraints", false, constraintsWhat)
	}
}
