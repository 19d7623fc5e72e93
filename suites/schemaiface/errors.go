package schemaiface

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/refclients/skiface"
)

// mismatchVersion returns another Version String (minor + 1).
func mismatchVersion(v string) string {
	if versionString.MatchString(v) {
		var maj, min int
		fmt.Sscanf(v, "%d.%d", &maj, &min)
		return fmt.Sprintf("%d.%d", maj, min+1)
	}
	return "9.9"
}

// valid sends the primary skill's valid request as a positive control for row.
func (s *sess) control(row string, cl *a2a.Client, skill string, args json.RawMessage, what string) *answer {
	an := s.invoke(cl, false, modeSync, skill, args, what)
	s.w.Control(an.state() == a2a.StateCompleted, what+" completes", an.describe(), an.ex)
	return an
}

// primaryControl picks the primary skill and sends its valid request as principal A, the positive control for row
// ("<skill> with <with>"); it returns the skill, its valid arguments and A's client.
func (s *sess) primaryControl(row, with string) (entry, json.RawMessage, *a2a.Client) {
	p, args := s.primary()
	cl := s.client("A")
	s.control(row, cl, p.SkillID, args, p.SkillID+" with "+with)
	return p, args, cl
}

// describeControl asks describe_skill of a healthy skill, the positive control of the describe_skill fault rows.
func (s *sess) describeControl(row string, cl *a2a.Client) {
	ok := s.describeSkill(cl, false, modeSync, s.describeSkillID(row), "describe_skill control")
	s.w.Control(ok.ans.state() == a2a.StateCompleted, "describe_skill of a healthy skill completes", ok.ans.describe(), ok.ans.ex)
}

// refused is a negative assertion: the answer is a refusal (not COMPLETED) carrying code.
func (s *sess) refused(row string, an *answer, code, what string) {
	s.w.Negative(an.state() != a2a.StateCompleted && an.code() == code, what+": refused with condition "+code, an.describe(), an.ex)
}

