package schemaiface

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	gosync "sync"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/refclients/skiface"
)

// docSeen is what describe_skill returned for one advertised skill.
type docSeen struct {
	skill   string
	ans     *answer
	data    map[string]any  // the Data Part value of the first Artifact
	raw     json.RawMessage // result.interface, when it is a JSON object
	tree    map[string]any  // the same, decoded
	carried string          // result.interface_digest
	hasDig  bool
	problem string // why no document could be read from the answer
}

// survey is the describe_skill answer for every advertised skill (except those the profile names deliberately
// unavailable or corrupt), fetched once per run and shared by the static specs.
type survey struct {
	once  gosync.Once
	docs  []*docSeen
	bySk  map[string]*docSeen
	comps gosync.Map // skill/role → *skiface.Compiled or error
	// degraded are the advertised skills whose describe_skill answer is a refusal the draft provides for a
	// degraded interface (interface_unavailable, interface_invalid): skill → condition. They are read from the
	// survey, named by the profile or not, and left out of the static rows like the profile's faulty skills.
	degraded map[string]string
	block    string // why the survey could not be made (no credential for an agent that needs one)
}

func (s *sess) survey() *survey {
	sv := s.surveyData()
	if sv.block != "" {
		s.w.Blocked(sv.block)
	}
	return sv
}

// surveyData is survey without ending the spec when the survey could not be made (block says why).
func (s *sess) surveyData() *survey {
	sv := s.e.RunState(surveyKey{}, func() any { return &survey{} }).(*survey)
	sv.once.Do(func() {
		sv.bySk = map[string]*docSeen{}
		sv.degraded = map[string]string{}
		cl := s.client("A")
		for _, e := range s.entries {
			if e.SkillID == "" || sv.bySk[e.SkillID] != nil || sv.degraded[e.SkillID] != "" || s.profileFaulty(e.SkillID) {
				continue
			}
			d := &docSeen{skill: e.SkillID, ans: s.send1(cl, false, modeSync, message(describeReq(e.SkillID)), "describe_skill("+e.SkillID+") survey")}
			if sv.block = s.unauthenticated(d.ans); sv.block != "" {
				return
			}
			readDescribe(d)
			if c := d.ans.code(); d.ans.state() != a2a.StateCompleted && (c == skiface.InterfaceUnavailable || c == skiface.InterfaceInvalid) {
				// "If an advertised interface cannot currently be returned, the agent MUST report
				// interface_unavailable"; a stored document that fails validation gives interface_invalid.
				sv.degraded[e.SkillID] = c
				continue
			}
			sv.docs = append(sv.docs, d)
			sv.bySk[e.SkillID] = d
		}
	})
	return sv
}

// describeSkill calls describe_skill and reads the answer tolerantly.
func (s *sess) describeSkill(cl *a2a.Client, rest bool, mode, skill, note string) *docSeen {
	d := &docSeen{skill: skill, ans: s.send(cl, rest, mode, message(describeReq(skill)), note)}
	readDescribe(d)
	return d
}

func readDescribe(d *docSeen) {
	an := d.ans
	switch {
	case an.task == nil:
		d.problem = "describe_skill did not answer with a Task: " + an.describe()
		return
	case an.task.Status.State != a2a.StateCompleted:
		d.problem = "describe_skill ended in " + an.describe()
		return
	case len(an.task.Artifacts) == 0:
		d.problem = "the describe_skill Task has no Artifact"
		return
	}
	for _, p := range an.task.Artifacts[0].Parts {
		if m, ok := decodeTree(p.Data).(map[string]any); ok {
			d.data = m
			break
		}
	}
	if d.data == nil {
		d.problem = "the describe_skill Artifact holds no Data Part with an object"
		return
	}
	res, _ := d.data["result"].(map[string]any)
	if res == nil {
		d.problem = "the describe_skill data has no result object"
		return
	}
	d.carried, d.hasDig = res["interface_digest"].(string)
	switch iv := res["interface"].(type) {
	case map[string]any:
		d.tree = iv
		d.raw = mustJSON(iv)
	case nil:
		d.problem = "result.interface is absent"
	default:
		d.problem = fmt.Sprintf("result.interface is a JSON %T, not the document object", iv)
	}
}

