package certify

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"sort"
	"strings"

	sifx "github.com/extconf/extconf/fixtures/schemaiface"
	"github.com/extconf/extconf/harness/a2a"
	cc "github.com/extconf/extconf/harness/clientcert"
	"github.com/extconf/extconf/harness/verify"
	"github.com/extconf/extconf/refclients/skiface"
	"github.com/extconf/extconf/sabotage"
	sic "github.com/extconf/extconf/suites/schemaifaceclient"
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
			append([]cc.Check{siSawDescribe("SI-12.10b")}, refused([]string{"SI-12.10b"}, skiface.InterfaceInvalid)...)...),
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

// siOutputRefused: the completed task's output or record fails its schema: the client refuses with output_invalid
// and delivers no output.
func siOutputRefused(rows ...string) []cc.Check {
	return []cc.Check{{Rows: rows, Expect: "the client validates the supporting record, refuses with output_invalid and delivers no output",
		Judge: func(o *cc.Observation) cc.Judgement {
			if len(siOf(o, "domain")) == 0 {
				return cc.Block("positive control failed: the client sends the domain-skill request — " + o.Describe())
			}
			r := o.Reply()
			return cc.Judge(r != nil && r.Outcome == cc.OutcomeRefused && r.Reason == skiface.OutputInvalid && len(r.Output) == 0, o.Describe(), lastEx(o))
		}}}
}

// noProcedureAfterDescribe: the client stops before delegating: no domain-skill request, a refusal.
func noProcedureAfterDescribe(rows ...string) cc.Check {
	return cc.Check{Rows: rows, Expect: "no domain-skill request is sent; the client refuses",
		Judge: func(o *cc.Observation) cc.Judgement {
			m := siOf(o, "domain")
			return cc.Judge(len(m) == 0 && o.Outcome() == cc.OutcomeRefused, fmt.Sprintf("%d domain-skill requests; %s", len(m), o.Describe()), lastEx(o))
		}}
}

// siDetails (SI-9.56b): the output_invalid refusal for a result outside its enum reports details[] whose
// instance_path is an RFC 6901 JSON Pointer to the invalid field, /result.
func siDetails() cc.Check {
	want := `each details[] entry has a non-empty RFC 6901 instance_path, one of them "/result"`
	return cc.Check{Rows: []string{"SI-9.56b"}, Expect: "the output_invalid refusal carries details[]: " + want,
		Judge: func(o *cc.Observation) cc.Judgement {
			r := o.Reply()
			if r == nil || r.Reason != skiface.OutputInvalid {
				return cc.Block("the client does not refuse with output_invalid (SI-9.49b judges that): " + o.Describe())
			}
			var paths []string
			ok := len(r.Details) > 0
			for _, d := range r.Details {
				paths = append(paths, d.InstancePath)
				ok = ok && d.InstancePath != "" && skiface.ParsePointer(d.InstancePath) == nil
			}
			ok = ok && slices.Contains(paths, "/result")
			return cc.Judge(ok, fmt.Sprintf("instance paths %q", paths), lastEx(o))
		}}
}

// siSawDescribe: a refusal counts only after the client asked describe_skill and so saw the sabotaged answer.
func siSawDescribe(rows ...string) cc.Check {
	return cc.Check{Rows: rows, Expect: "the client calls describe_skill (and so receives the sabotaged answer)",
		Judge: func(o *cc.Observation) cc.Judgement {
			d := siOf(o, "describe")
			if len(d) == 0 {
				return cc.Block("the client sent no describe_skill: it never received the sabotaged answer — " + o.Describe())
			}
			return cc.Pass("describe_skill sent", d[0].ex)
		}}
}

func siRefusedNoDomain(rows ...string) cc.Check {
	return cc.Check{Rows: rows, Expect: "the client refuses and sends no domain-skill request",
		Judge: func(o *cc.Observation) cc.Judgement {
			m := siOf(o, "domain")
			if len(m) > 0 {
				return cc.Fail(fmt.Sprintf("domain-skill request sent (%s)", o.Describe()), m[0].ex)
			}
			return cc.Judge(o.Outcome() == cc.OutcomeRefused, o.Describe(), lastEx(o))
		}}
}

func siReason(code string, rows ...string) cc.Check {
	return cc.Check{Rows: rows, Expect: "the client refuses with the condition code " + code,
		Judge: func(o *cc.Observation) cc.Judgement {
			r := o.Reply()
			return cc.Judge(r != nil && r.Outcome == cc.OutcomeRefused && r.Reason == code, o.Describe(), lastEx(o))
		}}
}