func registerErrors(e *harness.Env) {
	spec(e, "SI-9.34", "the binding is compared before the arguments are validated", func(w *harness.W) {
		s := open(w, "SI-9.34")
		p, args := s.primary()
		cl := s.client("A")
		bad, _, ok := withoutRequired(inputSchema(s.doc("SI-9.34", p.SkillID).tree), args)
		if !ok {
			w.Inapplicable("input_schema of " + p.SkillID + " requires no member the valid arguments carry")
		}
		s.control("SI-9.34", cl, p.SkillID, args, p.SkillID+" with the advertised binding")
		an := s.send(cl, false, modeSync, message(invokeReq(p.SkillID, p.SkillVersion, wrongDigest(p.Digest), bad)), "wrong interface_digest and invalid arguments")
		s.refused("SI-9.34", an, skiface.InterfaceMismatch, "a wrong interface_digest with invalid arguments")
	})
	mismatch := func(row, what string, req func(p entry, args json.RawMessage) map[string]any) {
		spec(e, row, "an invocation whose "+what+" differs from the active document is rejected with interface_mismatch", func(w *harness.W) {
			s := open(w, row)
			p, args, cl := s.primaryControl(row, "the advertised binding")
			an := s.send(cl, false, modeSync, message(req(p, args)), "invocation with another "+what)
			s.refused(row, an, skiface.InterfaceMismatch, "another "+what)
			// The binding member absent or of another type identifies no active document either: such a request is
			// never executed as if it named the current one. Any refusal passes (the document names the code only
			// for a value that differs).
			member := map[string]string{"skill_version": "skill_version", "interface_digest": "interface_digest"}[what]
			for _, bad := range []struct {
				how string
				v   any
			}{{"absent", nil}, {"a number", 10}} {
				r := invokeReq(p.SkillID, p.SkillVersion, p.Digest, args)
				if bad.v == nil {
					delete(r, member)
				} else {
					r[member] = bad.v
				}
				an := s.send(cl, false, modeSync, message(r), "invocation with "+member+" "+bad.how)
				w.Negative(refusal(an), "an invocation with "+member+" "+bad.how+" is refused, not executed as the current binding", an.describe(), an.ex)
			}
		})
	}
	mismatch("SI-9.35a", "skill_version", func(p entry, args json.RawMessage) map[string]any {
		return invokeReq(p.SkillID, mismatchVersion(p.SkillVersion), p.Digest, args)
	})
	mismatch("SI-9.35b", "interface_digest", func(p entry, args json.RawMessage) map[string]any {
		return invokeReq(p.SkillID, p.SkillVersion, wrongDigest(p.Digest), args)
	})
	spec(e, "SI-9.50a", "an interface_mismatch refusal ends the Task in TASK_STATE_REJECTED", func(w *harness.W) {
		s := open(w, "SI-9.50a")
		p, args, cl := s.primaryControl("SI-9.50a", "the advertised binding")
		for _, req := range []map[string]any{invokeReq(p.SkillID, mismatchVersion(p.SkillVersion), p.Digest, args), invokeReq(p.SkillID, p.SkillVersion, wrongDigest(p.Digest), args)} {
			an := s.send(cl, false, modeSync, message(req), "invocation with a stale binding")
			w.Negative(an.code() == skiface.InterfaceMismatch && an.state() == a2a.StateRejected, "interface_mismatch in TASK_STATE_REJECTED", an.describe(), an.ex)
		}
	})
	invalids := func(s *sess, row string, p entry, args json.RawMessage) map[string]json.RawMessage {
		sch := inputSchema(s.doc(row, p.SkillID).tree)
		out := map[string]json.RawMessage{}
		if b, _, ok := withoutRequired(sch, args); ok {
			out["a required member missing"] = b
		}
		if b, _, ok := withWrongType(sch, args); ok {
			out["a member of the wrong type"] = b
		}
		if b, _, ok := withExtraMember(sch, args); ok {
			out["a member input_schema does not allow"] = b
		}
		// Every other keyword the schema states, through $ref, composition, nesting and arrays (mutants.go).
		d := s.doc(row, p.SkillID)
		for _, m := range mutants(sch, args, s.compiled(row, d, "input")) {
			out[m.what()] = m.args
		}
		if len(out) == 0 {
			s.w.Inapplicable("no invalid instance can be derived from input_schema of " + p.SkillID)
		}
		return out
	}
	// invalidSpec declares a row read from the primary skill's refusals of invalid instances: after the control,
	// each instance invalids derives is sent and its answer handed to check.
	invalidSpec := func(row, text string, check func(s *sess, what string, an *answer)) {
		spec(e, row, text, func(w *harness.W) {
			s := open(w, row)
			p, args, cl := s.primaryControl(row, "valid arguments")
			for what, bad := range invalids(s, row, p, args) {
				check(s, what, s.invoke(cl, false, modeSync, p.SkillID, bad, p.SkillID+" with "+what))
			}
		})
	}
	invalidSpec("SI-9.37a", "arguments that fail input_schema are rejected with input_invalid", func(s *sess, what string, an *answer) {
		s.refused("SI-9.37a", an, skiface.InputInvalid, "arguments with "+what)
	})
	invalidSpec("SI-9.50b", "an input_invalid refusal ends the Task in TASK_STATE_REJECTED", func(s *sess, what string, an *answer) {
		s.w.Negative(an.code() == skiface.InputInvalid && an.state() == a2a.StateRejected, "input_invalid in TASK_STATE_REJECTED", an.describe(), an.ex)
	})
	invalidSpec("SI-9.65b", "the receiving agent validates the received instance before processing it", func(s *sess, what string, an *answer) {
		s.w.Negative(an.code() == skiface.InputInvalid && an.state() == a2a.StateRejected && len(taskArtifacts(an.task)) == 0,
			"the invalid instance ("+what+") is refused with input_invalid and nothing is produced", an.describe()+" "+partsSummary(taskArtifacts(an.task)), an.ex)
	})
	invalidSpec("SI-9.49a", "an invalid data instance is reported as input_invalid, never interface_invalid", func(s *sess, what string, an *answer) {
		s.w.Negative(an.code() != skiface.InterfaceInvalid && an.code() == skiface.InputInvalid, "condition input_invalid, not interface_invalid ("+what+")", an.describe(), an.ex)
	})
	spec(e, "SI-9.37b", "an input_invalid refusal produces no Artifact, record or side effect", func(w *harness.W) {
		s := open(w, "SI-9.37b")
		p, args, cl := s.primaryControl("SI-9.37b", "valid arguments")
		bad, _, ok := withoutRequired(inputSchema(s.doc("SI-9.37b", p.SkillID).tree), args)
		if !ok {
			bad, _, ok = withWrongType(inputSchema(s.doc("SI-9.37b", p.SkillID).tree), args)
		}
		if !ok {
			w.Inapplicable("no invalid instance can be derived from input_schema of " + p.SkillID)
		}
		an := s.invoke(cl, false, modeSync, p.SkillID, bad, p.SkillID+" with invalid arguments")
		w.Negative(an.state() != a2a.StateCompleted && len(taskArtifacts(an.task)) == 0, "no Artifact or supporting record for the rejected request",
			an.describe()+" "+partsSummary(taskArtifacts(an.task)), an.ex)
		// Arguments that are not an object carry nothing an authorization decision reads, so an agent deciding
		// authorization first (permitted) may refuse them as authorization_failed: any refusal producing nothing.
		nonObj := s.invoke(cl, false, modeSync, p.SkillID, json.RawMessage(`"not an object"`), p.SkillID+" with arguments that are not an object")
		w.Negative(refusal(nonObj) && len(taskArtifacts(nonObj.task)) == 0, "arguments that are not an object are refused and produce nothing",
			nonObj.describe()+" "+partsSummary(taskArtifacts(nonObj.task)), nonObj.ex)
		// The sentence's other half (no side effect) needs a read showing one: without it the row blocks, it is
		// never passed on the Artifact half alone.
		w.Need("inputSideEffect", s.prof.InputSideEffect != nil, inputSideEffectWhat)
		if se := s.prof.InputSideEffect; se != nil {
			// "One operation per skill is preferred": the read showing the state may be another skill (checkSkill).
			read := cmp.Or(se.CheckSkill, se.Skill)
			before := s.invoke(cl, false, modeSync, read, se.Check, "state before the invalid request")
			after0 := s.invoke(cl, false, modeSync, se.Skill, se.Invalid, "invalid request with a side effect")
			w.Negative(after0.state() != a2a.StateCompleted && len(taskArtifacts(after0.task)) == 0, "the invalid side-effecting request is refused before domain logic", after0.describe(), after0.ex)
			after := s.invoke(cl, false, modeSync, read, se.Check, "state after the invalid request")
			b1, _ := resultOf(before.task, read)
			b2, _ := resultOf(after.task, read)
			w.Negative(before.state() == a2a.StateCompleted && string(mustJSON(b1)) == string(mustJSON(b2)),
				"the follow-up read shows no side effect", fmt.Sprintf("before %s, after %s", mustJSON(b1), mustJSON(b2)), after.ex)
		}
	})
	// The sentence binds a receiving agent that must "inspect, validate, transform, simulate, or apply a
	// configuration change": an execute-mode skill applies one; a recommend_only skill "may produce a proposed
	// action or change but does not apply it" (simulate, transform). Which skill's specification concerns a
	// configuration change the harness cannot know, so it takes an execute skill with arguments, else a
	// recommend_only one (README: SI-6.5a).
	spec(e, "SI-6.5a", "a structurally invalid representation for a skill that applies or proposes a change (execute, else recommend_only) is rejected with input_invalid", func(w *harness.W) {
		s := open(w, "SI-6.5a")
		var skill string
		var args json.RawMessage
		for _, mode := range changeModes {
			for _, d := range s.survey().docs {
				if a, ok := s.arguments(d.skill); ok && defaultMode(d.tree) == mode {
					skill, args = d.skill, a
					break
				}
			}
			if skill != "" {
				if mode != "execute" {
					w.Note(fmt.Sprintf("no execute-mode skill has valid arguments: graded on %s (authority.default_mode %s, a skill that proposes a change)", skill, mode))
				}
				break
			}
		}
		if skill == "" {
			s.needArguments(w, "SI-6.5a", "no advertised skill has authority.default_mode execute or recommend_only")
		}
		cl := s.client("A")
		s.control("SI-6.5a", cl, skill, args, skill+" with a valid representation")
		sch := inputSchema(s.doc("SI-6.5a", skill).tree)
		bad, _, ok := withExtraMember(sch, args)
		if !ok {
			bad, _, ok = withWrongType(sch, args)
		}
		if !ok {
			w.Inapplicable("no invalid instance can be derived from input_schema of " + skill)
		}
		an := s.invoke(cl, false, modeSync, skill, bad, skill+" with a structurally invalid representation")
		w.Negative(an.state() == a2a.StateRejected && an.code() == skiface.InputInvalid, "TASK_STATE_REJECTED with input_invalid", an.describe(), an.ex)
	})
	format := func(row, only, what string, bad func(f string) string) {
		spec(e, row, what, func(w *harness.W) {
			s := open(w, row)
			var skill, member, f string
			var args json.RawMessage
			for _, d := range s.survey().docs {
				a, ok := s.arguments(d.skill)
				if !ok {
					continue
				}
				if m, ff, ok := formatMember(inputSchema(d.tree), only); ok {
					skill, member, f, args = d.skill, m, ff, a
					break
				}
			}
			if skill == "" {
				s.needArguments(w, row, "no advertised input_schema declares a format the suite exercises at its root ("+firstNonEmpty(only, "date-time, date, time, email, ipv4, uuid")+")")
			}
			cl := s.client("A")
			s.control(row, cl, skill, withMember(args, member, formatSamples[f][0]), fmt.Sprintf("%s with %s %q", skill, member, formatSamples[f][0]))
			an := s.invoke(cl, false, modeSync, skill, withMember(args, member, bad(f)), fmt.Sprintf("%s with %s %q", skill, member, bad(f)))
			w.Negative(an.state() == a2a.StateRejected && an.code() == skiface.InputInvalid,
				fmt.Sprintf("%s %q violates format %s: rejected with input_invalid", member, bad(f), f), an.describe(), an.ex)
		})
	}
	format("SI-6.12b", "", "the agent asserts format keywords of input_schema", func(f string) string { return formatSamples[f][1] })
	format("SI-6.13b", "date-time", "the agent rejects a date-time argument without an RFC 3339 offset", func(string) string { return "2026-08-11T11:59:00" })

	// The error-shape rows read the refusals of three ordinary mistakes.
	mistakes := func(s *sess, row string) []*answer {
		p, args, cl := s.primaryControl(row, "valid arguments")
		out := []*answer{s.send(cl, false, modeSync, message(invokeReq(p.SkillID, p.SkillVersion, wrongDigest(p.Digest), args)), "wrong interface_digest")}
		if bad, _, ok := withoutRequired(inputSchema(s.doc(row, p.SkillID).tree), args); ok {
			out = append(out, s.invoke(cl, false, modeSync, p.SkillID, bad, "invalid arguments"))
		}
		out = append(out, s.describeSkill(cl, false, modeSync, "extconf_no_such_skill", "describe_skill of an unadvertised skill").ans)
		return out
	}
	// "the Task's final status Message MUST contain exactly one Data Part whose data value has this form": the count
	// is of Data Parts; a Text Part beside it (a human-readable message) is contained too and is not a Data Part.
	spec(e, "SI-9.46a", "a refused Task's final status Message holds exactly one Data Part (other kinds of part may sit beside it)", func(w *harness.W) {
		s := open(w, "SI-9.46a")
		n := 0
		for _, an := range mistakes(s, "SI-9.46a") {
			if an.task == nil {
				continue
			}
			n++
			m := an.task.Status.Message
			w.Negative(m != nil && len(dataParts(m.Parts)) == 1, "the final status Message holds exactly one Data Part ("+an.ex.Note+")",
				statusSummary(an.task), an.ex)
		}
		w.Check(n > 0, "refusals made through a Task", "none", s.cardEx)
	})
	spec(e, "SI-9.46b", `the error Data Part is {"error":{"code":…,"message"?:…}}`, func(w *harness.W) {
		s := open(w, "SI-9.46b")
		n := 0
		for _, an := range mistakes(s, "SI-9.46b") {
			if an.task == nil || an.task.Status.Message == nil {
				continue
			}
			for _, p := range an.task.Status.Message.Parts {
				d, _ := decodeTree(p.Data).(map[string]any)
				if d == nil {
					continue
				}
				n++
				e, _ := d["error"].(map[string]any)
				_, codeOK := e["code"].(string)
				msg, hasMsg := e["message"]
				_, msgOK := msg.(string)
				w.Negative(e != nil && codeOK && (!hasMsg || msgOK), `data is {"error":{"code":<string>,"message"?:<string>}} (`+an.ex.Note+")",
					clip(string(p.Data), 300), an.ex)
			}
		}
		w.Check(n > 0, "error Data Parts to examine", "none", s.cardEx)
	})
	spec(e, "SI-9.47", "every condition code is one of the ten names, spelt exactly", func(w *harness.W) {
		s := open(w, "SI-9.47")
		for _, an := range mistakes(s, "SI-9.47") {
			c := strictCode(an)
			w.Negative(skiface.IsCode(c) || (c == "" && silentBinding(an)), "the condition is one of "+strings.Join(skiface.Codes, ", ")+" ("+an.ex.Note+")", fmt.Sprintf("%q; %s", c, an.describe()), an.ex)
		}
	})
	spec(e, "SI-9.52b", "mismatch, invalid input and an unadvertised skill get their own condition names", func(w *harness.W) {
		s := open(w, "SI-9.52b")
		ans := mistakes(s, "SI-9.52b")
		want := []string{skiface.InterfaceMismatch, skiface.InputInvalid, skiface.SkillNotAdvertised}
		if len(ans) == 2 {
			want = []string{skiface.InterfaceMismatch, skiface.SkillNotAdvertised}
		}
		for i, an := range ans {
			w.Negative(refusedWith(an, want[i]), "condition "+want[i]+", or a pre-task binding error exposing none (SHOULD) ("+an.ex.Note+")", an.describe(), an.ex)
		}
	})
	spec(e, "SI-9.48", "errors raised before a Task exists come back as the binding's error, never as a successful result", func(w *harness.W) {
		s := open(w, "SI-9.48")
		p, args := s.primary()
		negs := mistakes(s, "SI-9.48")
		if h, ok := s.e.Target.Config.PrincipalOf(docID, "A"); ok && h.Header != "" {
			an := s.send(s.e.Client, false, modeSync, message(invokeReq(p.SkillID, p.SkillVersion, p.Digest, args)), "invocation without a credential")
			negs = append(negs, an)
		}
		for _, an := range negs {
			ok := (an.task != nil && (an.state() == a2a.StateRejected || an.state() == a2a.StateFailed)) || an.bindErr != nil || an.httpRefusal()
			w.Negative(ok && an.msg == nil, "a refusal is a rejected/failed Task or the binding's error, not a successful result ("+an.ex.Note+")", an.describe(), an.ex)
		}
	})
	// "… and SHOULD expose the same machine-readable code when that binding permits it": both bindings permit it
	// (a JSON-RPC error's data, a google.rpc.Status's details), so a binding error naming no condition is the
	// advisory finding; a plain HTTP refusal without a body is one too.
	spec(e, "SI-9.48b", "errors raised before a Task exists expose the machine-readable condition in the binding's error", func(w *harness.W) {
		s := open(w, "SI-9.48b")
		p, args := s.primary()
		negs := mistakes(s, "SI-9.48b")
		if h, ok := s.e.Target.Config.PrincipalOf(docID, "A"); ok && h.Header != "" {
			negs = append(negs, s.send(s.e.Client, false, modeSync, message(invokeReq(p.SkillID, p.SkillVersion, p.Digest, args)), "invocation without a credential"))
		}
		n := 0
		for _, an := range negs {
			if an.task != nil || an.msg != nil || (an.bindErr == nil && !an.httpRefusal()) {
				continue // refused through a Task (graded by SI-9.46a/b), or not refused
			}
			n++
			w.Check(an.code() != "", "the binding error exposes the condition ("+an.ex.Note+")", an.describe(), an.ex)
		}
		if n == 0 {
			w.Inapplicable("every refusal the run provoked came through a Task: no error was raised before task creation")
		}
	})
	spec(e, "SI-9.54a", "an invocation carrying a stale binding is reported as interface_mismatch", func(w *harness.W) {
		s, an := staleBinding(w, "SI-9.54a")
		s.refused("SI-9.54a", an, skiface.InterfaceMismatch, "the stale binding")
	})
	spec(e, "SI-9.54b", "a stale binding is refused with TASK_STATE_REJECTED", func(w *harness.W) {
		_, an := staleBinding(w, "SI-9.54b")
		w.Negative(an.state() == a2a.StateRejected && an.code() == skiface.InterfaceMismatch, "interface_mismatch in TASK_STATE_REJECTED", an.describe(), an.ex)
	})
	spec(e, "SI-9.56a", "input_invalid details name the invalid field by an RFC 6901 JSON Pointer", func(w *harness.W) {
		s := open(w, "SI-9.56a")
		p, args, cl := s.primaryControl("SI-9.56a", "valid arguments")
		bad, ptr, ok := withWrongType(inputSchema(s.doc("SI-9.56a", p.SkillID).tree), args)
		if !ok {
			w.Inapplicable("input_schema of " + p.SkillID + " has no typed leaf the arguments carry")
		}
		an := s.invoke(cl, false, modeSync, p.SkillID, bad, p.SkillID+" with "+ptr+" of the wrong type")
		w.Negative(an.code() == skiface.InputInvalid, "refused with input_invalid", an.describe(), an.ex)
		details := errorDetails(an)
		if details == nil {
			w.Inapplicable("the input_invalid refusal carries no details array (details are optional)")
		}
		inst := decodeTree(bad)
		found := false
		for _, d := range details {
			m, _ := d.(map[string]any)
			ip, isStr := m["instance_path"].(string)
			_, resolves := skiface.Resolve(inst, ip)
			w.Negative(isStr && skiface.ParsePointer(ip) == nil && resolves, "details[].instance_path is a JSON Pointer into arguments", fmt.Sprintf("%#v", m["instance_path"]), an.ex)
			found = found || ip == ptr
		}
		w.Negative(found, "one details entry points at "+ptr, clip(string(mustJSON(details)), 300), an.ex)
	})
	spec(e, "SI-9.57a", "error answers never contain the caller's credential", func(w *harness.W) {
		s := open(w, "SI-9.57a")
		p, args := s.primary()
		cl, cred := s.e.Client, "Bearer extconf-canary-"+newID()
		if pr, ok := s.e.Target.Config.PrincipalOf(docID, "A"); ok && pr.Header != "" {
			cl, cred = s.client("A"), pr.Value
		} else {
			cl = s.e.Client.WithHeader("Authorization", cred)
		}
		s.control("SI-9.57a", s.client("A"), p.SkillID, args, p.SkillID+" with valid arguments")
		bad, _, ok := withoutRequired(inputSchema(s.doc("SI-9.57a", p.SkillID).tree), args)
		if !ok {
			bad = json.RawMessage(`"not an object"`)
		}
		an := s.invoke(cl, false, modeSync, p.SkillID, bad, p.SkillID+" with invalid arguments, credential attached")
		secret := strings.TrimSpace(strings.TrimPrefix(cred, "Bearer"))
		leak := strings.Contains(string(an.ex.ResponseBody), secret) || headerHas(an.ex.ResponseHeader, secret)
		w.Negative(an.state() != a2a.StateCompleted && !leak, "the refusal does not contain the credential", fmt.Sprintf("leaked %v; %s", leak, an.describe()), an.ex)
	})
}

