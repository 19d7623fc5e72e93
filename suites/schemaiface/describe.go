package schemaiface

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/refclients/skiface"
)

// describeSkillID is the skill the describe_skill shape specs ask about: the primary skill when configured, else
// the first advertised one that is not deliberately faulty.
func (s *sess) describeSkillID(row string) string {
	if s.prof.Primary != "" {
		if _, ok := s.entry(s.prof.Primary); ok {
			return s.prof.Primary
		}
	}
	for _, e := range s.entries {
		if e.SkillID != "" && !s.faulty(e.SkillID) {
			return e.SkillID
		}
	}
	s.w.Failf(s.cardEx, "the extension advertises a domain skill", "params.skills names none")
	return ""
}

// three describes one skill synchronously, streamed (when the card offers streaming), and (by the synchronous
// task's id) with GetTask; it returns the answers and how each was delivered.
func (s *sess) three(row, skill string) ([]*docSeen, []string) {
	cl := s.client("A")
	syn := s.describeSkill(cl, false, modeSync, skill, "describe_skill("+skill+")")
	out, how := []*docSeen{syn}, []string{modeSync}
	if s.canStream(skiface.DescribeSkill) {
		out = append(out, s.describeSkill(cl, false, modeStream, skill, "describe_skill("+skill+") streamed"))
		how = append(how, modeStream)
	}
	if syn.ans.task != nil && syn.ans.task.ID != "" {
		g := &docSeen{skill: skill, ans: s.getTask(cl, false, syn.ans.task.ID, "GetTask after describe_skill("+skill+")")}
		readDescribe(g)
		out, how = append(out, g), append(how, "GetTask")
	} else {
		s.w.Failf(syn.ans.ex, "describe_skill answers with a Task whose id GetTask can retrieve", "%s", syn.ans.describe())
	}
	return out, how
}