func siCleanChecks(args json.RawMessage) []cc.Check {
	header := func(kind, what string) func(*cc.Observation) cc.Judgement {
		return func(o *cc.Observation) cc.Judgement {
			return one(o, kind, what, func(r siReq) cc.Judgement {
				h := strings.Join(r.ex.Header.Values(a2a.HeaderExtensions), ",")
				return cc.Judge(slices.Contains(splitList(h), skiface.ExtensionURI), fmt.Sprintf("A2A-Extensions: %q", h), r.ex)
			})
		}
	}
	sendMethods := []string{a2a.MethodSendMessage, a2a.MethodSendStreamingMessage, "message:send", "message:stream"}
	domain := func(judge func(o *cc.Observation, r siReq) cc.Judgement) func(*cc.Observation) cc.Judgement {
		return func(o *cc.Observation) cc.Judgement {
			return one(o, "domain", "domain-skill request", func(r siReq) cc.Judgement { return judge(o, r) })
		}
	}
	describe := func(judge func(r siReq) cc.Judgement) func(*cc.Observation) cc.Judgement {
		return func(o *cc.Observation) cc.Judgement { return one(o, "describe", "describe_skill request", judge) }
	}
	return []cc.Check{
		{Rows: []string{"SI-9.61a"}, Expect: "one describe_skill, then one domain-skill request; the invocation completes",
			Judge: func(o *cc.Observation) cc.Judgement {
				d, m := siOf(o, "describe"), siOf(o, "domain")
				ok := len(d) == 1 && len(m) == 1 && d[0].ex.Seq < m[0].ex.Seq && o.Outcome() == cc.OutcomeCompleted
				return cc.Judge(ok, fmt.Sprintf("%d describe_skill, %d domain-skill requests; %s", len(d), len(m), o.Describe()), lastEx(o))
			}},
		{Rows: []string{"SI-9.3a"}, Expect: "describe_skill carries A2A-Extensions: " + skiface.ExtensionURI, Judge: header("describe", "describe_skill request")},
		{Rows: []string{"SI-9.3b"}, Expect: "the domain-skill request carries A2A-Extensions: " + skiface.ExtensionURI, Judge: header("domain", "domain-skill request")},
		{Rows: []string{"SI-9.4"}, Expect: "message.extensions lists " + skiface.ExtensionURI + " on describe_skill and the domain-skill request",
			Judge: func(o *cc.Observation) cc.Judgement {
				all := append(siOf(o, "describe"), siOf(o, "domain")...)
				if len(all) < 2 {
					return cc.Block("positive control failed: the client sends describe_skill and the domain-skill request — " + o.Describe())
				}
				for _, r := range all {
					if !slices.Contains(r.msg.Extensions, skiface.ExtensionURI) {
						return cc.Fail(fmt.Sprintf("message.extensions %q", r.msg.Extensions), r.ex)
					}
				}
				return cc.Pass("both list it", all[0].ex)
			}},
		{Rows: []string{"SI-4.1b"}, Expect: "describe_skill and the domain-skill request are each a Message with one Data Part holding the request object",
			Judge: func(o *cc.Observation) cc.Judgement {
				all := append(siOf(o, "describe"), siOf(o, "domain")...)
				if len(all) == 0 {
					return cc.Block("positive control failed: the client sends describe_skill to a correct agent — " + o.Describe())
				}
				for _, r := range all {
					if !(len(r.msg.Parts) == 1 && len(r.msg.Parts[0].Data) > 0 && str(r.data["skill"]) != "") {
						return cc.Fail(fmt.Sprintf("%d parts: %s", len(r.msg.Parts), partsText(r.msg)), r.ex)
					}
				}
				if len(all) < 2 {
					return cc.Block("positive control failed: the client sends the domain-skill request to a correct agent — " + o.Describe())
				}
				return cc.Pass("one Data Part each", all[0].ex)
			}},
		{Rows: []string{"SI-9.15a"}, Expect: "describe_skill is sent with SendMessage / SendStreamingMessage (or message:send / message:stream)",
			Judge: describe(func(r siReq) cc.Judgement {
				return cc.Judge(slices.Contains(sendMethods, r.method), "method "+r.method, r.ex)
			})},
		{Rows: []string{"SI-9.15b"}, Expect: "the describe_skill Message has role " + a2a.RoleUser,
			Judge: describe(func(r siReq) cc.Judgement { return cc.Judge(r.msg.Role == a2a.RoleUser, "role "+r.msg.Role, r.ex) })},
		{Rows: []string{"SI-9.15c"}, Expect: "the describe_skill Message has exactly one part, a Data Part",
			Judge: describe(func(r siReq) cc.Judgement {
				return cc.Judge(len(r.msg.Parts) == 1 && len(r.msg.Parts[0].Data) > 0, fmt.Sprintf("%d parts: %s", len(r.msg.Parts), partsText(r.msg)), r.ex)
			})},
		{Rows: []string{"SI-9.16", "SI-9.10b"}, Expect: `describe_skill data is exactly {"skill":"describe_skill","arguments":{"skill_id":"` + siEvaluate + `"}}`,
			Judge: describe(func(r siReq) cc.Judgement {
				var got any
				if len(r.msg.Parts) > 0 {
					_ = json.Unmarshal(r.msg.Parts[0].Data, &got)
				}
				want := map[string]any{"skill": "describe_skill", "arguments": map[string]any{"skill_id": siEvaluate}}
				b, _ := json.Marshal(got)
				return cc.Judge(reflect.DeepEqual(got, want), "data "+string(b), r.ex)
			})},
		{Rows: []string{"SI-9.30"}, Expect: "the domain-skill Message has role ROLE_USER and exactly one part, a Data Part",
			Judge: domain(func(_ *cc.Observation, r siReq) cc.Judgement {
				ok := r.msg.Role == a2a.RoleUser && len(r.msg.Parts) == 1 && len(r.msg.Parts[0].Data) > 0
				return cc.Judge(ok, fmt.Sprintf("role %s, %d parts: %s", r.msg.Role, len(r.msg.Parts), partsText(r.msg)), r.ex)
			})},
		{Rows: []string{"SI-9.31"}, Expect: "the request object has exactly skill, skill_version, interface_digest (strings) and arguments (an object)",
			Judge: domain(func(_ *cc.Observation, r siReq) cc.Judgement {
				var keys []string
				for k := range r.data {
					keys = append(keys, k)
				}
				sort.Strings(keys)
				types := len(r.data["arguments"]) > 0 && r.data["arguments"][0] == '{' && str(r.data["skill"]) != "" &&
					str(r.data["skill_version"]) != "" && str(r.data["interface_digest"]) != ""
				return cc.Judge(reflect.DeepEqual(keys, []string{"arguments", "interface_digest", "skill", "skill_version"}) && types,
					fmt.Sprintf("members %v: %s", keys, partsText(r.msg)), r.ex)
			})},
		{Rows: []string{"SI-9.32"}, Expect: "data.skill is the AgentSkill id " + siEvaluate + " (its name is \"Evaluate resource condition\")",
			Judge: domain(func(_ *cc.Observation, r siReq) cc.Judgement {
				return cc.Judge(str(r.data["skill"]) == siEvaluate, "skill "+string(r.data["skill"]), r.ex)
			})},
		{Rows: []string{"SI-9.33a"}, Expect: "data.skill_version is the advertised (and returned) skill_version",
			Judge: domain(func(o *cc.Observation, r siReq) cc.Judgement {
				v, _, ok := siAdvertised(o, siEvaluate)
				if !ok {
					return cc.Block("the card the client fetched through the proxy advertises no " + siEvaluate)
				}
				return cc.Judge(str(r.data["skill_version"]) == v, fmt.Sprintf("skill_version %s (advertised %s)", r.data["skill_version"], v), r.ex)
			})},
		{Rows: []string{"SI-9.33b", "SI-2.1c"}, Expect: "data.interface_digest is the advertised (and returned) interface_digest",
			Judge: domain(func(o *cc.Observation, r siReq) cc.Judgement {
				_, d, ok := siAdvertised(o, siEvaluate)
				if !ok {
					return cc.Block("the card the client fetched through the proxy advertises no " + siEvaluate)
				}
				return cc.Judge(str(r.data["interface_digest"]) == d, fmt.Sprintf("interface_digest %s (advertised %s)", r.data["interface_digest"], d), r.ex)
			})},
		{Rows: []string{"SI-9.36"}, Expect: "data.arguments is the caller's complete input (JCS-equal to " + cc.EnvArguments + ")",
			Judge: domain(func(_ *cc.Observation, r siReq) cc.Judgement {
				a, err1 := verify.CanonicalJSON(r.data["arguments"])
				b, err2 := verify.CanonicalJSON(args)
				return cc.Judge(err1 == nil && err2 == nil && string(a) == string(b), "arguments "+string(r.data["arguments"]), r.ex)
			})},
	}
}