// staleBinding sends the profile's stale binding after a control with the current binding. A stale binding is an
// interface the agent once advertised (§9: "based on a stale interface"); the advertised version with another
// digest is SI-9.35b's unadvertised binding, which a correct agent may refuse for that reason alone, so without
// the operator's statement of a retired binding the row blocks naming it.
func staleBinding(w *harness.W, row string) (*sess, *answer) {
	s := open(w, row)
	cl := s.client("A")
	sb := s.prof.StaleBinding
	w.Need("staleBinding", sb != nil, "a binding (skill, skillVersion, interfaceDigest) the agent advertised before and no longer does; no probe can see an interface the agent has retired")
	skill, version, digest, args := sb.Skill, sb.SkillVersion, sb.InterfaceDigest, sb.Arguments
	if args == nil {
		args, _ = s.arguments(skill)
	}
	for _, e := range s.entries {
		if e.SkillID == skill && e.SkillVersion == version && e.Digest == digest {
			w.Blocked(fmt.Sprintf("documents.%s.staleBinding is %s %s %s, which the agent advertises now: a stale binding is one it no longer advertises", docID, skill, version, digest))
		}
	}
	s.control(row, cl, skill, args, skill+" with the current binding")
	an := s.send(cl, false, modeSync, message(invokeReq(skill, version, digest, args)), fmt.Sprintf("%s with the stale binding %s %s", skill, version, digest))
	return s, an
}

