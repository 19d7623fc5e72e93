package interview_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/extconf/extconf/fixtures/testpki"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/jsonptr"
	"github.com/extconf/extconf/harness/verify"
	ivmock "github.com/extconf/extconf/mockagents/interview"
	"github.com/extconf/extconf/refclients/interview"
	"github.com/extconf/extconf/sabotage"
)

func TestResolvePointer(t *testing.T) {
	doc, err := verify.DecodeJSONDoc([]byte(`{"a/b":{"m~n":[10,{"x":1.50}]},"":"empty","list":[0,1]}`))
	if err != nil {
		t.Fatal(err)
	}
	ok := map[string]string{
		"":               `{"":"empty","a/b":{"m~n":[10,{"x":1.5}]},"list":[0,1]}`,
		"/a~1b/m~0n/0":   `10`,
		"/a~1b/m~0n/1":   `{"x":1.5}`,
		"/":              `"empty"`,
		"/list/1":        `1`,
		"/a~1b/m~0n/1/x": `1.5`,
	}
	for ptr, want := range ok {
		v, err := jsonptr.Resolve(doc, ptr)
		if err != nil {
			t.Errorf("%q: %v", ptr, err)
			continue
		}
		got, _ := verify.CanonicalValue(v)
		if string(got) != want {
			t.Errorf("%q = %s, want %s", ptr, got, want)
		}
	}
	for _, bad := range []string{"a", "/list/01", "/list/2", "/list/-", "/nope", "/list/0/x", "/a~2b"} {
		if _, err := jsonptr.Resolve(doc, bad); err == nil {
			t.Errorf("%q resolved", bad)
		}
	}
}

func TestDecodeInterviewResult(t *testing.T) {
	a, r := interview.DecodeResult(json.RawMessage(`{"question":"terms","declared":false,"projections":[{"source":{"document":"card","member":"/name","note":"x"},"value":"n","comment":"c"}],"note":"hi"}`))
	if a == nil || r != nil || a.Malformed != "" || a.Declared == nil || *a.Declared {
		t.Fatalf("answer %+v refusal %+v", a, r)
	}
	if x := interview.Outside(a.Keys, interview.AnswerMembers); len(x) != 1 || x[0] != "note" {
		t.Errorf("extra answer members %q", x)
	}
	p := a.Projections[0]
	if x := interview.Outside(p.Keys, interview.ProjectionMembers); len(x) != 1 || x[0] != "comment" {
		t.Errorf("extra projection members %q", x)
	}
	if x := interview.Outside(p.SourceKeys, interview.SourceMembers); len(x) != 1 || x[0] != "note" {
		t.Errorf("extra source members %q", x)
	}
	_, r = interview.DecodeResult(json.RawMessage(`{"refused":true,"reason":"out_of_scope","detail":"d","declared_skills":["a","b"]}`))
	rep := &interview.Reply{Result: json.RawMessage(`{}`), Refusal: r}
	if why := interview.IsStandardRefusal(rep, []string{"b", "a"}); why != "" {
		t.Errorf("standard refusal rejected: %s", why)
	}
	if why := interview.IsStandardRefusal(rep, []string{"a"}); why == "" {
		t.Error("declared_skills naming an undeclared skill accepted")
	}
	if a, _ := interview.DecodeResult(json.RawMessage(`{"question":"x"}`)); a.Malformed == "" {
		t.Error("an answer without projections is not malformed")
	}
}