// SIBase is the base-invocation scenario (schema-interface §9 rule 14): the client invokes a skill of an agent
// that does not declare the extension, as plain A2A; it must derive no schema for it from the skill's description
// or media types (application/json), attach none, and claim no schema-interface conformance for it.
func SIBase() []cc.Scenario {
	answer := func(o *cc.Observation) (*cc.Governance, *cc.Judgement) {
		r := o.Reply()
		var j cc.Judgement
		switch {
		case r == nil:
			j = cc.Block("no reply — " + o.Describe())
		case r.Reason == cc.ReasonUnsupportedAction:
			j = cc.Unanswered("the client does not know the " + cc.ActionInvokeBase + " action (it replies " + cc.ReasonUnsupportedAction + ")")
		case r.Governance == nil:
			j = cc.Unanswered("the client's " + cc.ActionInvokeBase + " reply carries no governance member (what it attached to and claims for the invocation)")
		case r.Outcome != cc.OutcomeCompleted || len(siSends(o)) == 0:
			j = cc.Block("positive control failed: the client completes a base A2A invocation of the plain agent — " + o.Describe())
		default:
			return r.Governance, nil
		}
		return nil, &j
	}
	return []cc.Scenario{{ID: "si.invoke-base.plain", Document: siDoc, Role: SIStandinRole + "plain", Action: cc.ActionInvokeBase,
		Skill: sic.PlainSkill, Env: map[string]string{cc.EnvRequest: "summarize the running configuration"},
		Description: "a base A2A agent: no schema-interface extension, no describe_skill; its skill takes application/json",
		Checks: []cc.Check{
			{Rows: []string{"SI-9.14a"}, Expect: "no describe_skill and no request object or Schema Reference sent; the reply's governance.schemas is empty",
				Judge: func(o *cc.Observation) cc.Judgement {
					g, j := answer(o)
					if j != nil {
						return *j
					}
					for _, r := range siRequests(o) {
						if r.kind == "describe" || r.data["interface_digest"] != nil || r.data["skill_version"] != nil {
							return cc.Fail(fmt.Sprintf("%s sent to a non-conforming agent: %s", r.kind, partsText(r.msg)), r.ex)
						}
					}
					var ss []string
					for _, s := range g.Schemas {
						ss = append(ss, string(s))
					}
					return cc.Judge(len(g.Schemas) == 0, fmt.Sprintf("schemas derived or attached: %v", ss), lastEx(o))
				}},
			{Rows: []string{"SI-9.14b"}, Expect: "the reply's governance.schema_governed is false: no schema-interface conformance claimed for the invocation",
				Judge: func(o *cc.Observation) cc.Judgement {
					g, j := answer(o)
					if j != nil {
						return *j
					}
					return cc.Judge(!g.SchemaGoverned, fmt.Sprintf("schema_governed %v", g.SchemaGoverned), lastEx(o))
				}},
		}}}
}

