package certify

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/extconf/extconf/harness/a2a"
	cc "github.com/extconf/extconf/harness/clientcert"
	"github.com/extconf/extconf/refclients/skiface"
	sic "github.com/extconf/extconf/suites/schemaifaceclient"
)

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
