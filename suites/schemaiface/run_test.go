package schemaiface_test

import (
	"encoding/json"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/catalog"
	"github.com/extconf/extconf/harness/harnesstest"
	"github.com/extconf/extconf/harness/target"
	mock "github.com/extconf/extconf/mockagents/schemaiface"
	"github.com/extconf/extconf/sabotage"
	"github.com/extconf/extconf/suites"
	"github.com/extconf/extconf/suites/schemaiface"
)

// run starts the reference agent with set on, lets edit change the target, and runs this suite only.
func run(t *testing.T, set sabotage.Set, edit func(*target.Target)) (map[string]harness.RowVerdict, *harness.Result) {
	t.Helper()
	return harnesstest.Run(t, mock.Start, set, edit, "schema-interface", harness.Options{
		Suites: []harness.Suite{schemaiface.Suite()}, Sabotage: set, Seed: 1})
}

// documentSuites are both suites of the document: the agent's (this package) and the reference client's.
func documentSuites() []harness.Suite {
	var ss []harness.Suite
	for _, s := range suites.All() {
		if s.Document == "schema-interface" {
			ss = append(ss, s)
		}
	}
	return ss
}

// agentRows are the rows this suite owns: subject agent or publisher.
func agentRows() map[string]catalog.Row {
	out := map[string]catalog.Row{}
	for _, r := range catalog.MustLoad().ByDocument("schema-interface") {
		if r.Subject != "client" {
			out[r.ID] = r
		}
	}
	return out
}

// Against the reference agent with its operator profile every agent row passes with assertions (or is
// unwitnessable by the catalog), and the suite stays fast.
func TestReferenceAgentPassesEveryRow(t *testing.T) {
	start := time.Now()
	rows, res := run(t, sabotage.Set{}, nil)
	for id, c := range agentRows() {
		r := rows[id]
		switch {
		case !c.Witnessable():
			if r.Verdict != harness.Unwitnessable {
				t.Errorf("%s: %s, want unwitnessable", id, r.Verdict)
			}
		case r.Verdict != harness.ExecutedPass || r.Assertions == 0:
			t.Errorf("%s: %s (%d assertions): %s", id, r.Verdict, r.Assertions, r.Detail)
		}
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("the suite took %s against the reference agent", d)
	}
	if os.Getenv("SI_TIMING") != "" {
		slowest(t, res)
	}
}

// A target without operator input: every gated row is blocked, naming what to supply; none passes.
func TestWithoutOperatorInputGatedRowsAreBlocked(t *testing.T) {
	rows, _ := run(t, sabotage.Set{}, func(tgt *target.Target) {
		tgt.Kind = target.KindURL
		tgt.Config = target.Config{}
	})
	for id, c := range agentRows() {
		if c.Witness != "gated" {
			continue
		}
		if r := rows[id]; r.Verdict != harness.Blocked || r.Detail == "" {
			t.Errorf("%s: %s (%s), want blocked with a reason", id, r.Verdict, r.Detail)
		}
	}
}

// SI_TOGGLE=<id> runs the suite against the agent with one toggle on and reports the targets' verdicts and the
// slowest specs (a development aid; the gate is falsify).
func TestOneToggle(t *testing.T) {
	id := os.Getenv("SI_TOGGLE")
	if id == "" {
		t.Skip("SI_TOGGLE not set")
	}
	tg, ok := sabotage.Lookup(id)
	if !ok {
		t.Fatalf("no toggle %s", id)
	}
	start := time.Now()
	var rows map[string]harness.RowVerdict
	var res *harness.Result
	if os.Getenv("SI_ALL") != "" { // both suites of the document
		set := sabotage.MustParse(tg.ID)
		rows, res = harnesstest.Run(t, mock.Start, set, nil, "schema-interface", harness.Options{Suites: documentSuites(), Sabotage: set, Seed: 1})
	} else {
		rows, res = run(t, sabotage.MustParse(tg.ID), nil)
	}
	t.Logf("run took %s", time.Since(start))
	for _, r := range tg.Targets {
		t.Logf("target %s: %s\n%s", r, rows[r].Verdict, rows[r].Detail)
	}
	slowest(t, res)
}

func slowest(t *testing.T, res *harness.Result) {
	srs := res.Report.SpecReports
	sort.Slice(srs, func(i, j int) bool { return srs[i].RunTime > srs[j].RunTime })
	for _, sr := range srs[:min(8, len(srs))] {
		t.Logf("%8s %s", sr.RunTime.Round(time.Millisecond), strings.TrimSpace(sr.FullText()))
	}
}

