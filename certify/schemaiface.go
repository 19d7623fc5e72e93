package certify

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"

	sifx "github.com/extconf/extconf/fixtures/schemaiface"
	"github.com/extconf/extconf/harness/a2a"
	cc "github.com/extconf/extconf/harness/clientcert"
	"github.com/extconf/extconf/refclients/skiface"
	"github.com/extconf/extconf/sabotage"
)

const (
	siDoc      = "schema-interface"
	siRole     = "schema-interface"
	siEvaluate = "evaluate_resource_condition"
	siManage   = "manage_resource"
	siMeasure  = "measure_link_bandwidth"
	siClean    = "si.invoke.clean"
	// SIStandinRole prefixes the counterpart role of a scenario played by a schema-interface stand-in
	// (suites/schemaifaceclient.StartStandin) instead of the reference agent.
	SIStandinRole = "si.standin:"
)

// siExampleArguments is the worked example's valid input (the document's own example request).
func siExampleArguments() json.RawMessage {
	var req struct {
		Arguments json.RawMessage `json:"arguments"`
	}
	_ = json.Unmarshal(sifx.Example("request"), &req)
	return req.Arguments
}

// ---- reading what the client sent

// siReq is one request the client sent, decoded as far as the schema-interface mapping goes.
type siReq struct {
	ex     *cc.Exchange
	method string
	msg    a2a.Message
	data   map[string]json.RawMessage // the request object: the first Data Part, else JSON in a text part
	kind   string                     // card | describe | domain | other
}

func siRequests(o *cc.Observation) []siReq {
	var out []siReq
	for _, ex := range o.Exchanges {
		r := siReq{ex: ex, kind: "other"}
		if ex.Method == http.MethodGet {
			r.kind = "card"
			out = append(out, r)
			continue
		}
		method, params := ex.RPC()
		r.method = method
		var p struct {
			Message a2a.Message `json:"message"`
		}
		_ = json.Unmarshal(params, &p)
		r.msg = p.Message
		for _, part := range r.msg.Parts {
			if len(part.Data) > 0 {
				_ = json.Unmarshal(part.Data, &r.data)
				break
			}
		}
		if r.data == nil {
			for _, part := range r.msg.Parts {
				if part.Text == nil {
					continue
				}
				if t := strings.TrimSpace(*part.Text); strings.HasPrefix(t, "{") {
					_ = json.Unmarshal([]byte(t), &r.data)
					break
				}
			}
		}
		skill := str(r.data["skill"])
		switch {
		case skill == skiface.DescribeSkill || method == skiface.DescribeSkill:
			r.kind = "describe"
		case skill != "":
			r.kind = "domain"
		}
		out = append(out, r)
	}
	return out
}

func siOf(o *cc.Observation, kind string) []siReq {
	var out []siReq
	for _, r := range siRequests(o) {
		if r.kind == kind {
			out = append(out, r)
		}
	}
	return out
}

// siAdvertised reads the skill's advertised skill_version and interface_digest from the card the client fetched.
func siAdvertised(o *cc.Observation, skill string) (version, digest string, ok bool) {
	for _, ex := range o.Exchanges {
		if ex.Method != http.MethodGet || ex.Status != http.StatusOK {
			continue
		}
		var card a2a.AgentCard
		if json.Unmarshal(ex.RespBody, &card) != nil {
			continue
		}
		x, found := card.Extension(skiface.ExtensionURI)
		if !found {
			continue
		}
		var params struct {
			Skills []struct {
				SkillID         string `json:"skill_id"`
				SkillVersion    string `json:"skill_version"`
				InterfaceDigest string `json:"interface_digest"`
			} `json:"skills"`
		}
		_ = json.Unmarshal(x.Params, &params)
		for _, s := range params.Skills {
			if s.SkillID == skill {
				return s.SkillVersion, s.InterfaceDigest, true
			}
		}
	}
	return "", "", false
}

func str(raw json.RawMessage) string {
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}

func partsText(m a2a.Message) string {
	b, _ := json.Marshal(m.Parts)
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}