// siSends are the message sends the client made (SendMessage, SendStreamingMessage, message:send, message:stream).
func siSends(o *cc.Observation) []siReq {
	var out []siReq
	for _, r := range siRequests(o) {
		if slices.Contains([]string{a2a.MethodSendMessage, a2a.MethodSendStreamingMessage, "message:send", "message:stream"}, r.method) {
			out = append(out, r)
		}
	}
	return out
}

// siWatchedStandin names the stand-in whose document's $ref names a URL on a listener the harness watches.
const siWatchedStandin = "external-ref-watched"

// SIRetrieval (SI-6.9a: "Validators MUST perform schema and instance validation with network and filesystem schema
// retrieval disabled"): the worked example whose condition.unit is a $ref to a loopback URL outside the proxy; the
// client receives it (describe_skill), never requests that URL, and refuses the document as interface_invalid
// (SI-6.11b: its validation would need an external retrieval).
func SIRetrieval() []cc.Scenario {
	return []cc.Scenario{{ID: "si.invoke.external-ref-watched", Document: siDoc, Role: SIStandinRole + siWatchedStandin, Action: cc.ActionInvoke,
		Skill: sic.ExampleSkill, Arguments: siExampleArguments(), Control: siClean,
		Description: "the worked example whose condition.unit is a $ref to a URL on a second loopback listener the harness watches (digests coherent)",
		Checks: []cc.Check{siSawDescribe("SI-6.9a", "SI-6.11b"), {Rows: []string{"SI-6.9a"}, Expect: "no request reaches the URL the $ref names",
			Judge: func(o *cc.Observation) cc.Judgement {
				return cc.Judge(o.Watched == 0, fmt.Sprintf("%d requests reached the watched listener; %s", o.Watched, o.Describe()), lastEx(o))
			}},
			// SI-6.11b, as the self-check grades it on the same document: validation would need the retrieval.
			siRefusedNoDomain("SI-6.11b"), siReason(skiface.InterfaceInvalid, "SI-6.11b")}}}
}

