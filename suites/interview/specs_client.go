package interview

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/extconf/extconf/harness"
	"github.com/extconf/extconf/harness/a2a"
	"github.com/extconf/extconf/harness/evidence"
	"github.com/extconf/extconf/harness/target"
	vinterview "github.com/extconf/extconf/refclients/interview"
)

// The §8–§9 rows bind the harness itself: who ran an interview, what standing its result has, how absence and
// refusals are read. They are witnessed on the harness's own verifier (harness/verify) run live against the
// harness's interview counterpart (never the target: a self-check reads the same whatever the target is), and on
// its bundle and renderers fed a synthetic result.

var (
	selfRunner  = harness.Runner{Name: "vendor-self.example", Tier: "self"}
	thirdRunner = harness.Runner{Name: "conformance-lab.example", Tier: "third-party"}
)

func registerClientSpecs(e *harness.Env) {
	harness.Spec(e, "IV-8.1", "no harness surface presents a self-run result as evidence", func(w *harness.W) {
		const row = "IV-8.1"
		s := openCounterpart(w, row)
		tp := bundle(w, row, thirdRunner, nil)
		tp.Kind, tp.Signature = "evidence", &evidence.Signature{JWS: "synthetic", Thumbprint: "synthetic", Alg: "EdDSA"}
		faults := vinterview.RendererFaults(e.Sabotage)
		banner := evidence.StandingWith(tp, faults)
		w.Control(strings.HasPrefix(banner, "EVIDENCE"), "a signed third-party bundle's banner presents it as evidence", banner, nil)

		self := bundle(w, row, selfRunner, nil)
		banner = evidence.StandingWith(self, faults)
		w.Negative(strings.HasPrefix(banner, "CLAIM, NOT EVIDENCE") && !strings.HasPrefix(banner, "EVIDENCE"),
			"the banner of a self-run bundle says CLAIM, NOT EVIDENCE", banner, nil)
		var sum bytes.Buffer
		evidence.Summary(&sum, self)
		w.Negative(strings.Contains(sum.String(), "CLAIM, NOT EVIDENCE") && !strings.Contains(sum.String(), "\nEVIDENCE"),
			"the terminal summary of a self-run bundle says CLAIM, NOT EVIDENCE and never EVIDENCE", clip(sum.String(), 400), nil)

		var junit, html bytes.Buffer
		jerr, herr := evidence.JUnit(&junit, self), evidence.HTML(&html, self, evidence.HTMLOptions{})
		w.Negative(jerr == nil && strings.Contains(junit.String(), `value="CLAIM, NOT EVIDENCE`) && !strings.Contains(junit.String(), `name="extconf.kind" value="evidence"`),
			"the JUnit report of a self-run bundle carries standing CLAIM, NOT EVIDENCE and kind claim", fmt.Sprintf("%v %s", jerr, clip(junit.String(), 300)), nil)
		w.Negative(herr == nil && strings.Contains(html.String(), `class="banner claim"`) && !strings.Contains(html.String(), `class="banner evidence"`),
			"the HTML report of a self-run bundle shows the claim banner, never the evidence banner", fmt.Sprintf("%v %s", herr, clip(html.String(), 300)), nil)

		rep := s.procedure(vinterview.RunBy{Name: selfRunner.Name, Tier: selfRunner.Tier})
		var out bytes.Buffer
		rep.Render(&out)
		w.Negative(strings.Contains(out.String(), "CLAIM, NOT EVIDENCE") && !strings.Contains(out.String(), "RESULT: EVIDENCE"),
			"the interview verifier's own rendering of a self-run result says CLAIM, NOT EVIDENCE", firstLine(out.String()), s.cardEx)
	})

	harness.Spec(e, "IV-9.2a", "a card without the interview extension is read as not implementing it, never as a defect", func(w *harness.W) {
		const row = "IV-9.2a"
		s := openCounterpart(w, row)
		a := vinterview.Applies(s.card, e.Sabotage)
		w.Control(a.Declared, "the reference client reads the served card as declaring the interview", a.Reason, s.cardEx)
		absent, err := withoutInterview(s.card)
		if err != nil {
			w.Failf(s.cardEx, "the card re-encodes", "%v", err)
		}
		b := vinterview.Applies(absent, e.Sabotage)
		w.Negative(!b.Declared && b.Verdict == harness.Inapplicable,
			"the same card without the interview entry: the interview rows are inapplicable (never executed-fail or blocked)",
			fmt.Sprintf("declared %v, verdict %q", b.Declared, b.Verdict), s.cardEx)
		low := strings.ToLower(b.Reason)
		loaded := ""
		for _, word := range []string{"evad", "evasi", "defect", "missing", "refus", "fail"} {
			if strings.Contains(low, word) {
				loaded = word
			}
		}
		w.Negative(loaded == "" && strings.Contains(b.Reason, "does not declare"),
			"the reason says the card does not declare the extension, with no word of evasion or defect", fmt.Sprintf("%q (%q)", b.Reason, loaded), s.cardEx)
	})

	harness.Spec(e, "IV-9.2b", "absence of the interview extension changes no other verdict, total, exit status or listing", func(w *harness.W) {
		const row = "IV-9.2b"
		s := openCounterpart(w, row)
		absent, err := withoutInterview(s.card)
		if err != nil {
			w.Failf(s.cardEx, "the card re-encodes", "%v", err)
		}
		a := vinterview.Applies(absent, e.Sabotage)
		withRows := syntheticRows(e, "", "", "")
		absentRows := syntheticRows(e, a.Verdict, a.Reason, "")
		// Control: a failing row of another document moves both the same way, so the comparison can see a change.
		other := firstOtherRow(e)
		fw, fa := syntheticRows(e, "", "", other), syntheticRows(e, a.Verdict, a.Reason, other)
		w.Control(!harness.Passed(fw) && !harness.Passed(fa), "a failing "+other+" fails both runs alike",
			fmt.Sprintf("passed: declaring %v, absent %v", harness.Passed(fw), harness.Passed(fa)), nil)

		w.Negative(harness.Passed(withRows) == harness.Passed(absentRows),
			"the exit status of the agent without the extension equals that of the otherwise identical agent with it",
			fmt.Sprintf("passed: declaring %v, absent %v", harness.Passed(withRows), harness.Passed(absentRows)), nil)
		tw, ta := perDocument(withRows), perDocument(absentRows)
		var diffs []string
		for doc, t := range tw {
			if doc == "interview" {
				continue
			}
			if fmt.Sprint(t) != fmt.Sprint(ta[doc]) {
				diffs = append(diffs, fmt.Sprintf("%s: %v vs %v", doc, t, ta[doc]))
			}
		}
		w.Negative(len(diffs) == 0, "every other document keeps the same verdict totals", strings.Join(diffs, "; "), nil)
		bw, ba := bundle(w, row, selfRunner, withRows), bundle(w, row, selfRunner, absentRows)
		var sw, sa bytes.Buffer
		evidence.Summary(&sw, bw)
		evidence.Summary(&sa, ba)
		listed := strings.Contains(sa.String(), "\ninterview ") && len(ba.Target.Cards) == len(bw.Target.Cards)
		w.Negative(bw.Status == ba.Status && listed, "the bundle status is the same and the agent stays in the summary table and the target listing",
			fmt.Sprintf("status %s vs %s; interview listed in the summary: %v", bw.Status, ba.Status, listed), nil)
	})

	harness.Spec(e, "IV-9.3", "a closure probe that draws the standard refusal is counted as a correct response", func(w *harness.W) {
		const row = "IV-9.3"
		s := openCounterpart(w, row)
		rep := s.procedure(runBy(e))
		if len(rep.Probes) == 0 { // the target's doing (e.g. it implements no interview), not the verifier's
			w.Control(false, "the procedure reaches the closure probes (§8 step 4)", fmt.Sprintf("stopped: %s", rep.Outcome), s.cardEx)
		}
		correct := 0
		for _, p := range rep.Probes {
			if !p.Correct {
				continue // the agent's fault, judged by IV-6.1 and IV-6.3a; there is no correct refusal to count here
			}
			correct++
			w.Control(true, "the probe "+p.Name+" draws the standard refusal", "", p.Reply.Exchange)
			w.Negative(p.CountedAs == "pass", "the verifier counts the standard refusal as a correct response (pass), never a failure", "counted as "+p.CountedAs, p.Reply.Exchange)
		}
		if correct == 0 {
			w.Blocked("no closure probe drew the standard refusal, so how the verifier counts one cannot be shown against this agent (IV-6.1 and IV-6.3a judge the agent)")
		}
		probeFails := 0 // correct refusals the record counts against the agent
		for _, p := range rep.Probes {
			if p.Correct && p.CountedAs != "pass" {
				probeFails++
			}
		}
		other := rep.Failed - probeFails
		w.Negative(rep.Outcome == vinterview.Consistent || other > 0,
			"correct refusals lower no total: with nothing else failed, the recorded outcome is consistent",
			fmt.Sprintf("outcome %s (%d passed, %d failed, %d of them correct refusals)", rep.Outcome, rep.Passed, rep.Failed, probeFails), s.cardEx)
	})

	harness.Spec(e, "IV-9.4a", "every interview result the harness emits carries who ran it", func(w *harness.W) {
		const row = "IV-9.4a"
		s := openCounterpart(w, row)
		rep := s.procedure(vinterview.RunBy{Name: thirdRunner.Name, Tier: thirdRunner.Tier})
		ok := rep.RunBy != nil && rep.RunBy.Name == thirdRunner.Name && rep.RunBy.Tier == thirdRunner.Tier
		w.Check(ok, "the verifier's record names its runner "+thirdRunner.Name+" and tier third-party", fmt.Sprintf("%+v", rep.RunBy), s.cardEx)
		var out bytes.Buffer
		rep.Render(&out)
		w.Check(strings.Contains(out.String(), thirdRunner.Name) && strings.Contains(out.String(), "third-party"),
			"the verifier's rendering shows the runner and the tier", clip(out.String(), 300), s.cardEx)
		b := bundle(w, row, thirdRunner, nil)
		w.Check(b.Runner.Name == thirdRunner.Name && b.Runner.Tier == thirdRunner.Tier, "the bundle records the runner and tier",
			fmt.Sprintf("%+v", b.Runner), nil)
		var sum bytes.Buffer
		evidence.Summary(&sum, b)
		w.Check(strings.Contains(sum.String(), thirdRunner.Name) && strings.Contains(sum.String(), "third-party"),
			"the terminal summary shows the runner and the tier", clip(sum.String(), 300), nil)
		var junit, html bytes.Buffer
		jerr, herr := evidence.JUnit(&junit, b), evidence.HTML(&html, b, evidence.HTMLOptions{})
		w.Check(jerr == nil && strings.Contains(junit.String(), `name="extconf.runner" value="`+thirdRunner.Name+`"`) && strings.Contains(junit.String(), `name="extconf.tier" value="third-party"`),
			"the JUnit report's properties carry the runner and the tier", fmt.Sprintf("%v %s", jerr, clip(junit.String(), 300)), nil)
		w.Check(herr == nil && strings.Contains(html.String(), thirdRunner.Name) && strings.Contains(html.String(), "tier third-party"),
			"the HTML report shows the runner and the tier", fmt.Sprintf("%v", herr), nil)
	})

	harness.Spec(e, "IV-9.4b", "a self-run interview result is never recorded or presented as evidence", func(w *harness.W) {
		const row = "IV-9.4b"
		s := openCounterpart(w, row)
		provider := ""
		if s.card.Provider != nil {
			provider = s.card.Provider.Organization
		}
		third := vinterview.RunBy{Name: thirdRunner.Name, Tier: thirdRunner.Tier}
		w.Control(vinterview.Standing(third, provider, e.Sabotage) == "evidence", "a named third party's run is recorded as evidence", "", nil)
		rep := s.procedure(vinterview.RunBy{Name: selfRunner.Name, Tier: selfRunner.Tier})
		w.Negative(rep.Standing == "claim", "the verifier records a self-run interview with standing claim", "standing "+rep.Standing, s.cardEx)
		st := vinterview.Standing(vinterview.RunBy{}, provider, e.Sabotage)
		w.Negative(st == "claim", "a run with no runner and no stated tier is recorded as a claim, never upgraded", "standing "+st, nil)
		if provider != "" {
			st = vinterview.Standing(vinterview.RunBy{Name: provider, Tier: "third-party"}, provider, e.Sabotage)
			w.Negative(st == "claim", "a run by the card's own provider organization ("+provider+") is a claim even when it says third-party", "standing "+st, nil)
		}
		b := bundle(w, row, selfRunner, nil)
		w.Negative(b.Kind == "claim" && b.Runner.Tier == "self", "the bundle of a self run is kind claim with tier self",
			fmt.Sprintf("kind %s, tier %s", b.Kind, b.Runner.Tier), nil)
	})
}

