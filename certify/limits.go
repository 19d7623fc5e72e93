package certify

import (
	"fmt"
	"strings"

	cc "github.com/extconf/extconf/harness/clientcert"
	"github.com/extconf/extconf/refclients/skiface"
	sic "github.com/extconf/extconf/suites/schemaifaceclient"
)

// Bounds of what the limit scenarios serve: a client declaring a limit beyond them is not tested on it (the
// reason says so), never failed.
const (
	limMaxBytes = 16 << 20 // a padded schema or describe_skill answer
	limMaxDepth = 1000     // nesting or $ref hops declared (the over-limit document is about twice as deep)
	limMinBytes = 8 << 10  // below this, the worked example itself leaves no room for a within-limit control
)

// limitDeclare is the not-run reason of a client that declares no such limit: schema-interface 1.0 states no
// numeric minimum, so only a declared limit tells the harness what to serve.
func limitDeclare(member, what string) string {
	return fmt.Sprintf("the client declares no %s limit: schema-interface §12 requires one (\"An implementation MUST enforce limits on schema size, nesting, reference depth, reference cycles, compilation time, payload size, and cache consumption\") but \"Version 1.0 does not define numeric interoperability minima for these limits\", so the harness tests only a declared one — declare limits.%s in the version reply",
		what, member)
}

// SILimits are the resource-limit scenarios: per limit the client declares (its version reply's limits), a
// document well within it (the positive control) and one well beyond it, which the client must refuse before any
// domain-skill request (SI-12.2a–d, f), reporting resource_limit_exceeded locally (SI-12.3b). The margins (half
// the limit within; twice the limit and more beyond) absorb any reasonable way of counting bytes or depth, so a
// client is never failed for counting differently, nor for limits larger than a document it is not served.
func SILimits() []cc.Scenario {
	args := siExampleArguments()
	type dim struct {
		name, row, what, member string
		// fit returns the stand-in size within and beyond the declared limit, or why the limit cannot be tested.
		fit   func(l cc.Limits) (within, over int, why string)
		cycle bool
	}
	dims := []dim{
		{name: "schema-bytes", row: "SI-12.2a", what: "schema size", member: "schema_bytes",
			fit: func(l cc.Limits) (int, int, string) {
				within, over, why := byteSizes(l.SchemaBytes, "schema_bytes", "schema size", "the worked example", "schema", 2048)
				if why == "" && l.PayloadBytes > 0 && over+(8<<10) > l.PayloadBytes {
					return 0, 0, fmt.Sprintf("the declared payload limit (%d bytes) is below a document whose schema exceeds the declared schema size limit (%d bytes): the refusal could not be told from the payload limit's", l.PayloadBytes, l.SchemaBytes)
				}
				return within, over, why
			}},
		{name: "nesting", row: "SI-12.2b", what: "nesting", member: "nesting",
			fit: func(l cc.Limits) (int, int, string) {
				n := l.Nesting
				switch {
				case n == 0:
					return 0, 0, limitDeclare("nesting", "nesting")
				case n < 24:
					return 0, 0, fmt.Sprintf("the declared nesting limit (%d) is below the worked example's own depth plus a margin: no within-limit control can be served", n)
				case n > limMaxDepth:
					return 0, 0, fmt.Sprintf("the declared nesting limit (%d) is beyond what the harness serves (at most %d)", n, limMaxDepth)
				}
				return n / 2, 2*n + 16, ""
			}},
		{name: "ref-depth", row: "SI-12.2c", what: "reference depth", member: "reference_depth",
			fit: func(l cc.Limits) (int, int, string) {
				n := l.ReferenceDepth
				switch {
				case n == 0:
					return 0, 0, limitDeclare("reference_depth", "reference depth")
				case n > limMaxDepth:
					return 0, 0, fmt.Sprintf("the declared reference depth limit (%d) is beyond what the harness serves (at most %d)", n, limMaxDepth)
				}
				return max(n/2, 1), 2*n + 8, ""
			}},
		{name: "cycle", row: "SI-12.2d", what: "reference cycle", member: "reference_cycles", cycle: true,
			fit: func(l cc.Limits) (int, int, string) {
				if !l.ReferenceCycles {
					return 0, 0, limitDeclare("reference_cycles (true: it refuses $refs forming a cycle that consumes no instance)", "reference cycle")
				}
				return 0, 1, ""
			}},
		{name: "payload", row: "SI-12.2f", what: "payload size", member: "payload_bytes",
			fit: func(l cc.Limits) (int, int, string) {
				// the padding sits in the answer's task metadata: no schema grows
				return byteSizes(l.PayloadBytes, "payload_bytes", "payload", "the worked example's answer", "answer", 8192)
			}},
	}
	var out []cc.Scenario
	for _, d := range dims {
		d := d
		fitRole := func(over bool) func(id cc.Identity, sc *cc.Scenario) string {
			return func(id cc.Identity, sc *cc.Scenario) string {
				var l cc.Limits
				if id.Limits != nil {
					l = *id.Limits
				}
				within, beyond, why := d.fit(l)
				if why != "" {
					return why
				}
				n := max(within, 0)
				if over {
					n = beyond
				}
				sc.Role = fmt.Sprintf("%slimit:%s:%d", SIStandinRole, d.name, n)
				return ""
			}
		}
		base := cc.Scenario{Document: siDoc, Action: cc.ActionInvoke, Skill: sic.ExampleSkill, Arguments: args}
		within := base
		within.ID, within.Role = "si.limit."+d.name+".within", SIStandinRole+"limit:"+d.name+":within"
		within.Description = "the worked example with its " + d.what + " well within the client's declared limit: the positive control"
		within.Adapt = fitRole(false)
		over := base
		over.ID, over.Role = "si.limit."+d.name+".over", SIStandinRole+"limit:"+d.name+":over"
		over.Description = "the worked example with its " + d.what + " well beyond the client's declared limit (limits." + d.member + ")"
		if d.cycle {
			within.Description = "recursion through items (a $ref cycle that consumes the instance): the positive control"
			over.Description = "$refs forming a cycle that never consumes the instance (the client declares it refuses such cycles)"
		}
		over.Adapt, over.Control = fitRole(true), within.ID
		over.Checks = []cc.Check{siSawDescribe(d.row), siRefusedNoDomain(d.row), siLimitNotInput(d.row), siLimitCode()}
		out = append(out, within, over)
	}
	return out
}