// An operator who supplies only the two principals, valid arguments for one skill the ordinary way
// (requests[<skill_id>]) and the names of the skills it keeps deliberately broken: wire and static rows run,
// gated rows needing more are blocked.
func TestWithCredentialsAndArgumentsOnly(t *testing.T) {
	rows, _ := run(t, sabotage.Set{}, func(tgt *target.Target) {
		var prof struct {
			Arguments map[string]json.RawMessage `json:"arguments"`
		}
		if err := json.Unmarshal([]byte(tgt.Config.Requests[schemaiface.ProfileKey][0]), &prof); err != nil {
			t.Fatal(err)
		}
		tgt.Kind = target.KindURL
		tgt.Config = target.Config{Principals: tgt.Config.Principals,
			Requests: map[string][]string{"evaluate_resource_condition": {string(prof.Arguments["evaluate_resource_condition"])},
				schemaiface.ProfileKey: {`{"unavailableSkill":"inventory_snapshot","corruptSkill":{"skill":"legacy_probe","arguments":{"target":"x"}}}`}}}
	})
	for id, c := range agentRows() {
		r := rows[id]
		switch c.Witness {
		case "gated":
			if r.Verdict != harness.Blocked && r.Verdict != harness.ExecutedPass {
				t.Errorf("%s (gated): %s %s", id, r.Verdict, r.Detail)
			}
		case "wire", "static":
			// A row that picks a kind of skill (an execute-mode one) the arguments given do not cover is blocked
			// naming that skill's arguments.
			onArgs := r.Verdict == harness.Blocked && strings.Contains(r.Detail, "documents.schema-interface.arguments.")
			if r.Verdict != harness.ExecutedPass && r.Verdict != harness.Inapplicable && !onArgs {
				t.Errorf("%s (%s): %s %s", id, c.Witness, r.Verdict, r.Detail)
			}
		}
	}
}

// latitude runs both suites of the document against the reference agent with the permitted other choice o on:
// no row may read executed-fail or not-tested (nor blocked: the agent supplies its whole profile), and
// mustPass rows must still pass with assertions (the latitude is exercised, not excused).
func latitude(t *testing.T, o mock.Options, mustPass ...string) map[string]harness.RowVerdict {
	t.Helper()
	set := sabotage.Set{}
	rows, _ := harnesstest.Run(t, mock.StartWith(o), set, nil, "schema-interface",
		harness.Options{Suites: documentSuites(), Sabotage: set, Seed: 1})
	for id, r := range rows {
		switch {
		case r.Verdict == harness.ExecutedFail && r.Advisory:
			// a latitude declining a SHOULD is an advisory finding (the falsification gate reads it so too)
		case r.Verdict == harness.ExecutedFail, r.Verdict == harness.NotTested, r.Verdict == harness.Blocked:
			t.Errorf("%s: %s: %s", id, r.Verdict, r.Detail)
		}
	}
	for _, id := range mustPass {
		if r := rows[id]; r.Verdict != harness.ExecutedPass || r.Assertions == 0 {
			t.Errorf("%s: %s (%d assertions), want executed-pass: %s", id, r.Verdict, r.Assertions, r.Detail)
		}
	}
	return rows
}

// Latitude a2a.lat.sync-only (for this agent: Options.SyncOnly): "The client MUST invoke the A2A Send Message or Send Streaming Message operation" — an
// agent whose card does not offer streaming is asked over SendMessage only (issue #18: it failed 22 rows).
func TestLatitudeSyncOnly(t *testing.T) {
	latitude(t, mock.Options{SyncOnly: true}, "SI-9.17a", "SI-9.17b", "SI-9.38a", "SI-9.38b", "SI-9.43b", "SI-8.13")
}

// Latitude si.lat.document-extra-members: the prose names the members a Skill Interface Document and a Schema
// Reference contain but never closes them ("A Schema Reference contains: …"); documents with a top-level
// description, Schema Reference titles and without interaction.cancellable pass every row (issue #18: SI-6.14,
// 8.1, 9.25a, 12.10a, 9.29a and ~16 client rows failed).
func TestLatitudeExtraDocumentMembers(t *testing.T) {
	latitude(t, mock.Options{ExtraMembers: true}, "SI-6.14", "SI-8.1", "SI-9.25a", "SI-12.10a", "SI-9.29a", "SI-2.2a")
}

// Latitude a2a.lat.plain-401 (for this agent: Options.Plain401): a pre-task error "MUST be carried using the error mechanism of the selected A2A protocol
// binding and SHOULD expose the same machine-readable code when that binding permits it" — a plain RFC 7235 401
// with WWW-Authenticate and no JSON body is such a refusal (issue #18: SI-8.7a, 12.5a, 9.48 failed).
func TestLatitudePlain401(t *testing.T) {
	latitude(t, mock.Options{Plain401: true}, "SI-8.7a", "SI-12.5a", "SI-12.8a", "SI-9.48")
}