func splitList(h string) []string {
	var out []string
	for _, p := range strings.Split(h, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

func lastEx(o *cc.Observation) *cc.Exchange {
	if len(o.Exchanges) == 0 {
		return nil
	}
	return o.Exchanges[len(o.Exchanges)-1]
}

// one is the single request of a kind the procedure must have sent; without it the check is blocked (the client
// never reached the step on a correct agent: its positive control failed).
func one(o *cc.Observation, kind, what string, judge func(r siReq) cc.Judgement) cc.Judgement {
	list := siOf(o, kind)
	switch len(list) {
	case 0:
		return cc.Block("positive control failed: the client sends a " + what + " to a correct agent — " + o.Describe())
	case 1:
		return judge(list[0])
	}
	return cc.Fail(fmt.Sprintf("%d %ss sent (one expected)", len(list), what), list[1].ex)
}

// ---- the scenarios

// SchemaInterface returns the schema-interface client scenarios: the invoke action on the reference agent, clean
// (what the client sends) and with one agent-side toggle on (what it does after a sabotaged answer).
func SchemaInterface() []cc.Scenario {
	args := siExampleArguments()
	invoke := func(id, desc string, toggle sabotage.ID, checks ...cc.Check) cc.Scenario {
		s := cc.Scenario{ID: id, Document: siDoc, Role: siRole, Action: cc.ActionInvoke, Skill: siEvaluate,
			Arguments: args, Description: desc, Control: siClean, Checks: checks}
		if toggle != "" {
			s.Toggles = []string{string(toggle)}
		}
		return s
	}
	clean := invoke(siClean, "the worked example against the correct reference agent: what the client puts on the wire", "", siCleanChecks(args)...)
	clean.Control = ""

	out := []cc.Scenario{clean}
	refused := func(rows []string, code string) []cc.Check {
		cs := []cc.Check{siRefusedNoDomain(rows...)}
		if code != "" {
			cs = append(cs, siReason(code, rows[0]))
		}
		return cs
	}
	// Sabotaged answers after describe_skill: the client must have asked (else it never saw the fault), then refuse
	// without sending the domain-skill request.
	afterDescribe := func(id, desc string, toggle sabotage.ID, skill string, skillArgs json.RawMessage, code string, rows ...string) cc.Scenario {
		s := invoke(id, desc, toggle, append([]cc.Check{siSawDescribe(rows...)}, refused(rows, code)...)...)
		s.Skill, s.Arguments = skill, skillArgs
		return s
	}
	out = append(out,
		afterDescribe("si.invoke.describe-tampered", "describe_skill returns a tampered document whose carried digests stay the advertised one",
			sabotage.SIDescribeTamperedDocument, siEvaluate, args, skiface.InterfaceInvalid, "SI-2.2b", "SI-9.22", "SI-9.55b", "SI-12.11c"),
		afterDescribe("si.invoke.describe-digest-differs", "describe_skill's result.interface_digest is another document's",
			sabotage.SIDescribeDigestDiffers, siEvaluate, args, "", "SI-9.22", "SI-12.11c"),
		afterDescribe("si.invoke.card-stale-digest", "the card advertises the digest of an earlier document",
			sabotage.SICardStaleInterfaceDigest, siEvaluate, args, "", "SI-9.22", "SI-12.11c"),
		afterDescribe("si.invoke.describe-omit-digest", "describe_skill's result lacks interface_digest",
			sabotage.SIDescribeOmitDigest, siEvaluate, args, "", "SI-9.22"),
		afterDescribe("si.invoke.describe-fails", "describe_skill fails: the skill's interface store is offline (interface_unavailable)",
			"", "inventory_snapshot", json.RawMessage(`{}`), "", "SI-9.62b"),
		afterDescribe("si.invoke.describe-other-version", "describe_skill returns the 1.1 document while the card advertises 1.0",
			sabotage.SIDescribeOtherSkillVersion, siEvaluate, args, "", "SI-9.62c", "SI-12.11b"),
		afterDescribe("si.invoke.describe-invalid-document", "the manage_resource document lacks output_schema (card digest over it)",
			sabotage.SIDescribeInvalidDocument, siManage, json.RawMessage(`{"operation":"read","resource_id":"r-shared"}`),
			skiface.InterfaceInvalid, "SI-9.55a", "SI-9.55b", "SI-9.62d"),
		afterDescribe("si.invoke.external-ref", "measure_link_bandwidth's input schema refers to an external URL",
			sabotage.SISchemaExternalRef, siMeasure, json.RawMessage(`{"link_id":"link-7","metric":"available_bandwidth","unit":"Gbps"}`),
			skiface.InterfaceInvalid, "SI-6.11b", "SI-9.62d"),
		afterDescribe("si.invoke.embedded-other-dialect", "manage_resource's embedded schema resource declares draft-07",
			sabotage.SISchemaEmbeddedOtherDialect, siManage, json.RawMessage(`{"operation":"read","resource_id":"r-shared"}`),
			skiface.InterfaceInvalid, "SI-6.11c"),
	)
	// Sabotaged answers to the domain-skill request: the client must not deliver the output.
	for _, c := range []struct {
		id, desc string
		toggle   sabotage.ID
	}{
		{"si.invoke.output-invalid", "the result is outside the output enum and the task completes", sabotage.SIOutputViolatesSchema},
		{"si.invoke.record-invalid", "the supporting record lacks observed_at", sabotage.SIRecordMissingObservedAt},
	} {
		out = append(out, invoke(c.id, c.desc, c.toggle,
			cc.Check{Rows: []string{"SI-9.59", "SI-9.60a"}, Expect: "the client validates the completed task's output and records itself, refuses, and delivers no output",
				Judge: func(o *cc.Observation) cc.Judgement {
					if len(siOf(o, "domain")) == 0 {
						return cc.Block("positive control failed: the client sends the domain-skill request — " + o.Describe())
					}
					r := o.Reply()
					return cc.Judge(r != nil && r.Outcome == cc.OutcomeRefused && len(r.Output) == 0, o.Describe(), lastEx(o))
				}},
			siReason(skiface.OutputInvalid, "SI-9.49b", "SI-9.60b"),
			cc.Check{Rows: []string{"SI-9.60b"}, Expect: "after the invalid output the client sends no cancel or follow-up request",
				Judge: func(o *cc.Observation) cc.Judgement {
					rs := siRequests(o)
					for i, r := range rs {
						if r.kind == "domain" {
							for _, after := range rs[i+1:] {
								if after.kind == "describe" || after.kind == "domain" || strings.Contains(strings.ToLower(after.method), "cancel") {
									return cc.Fail(fmt.Sprintf("%s %s (%s) sent after the domain-skill request", after.ex.Method, after.ex.Path, after.method), after.ex)
								}
							}
							return cc.Pass(fmt.Sprintf("%d requests after the domain-skill request, none a cancel or follow-up", len(rs)-i-1), r.ex)
						}
					}
					return cc.Block("positive control failed: the client sends the domain-skill request — " + o.Describe())
				}},
		))
	}
	for i := range out {
		if out[i].ID == "si.invoke.output-invalid" {
			out[i].Checks = append(out[i].Checks, siDetails())
		}
	}
	// Local conditions before any schema-interface request.
	noProcedure := func(rows ...string) cc.Check {
		return cc.Check{Rows: rows, Expect: "no describe_skill and no domain-skill request is sent; the client refuses",
			Judge: func(o *cc.Observation) cc.Judgement {
				d, m := siOf(o, "describe"), siOf(o, "domain")
				ok := len(d) == 0 && len(m) == 0 && o.Outcome() == cc.OutcomeRefused
				return cc.Judge(ok, fmt.Sprintf("%d describe_skill, %d domain-skill requests; %s", len(d), len(m), o.Describe()), lastEx(o))
			}}
	}
	out = append(out,
		invoke("si.invoke.no-describe-skill", "the card keeps the extension but drops the describe_skill AgentSkill",
			sabotage.SICardOmitDescribeSkill, noProcedure("SI-9.62a", "SI-9.13")),
		invoke("si.invoke.no-extension", "the card keeps describe_skill but drops the schema-interface extension",
			sabotage.SICardOmitExtension, noProcedure("SI-9.13")),
		invoke("si.invoke.interface-version-1-1", "the card's extension declares interface_version 1.1",
			sabotage.SICardInterfaceVersion11, cc.Check{Rows: []string{"SI-9.52d"}, Expect: "no domain-skill request is sent; the client refuses",
				Judge: func(o *cc.Observation) cc.Judgement {
					return cc.Judge(len(siOf(o, "domain")) == 0 && o.Outcome() == cc.OutcomeRefused, o.Describe(), lastEx(o))
				}}, siReason(skiface.UnsupportedInterfaceVersion, "SI-9.52d")),
	)
	unadv := invoke("si.invoke.unadvertised-skill", "the caller asks for a skill the card does not advertise", "",
		noProcedure("SI-9.53", "SI-9.45a"), siReason(skiface.SkillNotAdvertised, "SI-9.52c", "SI-9.45b"))
	unadv.Skill = "extconf_unadvertised_skill"
	bad := invoke("si.invoke.invalid-arguments", "the caller's input misses condition.unit (fails input_schema)", "",
		cc.Check{Rows: []string{"SI-8.9", "SI-9.36"}, Expect: "the input failing input_schema is not sent: no domain-skill request; the client refuses",
			Judge: func(o *cc.Observation) cc.Judgement {
				m := siOf(o, "domain")
				return cc.Judge(len(m) == 0 && o.Outcome() == cc.OutcomeRefused, fmt.Sprintf("%d domain-skill requests; %s", len(m), o.Describe()), lastEx(o))
			}}, siReason(skiface.InputInvalid, "SI-9.45b"))
	bad.Arguments = json.RawMessage(`{"resource_id":"network-resource-123","condition":{"metric":"utilization","operator":"gte","threshold":80}}`)
	// SI-9.44: the unadvertised skill is a local condition, reported as such with no remote task.
	unadv.Checks = append(unadv.Checks, cc.Check{Rows: []string{"SI-9.44"}, Expect: "skill_not_advertised is reported as a local condition (local true) with no remote task id or state",
		Judge: func(o *cc.Observation) cc.Judgement {
			r := o.Reply()
			ok := r != nil && r.Outcome == cc.OutcomeRefused && r.Local && r.Task == nil
			task := "none"
			if r != nil && r.Task != nil {
				task = fmt.Sprintf("%+v", *r.Task)
			}
			return cc.Judge(ok, fmt.Sprintf("%s; local %v; task %s", o.Describe(), r != nil && r.Local, task), lastEx(o))
		}})
	out = append(out, unadv, bad)

	// Local policy: the caller's own permission and approval steps run whatever the document's authority says (the
	// worked example: observe_only, approval_may_be_required false).
	policy := func(id, desc, value, row string) cc.Scenario {
		s := invoke(id, desc, "", noProcedureAfterDescribe(row), siReason(skiface.AuthorizationFailed, row))
		s.Env = map[string]string{cc.EnvPolicy: value}
		return s
	}
	out = append(out,
		policy("si.invoke.policy-denies", "the caller's local policy denies the skill (the document says observe_only)", "deny", "SI-8.2a"),
		policy("si.invoke.no-approval", "no local approval is recorded (the document says approval_may_be_required false)", "no-approval", "SI-12.4a"))

	// Stand-ins (suites/schemaifaceclient): the agents the self-check's specs start for the same rows.
	standin := func(id, name, desc string, checks ...cc.Check) cc.Scenario {
		s := invoke(id, desc, "", checks...)
		s.Role = SIStandinRole + name
		return s
	}
	out = append(out,
		standin("si.invoke.other-skill-document", "other-skill-document", "describe_skill answers with a valid document for another skill_id, its own true digest on the card",
			append([]cc.Check{siSawDescribe("SI-12.11a")}, refused([]string{"SI-12.11a"}, skiface.InterfaceInvalid)...)...),
		standin("si.invoke.bad-default-mode", "bad-default-mode", "a document the standard Skill Interface Schema rejects (authority.default_mode execute_with_approval), digests coherent",
			append([]cc.Check{siSawDescribe("SI-12.10b", "SI-9.55a", "SI-9.62d")}, refused([]string{"SI-12.10b", "SI-9.55a", "SI-9.62d"}, skiface.InterfaceInvalid)...)...),
		// SI-9.55b: the document digest is right, one embedded schema's is not — a client that checks only the former
		// delegates (the self-check's SI-9.55b stand-in).
		standin("si.invoke.embedded-digest-zeroed", "embedded-digest-zeroed", "input_schema.digest is zeroed; the card's and describe_skill's interface digest are the document's as served",
			append([]cc.Check{siSawDescribe("SI-9.55b")}, refused([]string{"SI-9.55b"}, skiface.InterfaceInvalid)...)...),
		standin("si.invoke.unresolved-ref", "unresolved-ref", "the input schema's condition.unit is a $ref to #/$defs/unit, which it does not define",
			append([]cc.Check{siSawDescribe("SI-6.11a")}, refused([]string{"SI-6.11a"}, skiface.InterfaceInvalid)...)...),
		standin("si.invoke.record-not-a-time", "record-not-a-time", `the supporting record's observed_at is "not-a-time" (format date-time)`, siOutputRefused("SI-6.12a")...),
		standin("si.invoke.record-no-offset", "record-date-time-no-offset", "the supporting record's observed_at has no offset", siOutputRefused("SI-6.13a")...),
		standin("si.invoke.record-space", "record-date-time-space", "the supporting record's observed_at has a space separator", siOutputRefused("SI-6.13a")...),
		standin("si.invoke.scrambled-document", "scrambled-document", "the example served with reordered members, whitespace and \\u0073 escapes (same JCS, same digests)",
			cc.Check{Rows: []string{"SI-7.1b"}, Expect: "the document is accepted (its JCS digests match) and the invocation completes",
				Judge: func(o *cc.Observation) cc.Judgement {
					d, m := siOf(o, "describe"), siOf(o, "domain")
					return cc.Judge(len(d) == 1 && len(m) == 1 && o.Outcome() == cc.OutcomeCompleted,
						fmt.Sprintf("%d describe_skill, %d domain-skill requests; %s", len(d), len(m), o.Describe()), lastEx(o))
				}}),
	)
	versioned := func(id, desc, version string, check cc.Check) cc.Scenario {
		s := standin(id, "skill-version-1-2", desc, check)
		s.Env = map[string]string{cc.EnvSkillVer: version}
		return s
	}
	sentVersions := func(o *cc.Observation) []string {
		var vs []string
		for _, r := range siOf(o, "domain") {
			vs = append(vs, str(r.data["skill_version"]))
		}
		return vs
	}
	asked := versioned("si.invoke.version-as-advertised", "the caller asks for skill_version 1.2, which the card advertises", "1.2",
		cc.Check{Rows: []string{"SI-9.10a"}, Expect: "asking for the advertised 1.2 delegates with skill_version 1.2",
			Judge: func(o *cc.Observation) cc.Judgement {
				vs := sentVersions(o)
				if len(vs) != 1 || vs[0] != "1.2" || o.Outcome() != cc.OutcomeCompleted {
					return cc.Block(fmt.Sprintf("positive control failed: asking for the advertised 1.2 delegates with it — skill_version sent %q; %s", vs, o.Describe()))
				}
				return cc.Pass(fmt.Sprintf("skill_version sent %q", vs), lastEx(o))
			}})
	asked.Control = ""
	older := versioned("si.invoke.version-not-advertised", "the caller asks for skill_version 1.0 while the card advertises 1.2", "1.0",
		cc.Check{Rows: []string{"SI-9.10a"}, Expect: "asking for 1.0 while the card advertises 1.2 is refused; skill_version 1.0 is never sent",
			Judge: func(o *cc.Observation) cc.Judgement {
				vs := sentVersions(o)
				return cc.Judge(!slices.Contains(vs, "1.0") && o.Outcome() == cc.OutcomeRefused, fmt.Sprintf("skill_version sent %q; %s", vs, o.Describe()), lastEx(o))
			}})
	older.Control = asked.ID
	return append(out, asked, older)
}
