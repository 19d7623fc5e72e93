package schemaiface

import (
	"encoding/json"
	"fmt"
	gosync "sync"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/refclients/skiface"
)

// invoke sends a domain-skill request object with the advertised binding.
func (s *sess) invoke(cl *a2a.Client, rest bool, mode, skill string, args json.RawMessage, note string) *answer {
	en, _ := s.entry(skill)
	return s.send(cl, rest, mode, message(invokeReq(skill, en.SkillVersion, en.Digest, args)), note)
}

// invoke1 is invoke without ending the spec (for work done once per run on behalf of every spec).
func (s *sess) invoke1(cl *a2a.Client, mode, skill string, args json.RawMessage, note string) *answer {
	en, _ := s.entry(skill)
	return s.send1(cl, false, mode, message(invokeReq(skill, en.SkillVersion, en.Digest, args)), note)
}

// run is one successful-path invocation the output and record specs examine.
type run struct {
	skill string
	how   string
	ans   *answer
}

type runSet struct {
	once  gosync.Once
	runs  []run
	block string
}

// runSetKey keys the run's *runSet in harness.Env.RunState.
type runSetKey struct{}

// runs invokes every surveyed skill that has valid arguments (synchronously) and the primary skill streamed,
// once per run.
func (s *sess) runs() []run {
	rs := s.e.RunState(runSetKey{}, func() any { return &runSet{} }).(*runSet)
	s.survey() // blocks outside the once when the survey cannot be made
	rs.once.Do(func() {
		cl := s.client("A")
		p, pargs, ok := s.primaryOK()
		if !ok {
			rs.block = s.noArguments()
			return
		}
		for _, d := range s.survey().docs {
			args, ok := s.arguments(d.skill)
			if !ok {
				continue
			}
			rs.runs = append(rs.runs, run{d.skill, "SendMessage", s.invoke1(cl, modeSync, d.skill, args, d.skill+" with valid arguments")})
		}
		if s.canStream(p.SkillID) {
			rs.runs = append(rs.runs, run{p.SkillID, "SendStreamingMessage", s.invoke1(cl, modeStream, p.SkillID, pargs, p.SkillID+" streamed")})
		}
	})
	if rs.block != "" {
		s.w.Blocked(rs.block)
	}
	return rs.runs
}

// completedRuns returns the runs, failing row on any that did not complete.
func (s *sess) completedRuns(row string) []run {
	rs := s.runs()
	s.w.Check(len(rs) > 0, "valid invocations to examine", "none", s.cardEx)
	for _, r := range rs {
		s.w.Check(r.ans.state() == a2a.StateCompleted, r.skill+" with valid arguments ("+r.how+") completes", r.ans.describe(), r.ans.ex)
	}
	return rs
}

// records returns a task's Artifacts other than those named after the skill.
func records(t *a2a.Task, skill string, kinds []string) []a2a.Artifact {
	res, _ := resultOf(t, skill)
	refs := map[string]bool{}
	stringsIn(res, refs)
	var out []a2a.Artifact
	for _, a := range t.Artifacts {
		// A supporting record is an Artifact named after a declared kind ("The Artifact name MUST equal the record
		// kind declared in supporting_record_schemas") or one the result references by artifactId; any other
		// Artifact is no record (base A2A permits other Artifacts).
		if a.Name != skill && (contains(kinds, a.Name) || refs[a.ArtifactID]) {
			out = append(out, a)
		}
	}
	return out
}

// stringsIn collects every string value of a decoded JSON tree.
func stringsIn(v any, into map[string]bool) {
	switch x := v.(type) {
	case string:
		into[x] = true
	case map[string]any:
		for _, e := range x {
			stringsIn(e, into)
		}
	case []any:
		for _, e := range x {
			stringsIn(e, into)
		}
	}
}