// start runs one reference agent with the given toggles and returns its card URL and a client trusting the CA.
func start(t *testing.T, role string, toggles ...sabotage.ID) (*ivmock.Agent, *a2a.Client) {
	t.Helper()
	a, err := ivmock.StartAgent(role, sabotage.MustParse(toggles...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.Server().Close)
	return a, a2a.NewClient(a2a.Options{RootCAs: testpki.CAPool()})
}

func keys(t *testing.T) *jose.JSONWebKeySet {
	var ks jose.JSONWebKeySet
	if err := json.Unmarshal(testpki.CardJWKS(), &ks); err != nil {
		t.Fatal(err)
	}
	return &ks
}

func TestInterviewConsistent(t *testing.T) {
	a, c := start(t, "interview")
	rep := interview.Run(context.Background(), c, a.Server().CardURL(), interview.Options{RunBy: interview.RunBy{Name: "lab", Tier: "third-party"}, Keys: keys(t)})
	var b bytes.Buffer
	rep.Render(&b)
	if rep.Outcome != interview.Consistent || rep.Reran || len(rep.Probes) != 2 {
		t.Fatalf("outcome %s reran %v\n%s", rep.Outcome, rep.Reran, b.String())
	}
	for _, p := range rep.Probes {
		if !p.Correct || p.CountedAs != "pass" {
			t.Errorf("probe %s: correct %v counted %s: %s", p.Name, p.Correct, p.CountedAs, p.Why)
		}
	}
	if rep.RunBy == nil || rep.RunBy.Name != "lab" || rep.Standing != "evidence" {
		t.Errorf("record: %+v standing %s", rep.RunBy, rep.Standing)
	}
	for _, want := range []string{"INTERVIEW RESULT: EVIDENCE", "run by: lab (tier third-party)", "interview/refusals", "counted as pass"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("rendering lacks %q:\n%s", want, b.String())
		}
	}
	if a.Model.Calls() != 0 {
		t.Errorf("the model ran %d times during an interview", a.Model.Calls())
	}
}

// TestInterviewChurn is §7 rule 3 against an agent whose card moves on between the verifier's fetch and its
// calls: the first diff conflicts, the re-run does not.
func TestInterviewChurn(t *testing.T) {
	a, c := start(t, "interview.churn")
	rep := interview.Run(context.Background(), c, a.Server().CardURL(), interview.Options{Keys: keys(t)})
	if len(rep.FirstDiff) == 0 || !rep.Reran || len(rep.Conflicts) != 0 || rep.Outcome != interview.Consistent {
		t.Fatalf("first %v reran %v persistent %v outcome %s", rep.FirstDiff, rep.Reran, rep.Conflicts, rep.Outcome)
	}
	a2, c2 := start(t, "interview.churn")
	rep = interview.Run(context.Background(), c2, a2.Server().CardURL(), interview.Options{Keys: keys(t), Set: sabotage.MustParse(sabotage.IVVerifierChurnAsPersistent)})
	if rep.Reran || len(rep.Conflicts) == 0 || rep.Outcome != interview.Inconsistent {
		t.Fatalf("sabotaged verifier: reran %v persistent %v outcome %s", rep.Reran, rep.Conflicts, rep.Outcome)
	}
}

func TestInterviewPersistentConflict(t *testing.T) {
	a, c := start(t, "interview", "iv.value-summarized")
	rep := interview.Run(context.Background(), c, a.Server().CardURL(), interview.Options{Keys: keys(t)})
	if !rep.Reran || len(rep.Conflicts) != 1 || rep.Conflicts[0].Kind != interview.ConflictValue || rep.Conflicts[0].Source.Member != "/skills/0/description" {
		t.Fatalf("reran %v conflicts %v", rep.Reran, rep.Conflicts)
	}
	a, c = start(t, "interview", "iv.terms-from-uncommitted-proposal")
	rep = interview.Run(context.Background(), c, a.Server().CardURL(), interview.Options{Keys: keys(t)})
	found := false
	for _, x := range rep.Conflicts {
		found = found || x.Kind == interview.ConflictUncommitted
	}
	if !found {
		t.Fatalf("an uncommitted proposal source is no conflict: %v", rep.Conflicts)
	}
}