// siLimitNotInput: the over-limit refusal does not blame the caller's input. The input is the worked example's own,
// which the served schema accepts (the limit aside: a "not" of a "not", a $ref chain, padding all leave it a
// string); input_invalid would say a valid interface rejected the instance (§ Machine-readable error conditions),
// i.e. the limit was never enforced on the schema and the validator tripped over it while validating.
func siLimitNotInput(row string) cc.Check {
	return cc.Check{Rows: []string{row}, Expect: "the refusal is not input_invalid: the client stops at the schema, not at the caller's (valid) input",
		Judge: func(o *cc.Observation) cc.Judgement {
			r := o.Reply()
			if r == nil || r.Outcome != cc.OutcomeRefused {
				return cc.Block("the client does not refuse (the refusal check judges that): " + o.Describe())
			}
			return cc.Judge(r.Reason != skiface.InputInvalid, o.Describe(), lastEx(o))
		}}
}

// siLimitCode (SI-12.3b): a limit refusal reports resource_limit_exceeded, as a local condition with no remote task.
func siLimitCode() cc.Check {
	return cc.Check{Rows: []string{"SI-12.3b"}, Expect: "the refusal reports " + skiface.ResourceLimitExceeded + " as a local condition (local true, no remote task)",
		Judge: func(o *cc.Observation) cc.Judgement {
			if len(siOf(o, "describe")) == 0 {
				return cc.Block("the client sent no describe_skill: it never received the over-limit document — " + o.Describe())
			}
			r := o.Reply()
			ok := r != nil && r.Outcome == cc.OutcomeRefused && r.Reason == skiface.ResourceLimitExceeded && r.Local && r.Task == nil
			local := r != nil && r.Local
			return cc.Judge(ok, fmt.Sprintf("%s; local %v", o.Describe(), local), lastEx(o))
		}}
}

// byteSizes is the within / over pair of sizes served for a declared byte limit n (within: half of it, less pad),
// or why the limit cannot be tested: undeclared, too small for the padded control, beyond what the harness serves.
func byteSizes(n int, member, what, control, served string, pad int) (within, over int, why string) {
	over = n + n/4 + 1024
	switch {
	case n == 0:
		return 0, 0, limitDeclare(member, strings.TrimSuffix(what, " size")+" size")
	case n < limMinBytes:
		return 0, 0, fmt.Sprintf("the declared %s limit (%d bytes) leaves no room for %s padded within it (the harness needs at least %d)", what, n, control, limMinBytes)
	case over > limMaxBytes:
		return 0, 0, fmt.Sprintf("the declared %s limit (%d bytes) is beyond what the harness serves (an over-limit %s of at most %d bytes)", what, n, served, limMaxBytes)
	}
	return n/2 - pad, over, ""
}
