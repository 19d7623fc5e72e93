package certify

import (
	"encoding/json"
	"fmt"
	"time"

	cc "github.com/extconf/extconf/harness/clientcert"
	"github.com/extconf/extconf/refclients/skiface"
	sic "github.com/extconf/extconf/suites/schemaifaceclient"
)

const (
	siDirect     = "si.delegate.direct"
	siUpstream   = SIStandinRole + "compose-upstream"
	siDownstream = SIStandinRole + "compose-downstream"
	siAssess     = "assess_link_health"
)

// siSide filters what the client sent to one side of a delegation.
func siSide(o *cc.Observation, kind string, downstream bool) []siReq {
	var out []siReq
	for _, r := range siOf(o, kind) {
		if r.ex.Downstream == downstream {
			out = append(out, r)
		}
	}
	return out
}

// siIssued is the task id the agent issued in its answer to a domain-skill request ("" when it issued none).
func siIssued(r siReq) string {
	var env struct {
		Result struct {
			Task *struct {
				ID string `json:"id"`
			} `json:"task"`
		} `json:"result"`
		Task *struct {
			ID string `json:"id"`
		} `json:"task"`
	}
	if json.Unmarshal(r.ex.RespBody, &env) != nil {
		return ""
	}
	switch {
	case env.Result.Task != nil:
		return env.Result.Task.ID
	case env.Task != nil:
		return env.Task.ID
	}
	return ""
}

// siHop returns the ids the two agents issued, or a blocked judgement when the composition did not run.
func siHop(o *cc.Observation) (up, down string, j *cc.Judgement) {
	u, d := siSide(o, "domain", false), siSide(o, "domain", true)
	if len(u) != 1 || len(d) != 1 || o.Outcome() != cc.OutcomeCompleted {
		b := cc.Block(fmt.Sprintf("positive control failed: %s → %s (identical Schema References) composes into a new downstream task — %d upstream, %d downstream domain-skill requests; %s",
			sic.MeasureSkill, siAssess, len(u), len(d), o.Describe()))
		return "", "", &b
	}
	return siIssued(u[0]), siIssued(d[0]), nil
}

func siCorrelation(o *cc.Observation) string {
	r := o.Reply()
	if r == nil || r.Correlation == nil {
		return "no correlation record"
	}
	b, _ := json.Marshal(r.Correlation)
	return "correlation " + string(b)
}

