package certify

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/catalog"
	cc "github.com/extconf/extconf/harness/clientcert"
	"github.com/extconf/extconf/harness/evidence"
	"github.com/extconf/extconf/mockagents"
	"github.com/extconf/extconf/sabotage"
	"github.com/extconf/extconf/suites"
)

var refclient string // the built cmd/refclient

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "refclient-")
	if err != nil {
		panic(err)
	}
	refclient = filepath.Join(dir, "refclient")
	if out, err := exec.Command("go", "build", "-o", refclient, "../cmd/refclient").CombinedOutput(); err != nil {
		panic(string(out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func certifyCmd(t *testing.T, command string) *cc.Result {
	t.Helper()
	return certifyCmdDocs(t, command, "schema-interface")
}

func certifyCmdDocs(t *testing.T, command string, docs ...string) *cc.Result {
	t.Helper()
	cat := catalog.MustLoad()
	o, err := Options(cat, cc.Driver{Command: command, Timeout: 30 * time.Second}, t.TempDir(), docs...)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cc.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// certifyScenarios certifies the client on the scenarios that grade rows (and the scenarios those name as their
// positive control), not the whole document: a row's verdict rests only on the checks naming it and on their
// controls, so a toggle's kill reads the same as in the whole run, at a fraction of its cost. Terms checks also
// compare peer scenarios: that document runs whole.
func certifyScenarios(t *testing.T, command, doc string, rows []string) *cc.Result {
	t.Helper()
	o, err := Options(catalog.MustLoad(), cc.Driver{Command: command, Timeout: 30 * time.Second}, t.TempDir(), doc)
	if err != nil {
		t.Fatal(err)
	}
	if doc != "terms" {
		keep := map[string]bool{}
		for _, s := range o.Scenarios {
			for _, c := range s.Checks {
				for _, r := range c.Rows {
					if slices.Contains(rows, r) {
						keep[s.ID] = true
					}
				}
			}
		}
		for changed := true; changed; { // controls, transitively
			changed = false
			for _, s := range o.Scenarios {
				if keep[s.ID] && s.Control != "" && !keep[s.Control] {
					keep[s.Control], changed = true, true
				}
			}
		}
		var scs []cc.Scenario
		for _, s := range o.Scenarios {
			if keep[s.ID] {
				scs = append(scs, s)
			}
		}
		o.Scenarios = scs
	}
	res, err := cc.Run(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func verdicts(res *cc.Result) map[string]harness.RowVerdict {
	m := map[string]harness.RowVerdict{}
	for _, v := range res.Rows {
		m[v.ID] = v
	}
	return m
}

// The reference client, behind the driver contract, passes every row a scenario grades; every other client row
// reads not-tested or inapplicable with a reason, never a pass.
func TestReferenceClientPasses(t *testing.T) {
	res := certifyCmdDocs(t, refclient) // every document
	if res.Status != "passed" {
		t.Errorf("status %s", res.Status)
	}
	if !strings.Contains(res.Client.Name, "reference client") || res.Client.Version == "" {
		t.Errorf("client identity %+v", res.Client)
	}
	if len(res.Checks) < 55 {
		t.Errorf("%d rows graded; the scenarios grade at least 55", len(res.Checks))
	}
	for _, a := range []string{cc.ActionInvoke, cc.ActionVerifyTerms, cc.ActionInterview, cc.ActionRelay} {
		if !slices.Contains(res.Client.Actions, a) {
			t.Errorf("the adapter does not declare the %s action: %v", a, res.Client.Actions)
		}
	}
	for _, v := range res.Rows {
		_, graded := res.Checks[v.ID]
		switch {
		case graded && v.Verdict != harness.ExecutedPass:
			t.Errorf("%s %s: %s", v.ID, v.Verdict, v.Detail)
		case !graded && (v.Verdict == harness.ExecutedPass || v.Detail == ""):
			t.Errorf("%s is graded by no scenario yet reads %s %q", v.ID, v.Verdict, v.Detail)
		}
	}
	for _, s := range res.Scenarios {
		if len(s.Observation.Exchanges) == 0 {
			t.Errorf("scenario %s recorded nothing", s.ID)
		}
	}
}

// The reference adapter certified through the driver contract gives every client row the verdict the self-check
// run gives it (runsuite run on the reference agents, the same rows reported as the harness's self-check), row by
// row: today every one of them (the rows whose mechanism lives inside the client through the contract's hooks). A row
// the contract does not reach would be listed in Unreached with its reason and read not-tested, never a pass; a row
// both listed and graded by a scenario is a stale entry.
func TestClientRunMatchesSelfCheck(t *testing.T) {
	cat := catalog.MustLoad()
	var ids []string
	for _, r := range Rows(cat) {
		ids = append(ids, r.ID)
	}
	tgt, err := mockagents.Start(sabotage.Set{})
	if err != nil {
		t.Fatal(err)
	}
	defer tgt.Close()
	self, err := harness.Run(context.Background(), tgt, harness.Options{Suites: suites.All(), Rows: ids, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	client := verdicts(certifyCmdDocs(t, refclient))
	graded := map[string]bool{}
	for _, s := range Scenarios() {
		for _, c := range s.Checks {
			for _, r := range c.Rows {
				graded[r] = true
			}
		}
	}
	un := Unreached()
	same, gaps := 0, 0
	for _, sv := range self.Rows {
		if !slices.Contains(ids, sv.ID) {
			continue
		}
		cv, ok := client[sv.ID]
		if !ok {
			t.Errorf("%s: the client run does not report it", sv.ID)
			continue
		}
		if u, listed := un[sv.ID]; listed {
			gaps++
			if graded[sv.ID] {
				t.Errorf("%s is graded by a scenario and still listed as unreached (%q): take it out of Unreached", sv.ID, u.Reason)
			}
			if cv.Verdict != harness.NotTested || cv.Detail != u.Reason {
				t.Errorf("%s: unreached by the contract, yet reads %s %q", sv.ID, cv.Verdict, cv.Detail)
			}
			continue
		}
		if cv.Verdict != sv.Verdict {
			t.Errorf("%s: client run %s (%s), self-check %s (%s)", sv.ID, cv.Verdict, firstLine(cv.Detail), sv.Verdict, firstLine(sv.Detail))
			continue
		}
		same++
	}
	if same+gaps != len(ids) {
		t.Errorf("%d rows compared of %d client rows", same+gaps, len(ids))
	}
	t.Logf("%d of %d client rows with the self-check's verdict through the contract, %d not reached by it (Unreached)", same, len(ids), gaps)
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// A client that declares the actions it implements is graded on those only: the rows of the others read
// inapplicable with the reason, their scenarios are not run, and neither the exit status (scope) nor the bundle's
// status counts them against it.
func TestDeclaredActionsScopeTheRun(t *testing.T) {
	res := certifyCmdDocs(t, refclient+" --actions relay")
	if res.Status != "passed" {
		t.Errorf("scope status %s", res.Status)
	}
	for _, r := range res.Rows {
		switch {
		case r.Document == "on-request" && r.Verdict != harness.ExecutedPass:
			t.Errorf("%s: %s %s", r.ID, r.Verdict, r.Detail)
		case r.Document != "on-request" && (r.Verdict != harness.Inapplicable || !strings.Contains(r.Detail, "does not implement the")):
			t.Errorf("%s reads %s %q for a client implementing relay only", r.ID, r.Verdict, r.Detail)
		}
	}
	for _, s := range res.Scenarios {
		if ran := len(s.Observation.Exchanges) > 0; ran != (s.Action == cc.ActionRelay) || (s.NotRun == "") != ran {
			t.Errorf("scenario %s (%s): ran %v, not run %q", s.ID, s.Action, ran, s.NotRun)
		}
	}
	b, _ := cc.Bundle(res, catalog.MustLoad(), nil, harness.Runner{Name: "ci", Tier: "self"})
	if b.Status != "passed" || b.Target.Client.ScopeStatus != "passed" || !slices.Equal(b.Target.Client.Actions, []string{cc.ActionRelay}) {
		t.Errorf("bundle status %s (%s), scope %s, actions %v", b.Status, b.StatusReason, b.Target.Client.ScopeStatus, b.Target.Client.Actions)
	}
}

// A client predating the contract's limits and display members (it declares no limits, shows nothing) is neither
// failed nor passed on the rows that need them: they read not-tested with a reason naming what to declare, the
// scope status rests on the rest, and the certification is incomplete.
func TestUndeclaredMembersReadNotTested(t *testing.T) {
	// It declares every action (no actions list) yet knows no invoke-base: it answers unsupported_action.
	cmd := `if [ "$EXTCONF_ACTION" = invoke-base ]; then echo '{"outcome":"refused","reason":"unsupported_action"}'; ` +
		`elif [ "$EXTCONF_ACTION" = version ]; then echo '{"name":"older client","version":"0"}'; else exec ` + refclient + ` --omit limits,display; fi`
	res := certifyCmdDocs(t, cmd, "schema-interface", "terms")
	// Its graded rows pass (scope passed), but MUST rows read not-tested: the certification is incomplete, never
	// passed, and names each one.
	if res.ScopeStatus != "passed" || res.Status != cc.StatusIncomplete || len(res.Untested) == 0 {
		t.Errorf("status %s, scope %s, untested %v", res.Status, res.ScopeStatus, res.Untested)
	}
	v := verdicts(res)
	for _, id := range []string{"SI-12.2a", "SI-12.2b", "SI-12.2c", "SI-12.2d", "SI-12.2f", "SI-12.3b"} {
		if v[id].Verdict != harness.NotTested || !strings.Contains(v[id].Detail, "declare limits.") {
			t.Errorf("%s: %s %q", id, v[id].Verdict, v[id].Detail)
		}
	}
	for id, want := range map[string]string{"SI-12.2e": `declare "hooks":["compile_budget"]`, "SI-12.2g": "declare limits.cache_entries", "SI-12.9a": `declare "hooks":["schema_copy"]`} {
		if v[id].Verdict != harness.NotTested || !strings.Contains(v[id].Detail, want) {
			t.Errorf("%s: %s %q (want not-tested naming %q)", id, v[id].Verdict, v[id].Detail, want)
		}
	}
	for _, id := range []string{"TE-7.1a", "TE-7.1b", "TE-7.1c", "TE-7.2a", "TE-7.2b", "TE-7.4b"} {
		if v[id].Verdict != harness.NotTested || !strings.Contains(v[id].Detail, "carries no display") {
			t.Errorf("%s: %s %q", id, v[id].Verdict, v[id].Detail)
		}
	}
	for _, id := range []string{"SI-9.14a", "SI-9.14b"} {
		if v[id].Verdict != harness.NotTested || !strings.Contains(v[id].Detail, "does not know the invoke-base action") {
			t.Errorf("%s: %s %q", id, v[id].Verdict, v[id].Detail)
		}
	}
	if v["TE-7.4a"].Verdict != harness.ExecutedPass { // graded on the outcome and verified list, which every client gives
		t.Errorf("TE-7.4a: %s %s", v["TE-7.4a"].Verdict, v["TE-7.4a"].Detail)
	}
	b, _ := cc.Bundle(res, catalog.MustLoad(), nil, harness.Runner{Name: "ci", Tier: "self"})
	if b.Target.Client.ScopeStatus != "passed" {
		t.Errorf("bundle scope status %s", b.Target.Client.ScopeStatus)
	}
}

// A client whose (conforming) limits are larger than the reference client's declares them and is served larger
// documents: it passes, never failed for limits it does not have to have.
func TestLargerDeclaredLimitsPass(t *testing.T) {
	res := certifyCmd(t, refclient+" --limits schema_bytes=2097152,reference_depth=64,payload_bytes=8388608,nesting=200")
	v := verdicts(res)
	for _, id := range []string{"SI-12.2a", "SI-12.2b", "SI-12.2c", "SI-12.2d", "SI-12.2f", "SI-12.3b"} {
		if v[id].Verdict != harness.ExecutedPass {
			t.Errorf("%s: %s %s", id, v[id].Verdict, v[id].Detail)
		}
	}
	for _, s := range res.Scenarios {
		if s.ID == "si.limit.nesting.over" && !strings.HasSuffix(s.Role, ":416") {
			t.Errorf("the nesting scenario served %s for a declared 200", s.Role)
		}
	}
}

// A client that ignores digest mismatches (the adapter's --ignore-digest) fails the digest rows: it sends the
// domain-skill request after a describe_skill answer whose document does not match its digests.
func TestIgnoreDigestFails(t *testing.T) {
	res := certifyCmd(t, refclient+" --ignore-digest")
	if res.Status != "failed" {
		t.Errorf("status %s", res.Status)
	}
	v := verdicts(res)
	for _, id := range []string{"SI-2.2b", "SI-9.22", "SI-12.11c"} {
		if v[id].Verdict != harness.ExecutedFail {
			t.Errorf("%s reads %s: %s", id, v[id].Verdict, v[id].Detail)
		}
	}
	if v["SI-9.3a"].Verdict != harness.ExecutedPass {
		t.Errorf("collateral: SI-9.3a %s", v["SI-9.3a"].Verdict)
	}
}

// clientSweepSubset is the default run of the client sweep: one toggle per scenario family, so every way the
// contract reaches a client (what it sends, what it does after a sabotaged describe_skill answer, a stand-in's
// document, the output, a local condition, the caller's policy, a declared limit, the two-target and delegate
// actions, invoke-base, and each other document's action) is falsified in every go test run. The hooks have their
// own (TestHooksBrokenClientFails). EXTCONF_CLIENT_SWEEP=1 runs every toggle.
var clientSweepSubset = map[sabotage.ID]string{
	sabotage.SIClientNoActivationHeader:            "si.invoke.clean: what the client puts on the wire",
	sabotage.SIClientDelegateAfterInvalid:          "si.invoke.describe-*: after a sabotaged describe_skill answer",
	sabotage.SIClientSkipSchemaDigest:              "si.invoke stand-ins: the embedded-digest document (SI-9.55b)",
	sabotage.SIClientSkipOutputValidation:          "si.invoke.output-*: after an invalid output",
	sabotage.SIClientUnadvertisedWrongCode:         "si.invoke.unadvertised-skill: a local condition",
	sabotage.SIClientAuthorityAsPermission:         "si.invoke.policy-*: the caller's local policy",
	sabotage.SIClientNoLimitNesting:                "si.limit.*: a declared validator limit",
	sabotage.SIClientGlobalTaskIDKeying:            "si.invoke two targets (EXTCONF_CARD_URLS)",
	sabotage.SIComposeIgnoreDigest:                 "si.delegate.*: composition",
	sabotage.SIClientClaimConformanceNonconforming: "si.invoke-base: a base A2A agent",
	sabotage.TermsClientAcceptsUnsigned:            "terms verify-terms",
	sabotage.TermsClientHashesRawBytes:             "terms verify-terms: a toggle breaking the positive control",
	sabotage.IVSelfTierUpgraded:                    "interview",
	sabotage.ORClientRelaysDeferredAsDone:          "on-request relay",
}

// Every client-side toggle of the reference client that targets a row the scenarios grade kills it through the
// contract (every document with a client action): the row fails, or — for a row whose evidence is a member the
// client does not give — reads not-tested naming what to declare; never a pass. Each toggle runs the scenarios
// grading its targets (certifyScenarios). clientSweepSubset by default; EXTCONF_CLIENT_SWEEP=1 runs every one:
//
//	EXTCONF_CLIENT_SWEEP=1 go test ./certify -run TestClientTogglesKillGradedRows -count=1 -timeout 60m -v
func TestClientTogglesKillGradedRows(t *testing.T) {
	graded := map[string]bool{}
	for _, s := range Scenarios() {
		for _, c := range s.Checks {
			for _, r := range c.Rows {
				graded[r] = true
			}
		}
	}
	// Toggles whose break the contract cannot tell from a correct refusal: the broken client still refuses the
	// same sabotaged answer, for another reason it also checks, and nothing different reaches the proxy.
	indistinguishable := map[sabotage.ID]string{
		sabotage.SIClientAcceptOtherVersionDocument: "the 1.1 document's digest differs from the advertised one: the digest check refuses it",
		sabotage.TermsClientEngagesOnCardSummary:    "the engage gate is not part of the verify-terms reply: the client still reports terms not stated",
		sabotage.TermsClientRefusesAgentOnFailure:   "whether the client still deals with the agent after a failed entry is not part of the verify-terms reply: its outcome, verified list and display equal the card without the entry",
		sabotage.TermsClientUsesUnverifiedDocument:  "the unverified document's prices reach the reference consumer's internal view (for ranking), not its verified list or its display, which the contract carries",
	}
	// Targets of a toggle the contract cannot tell apart, while it kills the toggle's others.
	partly := map[sabotage.ID]map[string]string{
		sabotage.SIClientAcceptOtherSkillDocument: {"SI-9.62c": "the other-version document's digest differs from the advertised one: the digest check refuses it (SI-12.11a, on the other-skill stand-in, is killed)"},
	}
	// Toggles that break the client's positive control (it rejects the good proposals, the correct agent's
	// document): their targets read blocked, and the run fails on the control's rows.
	controlBreakers := map[sabotage.ID]bool{sabotage.TermsClientHashesRawBytes: true, sabotage.TermsClientHashesWithoutSignatures: true,
		sabotage.SIClientDigestRawBytes: true} // the reference agent serves its documents in bytes other than JCS
	sweep := os.Getenv("EXTCONF_CLIENT_SWEEP") != ""
	for id := range clientSweepSubset {
		if _, ok := sabotage.Lookup(string(id)); !ok {
			t.Errorf("clientSweepSubset names %s, which is not registered", id)
		}
	}
	ran, killed := 0, 0
	for _, tg := range sabotage.All() {
		if tg.Side != sabotage.SideClient || Actions[tg.Document] == "" {
			continue
		}
		var targets []string
		for _, r := range tg.Targets {
			if _, untold := partly[tg.ID][r]; graded[r] && !untold {
				targets = append(targets, r)
			}
		}
		if _, ok := indistinguishable[tg.ID]; ok {
			continue
		}
		if _, ok := clientSweepSubset[tg.ID]; len(targets) == 0 || (!ok && !sweep) {
			continue
		}
		ran++
		t.Run(string(tg.ID), func(t *testing.T) {
			res := certifyScenarios(t, refclient+" --sabotage "+string(tg.ID), tg.Document, targets)
			v := verdicts(res)
			if res.Status != "failed" {
				t.Errorf("status %s", res.Status)
			}
			for _, r := range targets {
				switch {
				case controlBreakers[tg.ID] && v[r].Verdict == harness.Blocked && strings.Contains(v[r].Detail, "positive control failed"):
				case v[r].Verdict == harness.NotTested && strings.Contains(v[r].Detail, "declare"):
				case v[r].Verdict != harness.ExecutedFail:
					t.Errorf("%s survived: %s %s", r, v[r].Verdict, v[r].Detail)
				}
			}
			if !t.Failed() {
				killed++
			}
		})
	}
	t.Logf("client sweep: %d toggles run through the contract, %d killed every graded target (%d indistinguishable from outside, listed)", ran, killed, len(indistinguishable))
}

// A client that prints no reply line gets no pass: every graded row is blocked or failed.
func TestSilentClientGetsNoPass(t *testing.T) {
	res := certifyCmd(t, "true")
	for _, v := range res.Rows {
		if v.Verdict == harness.ExecutedPass {
			t.Errorf("%s passes for a client that does nothing", v.ID)
		}
	}
	if res.Status == "passed" {
		t.Error("status passed")
	}
}

// A client built on someone else's SDK (interop/js/siclient.mjs on @a2a-js/sdk 1.3.0) is graded by the same
// machinery: it puts the right requests on the wire and checks digests, and it validates no instance against the
// document's schemas, which the certification shows. Skipped without node or interop/js/node_modules (npm ci),
// except under CI=true.
func TestNodeSDKClient(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil || !exists("../interop/js/node_modules/@a2a-js/sdk") {
		if os.Getenv("CI") == "true" {
			t.Fatal("node or interop/js/node_modules missing under CI (run npm ci in interop/js)")
		}
		t.Skip("node or interop/js/node_modules missing (run npm ci in interop/js)")
	}
	res := certifyCmdDocs(t, `NODE_EXTRA_CA_CERTS="$EXTCONF_CA_FILE" node ../interop/js/siclient.mjs`) // every document
	if !strings.Contains(res.Client.Name, "@a2a-js/sdk") || !slices.Equal(res.Client.Actions, []string{cc.ActionInvoke}) {
		t.Errorf("identity %+v", res.Client)
	}
	v := verdicts(res)
	// The subset it implements is graded; the rest reads inapplicable with the reason, never a pass, and does not
	// make the bundle's status fail as if the client were defective.
	for _, r := range res.Rows {
		if r.Document != "schema-interface" && (r.Verdict != harness.Inapplicable || !strings.Contains(r.Detail, "does not implement the")) {
			t.Errorf("%s (%s) reads %s %q; a client implementing invoke only", r.ID, r.Document, r.Verdict, r.Detail)
		}
	}
	for _, id := range []string{"SI-6.1", "SI-6.3", "SI-9.63", "SI-9.64a", "SI-9.66", "SI-9.68b"} { // the delegate action
		if v[id].Verdict != harness.Inapplicable {
			t.Errorf("%s: %s (the client does not implement the delegate action)", id, v[id].Verdict)
		}
	}
	for _, s := range res.Scenarios {
		// fitted to declared limits and offered hooks: this client declares none
		limit := strings.HasPrefix(s.ID, "si.limit.") || strings.HasPrefix(s.ID, "si.integrity.")
		if (s.Action == cc.ActionInvoke && !limit) != (s.NotRun == "") || limit && !strings.Contains(s.NotRun, "declares no") && !strings.Contains(s.NotRun, "offers no") {
			t.Errorf("scenario %s (%s): not run %q", s.ID, s.Action, s.NotRun)
		}
	}
	// It declares no validator limits: the limit rows read not-tested naming the member to declare, and the run's
	// status does not count them.
	for _, id := range []string{"SI-12.2a", "SI-12.2b", "SI-12.2c", "SI-12.2d", "SI-12.2f", "SI-12.3b"} {
		if v[id].Verdict != harness.NotTested || !strings.Contains(v[id].Detail, "declare limits.") {
			t.Errorf("%s: %s %q (the client declares no limits)", id, v[id].Verdict, v[id].Detail)
		}
	}
	// Nor hooks: the rows whose mechanism lives inside the client read not-tested naming what to declare.
	for id, want := range map[string]string{"SI-12.2e": `declare "hooks":["compile_budget"]`, "SI-12.2g": "declare limits.cache_entries", "SI-12.9a": `declare "hooks":["schema_copy"]`} {
		if v[id].Verdict != harness.NotTested || !strings.Contains(v[id].Detail, want) {
			t.Errorf("%s: %s %q (the client offers no hook)", id, v[id].Verdict, v[id].Detail)
		}
	}
	for _, id := range []string{"SI-2.1c", "SI-2.2b", "SI-7.1b", "SI-8.2a", "SI-9.3a", "SI-9.3b", "SI-9.4", "SI-9.10a", "SI-9.16", "SI-9.22", "SI-9.31",
		"SI-9.44", "SI-9.52c", "SI-9.52d", "SI-12.4a", "SI-12.11a", "SI-12.11b"} {
		if v[id].Verdict != harness.ExecutedPass {
			t.Errorf("%s: %s %s", id, v[id].Verdict, v[id].Detail)
		}
	}
	for _, id := range []string{"SI-6.12a", "SI-8.9", "SI-9.59", "SI-9.60a", "SI-9.62d", "SI-12.10b"} { // no schema validation in this client
		if v[id].Verdict != harness.ExecutedFail {
			t.Errorf("%s: %s (the client validates no instance)", id, v[id].Verdict)
		}
	}
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

// A client run's bundle carries the client's identity, is signed and verified like any bundle, and an edited
// verdict is caught.
func TestClientBundleVerifies(t *testing.T) {
	cat := catalog.MustLoad()
	res := certifyCmd(t, refclient+" --ignore-digest")
	b, transcript := cc.Bundle(res, cat, []string{"schema-interface"}, harness.Runner{Name: "ci", Tier: "third-party"})
	if b.Target.Kind != evidence.TargetKindClient || b.Target.Client == nil || !strings.Contains(b.Target.Client.Version, "sabotage") {
		t.Fatalf("target %+v", b.Target)
	}
	key, err := evidence.GenerateKey("EdDSA")
	if err != nil {
		t.Fatal(err)
	}
	if err := evidence.Sign(b, key); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path, err := evidence.WriteDir(dir, b, transcript)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := evidence.VerifyBundle(path, evidence.VerifyOptions{Key: publicOf(t, key), KnownToggle: sabotage.Known, KnownLatitude: sabotage.KnownLatitude})
	if err != nil || !rep.OK() {
		t.Fatalf("verify: %v %v", err, rep.Problems())
	}
	if b.Target.Client.ScopeStatus != "failed" || b.Runner.Tier != "third-party" || !rep.Signature.Valid {
		t.Errorf("scope %s tier %s signature %+v", b.Target.Client.ScopeStatus, b.Runner.Tier, rep.Signature)
	}
	if strings.Contains(string(transcript), "Bearer ") {
		t.Error("the transcript carries the credential")
	}
	// The reports say whose rows these are: the client under test's, never a target's.
	var junit, html, sum strings.Builder
	if err := evidence.JUnit(&junit, b); err != nil {
		t.Fatal(err)
	}
	if err := evidence.HTML(&html, b, evidence.HTMLOptions{}); err != nil {
		t.Fatal(err)
	}
	evidence.Summary(&sum, b)
	for name, out := range map[string]string{"junit": junit.String(), "html": html.String(), "summary": sum.String()} {
		if !strings.Contains(out, "client under test") || strings.Contains(out, "about the target") {
			t.Errorf("%s: the client rows are not labelled as the client under test's", name)
		}
	}
	want := `name="schema-interface (client under test)"`
	if n := evidence.AgentName(b); n != "" {
		want = `name="schema-interface (client under test: ` + n + `)"`
	}
	if !strings.Contains(junit.String(), want) || !strings.Contains(junit.String(), `name="extconf.client.command"`) {
		t.Errorf("junit suites and properties do not name the client under test")
	}
	raw, _ := os.ReadFile(path)
	edited := strings.Replace(string(raw), `"verdict":"executed-fail"`, `"verdict":"executed-pass"`, 1)
	if edited == string(raw) {
		t.Fatal("no executed-fail row to edit")
	}
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err = evidence.VerifyBundle(path, evidence.VerifyOptions{KnownToggle: sabotage.Known, KnownLatitude: sabotage.KnownLatitude})
	if err != nil || rep.OK() {
		t.Fatalf("an edited verdict verifies: %v", err)
	}
}

func publicOf(t *testing.T, k *jose.JSONWebKey) *jose.JSONWebKey {
	pub := k.Public()
	return &pub
}
