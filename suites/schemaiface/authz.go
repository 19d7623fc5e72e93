package schemaiface

import (
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"sort"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/refclients/skiface"
)

// hook calls an operator control (grant an approval, revoke a grant). Only a URL on the agent's own origin or on
// loopback is called: the harness never follows configuration off the target.
func (s *sess) hook(row string, h Hook, note string) {
	u, err := url.Parse(h.URL)
	card, _ := url.Parse(s.cardEx.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		s.w.Blocked(fmt.Sprintf("%s hook URL %q is not an http(s) URL", note, h.URL))
	}
	ip := net.ParseIP(u.Hostname())
	if u.Host != card.Host && (ip == nil || !ip.IsLoopback()) {
		s.w.Blocked(fmt.Sprintf("%s hook URL %q is neither on the agent's origin nor on loopback", note, h.URL))
	}
	body := []byte(h.Body)
	if body == nil {
		body = []byte("{}")
	}
	ex, err := s.e.Client.HTTP(s.w.Ctx(), "POST", h.URL, body, a2a.Call{Note: note})
	s.w.Control(err == nil && ex.Status >= 200 && ex.Status < 300, "the operator hook "+note+" succeeds", fmt.Sprintf("%v HTTP %d", err, ex.Status), ex)
}

// refusal reports whether an answer refuses: a rejected/failed Task or a binding error, nothing completed.
func refusal(an *answer) bool {
	return (an.task != nil && (an.state() == a2a.StateRejected || an.state() == a2a.StateFailed)) ||
		(an.task == nil && an.msg == nil && (an.bindErr != nil || an.httpRefusal()))
}

// silentBinding reports whether an answer is a refusal made before any task existed through the binding's error
// mechanism that exposes no condition: permitted, since such an error "SHOULD expose the same machine-readable
// code when that binding permits it" (SHOULD, not MUST).
func silentBinding(an *answer) bool {
	return an.task == nil && an.msg == nil && (an.bindErr != nil || an.httpRefusal()) && an.code() == ""
}

// refusedWith reports whether an answer refuses with code, or is a pre-task binding refusal exposing no condition.
func refusedWith(an *answer, code string) bool {
	return an.state() != a2a.StateCompleted && an.msg == nil && (an.code() == code || silentBinding(an))
}

// authz is the profile's authorization cases (empty when there are none: each case Needs its own member).
func (s *sess) authz(row string) *AuthzProfile {
	if s.prof.Authorization == nil {
		return &AuthzProfile{}
	}
	return s.prof.Authorization
}