// Delegate returns the composition scenarios (schema-interface "Composition and delegation"): the delegate action
// with the measure_link_bandwidth stand-in upstream and the assess_link_health stand-ins downstream, each behind
// its own recording proxy.
func Delegate() []cc.Scenario {
	rule, _ := json.Marshal(map[string]any{"schema_uri": sic.LinkMeasurementURI, "max_age_seconds": 300, "now": sic.ObservedBase().Format(time.RFC3339)})
	sc := func(id, desc, downSkill string, age int, checks ...cc.Check) cc.Scenario {
		return cc.Scenario{ID: id, Document: siDoc, Role: siUpstream, Downstream: siDownstream, Action: cc.ActionDelegate,
			Skill: sic.MeasureSkill, Arguments: json.RawMessage(fmt.Sprintf(`{"link_id":"link-7","age_seconds":%d}`, age)),
			Env:         map[string]string{cc.EnvDownSkill: downSkill, cc.EnvDomainRule: string(rule)},
			Description: desc, Control: siDirect, Checks: checks}
	}
	noComposition := func(code string, rows ...string) cc.Check {
		expect := "no downstream task: the client asks the downstream describe_skill, then refuses and sends no downstream domain-skill request"
		if code != "" {
			expect += " (" + code + ")"
		}
		return cc.Check{Rows: rows, Expect: expect,
			Judge: func(o *cc.Observation) cc.Judgement {
				if len(siSide(o, "domain", false)) != 1 || len(siSide(o, "describe", true)) == 0 {
					return cc.Block("the client did not run the upstream skill and read the downstream document: it never compared them — " + o.Describe())
				}
				d := siSide(o, "domain", true)
				if len(d) > 0 {
					return cc.Fail(fmt.Sprintf("a downstream domain-skill request was sent (%s)", o.Describe()), d[0].ex)
				}
				r := o.Reply()
				ok := r != nil && r.Outcome == cc.OutcomeRefused && (code == "" || r.Reason == code)
				return cc.Judge(ok, o.Describe(), lastEx(o))
			}}
	}
	direct := sc(siDirect, "measure_link_bandwidth → assess_link_health, identical Schema References: the positive control", siAssess, 10,
		cc.Check{Rows: []string{"SI-6.1"}, Expect: "the downstream Message carries no taskId (a new task), and the downstream task id recorded is the one the downstream issued, never the upstream's",
			Judge: func(o *cc.Observation) cc.Judgement {
				d := siSide(o, "domain", true)
				if len(d) == 0 {
					return cc.Block("positive control failed: the client sends the downstream domain-skill request — " + o.Describe())
				}
				if d[0].msg.TaskID != "" {
					return cc.Fail(fmt.Sprintf("the downstream Message carries taskId %q", d[0].msg.TaskID), d[0].ex)
				}
				up, down, blocked := siHop(o)
				if blocked != nil {
					return *blocked
				}
				r := o.Reply()
				ok := r.Correlation != nil && down != "" && down != up && r.Correlation.Downstream.TaskID == down
				return cc.Judge(ok, fmt.Sprintf("issued: upstream %q, downstream %q; %s", up, down, siCorrelation(o)), d[0].ex)
			}},
		cc.Check{Rows: []string{"SI-6.3"}, Expect: "the correlation record names upstream and downstream {endpoint, task_id, skill_id} as issued, in separate fields",
			Judge: func(o *cc.Observation) cc.Judgement {
				up, down, blocked := siHop(o)
				if blocked != nil {
					return *blocked
				}
				c := o.Reply().Correlation
				ok := c != nil && c.Upstream.TaskID == up && c.Downstream.TaskID == down && c.Upstream.SkillID == sic.MeasureSkill &&
					c.Downstream.SkillID == siAssess && c.Upstream.Endpoint != "" && c.Downstream.Endpoint != "" && c.Upstream.Endpoint != c.Downstream.Endpoint
				return cc.Judge(ok, fmt.Sprintf("issued: upstream %q, downstream %q; %s", up, down, siCorrelation(o)), lastEx(o))
			}},
		cc.Check{Rows: []string{"SI-9.63"}, Expect: "the correlation record keeps both task ids, as distinct values",
			Judge: func(o *cc.Observation) cc.Judgement {
				up, down, blocked := siHop(o)
				if blocked != nil {
					return *blocked
				}
				c := o.Reply().Correlation
				ok := c != nil && c.Upstream.TaskID != "" && c.Downstream.TaskID != "" && c.Upstream.TaskID != c.Downstream.TaskID &&
					c.Upstream.TaskID == up && c.Downstream.TaskID == down
				return cc.Judge(ok, fmt.Sprintf("issued: upstream %q, downstream %q; %s", up, down, siCorrelation(o)), lastEx(o))
			}})
	direct.Control = ""
	return []cc.Scenario{
		direct,
		sc("si.delegate.schema-uri-differs", "the downstream input reference differs in schema_uri (the instance would validate)", siAssess+"_uri", 10, noComposition("", "SI-9.64a")),
		sc("si.delegate.version-differs", "the downstream input reference differs in version (the instance validates against it)", siAssess+"_version", 10, noComposition("", "SI-9.64b", "SI-9.66")),
		sc("si.delegate.dialect-differs", "the downstream input reference names the dialect with a trailing #", siAssess+"_dialect", 10, noComposition("", "SI-9.64c")),
		sc("si.delegate.digest-differs", "the downstream input schema is annotated (another digest, the instance would validate)", siAssess+"_digest", 10, noComposition("", "SI-9.64d")),
		withEnv(sc("si.delegate.transfer-extra-member", "the orchestrator adds workflow_id to the transferred instance, which the downstream input schema does not define", siAssess, 10,
			noComposition(skiface.InputInvalid, "SI-9.65a")), cc.EnvTransferAdd, `{"workflow_id":"wf-1"}`),
		sc("si.delegate.stale-measurement", "the upstream measurement is an hour old; the caller's domain rule allows 300 s", siAssess, 3600,
			noComposition(skiface.ConstraintRejected, "SI-9.68b")),
	}
}

func withEnv(s cc.Scenario, k, v string) cc.Scenario {
	env := map[string]string{}
	for a, b := range s.Env {
		env[a] = b
	}
	env[k] = v
	s.Env = env
	return s
}