// errorObject returns the error object of the first Data Part of the final status Message that carries one; nil
// when the answer has no Task, no status Message or no such part.
func errorObject(an *answer) map[string]any {
	if an.task == nil || an.task.Status.Message == nil {
		return nil
	}
	for _, p := range an.task.Status.Message.Parts {
		d, _ := decodeTree(p.Data).(map[string]any)
		if e, ok := d["error"].(map[string]any); ok {
			return e
		}
	}
	return nil
}

// strictCode reads error.code exactly where the mapping puts it (binding errors: ErrorInfo reason).
func strictCode(an *answer) string {
	if an.task != nil && an.task.Status.Message != nil {
		c, _ := errorObject(an)["code"].(string)
		return c
	}
	return bindingCode(an.bindErr)
}

func errorDetails(an *answer) []any {
	ds, _ := errorObject(an)["details"].([]any)
	return ds
}

func statusSummary(t *a2a.Task) string {
	if t.Status.Message == nil {
		return t.Status.State + " without a status Message"
	}
	return t.Status.State + " " + partsSummary([]a2a.Artifact{{Name: "status", Parts: t.Status.Message.Parts}})
}

func headerHas(h http.Header, s string) bool {
	for _, vs := range h {
		for _, v := range vs {
			if strings.Contains(v, s) {
				return true
			}
		}
	}
	return false
}

func stringsContains(s, sub string) bool { return strings.Contains(s, sub) }

// dataParts returns the Data Parts among parts (Text and File Parts are left out).
func dataParts(parts []a2a.Part) []a2a.Part {
	var out []a2a.Part
	for _, p := range parts {
		if len(p.Data) > 0 {
			out = append(out, p)
		}
	}
	return out
}

const inputSideEffectWhat = "a side-effecting skill, an invalid request of it and a read showing its effect (the row's \"no side effect\" half)"