func registerDescribe(e *harness.Env) {
	perDoc := func(row, text string, check func(w *harness.W, s *sess, d *docSeen, en entry)) {
		spec(e, row, text, func(w *harness.W) {
			s := open(w, row)
			sv := s.survey()
			w.Check(len(sv.docs) > 0, "at least one advertised skill to describe", "none", s.cardEx)
			for _, d := range sv.docs {
				en, _ := s.entry(d.skill)
				check(w, s, d, en)
			}
		})
	}
	needDoc := func(w *harness.W, row string, d *docSeen) {
		w.Check(d.problem == "", "describe_skill("+d.skill+") returns a Skill Interface Document", d.problem, d.ans.ex)
	}
	perDoc("SI-9.12a", "describe_skill accepts the structured request object and completes for every advertised skill", func(w *harness.W, s *sess, d *docSeen, en entry) {
		w.Check(d.ans.state() == a2a.StateCompleted, "describe_skill("+d.skill+") reaches TASK_STATE_COMPLETED", d.ans.describe(), d.ans.ex)
	})
	perDoc("SI-9.12b", "describe_skill produces the requested skill's document and its interface_digest", func(w *harness.W, s *sess, d *docSeen, en entry) {
		needDoc(w, "SI-9.12b", d)
		w.Check(d.tree["skill_id"] == d.skill, "result.interface is the document of "+d.skill, fmt.Sprintf("skill_id %#v", d.tree["skill_id"]), d.ans.ex)
		w.Check(d.hasDig, "result.interface_digest is present", fmt.Sprintf("result members %v", resultKeys(d)), d.ans.ex)
	})
	perDoc("SI-2.1b", "the describe_skill response carries the advertised Skill Interface Document Digest", func(w *harness.W, s *sess, d *docSeen, en entry) {
		w.Check(d.hasDig && d.carried == en.Digest, "result.interface_digest of "+d.skill+" equals the card's "+en.Digest,
			fmt.Sprintf("%q (present %v)", d.carried, d.hasDig), d.ans.ex)
	})
	perDoc("SI-2.2a", "card, describe_skill and the calculated digest of the document are the same string", func(w *harness.W, s *sess, d *docSeen, en entry) {
		needDoc(w, "SI-2.2a", d)
		calc, err := skiface.InterfaceDigest(d.raw)
		w.Check(err == nil && calc == en.Digest && calc == d.carried, "card = carried = calculated digest for "+d.skill,
			fmt.Sprintf("card %s, carried %s, calculated %s %v", en.Digest, d.carried, calc, errOrEmpty(err)), d.ans.ex)
	})
	perDoc("SI-9.8", "each advertised interface_digest is the digest of the document describe_skill returns", func(w *harness.W, s *sess, d *docSeen, en entry) {
		needDoc(w, "SI-9.8", d)
		calc, err := skiface.InterfaceDigest(d.raw)
		w.Check(err == nil && calc == en.Digest, "JCS SHA-256 of the returned document of "+d.skill+" equals the advertised "+en.Digest,
			fmt.Sprintf("calculated %s %v", calc, errOrEmpty(err)), d.ans.ex)
	})
	perDoc("SI-9.20", "the returned document's skill_version is the advertised one", func(w *harness.W, s *sess, d *docSeen, en entry) {
		needDoc(w, "SI-9.20", d)
		w.Check(d.tree["skill_version"] == en.SkillVersion, "result.interface.skill_version of "+d.skill+" is "+en.SkillVersion,
			fmt.Sprintf("%#v", d.tree["skill_version"]), d.ans.ex)
	})
	perDoc("SI-9.21", "result.interface_digest equals the advertised interface_digest", func(w *harness.W, s *sess, d *docSeen, en entry) {
		w.Check(d.carried == en.Digest, "result.interface_digest of "+d.skill+" is "+en.Digest, fmt.Sprintf("%q", d.carried), d.ans.ex)
	})
	perDoc("SI-9.26", "the selected document and its calculated digest correspond to the advertised version and digest", func(w *harness.W, s *sess, d *docSeen, en entry) {
		needDoc(w, "SI-9.26", d)
		calc, _ := skiface.InterfaceDigest(d.raw)
		w.Check(d.tree["skill_version"] == en.SkillVersion && calc == en.Digest,
			fmt.Sprintf("%s: skill_version %s and calculated digest %s", d.skill, en.SkillVersion, en.Digest),
			fmt.Sprintf("skill_version %#v, calculated %s", d.tree["skill_version"], calc), d.ans.ex)
	})

	spec(e, "SI-9.3c", "an agent that activates the extension echoes its URI in the A2A-Extensions response header (SHOULD)", func(w *harness.W) {
		s := open(w, "SI-9.3c")
		d := s.describeSkill(s.client("A"), false, modeSync, s.describeSkillID("SI-9.3c"), "describe_skill, activated")
		ex := d.ans.ex
		if ex == nil {
			w.Blocked("describe_skill made no exchange: " + d.ans.describe())
		}
		listed := func(h http.Header) bool {
			for _, v := range h.Values(a2a.HeaderExtensions) {
				for _, u := range strings.Split(v, ",") {
					if strings.TrimSpace(u) == URI {
						return true
					}
				}
			}
			return false
		}
		w.Control(listed(ex.RequestHeader), "the request lists "+URI+" in A2A-Extensions (section 9: the client activates it)", fmt.Sprintf("request A2A-Extensions: %q", ex.RequestHeader.Values(a2a.HeaderExtensions)), ex)
		w.Control(d.ans.task != nil, "describe_skill is answered with a Task (the extension is in use)", d.ans.describe(), ex)
		w.Negative(listed(ex.ResponseHeader), "the response's A2A-Extensions header lists "+URI, fmt.Sprintf("response A2A-Extensions: %q", ex.ResponseHeader.Values(a2a.HeaderExtensions)), ex)
	})

	spec(e, "SI-9.17a", "a successful describe_skill Task reaches TASK_STATE_COMPLETED (sync, streamed, GetTask)", func(w *harness.W) {
		s := open(w, "SI-9.17a")
		ds, deliveries := s.three("SI-9.17a", s.describeSkillID("SI-9.17a"))
		for i, d := range ds {
			w.Check(d.ans.state() == a2a.StateCompleted, "describe_skill via "+deliveries[i]+" yields a Task in TASK_STATE_COMPLETED", d.ans.describe(), d.ans.ex)
		}
	})
	shape := func(row, text string, check func(w *harness.W, d *docSeen, how string)) {
		spec(e, row, text, func(w *harness.W) {
			s := open(w, row)
			ds, deliveries := s.three(row, s.describeSkillID(row))
			for i, d := range ds {
				w.Check(d.ans.task != nil, "describe_skill via "+deliveries[i]+" answers with a Task", d.ans.describe(), d.ans.ex)
				check(w, d, deliveries[i])
			}
		})
	}
	shape("SI-9.17b", "the completed describe_skill Task contains exactly one Artifact", func(w *harness.W, d *docSeen, how string) {
		w.Check(len(d.ans.task.Artifacts) == 1, "one Artifact ("+how+")", fmt.Sprintf("%d Artifacts %v", len(d.ans.task.Artifacts), artifactNames(d.ans.task)), d.ans.ex)
	})
	shape("SI-9.18a", "the describe_skill Artifact is named describe_skill", func(w *harness.W, d *docSeen, how string) {
		ok := len(d.ans.task.Artifacts) > 0 && d.ans.task.Artifacts[0].Name == skiface.DescribeSkill
		w.Check(ok, "the Artifact's name is describe_skill ("+how+")", fmt.Sprintf("names %v", artifactNames(d.ans.task)), d.ans.ex)
	})
	shape("SI-9.18b", "the describe_skill Artifact holds exactly one part, a Data Part", func(w *harness.W, d *docSeen, how string) {
		arts := artifactsNamed(d.ans.task, skiface.DescribeSkill)
		if len(arts) == 0 && len(d.ans.task.Artifacts) > 0 {
			arts = d.ans.task.Artifacts[:1]
		}
		w.Check(len(arts) > 0 && len(arts[0].Parts) == 1 && len(arts[0].Parts[0].Data) > 0,
			"one Data Part ("+how+")", partsSummary(arts), d.ans.ex)
	})
	shape("SI-9.19a", "the describe_skill data has skill describe_skill and a result object", func(w *harness.W, d *docSeen, how string) {
		_, res := d.data["result"].(map[string]any)
		w.Check(d.data != nil && d.data["skill"] == skiface.DescribeSkill && res,
			`data is {"skill":"describe_skill","result":{…}} (`+how+")", clip(string(mustJSON(d.data)), 200), d.ans.ex)
	})
	shape("SI-9.19b", "result.interface is the Skill Interface Document as a JSON object", func(w *harness.W, d *docSeen, how string) {
		w.Check(d.tree != nil, "result.interface is a JSON object ("+how+")", d.problem, d.ans.ex)
	})
	shape("SI-9.19c", "result.interface_digest is present", func(w *harness.W, d *docSeen, how string) {
		w.Check(d.hasDig, "result.interface_digest is a string ("+how+")", fmt.Sprintf("result members %v", resultKeys(d)), d.ans.ex)
	})

	spec(e, "SI-9.24", "repeated describe_skill calls return the same pre-assembled document with the advertised digest", func(w *harness.W) {
		s := open(w, "SI-9.24")
		skill := s.describeSkillID("SI-9.24")
		en, _ := s.entry(skill)
		cl := s.client("A")
		ds := []*docSeen{
			s.describeSkill(cl, false, modeSync, skill, "describe_skill("+skill+") #1"),
			s.describeSkill(cl, false, modeSync, skill, "describe_skill("+skill+") #2"),
		}
		if s.rest != nil {
			ds = append(ds, s.describeSkill(cl, true, modeSync, skill, "describe_skill("+skill+") over HTTP+JSON"))
		}
		var first []byte
		for i, d := range ds {
			w.Check(d.problem == "", "describe_skill returns the document", d.problem, d.ans.ex)
			c, _ := skiface.JCS(d.raw)
			calc := skiface.DigestBytes(c)
			w.Check(calc == en.Digest, fmt.Sprintf("call %d: the document's digest is the advertised %s", i+1, en.Digest), calc, d.ans.ex)
			if i == 0 {
				first = c
				continue
			}
			w.Check(bytes.Equal(first, c), fmt.Sprintf("call %d returns the JCS-identical document", i+1), "the documents differ", d.ans.ex)
		}
	})
	spec(e, "SI-9.25b", "describe_skill does not build the document per request (context, metadata, caller)", func(w *harness.W) {
		s := open(w, "SI-9.25b")
		skill := s.describeSkillID("SI-9.25b")
		cl := s.client("A")
		base := s.describeSkill(cl, false, modeSync, skill, "describe_skill("+skill+")")
		w.Check(base.problem == "", "describe_skill returns the document", base.problem, base.ans.ex)
		ref, _ := skiface.JCS(base.raw)
		m := message(describeReq(skill))
		m.ContextID = newID()
		m.Metadata = json.RawMessage(`{"extconf":{"purpose":"vary the request context","locale":"fr-CH"}}`)
		variants := []*docSeen{{skill: skill, ans: s.send(cl, false, modeSync, m, "describe_skill("+skill+") in another context with metadata")}}
		if _, ok := s.e.Target.Config.PrincipalOf(docID, "B"); ok {
			variants = append(variants, s.describeSkill(s.client("B"), false, modeSync, skill, "describe_skill("+skill+") as principal B"))
		}
		for _, d := range variants {
			if d.ans.state() != a2a.StateCompleted && d.ans.code() != "" && d.ans.code() != skiface.InterfaceUnavailable && d.ans.code() != skiface.InterfaceInvalid || silentBinding(d.ans) {
				// A caller the agent does not serve describe_skill to is refused; the row is about the document
				// returned, not about who may read it (the draft does not oblige an agent to serve every caller).
				continue
			}
			if d.data == nil && d.problem == "" {
				readDescribe(d)
			}
			c, _ := skiface.JCS(d.raw)
			w.Check(d.problem == "" && bytes.Equal(ref, c), "the same JCS document whatever the request context ("+d.ans.ex.Note+")",
				firstNonEmpty(d.problem, "the documents differ"), d.ans.ex)
		}
	})
	spec(e, "SI-9.29a", "describe_skill never returns an opaque payload in place of the document", func(w *harness.W) {
		s := open(w, "SI-9.29a")
		cl := s.client("A")
		ds := append([]*docSeen(nil), s.survey().docs...)
		faults := []string{s.prof.UnavailableSkill, corruptID(s.prof)}
		for _, en := range s.entries {
			if c := s.survey().degraded[en.SkillID]; c != "" && !slices.Contains(faults, en.SkillID) {
				faults = append(faults, en.SkillID)
			}
		}
		for _, id := range faults {
			if id != "" {
				ds = append(ds, s.describeSkill(cl, false, modeSync, id, "describe_skill("+id+") of a faulty skill"))
			}
		}
		w.Check(len(ds) > 0, "describe_skill answers to examine", "none", s.cardEx)
		for _, d := range ds {
			if d.ans.state() == a2a.StateCompleted {
				err := fmt.Errorf("%s", d.problem)
				if d.problem == "" {
					err = skiface.ValidateDocument(d.raw)
				}
				w.Check(d.problem == "" && err == nil && onlyDataParts(d.ans.task),
					"describe_skill("+d.skill+") completes only with a validated Skill Interface Document in a Data Part",
					fmt.Sprintf("%v; parts %s", err, partsSummary(d.ans.task.Artifacts)), d.ans.ex)
				continue
			}
			w.Check(skiface.IsCode(d.ans.code()), "describe_skill("+d.skill+") either returns the document or an error condition",
				d.ans.describe(), d.ans.ex)
		}
	})
	spec(e, "SI-9.52a", "describe_skill naming an unadvertised skill_id is refused with skill_not_advertised", func(w *harness.W) {
		s := open(w, "SI-9.52a")
		skill := s.describeSkillID("SI-9.52a")
		cl := s.client("A")
		ok := s.describeSkill(cl, false, modeSync, skill, "describe_skill("+skill+") control")
		w.Control(ok.ans.state() == a2a.StateCompleted, "describe_skill("+skill+") completes", ok.ans.describe(), ok.ans.ex)
		bad := s.describeSkill(cl, false, modeSync, "extconf_no_such_skill", "describe_skill of an unadvertised skill_id")
		w.Negative(refusedWith(bad.ans, skiface.SkillNotAdvertised),
			"refused with condition skill_not_advertised (or, before any task, a binding error exposing no condition: SHOULD)", bad.ans.describe(), bad.ans.ex)
	})
	spec(e, "SI-9.11", "a freshly retrieved card advertises only bindings the agent serves", func(w *harness.W) {
		s := open(w, "SI-9.11")
		u, _ := s.e.Target.CardURL(Role)
		card, ex, err := s.e.Client.FetchCard(w.Ctx(), u, a2a.Call{Note: "fresh agent card"})
		if err != nil {
			w.Failf(ex, "a fresh card can be fetched", "%v", err)
		}
		x, _ := card.Extension(URI)
		params, _ := decodeTree(x.Params).(map[string]any)
		fresh := entriesOf(params)
		w.Check(len(fresh) > 0, "the fresh card advertises bindings", "none", ex)
		cl := s.client("A")
		for _, en := range fresh {
			if s.faulty(en.SkillID) {
				continue
			}
			d := s.describeSkill(cl, false, modeSync, en.SkillID, "describe_skill("+en.SkillID+") after a fresh card")
			w.Check(d.problem == "" && d.tree["skill_version"] == en.SkillVersion,
				"describe_skill("+en.SkillID+") serves the advertised skill_version "+en.SkillVersion,
				firstNonEmpty(d.problem, fmt.Sprintf("skill_version %#v", d.tree["skill_version"])), d.ans.ex)
			// The binding is compared "Before validating arguments or invoking domain logic", so any answer but
			// interface_mismatch shows it accepted. An execute-mode skill never gets a made-up request (it "may
			// cause an operational side effect"): it is invoked only with arguments the run holds.
			args, known := s.arguments(en.SkillID)
			if !known {
				if m := defaultMode(d.tree); m != "observe_only" && m != "recommend_only" {
					w.Note("the invocation half for " + en.SkillID + " (default_mode " + firstNonEmpty(m, "unknown") + ") needs arguments." + en.SkillID + ": an execute skill never gets a made-up request")
					continue
				}
				args = json.RawMessage(`{}`)
			}
			an := s.send(cl, false, modeSync, message(invokeReq(en.SkillID, en.SkillVersion, en.Digest, args)), "invocation with the freshly advertised binding of "+en.SkillID)
			w.Check(an.code() != skiface.InterfaceMismatch && (an.task != nil || an.bindErr != nil),
				"an invocation carrying the advertised binding of "+en.SkillID+" is not refused with interface_mismatch", an.describe(), an.ex)
		}
	})
}