// Latitude si.lat.upper-case-reasons: binding errors name the condition as an ErrorInfo reason in upper snake case
// (AUTHORIZATION_FAILED); the draft fixes the code's spelling only in a Task's error Data Part ("the Task's final
// status Message MUST contain exactly one Data Part whose data value has this form") (issue #18: SI-12.8a failed).
func TestLatitudeUpperCaseReasons(t *testing.T) {
	latitude(t, mock.Options{UpperReasons: true}, "SI-12.8a", "SI-12.3a", "SI-9.47")
}

// Latitude si.ecma-patterns: JSON Schema 2020-12 patterns are ECMA-262 ("The draft's dialect is JSON Schema"; its
// patterns "SHOULD be valid according to the regular expression dialect described in ECMA-262"); lookahead and
// \u escapes RE2 rejects must neither make the document interface_invalid nor a valid instance invalid (issue #18).
func TestLatitudeECMAPatterns(t *testing.T) {
	latitude(t, mock.Options{ECMAPatterns: true}, "SI-6.14", "SI-8.1", "SI-6.7", "SI-9.39", "SI-9.58a", "SI-9.37a")
}

// Latitude si.codeless-pre-task: a refusal before task creation "MUST be carried using the error mechanism of the
// selected A2A protocol binding and SHOULD expose the same machine-readable code when that binding permits it";
// an unadvertised skill and a caller without a skill grant refused by a codeless binding error pass (issue #18:
// SI-9.47, 9.52a/b, 12.8b, 9.50d failed).
func TestLatitudeCodelessPreTask(t *testing.T) {
	latitude(t, mock.Options{CodelessPreTask: true}, "SI-9.47", "SI-9.52a", "SI-9.52b", "SI-12.8b", "SI-9.48", "SI-8.7b")
}

// Latitude si.authorize-before-validate: only the binding comparison is ordered before argument validation
// ("Before validating arguments or invoking domain logic, the receiving agent MUST compare both values"); an agent
// that authorizes the named resource first refuses a request without resource_id with authorization_failed, so the
// invalid instances keep what authorization reads (issue #18: SI-9.34, 9.37a, 9.49a, 9.50b, 9.65b failed).
func TestLatitudeAuthorizeBeforeValidate(t *testing.T) {
	latitude(t, mock.Options{AuthorizeFirst: true}, "SI-9.34", "SI-9.37a", "SI-9.49a", "SI-9.50b", "SI-9.65b")
}

// Latitude si.payload-413: a request over the payload limit refused with HTTP 413 and the binding's error naming
// resource_limit_exceeded ("MUST report … through the applicable binding") enforces the limit (issue #18: SI-12.2h
// read 413 as not enforced).
func TestLatitudeStatus413(t *testing.T) {
	latitude(t, mock.Options{Status413: true}, "SI-12.2h", "SI-12.3a")
}

// Latitude si.describe-refused-to-b: the draft does not oblige an agent to serve describe_skill to every caller;
// the per-caller variant of SI-9.25b is skipped when principal B is refused (issue #18: SI-9.25b failed).
func TestLatitudeDescribeRefusedToB(t *testing.T) {
	latitude(t, mock.Options{DescribeRefusedToB: true}, "SI-9.25b")
}

// Latitude si.summary-artifact: a completed Task with an extra, unreferenced summary Artifact besides the primary
// result and its records; only Artifacts named after a declared kind or referenced by the result are records
// (issue #18: the extra Artifact was graded as a supporting record).
func TestLatitudeSummaryArtifact(t *testing.T) {
	latitude(t, mock.Options{SummaryArtifact: true}, "SI-8.13", "SI-9.41a", "SI-9.41b", "SI-9.41c", "SI-9.40", "SI-9.38b")
}

// Degraded interfaces the draft provides for ("If an advertised interface cannot currently be returned, the agent
// MUST report interface_unavailable"; a corrupt stored document gives interface_invalid) are read from the survey:
// an operator who does not name them in the profile gets no static or wire failure (issue #18: 32 static rows
// failed), and no row fails.
func TestDegradedSkillsReadFromSurvey(t *testing.T) {
	rows, _ := run(t, sabotage.Set{}, func(tgt *target.Target) {
		var prof map[string]json.RawMessage
		if err := json.Unmarshal([]byte(tgt.Config.Requests[schemaiface.ProfileKey][0]), &prof); err != nil {
			t.Fatal(err)
		}
		delete(prof, "unavailableSkill")
		delete(prof, "corruptSkill")
		delete(prof, "failedInitSkill")
		b, _ := json.Marshal(prof)
		tgt.Config.Requests[schemaiface.ProfileKey] = []string{string(b)}
	})
	for id, c := range agentRows() {
		r := rows[id]
		switch {
		case r.Verdict == harness.ExecutedFail || r.Verdict == harness.NotTested:
			t.Errorf("%s: %s: %s", id, r.Verdict, r.Detail)
		case id != "SI-10.1" && (c.Witness == "static" || c.Witness == "wire") && r.Verdict != harness.ExecutedPass && r.Verdict != harness.Inapplicable:
			t.Errorf("%s (%s): %s %s", id, c.Witness, r.Verdict, r.Detail)
		}
	}
	// The failed-at-start-up skill is the operator's word only (issue #40): without it SI-10.1 blocks naming it.
	if r := rows["SI-10.1"]; r.Verdict != harness.Blocked || !strings.Contains(r.Detail, "failedInitSkill") {
		t.Errorf("SI-10.1: %s %s", r.Verdict, r.Detail)
	}
}