func registerAuthz(e *harness.Env) {
	authn := func(row, text string, check func(w *harness.W, an *answer, what string)) {
		spec(e, row, text, func(w *harness.W) {
			s := open(w, row)
			h, v := s.principal("A")
			p, args := s.primary()
			s.control(row, s.client("A"), p.SkillID, args, p.SkillID+" as principal A")
			req := message(invokeReq(p.SkillID, p.SkillVersion, p.Digest, args))
			check(w, s.send(s.e.Client, false, modeSync, req, "no credential"), "without a credential")
			check(w, s.send(s.e.Client.WithHeader(h, v+"-corrupted"), false, modeSync, message(invokeReq(p.SkillID, p.SkillVersion, p.Digest, args)), "corrupted credential"), "with a corrupted credential")
			// Every other advertised skill with a security requirement gets the same probe: authentication is owed
			// on every invocation, not on one skill. Its positive control is the survey's valid invocation as A.
			for _, en := range s.secured() {
				if en.SkillID == p.SkillID {
					continue
				}
				a, ok := s.arguments(en.SkillID)
				ctl := s.surveyRun(en.SkillID)
				if !ok || ctl == nil || ctl.ans.state() != a2a.StateCompleted {
					continue // no valid request of principal A to compare with
				}
				w.Control(true, en.SkillID+" with valid arguments as principal A completes", ctl.ans.describe(), ctl.ans.ex)
				an := s.send(s.e.Client, false, modeSync, message(invokeReq(en.SkillID, en.SkillVersion, en.Digest, a)), en.SkillID+" with no credential")
				check(w, an, "to "+en.SkillID+" without a credential")
			}
		})
	}
	refusedUnauth := func(row string) func(w *harness.W, an *answer, what string) {
		return func(w *harness.W, an *answer, what string) {
			w.Negative(an.state() != a2a.StateCompleted && (an.bindErr != nil || an.httpRefusal() || an.code() == skiface.AuthorizationFailed) && an.msg == nil,
				"an invocation "+what+" is refused before processing (binding error, HTTP 401/403, or authorization_failed), nothing completes", an.describe(), an.ex)
		}
	}
	authn("SI-8.7a", "an invocation without valid credentials is refused before processing", refusedUnauth("SI-8.7a"))
	authn("SI-12.5a", "the caller is authenticated at invocation time", refusedUnauth("SI-12.5a"))
	authn("SI-12.8a", "a denied authentication is reported with authorization_failed", func(w *harness.W, an *answer, what string) {
		// A pre-task refusal "MUST be carried using the error mechanism of the selected A2A protocol binding and
		// SHOULD expose the same machine-readable code": a binding refusal exposing no condition passes; a condition
		// exposed anywhere must be authorization_failed.
		c := an.code()
		preTask := an.task == nil && (an.bindErr != nil || an.httpRefusal())
		w.Negative(an.state() != a2a.StateCompleted && an.msg == nil && (c == skiface.AuthorizationFailed || (preTask && c == "")),
			"the refusal "+what+" carries authorization_failed, or is a binding refusal exposing no condition (SHOULD)", an.describe(), an.ex)
	})

	// Principal B against principal A on the same request.
	pair := func(row, text string, pick func(s *sess) (string, json.RawMessage), check func(w *harness.W, an *answer)) {
		spec(e, row, text, func(w *harness.W) {
			s := open(w, row)
			skill, args := pick(s)
			s.control(row, s.client("A"), skill, args, skill+" as principal A")
			an := s.invoke(s.client("B"), false, modeSync, skill, args, "the same request as principal B")
			check(w, an)
		})
	}
	skillCase := func(s *sess) (string, json.RawMessage) {
		c := s.authz("").Skill
		s.w.Need("authorization.skill", c != nil, "a request of principal A that principal B holds no grant for")
		s.note("authorization.skill")
		return c.Skill, c.Arguments
	}
	refusedAs := func(row string, code, state string) func(w *harness.W, an *answer) {
		return func(w *harness.W, an *answer) {
			ok := refusal(an) && an.msg == nil
			want := "principal B is refused"
			if code != "" {
				ok = ok && refusedWith(an, code)
				want += " with " + code + " (or, before any task, a binding error exposing no condition: SHOULD)"
			}
			if state != "" {
				ok = ok && an.state() == state
				want += " in " + state
			}
			w.Negative(ok, want, an.describe(), an.ex)
		}
	}
	pair("SI-8.7b", "the authorization decision covers the requested skill", skillCase, refusedAs("SI-8.7b", "", ""))
	pair("SI-12.5b", "the requested skill is authorized under current policy at invocation time", skillCase, refusedAs("SI-12.5b", "", ""))
	pair("SI-12.7a", "a valid cached binding does not replace authorization", skillCase, refusedAs("SI-12.7a", "", ""))
	pair("SI-12.7b", "schema-valid arguments do not substitute for authorization", skillCase, refusedAs("SI-12.7b", "", ""))
	pair("SI-12.8b", "a denied authorization is reported with authorization_failed", skillCase, refusedAs("SI-12.8b", skiface.AuthorizationFailed, ""))
	pair("SI-9.50d", "an authorization_failed refusal ends the Task in TASK_STATE_REJECTED", skillCase, func(w *harness.W, an *answer) {
		if an.task == nil && (an.bindErr != nil || an.httpRefusal()) {
			// The sentence binds a Task; a refusal before task creation is carried by the binding (SI-9.48).
			w.Inapplicable("principal B was refused before any task existed, through the binding's error; the row binds refusals made through a Task")
		}
		w.Negative(an.task != nil && an.state() == a2a.StateRejected && an.code() == skiface.AuthorizationFailed,
			"authorization_failed in TASK_STATE_REJECTED", an.describe(), an.ex)
	})
	observeOnly := func(s *sess) (string, json.RawMessage) {
		az := s.authz("")
		if c, ok := az.Modes["observe_only"]; ok {
			s.note("authorization.modes.observe_only")
			return c.Skill, c.Arguments
		}
		if az.Skill != nil {
			if d := s.survey().bySk[az.Skill.Skill]; d != nil && d.tree != nil {
				if au, _ := d.tree["authority"].(map[string]any); au["default_mode"] == "observe_only" {
					s.note("authorization.skill")
					return az.Skill.Skill, az.Skill.Arguments
				}
			}
		}
		if az.Skill != nil {
			// authorization.skill is a skill of another mode: only an observe_only case can meet the row, and the
			// operator may declare there is none (reading 34).
			s.w.Need("authorization.modes.observe_only", false, observeOnlyWhat)
		}
		s.w.Need("authorization.modes.observe_only|authorization.skill", false, "an observe_only skill principal A may use and principal B may not")
		return "", nil
	}
	pair("SI-8.2b", "the authority member is no permission: an unauthorized caller of an observe_only skill is refused", observeOnly, refusedAs("SI-8.2b", skiface.AuthorizationFailed, ""))
	pair("SI-12.4b", "the agent does not read its advertised authority as a grant", observeOnly, refusedAs("SI-12.4b", "", ""))
	spec(e, "SI-8.3", "runtime authorization runs for skills of every advertised default_mode", func(w *harness.W) {
		s := open(w, "SI-8.3")
		modes := s.authz("SI-8.3").Modes
		w.Need("authorization.modes", len(modes) > 0, "per advertised default_mode, a request of principal A that principal B may not make")
		for _, mode := range sortedKeys(anyMap(modes)) {
			c := modes[mode]
			s.note("authorization.modes." + mode)
			d := s.doc("SI-8.3", c.Skill)
			au, _ := d.tree["authority"].(map[string]any)
			w.Check(au["default_mode"] == mode, c.Skill+" advertises default_mode "+mode, fmt.Sprintf("%#v", au["default_mode"]), d.ans.ex)
			s.control("SI-8.3", s.client("A"), c.Skill, c.Arguments, c.Skill+" ("+mode+") as principal A")
			an := s.invoke(s.client("B"), false, modeSync, c.Skill, c.Arguments, c.Skill+" ("+mode+") as principal B")
			w.Negative(refusal(an) && refusedWith(an, skiface.AuthorizationFailed), "principal B is refused the "+mode+" skill "+c.Skill, an.describe(), an.ex)
		}
		// "In every mode": a mode advertised but never probed (the derivation sends no request that may have side
		// effects) is not passed on the others' strength — unless the operator declares that mode has no request
		// principal B is refused (reading 33): the modes with a case are graded, the declaration is quoted.
		in, _ := s.e.Input(docID).(*Input)
		for _, mode := range advertisedModes(s.survey()) {
			if _, ok := modes[mode]; !ok {
				if why, absent := modeAbsent(in, mode); absent {
					w.Note(fmt.Sprintf("%s not graded: the operator declares documents.%s.absent.authorization.modes.%s: %q", mode, docID, mode, why))
					continue
				}
				w.Need("authorization.modes."+mode, false, modeWhat(mode))
			}
		}
	})
	pairCase := func(row, text, which string, get func(a *AuthzProfile) *PairCase, extra func(w *harness.W, s *sess, pc *PairCase, an *answer)) {
		spec(e, row, text, func(w *harness.W) {
			s := open(w, row)
			pc := get(s.authz(row))
			w.Need("authorization."+which, pc != nil, "a request principal B may make and one beyond its "+which+" grant")
			s.note("authorization." + which)
			var before *answer
			if pc.Check != nil {
				before = s.invoke(s.client("A"), false, modeSync, pc.Skill, pc.Check, "state before principal B's refused request")
			}
			ctl := s.invoke(s.client("B"), false, modeSync, pc.Skill, pc.Allowed, "principal B's permitted request")
			w.Control(ctl.state() == a2a.StateCompleted, "principal B's permitted request completes", ctl.describe(), ctl.ex)
			an := s.invoke(s.client("B"), false, modeSync, pc.Skill, pc.Denied, "principal B's request beyond its "+which+" grant")
			w.Negative(refusal(an) && refusedWith(an, skiface.AuthorizationFailed), "principal B is refused with authorization_failed", an.describe(), an.ex)
			if before != nil {
				after := s.invoke(s.client("A"), false, modeSync, pc.Skill, pc.Check, "state after principal B's refused request")
				b1, _ := resultOf(before.task, pc.Skill)
				b2, _ := resultOf(after.task, pc.Skill)
				w.Negative(string(mustJSON(b1)) == string(mustJSON(b2)), "the refused request had no side effect", fmt.Sprintf("before %s, after %s", mustJSON(b1), mustJSON(b2)), after.ex)
			}
			if extra != nil {
				extra(w, s, pc, an)
			}
		})
	}
	res := func(a *AuthzProfile) *PairCase { return a.Resource }
	op := func(a *AuthzProfile) *PairCase { return a.Operation }
	con := func(a *AuthzProfile) *PairCase { return a.Constraint }
	pairCase("SI-8.7c", "the authorization decision covers the requested resources", "resource", res, nil)
	pairCase("SI-12.5c", "the requested resources are authorized at invocation time", "resource", res, nil)
	pairCase("SI-8.6a", "the selected operation is authorized per request", "operation", op, nil)
	pairCase("SI-8.7d", "the authorization decision covers the requested operation", "operation", op, nil)
	pairCase("SI-12.5d", "the requested operation is authorized at invocation time", "operation", op, nil)
	pairCase("SI-8.7e", "the authorization decision covers applicable constraints", "constraint", con, nil)
	pairCase("SI-12.5e", "the requested constraints are authorized at invocation time", "constraint", con, nil)
	pairCase("SI-9.57d", "error details disclose nothing of a resource the caller may not see", "resource", res, func(w *harness.W, s *sess, pc *PairCase, an *answer) {
		if len(pc.Canaries) == 0 {
			w.Need("authorization.resource.canaries", false, "strings of the denied resource principal B must never see")
		}
		for _, c := range pc.Canaries {
			w.Negative(!disclosed(an.ex, c), "the refusal does not contain "+fmt.Sprintf("%q", c), clip(string(an.ex.ResponseBody), 300), an.ex)
		}
	})

	approval := func(row, text string, idx int, check func(w *harness.W, an *answer)) {
		spec(e, row, text, func(w *harness.W) {
			s := open(w, row)
			ap := s.prof.Approval
			w.Need("approval", ap != nil && len(ap.Cases) > idx, fmt.Sprintf("approval.cases needs %d entries (an approved request with its grant hook, and an unapproved one)", idx+1))
			c := ap.Cases[idx]
			cl := s.client("A")
			var before *answer
			if c.Check != nil {
				before = s.invoke(cl, false, modeSync, ap.Skill, c.Check, "state before the unapproved request")
			}
			s.hook(row, c.Grant, "grant one approval")
			ok := s.invoke(cl, false, modeSync, ap.Skill, c.Approved, "the approved request")
			w.Control(ok.state() == a2a.StateCompleted, "the approved request completes", ok.describe(), ok.ex)
			an := s.invoke(cl, false, modeSync, ap.Skill, c.Unapproved, "a request needing approval, none granted")
			check(w, an)
			if before != nil {
				after := s.invoke(cl, false, modeSync, ap.Skill, c.Check, "state after the unapproved request")
				b1, _ := resultOf(before.task, ap.Skill)
				b2, _ := resultOf(after.task, ap.Skill)
				w.Negative(string(mustJSON(b1)) == string(mustJSON(b2)), "no side effect without approval", fmt.Sprintf("before %s, after %s", mustJSON(b1), mustJSON(b2)), after.ex)
			}
		})
	}
	approval("SI-8.8", "an operation under approval is refused without one, with no side effect", 0, func(w *harness.W, an *answer) {
		w.Negative(refusal(an) && refusedWith(an, skiface.AuthorizationFailed), "refused with authorization_failed", an.describe(), an.ex)
	})
	approval("SI-8.6b", "the approval policy is enforced on every request, even right after an approved one", 1, func(w *harness.W, an *answer) {
		w.Negative(refusal(an), "the unapproved request is refused", an.describe(), an.ex)
	})
	approval("SI-12.8c", "a denied required approval is reported with authorization_failed", 2, func(w *harness.W, an *answer) {
		w.Negative(refusal(an) && refusedWith(an, skiface.AuthorizationFailed), "refused with authorization_failed", an.describe(), an.ex)
	})
	revocation := func(row, text string, idx int) {
		spec(e, row, text, func(w *harness.W) {
			s := open(w, row)
			rv := s.prof.Revocation
			w.Need("revocation", rv != nil && len(rv.Cases) > idx, fmt.Sprintf("revocation.cases needs %d entries (a permitted request, a revoke hook, a request the revocation forbids)", idx+1))
			c := rv.Cases[idx]
			cl := s.client("A")
			first := s.invoke(cl, false, modeSync, rv.Skill, c.First, "a permitted side-effecting request")
			w.Control(first.state() == a2a.StateCompleted, "the permitted request completes", first.describe(), first.ex)
			s.hook(row, c.Revoke, "revoke the grant")
			an := s.invoke(cl, false, modeSync, rv.Skill, c.Second, "a request the revoked grant covered")
			w.Negative(refusal(an) && refusedWith(an, skiface.AuthorizationFailed), "refused with authorization_failed under the current policy", an.describe(), an.ex)
		})
	}
	revocation("SI-12.6", "after a grant is revoked the next side-effecting request is refused", 0)
	revocation("SI-12.7c", "an earlier authorization decision does not substitute for the current one", 1)
}