// docs returns the survey's documents, failing row when a describe answer holds none (cited with its exchange)
// or when no skill is advertised at all.
func (s *sess) docs(row string) []*docSeen {
	sv := s.survey()
	s.w.Check(len(sv.docs) > 0, "the extension advertises at least one skill whose document describe_skill returns",
		fmt.Sprintf("%d advertised skills surveyed", len(sv.docs)), s.cardEx)
	for _, d := range sv.docs {
		s.w.Check(d.problem == "", "describe_skill("+d.skill+") returns a Skill Interface Document", d.problem, d.ans.ex)
	}
	return sv.docs
}

// refSeen is one Schema Reference of a document.
type refSeen struct {
	path string
	m    map[string]any
}

// refs lists input_schema, output_schema and every supporting_record_schemas[].schema_reference.
func refs(doc map[string]any) []refSeen {
	var out []refSeen
	for _, k := range []string{"input_schema", "output_schema"} {
		if m, ok := doc[k].(map[string]any); ok {
			out = append(out, refSeen{"/" + k, m})
		}
	}
	recs, _ := doc["supporting_record_schemas"].([]any)
	for i, r := range recs {
		rm, _ := r.(map[string]any)
		if m, ok := rm["schema_reference"].(map[string]any); ok {
			out = append(out, refSeen{fmt.Sprintf("/supporting_record_schemas/%d/schema_reference", i), m})
		}
	}
	return out
}

func (r refSeen) schema() (json.RawMessage, bool) {
	res, _ := r.m["resolution"].(map[string]any)
	v, ok := res["schema"]
	if !ok {
		return nil, false
	}
	switch v.(type) {
	case map[string]any, bool:
		return mustJSON(v), true
	}
	return nil, false
}

func (r refSeen) str(k string) string { s, _ := r.m[k].(string); return s }

// compiled compiles one Schema Reference of a surveyed skill ("input", "output" or a record kind), once per run.
func (s *sess) compiled(row string, d *docSeen, role string) *skiface.Compiled {
	sv := s.survey()
	key := d.skill + "/" + role
	if v, ok := sv.comps.Load(key); ok {
		if c, ok := v.(*skiface.Compiled); ok {
			return c
		}
		s.w.Failf(d.ans.ex, "the "+role+" Schema Reference of "+d.skill+" compiles", "%v", v)
	}
	var ref map[string]any
	switch role {
	case "input":
		ref, _ = d.tree["input_schema"].(map[string]any)
	case "output":
		ref, _ = d.tree["output_schema"].(map[string]any)
	default:
		recs, _ := d.tree["supporting_record_schemas"].([]any)
		for _, r := range recs {
			rm, _ := r.(map[string]any)
			if rm["kind"] == role {
				ref, _ = rm["schema_reference"].(map[string]any)
			}
		}
	}
	var c *skiface.Compiled
	err := fmt.Errorf("%s declares no %s Schema Reference", d.skill, role)
	if dl, _ := ref["dialect"].(string); ref != nil && !skiface.TrustedDialect(dl) {
		s.w.Blocked(d.skill + " " + role + ": dialect " + dl + " is not one the harness holds a trusted meta-schema for (a client's policy, not an agent violation)")
	}
	if ref != nil {
		c, err = skiface.CompileSchema(mustJSON(ref), limits(s.e))
	}
	if err != nil {
		sv.comps.Store(key, err.Error())
		s.w.Failf(d.ans.ex, "the "+role+" Schema Reference of "+d.skill+" compiles", "%v", err)
	}
	sv.comps.Store(key, c)
	return c
}

// doc returns the surveyed document of a skill, failing row when there is none.
func (s *sess) doc(row, skill string) *docSeen {
	d := s.survey().bySk[skill]
	if d == nil {
		s.w.Failf(s.cardEx, "describe_skill("+skill+") returns its document", "the skill is not in the extension's params.skills")
	}
	if d.problem != "" {
		s.w.Failf(d.ans.ex, "describe_skill("+skill+") returns its document", "%s", d.problem)
	}
	return d
}

var versionString = regexp.MustCompile(`^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$`)

func isDigest(s string) bool { return skiface.IsDigest(s) }

func hasPrefixFold(s, p string) bool {
	return strings.HasPrefix(strings.ToLower(s), strings.ToLower(p))
}

var _ = harness.ExecutedPass