func registerInvoke(e *harness.Env) {
	spec(e, "SI-4.1a", "describe_skill and domain skills are answered through the interface version 1.0 A2A mapping on every binding", func(w *harness.W) {
		s := open(w, "SI-4.1a")
		p, args := s.primary()
		cl := s.client("A")
		for _, rest := range []bool{false, true} {
			if rest && s.rest == nil {
				continue
			}
			b := "JSON-RPC"
			if rest {
				b = "HTTP+JSON"
			}
			d := s.describeSkill(cl, rest, modeSync, p.SkillID, "describe_skill over "+b)
			ok := d.ans.state() == a2a.StateCompleted && len(d.ans.task.Artifacts) == 1 && d.ans.task.Artifacts[0].Name == skiface.DescribeSkill &&
				len(d.ans.task.Artifacts[0].Parts) == 1 && len(d.ans.task.Artifacts[0].Parts[0].Data) > 0 && d.tree != nil
			w.Check(ok, "describe_skill over "+b+": a completed Task, one Artifact describe_skill, one Data Part holding the result object",
				d.ans.describe()+" "+partsSummary(taskArtifacts(d.ans.task))+" "+d.problem, d.ans.ex)
			an := s.invoke(cl, rest, modeSync, p.SkillID, args, p.SkillID+" over "+b)
			prim := artifactsNamed(an.task, p.SkillID)
			res, hasRes := resultOf(an.task, p.SkillID)
			w.Check(an.state() == a2a.StateCompleted && len(prim) == 1 && len(prim[0].Parts) == 1 && len(prim[0].Parts[0].Data) > 0 && hasRes && res != nil,
				p.SkillID+" over "+b+": a completed Task with one primary result Artifact holding the skill result object in one Data Part",
				an.describe()+" "+partsSummary(taskArtifacts(an.task)), an.ex)
			bad := s.send(cl, rest, modeSync, message(invokeReq(p.SkillID, p.SkillVersion, wrongDigest(p.Digest), args)), p.SkillID+" with a wrong digest over "+b)
			var dps []a2a.Part
			if bad.task != nil && bad.task.Status.Message != nil {
				dps = dataParts(bad.task.Status.Message.Parts)
			}
			w.Check(len(dps) == 1 && codeIn(decodeTree(dps[0].Data)) != "",
				"a refusal over "+b+" carries its condition in the final status Message's one error Data Part", bad.describe(), bad.ex)
		}
	})
	spec(e, "SI-9.38a", "a successful domain invocation reaches TASK_STATE_COMPLETED (sync, streamed, GetTask)", func(w *harness.W) {
		s := open(w, "SI-9.38a")
		p, args := s.primary()
		cl := s.client("A")
		syn := s.invoke(cl, false, modeSync, p.SkillID, args, p.SkillID)
		w.Check(syn.state() == a2a.StateCompleted, "SendMessage yields a Task in TASK_STATE_COMPLETED", syn.describe(), syn.ex)
		if s.canStream(p.SkillID) {
			str := s.invoke(cl, false, modeStream, p.SkillID, args, p.SkillID+" streamed")
			w.Check(str.state() == a2a.StateCompleted, "the stream ends with the Task in TASK_STATE_COMPLETED", str.describe(), str.ex)
		}
		if syn.task != nil {
			g := s.getTask(cl, false, syn.task.ID, "GetTask after "+p.SkillID)
			w.Check(g.state() == a2a.StateCompleted, "GetTask shows TASK_STATE_COMPLETED", g.describe(), g.ex)
		}
	})
	primaryShape := func(row, text string, check func(w *harness.W, skill string, an *answer, how string)) {
		spec(e, row, text, func(w *harness.W) {
			s := open(w, row)
			p, args := s.primary()
			cl := s.client("A")
			for _, mode := range s.modes(p.SkillID) {
				an := s.invoke(cl, false, mode, p.SkillID, args, p.SkillID+" ("+mode+")")
				w.Check(an.state() == a2a.StateCompleted, p.SkillID+" completes ("+mode+")", an.describe(), an.ex)
				check(w, p.SkillID, an, mode)
			}
		})
	}
	primaryShape("SI-9.38b", "the completed Task holds exactly one primary result Artifact with a single Data Part", func(w *harness.W, skill string, an *answer, how string) {
		prim := artifactsNamed(an.task, skill)
		w.Check(len(prim) == 1 && len(prim[0].Parts) == 1 && len(prim[0].Parts[0].Data) > 0,
			"one Artifact named "+skill+" with one Data Part ("+how+")", partsSummary(taskArtifacts(an.task)), an.ex)
	})
	primaryShape("SI-9.38c", "the primary result Artifact holds the skill result object", func(w *harness.W, skill string, an *answer, how string) {
		var data map[string]any
		if prim := artifactsNamed(an.task, skill); len(prim) > 0 && len(prim[0].Parts) > 0 {
			data, _ = decodeTree(prim[0].Parts[0].Data).(map[string]any)
		}
		_, hasRes := data["result"]
		w.Check(data["skill"] == skill && hasRes, `data is {"skill":"`+skill+`","result":…} (`+how+")", clip(string(mustJSON(data)), 200), an.ex)
	})
	outputValid := func(row, text string, all bool) {
		spec(e, row, text, func(w *harness.W) {
			s := open(w, row)
			p, _ := s.primary()
			for _, r := range s.completedRuns(row) {
				if !all && r.skill != p.SkillID {
					continue
				}
				out := s.compiled(row, s.doc(row, r.skill), "output")
				res, ok := resultOf(r.ans.task, r.skill)
				vs := out.Validate(res)
				undecided(w, vs)
				w.Check(ok && len(vs) == 0, r.skill+" ("+r.how+"): data.result validates against output_schema (format asserted)",
					fmt.Sprintf("present %v, violations %v", ok, vs), r.ans.ex)
			}
		})
	}
	outputValid("SI-8.12", "the skill output validates against output_schema", false)
	outputValid("SI-9.39", "data.result of the primary result Artifact validates against output_schema", false)
	outputValid("SI-9.58a", "no Task reported completed carries a primary result that fails output_schema", true)
	recordSpec := func(row, text string, check func(w *harness.W, s *sess, r run, d *docSeen, rec a2a.Artifact)) {
		spec(e, row, text, func(w *harness.W) {
			s := open(w, row)
			n := 0
			for _, r := range s.completedRuns(row) {
				d := s.doc(row, r.skill)
				for _, rec := range records(r.ans.task, r.skill, kinds(d.tree)) {
					n++
					check(w, s, r, d, rec)
				}
			}
			if n == 0 {
				w.Inapplicable("no valid invocation produced a supporting-record Artifact")
			}
		})
	}
	recordSpec("SI-8.13", "each supporting record validates against the schema of its kind", func(w *harness.W, s *sess, r run, d *docSeen, rec a2a.Artifact) {
		w.Check(contains(kinds(d.tree), rec.Name), r.skill+": record Artifact "+rec.ArtifactID+" names a declared kind", rec.Name, r.ans.ex)
		c := s.compiled("SI-8.13", d, rec.Name)
		for _, part := range rec.Parts {
			vs := c.ValidateJSON(part.Data)
			undecided(w, vs)
			w.Check(len(part.Data) > 0 && len(vs) == 0, r.skill+" ("+r.how+"): record "+rec.ArtifactID+" validates against kind "+rec.Name, fmt.Sprint(vs), r.ans.ex)
		}
	})
	recordSpec("SI-9.41a", "each supporting-record Artifact is named after a declared kind", func(w *harness.W, s *sess, r run, d *docSeen, rec a2a.Artifact) {
		w.Check(contains(kinds(d.tree), rec.Name), r.skill+" ("+r.how+"): Artifact "+rec.ArtifactID+" is named after a kind in "+fmt.Sprint(kinds(d.tree)), fmt.Sprintf("%q", rec.Name), r.ans.ex)
	})
	recordSpec("SI-9.41b", "each supporting-record Artifact has a single Data Part", func(w *harness.W, s *sess, r run, d *docSeen, rec a2a.Artifact) {
		w.Check(len(rec.Parts) == 1 && len(rec.Parts[0].Data) > 0, r.skill+" ("+r.how+"): record Artifact "+rec.ArtifactID+" has one Data Part", partsSummary([]a2a.Artifact{rec}), r.ans.ex)
	})
	recordSpec("SI-9.41c", "the record Data Part holds the complete record valid against its kind's Schema Reference", func(w *harness.W, s *sess, r run, d *docSeen, rec a2a.Artifact) {
		if !contains(kinds(d.tree), rec.Name) {
			w.Failf(r.ans.ex, "the record's kind is declared", "%q", rec.Name)
		}
		c := s.compiled("SI-9.41c", d, rec.Name)
		var vs []skiface.Violation
		if len(rec.Parts) > 0 {
			vs = c.ValidateJSON(rec.Parts[0].Data)
		}
		undecided(w, vs)
		w.Check(len(rec.Parts) > 0 && len(vs) == 0, r.skill+" ("+r.how+"): record "+rec.ArtifactID+" validates against kind "+rec.Name, fmt.Sprint(vs), r.ans.ex)
	})
	// Records are carried "when present", and "This document does not mandate a common property name or
	// reference structure within every domain output": the rows read the Artifacts, never a member of the output.
	separate := func(row, text string) {
		spec(e, row, text, func(w *harness.W) {
			s := open(w, row)
			n := 0
			for _, r := range s.completedRuns(row) {
				d := s.doc(row, r.skill)
				prim := artifactsNamed(r.ans.task, r.skill)
				w.Check(len(prim) == 1 && len(prim[0].Parts) == 1, r.skill+" ("+r.how+"): the primary result Artifact holds only the result (one part)",
					partsSummary(taskArtifacts(r.ans.task)), r.ans.ex)
				seen := map[string]bool{}
				for _, rec := range records(r.ans.task, r.skill, kinds(d.tree)) {
					n++
					w.Check(!seen[rec.ArtifactID] && len(rec.Parts) >= 1, r.skill+": record Artifact "+rec.ArtifactID+" is its own Artifact", partsSummary([]a2a.Artifact{rec}), r.ans.ex)
					seen[rec.ArtifactID] = true
				}
			}
			_ = n
		})
	}
	// "An output that depends on a supporting record SHOULD reference that record's task-scoped A2A artifactId
	// rather than duplicate its content": no property is mandated, so any string of the result naming the record's
	// artifactId is a reference, and a copy is the record's value found inside the result.
	spec(e, "SI-6.15", "the primary result references its supporting records by artifactId and embeds no copy", func(w *harness.W) {
		s := open(w, "SI-6.15")
		n := 0
		for _, r := range s.completedRuns("SI-6.15") {
			d := s.doc("SI-6.15", r.skill)
			res, _ := resultOf(r.ans.task, r.skill)
			strs := map[string]bool{}
			stringsIn(res, strs)
			for _, rec := range records(r.ans.task, r.skill, kinds(d.tree)) {
				n++
				w.Check(strs[rec.ArtifactID], r.skill+" ("+r.how+"): the result references record "+rec.ArtifactID+" by its artifactId",
					clip(string(mustJSON(res)), 300), r.ans.ex)
				if len(rec.Parts) > 0 {
					w.Check(!embeds(res, decodeTree(rec.Parts[0].Data)), r.skill+" ("+r.how+"): the result embeds no copy of record "+rec.ArtifactID,
						clip(string(mustJSON(res)), 300), r.ans.ex)
				}
			}
		}
		if n == 0 {
			w.Inapplicable("no valid invocation produced a supporting-record Artifact")
		}
	})
	separate("SI-8.15", "supporting records are published in Artifacts separate from the primary result")
	separate("SI-9.40", "each supporting record is carried in its own Artifact")
	spec(e, "SI-9.42", "no supporting-record Artifact is named after the selected skill_id", func(w *harness.W) {
		s := open(w, "SI-9.42")
		for _, r := range s.completedRuns("SI-9.42") {
			named := artifactsNamed(r.ans.task, r.skill)
			for _, a := range named {
				var data map[string]any
				if len(a.Parts) > 0 {
					data, _ = decodeTree(a.Parts[0].Data).(map[string]any)
				}
				_, hasRes := data["result"]
				w.Check(hasRes, r.skill+" ("+r.how+"): the Artifact "+a.ArtifactID+" named after the skill is the skill result object, not a record", clip(string(mustJSON(data)), 200), r.ans.ex)
			}
			w.Check(len(named) == 1, r.skill+" ("+r.how+"): only the primary result Artifact carries the skill's name", fmt.Sprintf("%d Artifacts named %s", len(named), r.skill), r.ans.ex)
		}
	})
	spec(e, "SI-9.43a", "the primary result assembled from streamed Artifact updates validates against output_schema", func(w *harness.W) {
		s := open(w, "SI-9.43a")
		p, args := s.primary()
		if !s.canStream(p.SkillID) {
			w.Inapplicable("the card does not offer streaming (capabilities.streaming) or " + p.SkillID + "'s supported_response_modes omit stream: there are no streamed Artifact updates to assemble")
		}
		cl := s.client("A")
		out := s.compiled("SI-9.43a", s.doc("SI-9.43a", p.SkillID), "output")
		syn := s.invoke(cl, false, modeSync, p.SkillID, args, p.SkillID)
		res, _ := resultOf(syn.task, p.SkillID)
		w.Control(syn.state() == a2a.StateCompleted && len(out.Validate(res)) == 0, "the synchronous result validates", syn.describe(), syn.ex)
		str := s.invoke(cl, false, modeStream, p.SkillID, args, p.SkillID+" streamed")
		prim := artifactsNamed(str.task, p.SkillID)
		res, ok := resultOf(str.task, p.SkillID)
		vs := out.Validate(res)
		w.Check(str.state() == a2a.StateCompleted && ok && len(prim) == 1 && len(prim[0].Parts) == 1 && len(vs) == 0,
			"the assembled primary result (A2A append/replace semantics) is one Data Part whose result validates",
			fmt.Sprintf("%s; %s; violations %v", str.describe(), partsSummary(prim), vs), str.ex)
	})
	spec(e, "SI-9.43b", "the primary result retrieved with GetTask validates against output_schema", func(w *harness.W) {
		s := open(w, "SI-9.43b")
		p, args := s.primary()
		cl := s.client("A")
		out := s.compiled("SI-9.43b", s.doc("SI-9.43b", p.SkillID), "output")
		for _, mode := range s.modes(p.SkillID) {
			an := s.invoke(cl, false, mode, p.SkillID, args, p.SkillID+" ("+mode+")")
			if an.task == nil || an.task.ID == "" {
				w.Failf(an.ex, "the invocation answers with a Task", "%s", an.describe())
			}
			g := s.getTask(cl, false, an.task.ID, "GetTask after "+p.SkillID+" ("+mode+")")
			res, ok := resultOf(g.task, p.SkillID)
			vs := out.Validate(res)
			w.Check(g.state() == a2a.StateCompleted && ok && len(vs) == 0, "GetTask's primary result validates (task created by "+mode+")",
				fmt.Sprintf("%s; violations %v", g.describe(), vs), g.ex)
		}
	})
}