// Latitude si.oneof-operations: "its input_schema MUST require an unambiguous operation selector, enumerate the
// permitted operations, and define any operation-specific input requirements" names no construct; a oneOf
// discriminated by operation const passes (issue #18: SI-8.4a/b read the root only).
func TestLatitudeOneOfOperations(t *testing.T) {
	latitude(t, mock.Options{OneOfOperations: true}, "SI-8.4a", "SI-8.4b", "SI-8.4c")
}

// Latitude si.nested-constraints: "The names, structures, and semantics of transmitted constraints are defined by
// the domain-specific input schema rather than by this framework": constraint members nested in the input and
// shown under other names in the output pass (issue #18: SI-8.10a, 9.67a–d assumed root members echoed in place).
func TestLatitudeNestedConstraints(t *testing.T) {
	latitude(t, mock.Options{NestedConstraints: true}, "SI-8.10a", "SI-8.11b", "SI-9.67a", "SI-9.67b", "SI-9.67c", "SI-9.67d", "SI-8.10b")
}

// Latitude si.lat.draft07-dialect: the document fixes no dialect and lets a validator use "a locally trusted copy
// of the meta-schema identified by the Schema Reference's dialect"; the harness holds draft-07, so a skill
// declaring it is compiled and graded like any other, nothing blocked (issue #40: rows were blocked).
func TestLatitudeDraft07Dialect(t *testing.T) {
	latitude(t, mock.Options{Draft07Propose: true}, "SI-6.7", "SI-12.1", "SI-6.14")
}

// A Schema Reference in a dialect the harness holds no trusted meta-schema for (draft-04) is the harness's policy
// ("A client agent applies policy for … dialects"), not an agent violation: rows that must compile it are blocked,
// none fails.
func TestUntrustedDialectBlocksNotFails(t *testing.T) {
	set := sabotage.Set{}
	rows, _ := harnesstest.Run(t, mock.StartWith(mock.Options{ProposeDialect: "http://json-schema.org/draft-04/schema#"}), set, nil, "schema-interface",
		harness.Options{Suites: []harness.Suite{schemaiface.Suite()}, Sabotage: set, Seed: 1})
	for id := range agentRows() {
		if r := rows[id]; r.Verdict == harness.ExecutedFail || r.Verdict == harness.NotTested {
			t.Errorf("%s: %s: %s", id, r.Verdict, r.Detail)
		}
	}
	if r := rows["SI-6.7"]; r.Verdict != harness.Blocked || !strings.Contains(r.Detail, "draft-04") {
		t.Errorf("SI-6.7: %s %s, want blocked naming the dialect", r.Verdict, r.Detail)
	}
}

// A conditional input declared absent makes its rows inapplicable, quoting the declaration (issue #22 item 4).
func TestDeclaredAbsentIsInapplicable(t *testing.T) {
	rows, _ := run(t, sabotage.Set{}, func(tgt *target.Target) {
		var p schemaiface.Profile
		if err := json.Unmarshal([]byte(tgt.Config.Requests[schemaiface.ProfileKey][0]), &p); err != nil {
			t.Fatal(err)
		}
		p.MultiOperation = nil
		b, _ := json.Marshal(p)
		tgt.Config.Requests[schemaiface.ProfileKey] = []string{string(b)}
		in := &schemaiface.Input{}
		in.Absent = map[string]string{"multiOperation": "none: no skill of this agent selects an operation"}
		tgt.Config.Inputs = map[string]any{"schema-interface": in}
	})
	for _, id := range []string{"SI-8.4a", "SI-8.4b", "SI-8.4c"} {
		r := rows[id]
		if r.Verdict != harness.Inapplicable || !strings.Contains(r.Detail, `the operator declares: documents.schema-interface.absent.multiOperation: "none: no skill`) {
			t.Errorf("%s: %s (%s), want inapplicable quoting the declaration", id, r.Verdict, r.Detail)
		}
	}
}