func corruptID(p *Profile) string {
	if p.CorruptSkill == nil {
		return ""
	}
	return p.CorruptSkill.Skill
}

func resultKeys(d *docSeen) []string {
	res, _ := d.data["result"].(map[string]any)
	return sortedKeys(res)
}

func artifactNames(t *a2a.Task) []string {
	var out []string
	if t == nil {
		return nil
	}
	for _, a := range t.Artifacts {
		out = append(out, a.Name)
	}
	return out
}

func partsSummary(arts []a2a.Artifact) string {
	var out []string
	for _, a := range arts {
		var ps []string
		for _, p := range a.Parts {
			switch {
			case len(p.Data) > 0:
				ps = append(ps, "data")
			case p.Text != nil:
				ps = append(ps, "text")
			case p.URL != nil:
				ps = append(ps, "url")
			default:
				ps = append(ps, "raw")
			}
		}
		out = append(out, fmt.Sprintf("%s%v", a.Name, ps))
	}
	return fmt.Sprint(out)
}

func onlyDataParts(t *a2a.Task) bool {
	if t == nil {
		return false
	}
	for _, a := range t.Artifacts {
		for _, p := range a.Parts {
			if len(p.Data) == 0 {
				return false
			}
		}
	}
	return true
}

func errOrEmpty(err error) string {
	if err == nil {
		return ""
	}
	return "(" + err.Error() + ")"
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