func anyMap(m map[string]Case) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	return out
}

func bytesContains(b []byte, s string) bool {
	return len(s) > 0 && len(b) >= len(s) && stringsContains(string(b), s)
}

// secured lists the advertised bindings whose AgentSkill carries a security requirement, its own or, when it
// declares none, the card's.
func (s *sess) secured() []entry {
	var out []entry
	for _, en := range s.entries {
		if s.faulty(en.SkillID) {
			continue
		}
		for _, sk := range s.card.Skills {
			if sk.ID == en.SkillID && (len(sk.SecurityRequirements) > 0 || len(s.card.SecurityRequirements) > 0) {
				out = append(out, en)
			}
		}
	}
	return out
}

// surveyRun is the survey's synchronous valid invocation of skill (principal A), nil when there is none.
func (s *sess) surveyRun(skill string) *run {
	for _, r := range s.runs() {
		if r.skill == skill && r.how == "SendMessage" {
			return &r
		}
	}
	return nil
}

// advertisedModes lists the default_mode of every skill whose document the survey read.
func advertisedModes(sv *survey) []string {
	seen := map[string]bool{}
	for _, d := range sv.bySk {
		if d == nil || d.problem != "" {
			continue
		}
		au, _ := d.tree["authority"].(map[string]any)
		if m, ok := au["default_mode"].(string); ok && m != "" {
			seen[m] = true
		}
	}
	out := make([]string, 0, len(seen))
	for m := range seen {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}

func modeWhat(mode string) string {
	return "a request of principal A that principal B may not make, for a skill advertising default_mode " + mode + " (advertised, never probed: no derived request of such a skill is sent)"
}

// modeAbsent is the operator's declaration that no request in default_mode mode is one principal B is refused.
func modeAbsent(in *Input, mode string) (string, bool) {
	if in == nil {
		return "", false
	}
	return in.Declared("authorization.modes." + mode)
}

// observeOnlyWhat is what SI-8.2b and SI-12.4b need when authorization.skill names a skill of another mode.
const observeOnlyWhat = "an observe_only skill principal A may use and principal B may not (authorization.skill is not observe_only)"