// bundle builds the harness's own evidence bundle from a synthetic run by runner (rows nil: every witnessable row
// passed).
func bundle(w *harness.W, row string, runner harness.Runner, rows []harness.RowVerdict) *evidence.Bundle {
	e := w.Env()
	if rows == nil {
		rows = syntheticRows(e, "", "", "")
	}
	now := time.Now()
	res := &harness.Result{Rows: rows, Env: &harness.Env{Runner: runner}, Seed: 1, Started: now, Finished: now,
		Selection: harness.Selection{Documents: []string{}},
		Cards:     map[string]harness.CardSeen{roleMain: {URL: "https://127.0.0.1:1/.well-known/agent-card.json", SHA256: "sha256:" + strings.Repeat("0", 64)}}}
	b, err := evidence.New(res, &target.Target{Kind: target.KindURL}, []byte{}, nil)
	if err != nil {
		w.Failf(nil, "the harness builds a bundle from a run", "%v", err)
	}
	return b
}

// syntheticRows is one verdict per catalog row: witnessable rows pass, unwitnessable ones say so; the interview's
// witnessable rows take ivVerdict when given (the reading of an absent extension); fail marks one row failed.
func syntheticRows(e *harness.Env, ivVerdict, ivReason, fail string) []harness.RowVerdict {
	var out []harness.RowVerdict
	for _, r := range e.Catalog.Rows {
		v := harness.RowVerdict{ID: r.ID, Document: r.Document, Verdict: harness.ExecutedPass, Assertions: 1}
		switch {
		case !r.Witnessable():
			v.Verdict, v.Assertions, v.Detail = harness.Unwitnessable, 0, r.Why
		case r.Document == "interview" && ivVerdict != "":
			v.Verdict, v.Assertions, v.Detail = ivVerdict, 0, ivReason
		}
		if r.ID == fail {
			v.Verdict = harness.ExecutedFail
		}
		out = append(out, v)
	}
	return out
}

func firstOtherRow(e *harness.Env) string {
	for _, r := range e.Catalog.Rows {
		if r.Document != "interview" && r.Witnessable() {
			return r.ID
		}
	}
	return ""
}

func perDocument(rows []harness.RowVerdict) map[string]map[string]int {
	out := map[string]map[string]int{}
	for _, r := range rows {
		if out[r.Document] == nil {
			out[r.Document] = map[string]int{}
		}
		out[r.Document][r.Verdict]++
	}
	return out
}

// withoutInterview is the card with its interview entry removed: the otherwise identical agent that lacks it.
func withoutInterview(card *a2a.AgentCard) (*a2a.AgentCard, error) {
	b, err := json.Marshal(card)
	if err != nil {
		return nil, err
	}
	var c a2a.AgentCard
	if err := json.Unmarshal(b, &c); err != nil {
		return nil, err
	}
	var kept []a2a.AgentExtension
	for _, x := range c.Capabilities.Extensions {
		if x.URI != vinterview.URI {
			kept = append(kept, x)
		}
	}
	c.Capabilities.Extensions = kept
	return &c, nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func nonce() string {
	var b [5]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