// siAt are the requests the client sent to the scenario's first (downstream false) or second target.
func siAt(o *cc.Observation, second bool) []siReq {
	var out []siReq
	for _, r := range siRequests(o) {
		if r.ex.Downstream == second {
			out = append(out, r)
		}
	}
	return out
}

func siCount(rs []siReq, kind string) int {
	n := 0
	for _, r := range rs {
		if r.kind == kind {
			n++
		}
	}
	return n
}

// siTaskLookups are the GetTask requests among rs (JSON-RPC GetTask, or HTTP+JSON GET …/tasks/{id}).
func siTaskLookups(rs []siReq) int {
	n := 0
	for _, r := range rs {
		if r.method == a2a.MethodGetTask || r.ex.Method == http.MethodGet && strings.Contains(r.ex.Path, "/tasks/") {
			n++
		}
	}
	return n
}

// SITwoTargets are the scenarios in which one client process meets two targets (EXTCONF_CARD_URLS): the same
// skill, version and digest at both (SI-9.61b: the document validated at the first is no licence to delegate at
// the second without its describe_skill), and two endpoints issuing the same task id (SI-6.2: each later look-up
// goes to the endpoint that issued the task). A client that contacts only the first card does not use the
// contract's EXTCONF_CARD_URLS: the rows read not-tested.
func SITwoTargets() []cc.Scenario {
	args := siExampleArguments()
	both := func(o *cc.Observation) (first, second []siReq, j *cc.Judgement) {
		first, second = siAt(o, false), siAt(o, true)
		switch {
		case siCount(first, "domain") == 0:
			b := cc.Block("positive control failed: the client delegates at the first target — " + o.Describe())
			return nil, nil, &b
		case len(second) == 0:
			u := cc.Unanswered("the client contacted only the first card: it does not invoke at each card of " + cc.EnvCardURLs)
			return nil, nil, &u
		}
		return first, second, nil
	}
	return []cc.Scenario{
		{ID: "si.invoke.two-targets", Document: siDoc, Role: SIStandinRole + "example", Downstream: SIStandinRole + "example", Action: cc.ActionInvoke,
			Skill: sic.ExampleSkill, Arguments: args, Control: siClean,
			Description: "two targets advertising the same skill, skill_version and interface_digest, invoked one after the other by one client process",
			Checks: []cc.Check{{Rows: []string{"SI-9.61b"}, Expect: "the second target's domain-skill request follows that target's own describe_skill",
				Judge: func(o *cc.Observation) cc.Judgement {
					_, second, j := both(o)
					if j != nil {
						return *j
					}
					for _, r := range second {
						switch r.kind {
						case "describe":
							return cc.Pass("describe_skill at the second target before its domain-skill request", r.ex)
						case "domain":
							return cc.Fail("the domain-skill request reached the second target with no describe_skill of its own before it (a document cached from the first target reused)", r.ex)
						}
					}
					return cc.Block("positive control failed: the client delegates at the second target — " + o.Describe())
				}}}},
		{ID: "si.invoke.same-task-id", Document: siDoc, Role: SIStandinRole + "example-task-123", Downstream: SIStandinRole + "example-task-123", Action: cc.ActionInvoke,
			Skill: sic.ExampleSkill, Arguments: args, Control: siClean, Env: map[string]string{cc.EnvRefresh: "1"},
			Description: "two endpoints that both issue task id task-123; afterwards the client looks each task up once more (" + cc.EnvRefresh + ")",
			Checks: []cc.Check{{Rows: []string{"SI-6.2"}, Expect: "each endpoint receives a GetTask for the task it issued (task-123 at two endpoints is two tasks)",
				Judge: func(o *cc.Observation) cc.Judgement {
					first, second, j := both(o)
					if j != nil {
						return *j
					}
					if siCount(second, "domain") == 0 {
						return cc.Block("positive control failed: the client delegates at the second endpoint — " + o.Describe())
					}
					a, b := siTaskLookups(first), siTaskLookups(second)
					if a+b == 0 {
						return cc.Unanswered("the client looked no task up: it does not implement " + cc.EnvRefresh)
					}
					return cc.Judge(a > 0 && b > 0, fmt.Sprintf("GetTask at the first endpoint: %d, at the second: %d", a, b), lastEx(o))
				}}}},
	}
}