func taskArtifacts(t *a2a.Task) []a2a.Artifact {
	if t == nil {
		return nil
	}
	return t.Artifacts
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// wrongDigest returns a different digest of the same form (last hex digit changed).
func wrongDigest(d string) string {
	if d == "" {
		return "sha256:" + "0000000000000000000000000000000000000000000000000000000000000000"
	}
	last := d[len(d)-1]
	r := byte('0')
	if last == '0' {
		r = '1'
	}
	return d[:len(d)-1] + string(r)
}

// undecided blocks the spec when the only violations are the harness's own limits (a pattern match that did not
// finish in time, an instance nested beyond the harness's limit): that is no evidence the instance is invalid.
func undecided(w *harness.W, vs []skiface.Violation) {
	if len(vs) == 0 {
		return
	}
	for _, v := range vs {
		if v.Keyword != "resource_limit" {
			return
		}
	}
	w.Blocked("the harness could not decide validity within its own limits: " + vs[0].Message)
}

// embeds reports whether v holds rec (an object or array, compared by value) anywhere below its root.
func embeds(v, rec any) bool {
	if _, ok := rec.(map[string]any); !ok {
		return false // a scalar record value is indistinguishable from an ordinary output value
	}
	want := string(mustJSON(rec))
	var walk func(x any, root bool) bool
	walk = func(x any, root bool) bool {
		if !root && string(mustJSON(x)) == want {
			return true
		}
		switch t := x.(type) {
		case map[string]any:
			for _, c := range t {
				if walk(c, false) {
					return true
				}
			}
		case []any:
			for _, c := range t {
				if walk(c, false) {
					return true
				}
			}
		}
		return false
	}
	return walk(v, true)
}
