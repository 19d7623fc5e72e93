package certify

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/extconf/extconf/harness/a2a"
	cc "github.com/extconf/extconf/harness/clientcert"
	"github.com/extconf/extconf/harness/verify"
	"github.com/extconf/extconf/refclients/skiface"
)

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
// instance_path is an RFC 6901 JSON Pointer to the invalid field. "Each entry MUST contain an instance_path
// identifying the invalid field using a JSON Pointer" names no base: the document's example ("/threshold" beside
// schema_path "/properties/threshold/type") reads it from the validated instance, the domain output, giving
// /result; read from the primary result Artifact's data value (the skill result object) the same field is
// /result/result. Both identify the invalid field, so both pass.
func siDetails() cc.Check {
	want := `each details[] entry has a non-empty RFC 6901 instance_path, one of them "/result" (from the domain output) or "/result/result" (from the skill result object)`
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
			ok = ok && (slices.Contains(paths, "/result") || slices.Contains(paths, "/result/result"))
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