func TestInterviewCardSignature(t *testing.T) {
	a, c := start(t, "interview")
	card, ex, err := c.FetchCard(context.Background(), a.Server().CardURL(), a2a.Call{})
	if err != nil || len(card.Signatures) == 0 {
		t.Fatal(err)
	}
	ctx := context.Background()
	// The card's jku on its own origin is enough; the operator's keys are not needed.
	if st, _, err := interview.CardSignature(ctx, c, a.Server().CardURL(), ex.ResponseBody, nil, sabotage.Set{}); err != nil {
		t.Fatalf("served card: %v", err)
	} else if !strings.HasPrefix(st, "verified") {
		t.Fatalf("status %q", st)
	}
	altered := bytes.Replace(ex.ResponseBody, []byte("Reconciles bank statements"), []byte("Reconciles all statements"), 1)
	if _, _, err := interview.CardSignature(ctx, c, a.Server().CardURL(), altered, keys(t), sabotage.Set{}); err == nil || !strings.Contains(err.Error(), verify.StepSignatureFailed) {
		t.Fatalf("altered card: %v", err)
	}
	if _, _, err := interview.CardSignature(ctx, c, a.Server().CardURL(), altered, keys(t), sabotage.MustParse(sabotage.IVVerifierSkipsCardSignature)); err != nil {
		t.Fatalf("the sabotaged verifier still checks: %v", err)
	}
}

func TestInterviewRecordAndApplicability(t *testing.T) {
	none := sabotage.Set{}
	lab, self := interview.RunBy{Name: "lab", Tier: "third-party"}, interview.RunBy{Name: "lab", Tier: "self"}
	if interview.Standing(self, "", none) != "claim" || interview.Standing(interview.RunBy{}, "", none) != "claim" ||
		interview.Standing(lab, "Stonework", none) != "evidence" {
		t.Error("standing by tier")
	}
	if interview.Standing(interview.RunBy{Tier: "third-party"}, "", none) != "claim" {
		t.Error("an unnamed third party is evidence")
	}
	if interview.Standing(interview.RunBy{Name: " stonework ", Tier: "third-party"}, "Stonework", none) != "claim" {
		t.Error("the provider's own run is evidence")
	}
	if interview.Standing(self, "", sabotage.MustParse(sabotage.IVSelfTierUpgraded)) != "evidence" {
		t.Error("iv.self-tier-upgraded has no effect")
	}
	card := &a2a.AgentCard{Capabilities: a2a.AgentCapabilities{Extensions: []a2a.AgentExtension{{URI: interview.URI + "/"}}}}
	ap := interview.Applies(card, none)
	if ap.Declared || ap.Verdict != "inapplicable" || strings.Contains(ap.Reason, "evad") {
		t.Errorf("a near-miss URI is read as %+v (URIs match exactly, absence states nothing)", ap)
	}
	if ap := interview.Applies(card, sabotage.MustParse(sabotage.IVAbsenceLowersScore)); ap.Verdict != "blocked" {
		t.Errorf("iv.absence-lowers-score: %+v", ap)
	}
	a, c := start(t, "interview")
	rep := interview.Run(context.Background(), c, a.Server().CardURL(), interview.Options{Keys: keys(t), Set: sabotage.MustParse(sabotage.IVResultOmitsRunner)})
	if rep.RunBy != nil {
		t.Errorf("iv.result-omits-runner kept %+v", rep.RunBy)
	}
	rep = interview.Run(context.Background(), c, a.Server().CardURL(), interview.Options{Keys: keys(t), Set: sabotage.MustParse(sabotage.IVRefusalCountedAsFailure)})
	if rep.Outcome != interview.Inconsistent || rep.Probes[0].CountedAs != "fail" {
		t.Errorf("iv.refusal-counted-as-failure: %s %s", rep.Outcome, rep.Probes[0].CountedAs)
	}
}

func TestInterviewWithoutTerms(t *testing.T) {
	a, c := start(t, "interview.noterms")
	rep := interview.Run(context.Background(), c, a.Server().CardURL(), interview.Options{Keys: keys(t)})
	if rep.Outcome != interview.Consistent {
		t.Fatalf("noterms agent: %s", rep.Outcome)
	}
	if r := rep.Reply("interview/terms"); r == nil || r.Answer == nil || r.Answer.Declared == nil || *r.Answer.Declared || len(r.Answer.Projections) != 0 {
		t.Fatalf("terms answer of an agent without terms: %s", r.Observed())
	}
}
